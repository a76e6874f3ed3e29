#include "core/checked_blob.hpp"

#include <cstdint>
#include <cstring>

namespace gemmtune {

namespace {
constexpr char kMagic[8] = {'G', 'T', 'P', 'C', 'A', 'C', 'H', 'E'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeaderBytes = 24;  // magic, version (u32), reserved (u32), size (u64); the checksum (u64) follows

uint64_t fnv1a(std::string_view data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : data) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

void put_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += char((value >> (8 * i)) & 0xff);
}

uint64_t get_le(std::string_view in, size_t at, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= uint64_t(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return value;
}
}  // namespace

std::string frame_blob(std::string_view data) {
  std::string out(kMagic, sizeof kMagic);
  put_le(out, kVersion, 4);
  put_le(out, 0, 4);
  put_le(out, data.size(), 8);
  put_le(out, fnv1a(data), 8);
  out.append(data);
  return out;
}

std::optional<std::string> unframe_blob(std::string_view file, std::string& why) {
  if (file.size() < kHeaderBytes + 8 || std::memcmp(file.data(), kMagic, sizeof kMagic) != 0) {
    why = "not a gemmtune cache file (no GTPCACHE header)";
    return std::nullopt;
  }
  if (const uint64_t version = get_le(file, 8, 4); version != kVersion) {
    why = "format version " + std::to_string(version) + ", expected " + std::to_string(kVersion);
    return std::nullopt;
  }
  const uint64_t size = get_le(file, 16, 8);
  if (file.size() - kHeaderBytes - 8 != size) {
    why = "holds " + std::to_string(file.size() - kHeaderBytes - 8) + " bytes, its header says " +
          std::to_string(size) + " (cut short or appended to)";
    return std::nullopt;
  }
  const std::string_view data = file.substr(kHeaderBytes + 8);
  if (fnv1a(data) != get_le(file, kHeaderBytes, 8)) {
    why = "checksum mismatch (damaged)";
    return std::nullopt;
  }
  return std::string(data);
}

}  // namespace gemmtune
