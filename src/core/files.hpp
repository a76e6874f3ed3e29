// File helpers: whole-file reads and atomic writes (temp file in the same folder, fsync, rename).
#pragma once

#include <string>
#include <vector>

namespace gemmtune {

/// Reads a whole file; throws an io Error naming the file and the reason.
std::string read_file(const std::string& path);

/// Writes `data` to `path` so that the file is either the old one or the complete new one, never half-written:
/// a temp file beside it, fsync, rename, fsync of the folder. Throws an io Error naming the file.
void write_file_atomic(const std::string& path, const std::string& data);

/// Checks before long work that `path` can be written: its folder exists and is writable, and the path is not a
/// folder. Throws an io Error naming the path and the reason.
void preflight_writable(const std::string& path);

}  // namespace gemmtune
