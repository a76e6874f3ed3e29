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

/// Writes `files` (name, contents) as the folder `folder`, whole or not at all: into a temporary folder beside it,
/// then renamed into place (exchanged atomically with an existing folder, which is then removed), so a failure
/// leaves the old folder as it was and no temporary one behind. An existing `folder` may hold only names among
/// `ours` (what an earlier version wrote: they are replaced); anything else is refused, exit 5, naming `option`.
void write_folder_atomic(const std::string& folder, const std::vector<std::pair<std::string, std::string>>& files,
                         const std::vector<std::string>& ours, const std::string& option);

/// Checks before long work that `path` can be written: its folder exists and is writable, the path is not a
/// folder, and its name leaves room for the files gemmtune writes beside it (NAME.journal.jsonl, NAME.lock, a
/// temporary NAME.tmp.XXXXXX). Throws an io Error (exit 5) naming `option` (the option the user wrote, where
/// there is one), the path and the reason.
void preflight_writable(const std::string& path, const std::string& option = "");

/// An exclusive advisory lock (flock) on `<path>.lock`, held for the object's lifetime: processes that update
/// the same file take turns, so none works from a copy another has since replaced.
class FileLock {
 public:
  explicit FileLock(const std::string& path);  ///< blocks until the lock is granted; io Error naming the file
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

/// A file that only grows by whole lines, each on disk (fsync) before append() returns: a kill at any point
/// loses at most the line being written, which readers of the file skip. One owner per file descriptor.
class AppendOnlyFile {
 public:
  /// Opens (creating) `path`; `truncate` starts it empty. Throws an io Error naming the file.
  AppendOnlyFile(const std::string& path, bool truncate);
  ~AppendOnlyFile();
  AppendOnlyFile(const AppendOnlyFile&) = delete;
  AppendOnlyFile& operator=(const AppendOnlyFile&) = delete;
  /// Writes `line` and a newline, then fsyncs. Throws an io Error naming the file.
  void append(const std::string& line);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace gemmtune
