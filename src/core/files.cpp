#include "core/files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace gemmtune {

namespace {
Error io_error(const std::string& path, const std::string& why) { return Error(ExitCode::io, path + ": " + why); }

std::string parent_folder(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

void write_all(int fd, const std::string& data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw io_error(path, std::string("write failed: ") + std::strerror(errno));
    }
    done += size_t(n);
  }
}
}  // namespace

std::string read_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw io_error(path, std::string("cannot open: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw io_error(path, "is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error(path, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw io_error(path, "read failed");
  return ss.str();
}

void write_file_atomic(const std::string& path, const std::string& data) {
  preflight_writable(path);
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error(path, std::string("cannot create temp file: ") + std::strerror(errno));
  try {
    write_all(fd, data, path);
    if (::fsync(fd) != 0) throw io_error(path, std::string("fsync failed: ") + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw io_error(path, std::string("rename failed: ") + std::strerror(err));
  }
  int dir = ::open(parent_folder(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void write_folder_atomic(const std::string& folder_given, const std::vector<std::pair<std::string, std::string>>& files,
                         const std::vector<std::string>& ours, const std::string& option) {
  // "kit/" names the folder kit: the temporary one goes beside it, never inside.
  std::string folder = std::filesystem::path(folder_given).lexically_normal().string();
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  auto refuse = [&](const std::string& why) { return Error(ExitCode::io, option + ": '" + folder + "': " + why); };
  namespace fs = std::filesystem;
  std::error_code error;
  const bool exists = fs::exists(folder, error);
  if (error) throw refuse(error.message());
  if (exists) {
    if (!fs::is_directory(folder, error)) throw refuse("is not a folder");
    for (const fs::directory_entry& e : fs::directory_iterator(folder, error)) {
      const std::string name = e.path().filename().string();
      if (std::find(ours.begin(), ours.end(), name) == ours.end())
        throw refuse("holds '" + name + "', which this command does not write: choose a new or empty folder");
    }
    if (error) throw refuse(error.message());
  }
  const std::string parent = parent_folder(folder);
  fs::create_directories(parent, error);
  if (error) throw refuse("cannot make the folder '" + parent + "': " + error.message());
  std::string pattern = folder + ".tmp.XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw refuse(std::string("cannot make a temporary folder beside it: ") + std::strerror(errno));
  const std::string staged = pattern;
  const mode_t mask = ::umask(0);  // mkdtemp makes 0700: the kit gets what a plain mkdir would give it
  ::umask(mask);
  ::chmod(staged.c_str(), 0777 & ~mask);
  try {
    for (const auto& [name, text] : files) write_file_atomic((fs::path(staged) / name).string(), text);
    if (!exists) {
      if (::rename(staged.c_str(), folder.c_str()) != 0)
        throw refuse(std::string("cannot rename the new folder into place: ") + std::strerror(errno));
    } else if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, folder.c_str(), RENAME_EXCHANGE) != 0) {
      // No atomic exchange on this file system: the old folder steps aside first.
      std::string aside = folder + ".old.XXXXXX";
      if (::mkdtemp(aside.data()) == nullptr || ::rename(folder.c_str(), aside.c_str()) != 0)
        throw refuse(std::string("cannot move the old folder aside: ") + std::strerror(errno));
      if (::rename(staged.c_str(), folder.c_str()) != 0) {
        const int err = errno;
        ::rename(aside.c_str(), folder.c_str());
        throw refuse(std::string("cannot rename the new folder into place: ") + std::strerror(err));
      }
      fs::remove_all(aside, error);
    }
  } catch (...) {
    fs::remove_all(staged, error);
    throw;
  }
  fs::remove_all(staged, error);  // after an exchange, the old folder
  const int dir = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

void preflight_writable(const std::string& path, const std::string& option) {
  auto refuse = [&](const std::string& why) {
    return option.empty() ? io_error(path, why) : Error(ExitCode::io, option + ": '" + path + "': " + why);
  };
  if (path.empty()) throw refuse("empty output path");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw refuse("is a directory, expected a file");
  } else if (errno != ENOENT) {
    throw refuse(std::strerror(errno));
  }
  const std::string folder = parent_folder(path);
  if (::stat(folder.c_str(), &st) != 0) throw refuse("folder '" + folder + "' does not exist");
  if (!S_ISDIR(st.st_mode)) throw refuse("'" + folder + "' is not a folder");
  if (::access(folder.c_str(), W_OK) != 0) throw refuse("folder '" + folder + "' is not writable");
  // The longest name written beside it is NAME.journal.jsonl (14 bytes more).
  const long name_max = ::pathconf(folder.c_str(), _PC_NAME_MAX);
  const size_t name = std::filesystem::path(path).filename().string().size();
  if (name_max > 14 && name + 14 > size_t(name_max)) {
    throw refuse("the file name is " + std::to_string(name) + " bytes; at most " + std::to_string(name_max - 14) +
                 " here, to leave room for NAME.journal.jsonl beside it");
  }
}

AppendOnlyFile::AppendOnlyFile(const std::string& path, bool truncate) : path_(path) {
  preflight_writable(path);
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0644);
  if (fd_ < 0) throw io_error(path, std::string("cannot open for appending: ") + std::strerror(errno));
}

AppendOnlyFile::~AppendOnlyFile() {
  if (fd_ >= 0) ::close(fd_);
}

void AppendOnlyFile::append(const std::string& line) {
  write_all(fd_, line + "\n", path_);
  if (::fsync(fd_) != 0) throw io_error(path_, std::string("fsync failed: ") + std::strerror(errno));
}

FileLock::FileLock(const std::string& path) {
  const std::string lock = path + ".lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw io_error(lock, std::string("cannot open the lock file: ") + std::strerror(errno));
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    ::close(fd_);
    throw io_error(lock, std::string("cannot lock: ") + std::strerror(err));
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

}  // namespace gemmtune
