// A blob framed for storage: a magic, a format version, its size and a checksum, so a file that was cut short,
// overwritten by something else or damaged on disk is refused before any of it reaches a driver (a pipeline
// cache's body is trusted by the driver once its header matches).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gemmtune {

/// `data` behind a 32-byte header: "GTPCACHE", version 1, its size and its FNV-1a 64 checksum (little-endian).
std::string frame_blob(std::string_view data);

/// The data a frame_blob() frame holds, or nullopt with `why` set (not a frame, another version, cut short or
/// longer, checksum mismatch).
std::optional<std::string> unframe_blob(std::string_view file, std::string& why);

}  // namespace gemmtune
