#include "run/build_workers.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <chrono>
#include <cstring>
#include <optional>
#include <set>

#include "core/elapsed.hpp"
#include "core/error.hpp"
#include "vk/check.hpp"
#include "vk/instance.hpp"

extern char** environ;

namespace gemmtune {

namespace {
// Messages are frames: a u32 length, then the payload. Requests: kind, ticket, the SPIR-V words, the constants,
// the push size, the subgroup size, the binding sizes and the dispatch's push bytes. Replies: kind, ticket, the
// build's milliseconds, then the pipeline cache's data or the error message.
enum ReplyKind : uint32_t { kReady = 0, kBuilt = 1, kFailed = 2 };
constexpr uint32_t kRequest = 7;
constexpr size_t kInFlightPerWorker = 2;  // one being built, one waiting in the worker's socket
constexpr double kReplyLimitS = 120.0;    // a build that has not answered by then is taken as hung
constexpr uint32_t kMaxFrameBytes = 1u << 30;

struct Writer {
  std::string bytes;
  void u32(uint32_t v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void u64(uint64_t v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void f64(double v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void raw(const void* data, size_t n) { bytes.append(static_cast<const char*>(data), n); }
  std::string frame() const {
    std::string out(4, '\0');
    const uint32_t n = uint32_t(bytes.size());
    std::memcpy(out.data(), &n, 4);
    return out + bytes;
  }
};

struct Reader {
  std::string_view bytes;
  size_t at = 0;
  template <class T>
  T get() {
    if (at + sizeof(T) > bytes.size()) throw Error(ExitCode::usage, "build-worker: a message ends early");
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string_view take(size_t n) {
    if (at + n > bytes.size()) throw Error(ExitCode::usage, "build-worker: a message ends early");
    std::string_view v = bytes.substr(at, n);
    at += n;
    return v;
  }
};

std::string encode(BuildWorkers::Ticket ticket, const BuildRequest& r) {
  Writer w;
  w.u32(kRequest);
  w.u64(ticket);
  w.u32(uint32_t(r.spirv.size()));
  w.u32(uint32_t(r.constants.size()));
  w.u32(r.push_bytes);
  w.u32(r.required_subgroup_size);
  w.u32(uint32_t(r.binding_bytes.size()));
  w.u32(uint32_t(r.push.size()));
  w.u32(r.dispatch ? 1 : 0);
  w.raw(r.spirv.data(), r.spirv.size_bytes());
  for (const vk::SpecConstant& c : r.constants) w.u32(c.id), w.u32(c.value);
  for (uint64_t b : r.binding_bytes) w.u64(b);
  w.raw(r.push.data(), r.push.size());
  return w.frame();
}

std::string reply(uint32_t kind, uint64_t ticket, double ms, const std::string& payload) {
  Writer w;
  w.u32(kind);
  w.u64(ticket);
  w.f64(ms);
  w.u32(uint32_t(payload.size()));
  w.raw(payload.data(), payload.size());
  return w.frame();
}

/// The complete frame at the start of `in` (removed from it), or nullopt where it has not all arrived.
std::optional<std::string> next_frame(std::string& in) {
  if (in.size() < 4) return std::nullopt;
  uint32_t n = 0;
  std::memcpy(&n, in.data(), 4);
  if (n > kMaxFrameBytes) throw Error(ExitCode::usage, "build-worker: a message of " + std::to_string(n) + " bytes");
  if (in.size() < 4 + size_t(n)) return std::nullopt;
  std::string frame = in.substr(4, n);
  in.erase(0, 4 + size_t(n));
  return frame;
}

/// The worker's environment: the parent's, with its pipeline-cache file left to the parent, no validation layer
/// (the parent validates the same create calls when it builds them) and no planted faults (they count the parent's
/// calls).
std::vector<std::string> worker_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (name == "GEMMTUNE_FAULTS" || name == "GEMMTUNE_VALIDATION" || name == "GEMMTUNE_NO_PIPELINE_CACHE") continue;
    env.push_back(entry);
  }
  env.push_back("GEMMTUNE_NO_PIPELINE_CACHE=1");
  return env;
}

}  // namespace

BuildWorkers::BuildWorkers(const vk::Device& device, unsigned count, std::string executable,
                           std::string device_selector)
    : device_(device), wanted_(count), executable_(std::move(executable)), selector_(std::move(device_selector)) {}

BuildWorkers::~BuildWorkers() {
  if (stats_.submitted > 0)
    spdlog::debug("build workers: {} builds handed over, {} built there ({:.0f} ms each), {} failed, {} taken back",
                  stats_.submitted, stats_.built, stats_.built ? stats_.worker_build_ms / double(stats_.built) : 0.0,
                  stats_.failed, stats_.taken_back);
  for (Worker& w : workers_) {
    if (w.fd < 0) continue;
    ::close(w.fd);
    ::kill(w.pid, SIGKILL);
    ::waitpid(w.pid, nullptr, 0);
  }
}

void BuildWorkers::start() {
  if (started_) return;
  started_ = true;
  const std::vector<std::string> env_text = worker_environment();
  std::vector<char*> env;
  for (const std::string& e : env_text) env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);
  const std::vector<std::string> args = {executable_, "-q", "build-worker", "--device", selector_};
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (unsigned i = 0; i < wanted_; ++i) {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
      spdlog::warn("build workers: socketpair failed ({}); {} started", std::strerror(errno), workers_.size());
      break;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 0);  // requests in, replies out
    posix_spawn_file_actions_adddup2(&actions, 2, 1);       // stdout stays the parent's output
    pid_t pid = -1;
    const int failed = posix_spawn(&pid, executable_.c_str(), &actions, nullptr, argv.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (failed != 0) {
      ::close(fds[0]);
      spdlog::warn("build workers: cannot start {} ({}); builds stay in this process", executable_,
                   std::strerror(failed));
      break;
    }
    // On a CPU device the workers' code generation shares the cores with the measured runs: at the lowest
    // priority it takes only what the runs leave idle, so builds ahead cost the timings nothing.
    if (device_.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU && ::setpriority(PRIO_PROCESS, id_t(pid), 19) != 0)
      spdlog::debug("build workers: cannot lower worker {}'s priority ({})", pid, std::strerror(errno));
    Worker w;
    w.pid = pid;
    w.fd = fds[0];
    workers_.push_back(std::move(w));
  }
  spdlog::debug("build workers: {} started", workers_.size());
}

unsigned BuildWorkers::count() const {
  if (!started_) return wanted_;
  return unsigned(std::count_if(workers_.begin(), workers_.end(), [](const Worker& w) { return w.fd >= 0; }));
}

bool BuildWorkers::alive() const {
  return std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return w.fd >= 0; });
}

void BuildWorkers::stop(Worker& w, const std::string& why) {
  if (w.fd < 0) return;
  ::close(w.fd);
  w.fd = -1;
  ::kill(w.pid, SIGKILL);
  ::waitpid(w.pid, nullptr, 0);
  for (Ticket t : w.in_flight) {
    if (abandoned_.erase(t) == 0) done_[t] = false;
  }
  w.in_flight.clear();
  if (why.empty()) return;
  if (!warned_) spdlog::warn("build worker {} stopped ({}); its builds are made in this process", w.pid, why);
  warned_ = true;
}

BuildWorkers::Ticket BuildWorkers::submit(const BuildRequest& request) {
  if (!started_) start();
  const Ticket ticket = next_ticket_++;
  ++stats_.submitted;
  if (!alive()) {
    done_[ticket] = false;
    return ticket;
  }
  queue_.emplace_back(ticket, encode(ticket, request));
  pump(0);
  return ticket;
}

void BuildWorkers::pump(int timeout_ms) {
  // Hand queued requests to the live workers with the fewest in flight. A worker whose device is still coming up
  // takes its share too (it reads them once up): builds handed over just before the tuner's host reference start
  // while the parent computes and reads no replies (until a worker is ready, take() still builds here).
  while (!queue_.empty()) {
    Worker* best = nullptr;
    for (Worker& w : workers_) {
      if (w.fd >= 0 && w.in_flight.size() < kInFlightPerWorker &&
          (!best || w.in_flight.size() < best->in_flight.size()))
        best = &w;
    }
    if (!best) break;
    best->out += queue_.front().second;
    best->in_flight.push_back(queue_.front().first);
    queue_.pop_front();
  }
  std::vector<pollfd> fds;
  std::vector<Worker*> owners;
  for (Worker& w : workers_) {
    if (w.fd < 0) continue;
    fds.push_back({w.fd, short(POLLIN | (w.out.empty() ? 0 : POLLOUT)), 0});
    owners.push_back(&w);
  }
  if (fds.empty()) return;
  if (::poll(fds.data(), fds.size(), timeout_ms) <= 0) return;
  for (size_t i = 0; i < fds.size(); ++i) {
    Worker& w = *owners[i];
    if ((fds[i].revents & POLLOUT) && !w.out.empty()) {
      const ssize_t n = ::send(w.fd, w.out.data(), w.out.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n > 0) w.out.erase(0, size_t(n));
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
        stop(w, std::string("send: ") + std::strerror(errno));
        continue;
      }
    }
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    char buffer[65536];
    for (;;) {
      const ssize_t n = ::recv(w.fd, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n > 0) {
        w.in.append(buffer, size_t(n));
        continue;
      }
      if (n == 0) stop(w, "it exited");
      if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        stop(w, std::string("recv: ") + std::strerror(errno));
      break;
    }
    try {
      while (std::optional<std::string> frame = next_frame(w.in)) {
        Reader r{*frame};
        const uint32_t kind = r.get<uint32_t>();
        const Ticket ticket = r.get<uint64_t>();
        const double ms = r.get<double>();
        const std::string payload(r.take(r.get<uint32_t>()));
        handle_reply(w, kind, ticket, ms, payload);
      }
    } catch (const std::exception& e) {
      stop(w, e.what());
    }
  }
}

void BuildWorkers::handle_reply(Worker& w, uint32_t kind, Ticket ticket, double ms, const std::string& payload) {
  if (kind == kReady) {
    w.ready = true;
    spdlog::debug("build worker {}: ready after {:.0f} ms", w.pid, ms_since(w.started));
    return;
  }
  if (w.in_flight.empty() || w.in_flight.front() != ticket) throw Error(ExitCode::usage, "a reply out of order");
  w.in_flight.pop_front();
  bool built = kind == kBuilt;
  if (built) {
    try {
      device_.merge_into_pipeline_cache(payload);
      stats_.worker_build_ms += ms;
    } catch (const std::exception& e) {
      spdlog::debug("build worker {}: its pipeline cache data not merged: {}", w.pid, e.what());
      built = false;
    }
  } else {
    spdlog::debug("build worker {}: {}", w.pid, payload);
  }
  ++(built ? stats_.built : stats_.failed);
  if (abandoned_.erase(ticket) == 0) done_[ticket] = built;
}

void BuildWorkers::drop(Ticket ticket) {
  if (done_.erase(ticket) > 0) return;
  auto queued = std::find_if(queue_.begin(), queue_.end(), [&](const auto& q) { return q.first == ticket; });
  if (queued != queue_.end()) {
    queue_.erase(queued);
    ++stats_.taken_back;
    return;
  }
  for (const Worker& w : workers_) {
    if (std::find(w.in_flight.begin(), w.in_flight.end(), ticket) == w.in_flight.end()) continue;
    abandoned_.insert(ticket);
    ++stats_.taken_back;
    return;
  }
}

BuildWorkers::Progress BuildWorkers::progress(Ticket ticket) const {
  if (done_.count(ticket)) return Progress::replied;
  for (const Worker& w : workers_) {
    if (w.ready && std::find(w.in_flight.begin(), w.in_flight.end(), ticket) != w.in_flight.end())
      return Progress::under_way;
  }
  return Progress::not_started;
}

void BuildWorkers::prioritize(const std::vector<Ticket>& tickets) {
  std::deque<std::pair<Ticket, std::string>> front;
  for (Ticket t : tickets) {
    auto it = std::find_if(queue_.begin(), queue_.end(), [&](const auto& q) { return q.first == t; });
    if (it == queue_.end()) continue;
    front.push_back(std::move(*it));
    queue_.erase(it);
  }
  queue_.insert(queue_.begin(), std::make_move_iterator(front.begin()), std::make_move_iterator(front.end()));
}

bool BuildWorkers::take(Ticket ticket) {
  pump(0);
  if (auto it = done_.find(ticket); it != done_.end()) {
    const bool built = it->second;
    done_.erase(it);
    return built;
  }
  auto queued = std::find_if(queue_.begin(), queue_.end(), [&](const auto& q) { return q.first == ticket; });
  if (queued != queue_.end()) {
    queue_.erase(queued);
    ++stats_.taken_back;
    return false;
  }
  for (Worker& w : workers_) {
    if (std::find(w.in_flight.begin(), w.in_flight.end(), ticket) == w.in_flight.end()) continue;
    if (!w.ready || w.in_flight.front() != ticket) {
      // Not being built yet: building it here is quicker than waiting; the worker's result is merged when it comes.
      abandoned_.insert(ticket);
      ++stats_.taken_back;
      return false;
    }
    const auto start = std::chrono::steady_clock::now();
    while (w.fd >= 0 && !done_.count(ticket)) {
      if (ms_since(start) > kReplyLimitS * 1000.0) {
        stop(w, "no reply in " + std::to_string(int(kReplyLimitS)) + " s");
        break;
      }
      pump(100);
    }
    const bool built = done_.count(ticket) && done_[ticket];
    done_.erase(ticket);
    return built;
  }
  return false;
}

void BuildWorkers::stop_all() {
  for (const auto& [ticket, request] : queue_) done_[ticket] = false;
  queue_.clear();
  for (Worker& w : workers_) stop(w, "");
  workers_.clear();
  started_ = false;
}

namespace {
bool read_exact(int fd, char* data, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t got = ::read(fd, data + done, n - done);
    if (got == 0) return false;
    if (got < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += size_t(got);
  }
  return true;
}

void send_all(int fd, const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error(ExitCode::io, std::string("build-worker: its parent is gone: ") + std::strerror(errno));
    done += size_t(n);
  }
}

std::string cache_data(VkDevice device, VkPipelineCache cache) {
  size_t size = 0;
  vk::check(vkGetPipelineCacheData(device, cache, &size, nullptr), "vkGetPipelineCacheData");
  std::string data(size, '\0');
  vk::check(vkGetPipelineCacheData(device, cache, &size, data.data()), "vkGetPipelineCacheData");
  data.resize(size);
  return data;
}

/// A pipeline cache of one build, destroyed with it.
struct OwnedCache {
  VkDevice device;
  VkPipelineCache cache;
  ~OwnedCache() { vkDestroyPipelineCache(device, cache, nullptr); }
};
}  // namespace

int serve_build_requests(const std::string& device_selector, int fd) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);              // never outlive the tuner
  ::setenv("GEMMTUNE_NO_PIPELINE_CACHE", "1", 1);  // its builds reach the file through the tuner
  vk::Instance instance(false);
  vk::Device device(instance, instance.select(device_selector));
  vk::Buffer dummy(device, 16, vk::kStorageBufferUsage, false);
  std::optional<vk::Submitter> submitter;
  std::vector<vk::Buffer> buffers;
  std::vector<uint64_t> buffer_bytes;
  send_all(fd, reply(kReady, 0, 0.0, ""));
  for (;;) {
    char length[4];
    if (!read_exact(fd, length, 4)) return 0;  // the parent closed: done
    uint32_t n = 0;
    std::memcpy(&n, length, 4);
    if (n > kMaxFrameBytes) throw Error(ExitCode::usage, "build-worker: a message of " + std::to_string(n) + " bytes");
    std::string frame(n, '\0');
    if (!read_exact(fd, frame.data(), n)) return 0;
    Reader r{frame};
    if (r.get<uint32_t>() != kRequest) throw Error(ExitCode::usage, "build-worker: not a build request");
    const uint64_t ticket = r.get<uint64_t>();
    const uint32_t words = r.get<uint32_t>(), constant_count = r.get<uint32_t>(), push_bytes = r.get<uint32_t>(),
                   subgroup = r.get<uint32_t>(), binding_count = r.get<uint32_t>(), push_size = r.get<uint32_t>();
    const bool dispatch = r.get<uint32_t>() != 0;
    const std::string_view code = r.take(size_t(words) * 4);
    std::vector<uint32_t> spirv(words);
    std::memcpy(spirv.data(), code.data(), code.size());
    std::vector<vk::SpecConstant> constants;
    for (uint32_t i = 0; i < constant_count; ++i) {
      const uint32_t id = r.get<uint32_t>();
      constants.push_back({id, r.get<uint32_t>()});
    }
    std::vector<uint64_t> bindings;
    for (uint32_t i = 0; i < binding_count; ++i) bindings.push_back(r.get<uint64_t>());
    const std::string_view push = r.take(push_size);
    if (dispatch && push_size < push_bytes) throw Error(ExitCode::usage, "build-worker: push constants too short");
    const auto start = std::chrono::steady_clock::now();
    try {
      OwnedCache cache{device.handle(), device.new_pipeline_cache("")};
      std::vector<VkBuffer> handles(binding_count, dummy.handle());
      if (dispatch) {
        if (buffer_bytes != bindings) {
          buffers.clear();
          for (uint64_t bytes : bindings)
            buffers.emplace_back(device, std::max<uint64_t>(16, bytes), vk::kStorageBufferUsage, false);
          buffer_bytes = bindings;
        }
        for (uint32_t i = 0; i < binding_count; ++i) handles[i] = buffers[i].handle();
        if (!submitter) submitter.emplace(device, 120'000'000'000ull);
      }
      vk::ComputePipeline pipeline(device, spirv, constants, handles, push_bytes, subgroup, cache.cache);
      // One workgroup, in bounds of buffers as large as the parent's: the driver generates the code.
      if (dispatch) submitter->run([&](VkCommandBuffer cmd) { pipeline.record_dispatch(cmd, push.data(), 1, 1, 1); });
      send_all(fd, reply(kBuilt, ticket, ms_since(start), cache_data(device.handle(), cache.cache)));
    } catch (const vk::VulkanError& e) {
      send_all(fd, reply(kFailed, ticket, ms_since(start), e.what()));
      if (e.result() == VK_ERROR_DEVICE_LOST) return int(ExitCode::device_fault);
    } catch (const Error& e) {
      send_all(fd, reply(kFailed, ticket, ms_since(start), e.what()));
    }
  }
}

}  // namespace gemmtune
