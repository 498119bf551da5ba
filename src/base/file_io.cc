#include "src/base/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace stepscope::base {
namespace {

std::string ErrnoMessage(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

// Closes the descriptor on every path out of a function.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

// Once the file is open, any failure to get the bytes onto the disk is the storage's.
Status WriteFailed(const std::string& what, const std::string& path) { return IoError(ErrnoMessage(what, path)); }

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return WriteFailed("cannot write", path);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::string> ReadFile(const std::string& path, uint64_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return NotFoundError("no such file: " + path);
    return InvalidArgumentError(ErrnoMessage("cannot open", path));
  }
  FdCloser closer(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) return InvalidArgumentError(ErrnoMessage("cannot stat", path));
  if (S_ISDIR(st.st_mode)) return InvalidArgumentError(path + " is a directory, not a file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return ResourceExhaustedError(path + " is " + std::to_string(st.st_size) +
                                  " bytes, over the limit of " + std::to_string(max_bytes));
  }
  std::string out;
  out.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return InvalidArgumentError(ErrnoMessage("cannot read", path));
    }
    if (n == 0) break;  // file shrank while reading
    done += static_cast<size_t>(n);
  }
  out.resize(done);
  return out;
}

Status WriteFileAtomically(const std::string& path, std::string_view data) {
  static std::atomic<uint64_t> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." +
                    std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return OutputFileError(errno, ErrnoMessage("cannot create", tmp));
  FdCloser closer(fd);
  Status status = WriteAll(fd, data, tmp);
  if (status.ok() && ::fsync(fd) != 0) status = WriteFailed("cannot fsync", tmp);
  if (status.ok() && ::close(closer.release()) != 0) status = WriteFailed("cannot close", tmp);
  if (status.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) status = WriteFailed("cannot rename to", path);
  if (!status.ok()) ::unlink(tmp.c_str());
  return status;
}

Status OutputFileError(int errno_value, std::string message) {
  switch (errno_value) {
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
    case EIO:
      return IoError(std::move(message));
    case EACCES:
    case EPERM:
    case EROFS:
      return PermissionDeniedError(std::move(message));
    default:
      return InvalidArgumentError(std::move(message));
  }
}

Status CheckWritableDirectory(const std::string& dir) {
  // A file made and removed, not access(): root passes access() on a read-only mode, and
  // a read-only mount, a full disk or an ACL show only when writing.
  std::string probe = dir + "/.stepscope_write_probe.XXXXXX";
  int fd = ::mkstemp(probe.data());
  if (fd < 0) return OutputFileError(errno, ErrnoMessage("cannot write into", dir));
  ::close(fd);
  ::unlink(probe.c_str());
  return OkStatus();
}

Status CreateDirectories(const std::string& path) {
  // The OS reads a path up to its first NUL: "dir/x\0y" would create and report "dir/x".
  if (path.find('\0') != std::string::npos) return InvalidArgumentError("the path contains a NUL byte");
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return OutputFileError(ec.value(), "cannot create directory " + path + ": " + ec.message());
  if (!std::filesystem::is_directory(path, ec)) {
    return InvalidArgumentError(path + " exists and is not a directory");
  }
  return OkStatus();
}

}  // namespace stepscope::base
