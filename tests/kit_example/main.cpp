// A downstream program that runs a gemmtune kit: every entry of the kit's table, and any problems named on the
// command line (MxNxK:dtype:layout, to exercise the nearest-shape rule), each checked against an Eigen double
// reference with gemmtune's bounds (max|gpu-ref|/max|ref|: f32 1e-5, f16 2e-3, bf16 8e-3, 2e-3 for weights in
// ggml's q8_0 / q4_0 blocks ("f16:q4_0": activations f16, B in blocks), 8-bit types exact).
// Prints one line a problem and exits 1 if any fails. KIT_DEVICE=text picks the first device whose name has it.
#include <volk.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gemm_kit.hpp"
#include "gemm_kit_vulkan.hpp"

namespace kit = KIT_NAMESPACE;

namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "kit_example: %s\n", what.c_str());
  std::exit(2);
}
void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) fail(std::string(what) + " failed: VkResult " + std::to_string(int(r)));
}

struct Context {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkPhysicalDeviceProperties props{};
  VkPhysicalDeviceMemoryProperties memory{};
  kit::kit::SubgroupControl subgroups;
  bool integer_dot_product = false;
  kit::kit::VulkanFunctions fns;
};

bool has_extension(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> all(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, all.data());
  for (const VkExtensionProperties& e : all)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

/// Instance, the device KIT_DEVICE names (or the first), and a device with every feature the kit's kernels may use
/// that the device has (as gemmtune enables them).
Context open_device() {
  Context c;
  check(volkInitialize(), "volkInitialize");
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  check(vkCreateInstance(&info, nullptr, &c.instance), "vkCreateInstance");
  volkLoadInstance(c.instance);
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(c.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(c.instance, &count, devices.data());
  const char* wanted = std::getenv("KIT_DEVICE");
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(d, &p);
    if (!wanted || std::strstr(p.deviceName, wanted)) {
      c.physical = d, c.props = p;
      break;
    }
  }
  if (!c.physical) fail(std::string("no Vulkan device") + (wanted ? std::string(" named like ") + wanted : ""));
  vkGetPhysicalDeviceMemoryProperties(c.physical, &c.memory);
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(c.physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> qf(families);
  vkGetPhysicalDeviceQueueFamilyProperties(c.physical, &families, qf.data());
  while (c.family < families && !(qf[c.family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++c.family;

  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  // The matrix-unit extensions' feature structs, by number: older Vulkan headers (Debian 12's) lack them. Each is
  // its sType, pNext and VkBool32 flags; the driver reads and writes the flags it knows.
  struct ExtensionFeatures {
    VkStructureType sType;
    void* pNext;
    VkBool32 flags[16];
  };
  ExtensionFeatures coop{VkStructureType(1000506000)}, bf16{VkStructureType(1000141000)},
      coop2{VkStructureType(1000593000)};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &v11, v11.pNext = &v12, v12.pNext = &v13;
  void** tail = &v13.pNext;
  std::vector<const char*> extensions;
  auto optional = [&](const char* name, auto& feature_struct) {
    if (!has_extension(c.physical, name)) return;
    extensions.push_back(name);
    *tail = &feature_struct;
    tail = &feature_struct.pNext;
  };
  optional("VK_KHR_cooperative_matrix", coop);
  optional("VK_KHR_shader_bfloat16", bf16);
  optional("VK_NV_cooperative_matrix2", coop2);
  vkGetPhysicalDeviceFeatures2(c.physical, &features);  // what the device has is what we enable
  features.features = VkPhysicalDeviceFeatures{};       // none of the 1.0 features (robust access among them)
  c.integer_dot_product = v13.shaderIntegerDotProduct;
  VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props2.pNext = &p13;
  vkGetPhysicalDeviceProperties2(c.physical, &props2);
  c.subgroups = {v13.subgroupSizeControl && v13.computeFullSubgroups &&
                     (p13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT),
                 p13.minSubgroupSize, p13.maxSubgroupSize};

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = c.family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo dinfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dinfo.pNext = &features;
  dinfo.queueCreateInfoCount = 1;
  dinfo.pQueueCreateInfos = &queue;
  dinfo.enabledExtensionCount = uint32_t(extensions.size());
  dinfo.ppEnabledExtensionNames = extensions.data();
  check(vkCreateDevice(c.physical, &dinfo, nullptr, &c.device), "vkCreateDevice");
  volkLoadDevice(c.device);
  vkGetDeviceQueue(c.device, c.family, 0, &c.queue);
  c.fns = {vkCreateShaderModule,   vkDestroyShaderModule,   vkCreateDescriptorSetLayout, vkDestroyDescriptorSetLayout,
           vkCreatePipelineLayout, vkDestroyPipelineLayout, vkCreateComputePipelines,    vkDestroyPipeline,
           vkCreateDescriptorPool, vkDestroyDescriptorPool, vkAllocateDescriptorSets,    vkUpdateDescriptorSets,
           vkCmdBindPipeline,      vkCmdBindDescriptorSets, vkCmdPushConstants,          vkCmdDispatch,
           vkCmdPipelineBarrier};
  return c;
}

/// A host-visible, coherent buffer (correctness, not speed: the kit's plans are what is under test).
struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
};
Buffer make_buffer(const Context& c, VkDeviceSize bytes) {
  Buffer b;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = (bytes + 256 + 15) / 16 * 16;  // room for 16-byte loads at the end
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  check(vkCreateBuffer(c.device, &info, nullptr, &b.buffer), "vkCreateBuffer");
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(c.device, b.buffer, &req);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (type < c.memory.memoryTypeCount &&
         (!(req.memoryTypeBits & (1u << type)) || (c.memory.memoryTypes[type].propertyFlags & want) != want))
    ++type;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  check(vkAllocateMemory(c.device, &alloc, nullptr, &b.memory), "vkAllocateMemory");
  check(vkBindBufferMemory(c.device, b.buffer, b.memory, 0), "vkBindBufferMemory");
  check(vkMapMemory(c.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
  std::memset(b.mapped, 0, size_t(info.size));
  return b;
}
void free_buffer(const Context& c, Buffer& b) {
  vkDestroyBuffer(c.device, b.buffer, nullptr);
  vkFreeMemory(c.device, b.memory, nullptr);
}

uint16_t to_half(float f) {  // round to nearest even; the inputs here are small and normal
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exponent = int32_t((x >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = x & 0x7fffffu;
  if (exponent <= 0) return uint16_t(sign);
  uint32_t h = sign | (uint32_t(exponent) << 10) | (mantissa >> 13);
  const uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return uint16_t(h);
}
float from_half(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu;
  const uint32_t x = exponent == 0 ? sign : sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
uint16_t to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
float from_bf16(uint16_t h) {
  const uint32_t x = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// A stored operand: `count` values in [-1, 1] (floats) or the type's range (8-bit), written into `out` in the
/// input type; returns them as doubles, as the device reads them.
std::vector<double> fill(std::mt19937& rng, const std::string& dtype, size_t count, bool is_a, void* out) {
  std::vector<double> values(count);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  const bool is_signed = dtype == "i8" || (dtype == "u8i8" && !is_a);
  std::uniform_int_distribution<int> integer(is_signed ? -128 : 0, is_signed ? 127 : 255);
  for (size_t i = 0; i < count; ++i) {
    if (dtype == "f32") {
      const float v = real(rng);
      static_cast<float*>(out)[i] = v, values[i] = v;
    } else if (dtype == "f16" || dtype == "bf16") {
      const uint16_t h = dtype == "f16" ? to_half(real(rng)) : to_bf16(real(rng));
      static_cast<uint16_t*>(out)[i] = h, values[i] = dtype == "f16" ? from_half(h) : from_bf16(h);
    } else {
      const int v = integer(rng);
      static_cast<uint8_t*>(out)[i] = uint8_t(v), values[i] = v;
    }
  }
  return values;
}

/// A weight in ggml's blocks (stored N x K, `count` = N x K values): 32 values a block, each block an f16 scale and
/// its codes (q8_0: 32 signed bytes; q4_0: 16 bytes of nibbles, byte j holding value j low and j + 16 high, each
/// offset by 8), written into `out`; returns the values (scale x code) as the device decodes them.
std::vector<double> fill_blocks(std::mt19937& rng, bool q8, size_t count, void* out) {
  std::vector<double> values(count);
  std::uniform_real_distribution<float> scale(1.0f / 1024.0f, 1.0f / 16.0f);
  std::uniform_int_distribution<int> code(q8 ? -128 : -8, q8 ? 127 : 7), sign(0, 1);
  uint8_t* bytes = static_cast<uint8_t*>(out);
  const size_t block_bytes = q8 ? 34 : 18;
  for (size_t b = 0; b < count / 32; ++b) {
    uint8_t* block = bytes + b * block_bytes;
    const uint16_t h = to_half(sign(rng) ? -scale(rng) : scale(rng));
    block[0] = uint8_t(h & 0xff), block[1] = uint8_t(h >> 8);
    for (size_t e = 0; e < 32; ++e) {
      const int q = code(rng);
      if (q8) {
        block[2 + e] = uint8_t(int8_t(q));
      } else {
        uint8_t& byte = block[2 + e % 16];
        byte = e < 16 ? uint8_t((byte & 0xf0) | (q + 8)) : uint8_t((byte & 0x0f) | ((q + 8) << 4));
      }
      values[b * 32 + e] = double(from_half(h)) * q;
    }
  }
  return values;
}

struct Problem {
  uint64_t m, n, k;
  std::string dtype, layout;
};

/// Runs the kit's plan for one packed problem; prints its line; returns whether it verified.
bool run_problem(const Context& c, VkCommandPool pool, const Problem& pr, std::mt19937& rng) {
  const bool ta = pr.layout[0] == 't', tb = pr.layout[1] == 't';
  const uint32_t bytes = kit::input_bytes(pr.dtype);  // of A; a quantized B is in blocks
  const size_t colon = pr.dtype.find(':');
  const std::string a_type = pr.dtype.substr(0, colon),
                    weights = colon == std::string::npos ? "" : pr.dtype.substr(colon + 1);
  const kit::KitPlan kp =
      kit::plan(kit::rules::packed(pr.m, pr.n, pr.k, ta, tb, bytes), pr.dtype, c.integer_dot_product);
  const std::string name =
      std::to_string(pr.m) + "x" + std::to_string(pr.n) + "x" + std::to_string(pr.k) + " " + pr.dtype + " " + pr.layout;
  if (!kp.config) {
    std::printf("%s: %s %s: not in the kit: FAILED\n", name.c_str(), std::string(kp.choice.rule).c_str(),
                kp.choice.config.c_str());
    return false;
  }
  const kit::rules::Plan& plan = kp.plan;
  // Blocks are 34 or 18 bytes: the buffer is padded to whole 32-bit words, which the kernels read.
  const size_t b_bytes =
      weights.empty() ? pr.k * pr.n * bytes : (pr.k * pr.n / 32 * (weights == "q8_0" ? 34 : 18) + 3) / 4 * 4;
  Buffer a = make_buffer(c, pr.m * pr.k * bytes), b = make_buffer(c, b_bytes);
  Buffer out = make_buffer(c, pr.m * pr.n * 4), bias = make_buffer(c, 16);
  Buffer scratch = make_buffer(c, plan.scratch_floats * 4), arrivals = make_buffer(c, plan.arrival_counters * 4);
  const std::vector<double> av = fill(rng, a_type, pr.m * pr.k, true, a.mapped);
  const std::vector<double> bv = weights.empty() ? fill(rng, pr.dtype, pr.k * pr.n, false, b.mapped)
                                                 : fill_blocks(rng, weights == "q8_0", pr.k * pr.n, b.mapped);

  kit::kit::PassPipeline pipelines[kit::rules::kMaxPasses];
  for (uint32_t i = 0; i < plan.pass_count; ++i) {
    const kit::KitModule& m = kit::kModules[plan.passes[i].module];
    const VkResult r =
        kit::kit::create_pass_pipeline(c.device, c.fns, plan.passes[i], {m.code, m.words}, c.subgroups, pipelines[i]);
    if (r != VK_SUCCESS) {  // a config this device cannot build (matrix units it lacks): this problem fails
      std::printf("%s: %s %s: pipeline of pass %u: VkResult %d: FAILED\n", name.c_str(),
                  std::string(kp.choice.rule).c_str(), kp.choice.config.c_str(), i, int(r));
      for (kit::kit::PassPipeline& p : pipelines) kit::kit::destroy_pass_pipeline(c.device, c.fns, p);
      for (Buffer* buf : {&a, &b, &out, &bias, &scratch, &arrivals}) free_buffer(c, *buf);
      return false;
    }
    kit::kit::bind_buffers(c.device, c.fns, pipelines[i],
                           {a.buffer, b.buffer, out.buffer, bias.buffer, scratch.buffer, arrivals.buffer});
  }
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  check(vkAllocateCommandBuffers(c.device, &alloc, &cmd), "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  kit::kit::record_plan(cmd, c.fns, plan, pipelines, c.props.limits.maxComputeWorkGroupCount);
  check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  check(vkQueueSubmit(c.queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  check(vkQueueWaitIdle(c.queue), "vkQueueWaitIdle");
  vkFreeCommandBuffers(c.device, pool, 1, &cmd);

  // op(A) (M x K) and op(B) (K x N) from their stored forms; the reference in double.
  Eigen::MatrixXd ma(pr.m, pr.k), mb(pr.k, pr.n);
  for (uint64_t i = 0; i < pr.m; ++i)
    for (uint64_t k = 0; k < pr.k; ++k) ma(i, k) = ta ? av[k * pr.m + i] : av[i * pr.k + k];
  for (uint64_t k = 0; k < pr.k; ++k)
    for (uint64_t j = 0; j < pr.n; ++j) mb(k, j) = tb ? bv[j * pr.k + k] : bv[k * pr.n + j];
  const Eigen::MatrixXd ref = ma * mb;
  const bool integer = pr.dtype == "i8" || pr.dtype == "u8" || pr.dtype == "u8i8";
  double worst = 0.0;
  for (uint64_t i = 0; i < pr.m; ++i)
    for (uint64_t j = 0; j < pr.n; ++j) {
      const double got = integer ? double(static_cast<const int32_t*>(out.mapped)[i * pr.n + j])
                                 : double(static_cast<const float*>(out.mapped)[i * pr.n + j]);
      worst = std::isfinite(got) ? std::max(worst, std::abs(got - ref(i, j))) : INFINITY;
    }
  const double scale = std::max(ref.cwiseAbs().maxCoeff(), 1e-30);
  const double error = integer ? worst : worst / scale;
  const double bound = integer ? 0.0 : pr.dtype == "f32" ? 1e-5 : pr.dtype == "bf16" ? 8e-3 : 2e-3;
  const bool ok = error <= bound;
  const auto& main_grid = plan.passes[plan.main_pass].grid;
  std::printf("%s: %s %s, %u pass%s, grid %llux%llux%llu, error %.3g / %.3g: %s\n", name.c_str(),
              std::string(kp.choice.rule).c_str(), kp.choice.config.c_str(), plan.pass_count,
              plan.pass_count > 1 ? "es" : "", (unsigned long long)main_grid[0], (unsigned long long)main_grid[1],
              (unsigned long long)main_grid[2], error, bound, ok ? "ok" : "FAILED");
  for (kit::kit::PassPipeline& p : pipelines) kit::kit::destroy_pass_pipeline(c.device, c.fns, p);
  for (Buffer* buf : {&a, &b, &out, &bias, &scratch, &arrivals}) free_buffer(c, *buf);
  return ok;
}

/// "MxNxK:dtype:layout" (the dtype may hold a colon itself: "2x64x512:f16:q4_0:nt").
Problem parse_problem(const std::string& text) {
  Problem p{};
  unsigned long long m = 0, n = 0, k = 0;
  int used = 0;
  const size_t last = text.rfind(':');
  if (std::sscanf(text.c_str(), "%llux%llux%llu:%n", &m, &n, &k, &used) != 3 || used == 0 || !m || !n || !k ||
      last == std::string::npos || last < size_t(used) || text.size() - last != 3)
    fail("'" + text + "': expected MxNxK:dtype:layout (64x48x40:f32:nt)");
  p.m = m, p.n = n, p.k = k, p.dtype = text.substr(used, last - used), p.layout = text.substr(last + 1);
  if (p.layout.find_first_not_of("nt") != std::string::npos) fail("'" + text + "': layout nn, nt, tn or tt");
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Problem> problems;
  for (const kit::TunedEntry& e : kit::kEntries)
    if (e.m > 0) problems.push_back({e.m, e.n, e.k, std::string(e.dtype), std::string(e.layout)});
  for (int i = 1; i < argc; ++i) problems.push_back(parse_problem(argv[i]));
  Context c = open_device();
  std::printf("device: %s; kit tuned on %s with gemmtune %s\n", c.props.deviceName,
              std::string(kit::kTunedFor.device).c_str(), std::string(kit::kTunedFor.tool_version).c_str());
  const std::string mismatch =
      kit::device_mismatch(c.props.deviceName, c.props.vendorID, c.props.deviceID, c.props.driverVersion);
  if (!mismatch.empty()) std::printf("device mismatch: %s\n", mismatch.c_str());
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = c.family;
  VkCommandPool pool;
  check(vkCreateCommandPool(c.device, &pool_info, nullptr, &pool), "vkCreateCommandPool");
  std::mt19937 rng(7);
  int failed = 0;
  for (const Problem& p : problems) failed += run_problem(c, pool, p, rng) ? 0 : 1;
  vkDestroyCommandPool(c.device, pool, nullptr);
  vkDestroyDevice(c.device, nullptr);
  vkDestroyInstance(c.instance, nullptr);
  std::printf("%zu problems, %d failed\n", problems.size(), failed);
  return failed ? 1 : 0;
}
