#include "src/remote/repository.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace stepscope::remote {
namespace {

// Longest file-name component most filesystems accept.
constexpr size_t kMaxPathComponentBytes = 255;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

std::vector<std::string> SplitPath(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view part = path.substr(start, slash - start);
    if (!part.empty() && part != ".") parts.emplace_back(part);
    start = slash + 1;
  }
  return parts;
}

Status OutsideRoot(const std::string& requested, const std::string& root, std::string_view why) {
  return PermissionDeniedError("repository_root '" + requested + "' " + std::string(why) +
                               "; this worker writes profiles only below its repository root " + root);
}

Status ValidateComponent(std::string_view what, std::string_view value) {
  if (value.empty()) return InvalidArgumentError(std::string(what) + " is empty");
  if (value.size() > kMaxPathComponentBytes) {
    return InvalidArgumentError(std::string(what) + " is longer than " + std::to_string(kMaxPathComponentBytes) +
                                " bytes");
  }
  if (value == "." || value == ".." || value.find_first_of(std::string_view("/\\\0", 3)) != std::string_view::npos) {
    return InvalidArgumentError(std::string(what) + " '" + std::string(value) +
                                "' must be a single directory name (no '/', '..')");
  }
  return OkStatus();
}

std::string ErrnoText() { return std::strerror(errno); }

// Opens (creating if needed) the directory `name` inside `parent`, refusing to follow a
// symbolic link. `shown` is its path for messages.
StatusOr<int> OpenChildDirectory(int parent, const std::string& name, const std::string& shown,
                                 const std::string& root) {
  if (::mkdirat(parent, name.c_str(), 0755) != 0 && errno != EEXIST) {
    return IoError("cannot create directory " + shown + ": " + ErrnoText());
  }
  int fd = ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) return fd;
  if (errno == ELOOP || errno == ENOTDIR) {
    return PermissionDeniedError(shown + " is a symbolic link or not a directory; this worker follows no links "
                                 "below its repository root " + root);
  }
  return InternalError("cannot open directory " + shown + ": " + ErrnoText());
}

Status WriteAll(int fd, std::string_view bytes, const std::string& shown) {
  while (!bytes.empty()) {
    ssize_t written = ::write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return IoError("cannot write " + shown + ": " + ErrnoText());
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return OkStatus();
}

}  // namespace

std::string RepositoryTarget::path() const {
  std::string path = root;
  for (const std::string& directory : directories) path += "/" + directory;
  return path + "/" + file_name;
}

StatusOr<std::string> NormalizeRepositoryRoot(const std::string& configured_root) {
  if (configured_root.find("://") != std::string::npos) {
    return InvalidArgumentError("repository_root '" + configured_root +
                                "' is a remote filesystem; a local directory is needed");
  }
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(configured_root, ec).lexically_normal();
  if (ec) return InvalidArgumentError("repository_root '" + configured_root + "': " + ec.message());
  std::string root = absolute.string();
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

StatusOr<RepositoryTarget> ResolveRepositoryTarget(const std::string& configured_root,
                                                   const std::string& requested_root, const std::string& session_id,
                                                   const std::string& host) {
  if (requested_root.find("://") != std::string::npos) {
    return UnimplementedError("repository_root '" + requested_root +
                              "' is a remote filesystem; this server writes local paths only (or set emit_xspace)");
  }
  if (requested_root.find('\0') != std::string::npos) {
    return InvalidArgumentError("repository_root holds a NUL byte");
  }
  std::vector<std::string> requested = SplitPath(requested_root);
  for (const std::string& part : requested) {
    if (part == "..") return OutsideRoot(requested_root, configured_root, "has a '..' component");
  }
  RepositoryTarget target;
  target.root = configured_root;
  if (!requested_root.empty() && requested_root.front() == '/') {
    // Absolute: must name the root or a path beneath it, compared component by component
    // ("/srv/profiles2" is not beneath "/srv/profiles").
    std::vector<std::string> root_parts = SplitPath(configured_root);
    if (requested.size() < root_parts.size() ||
        !std::equal(root_parts.begin(), root_parts.end(), requested.begin())) {
      return OutsideRoot(requested_root, configured_root, "is outside it");
    }
    target.directories.assign(requested.begin() + static_cast<std::ptrdiff_t>(root_parts.size()), requested.end());
  } else {
    target.directories = requested;  // relative to the root
  }
  for (const std::string& part : target.directories) {
    Status valid = ValidateComponent("a repository_root component", part);
    if (!valid.ok()) return valid;
  }
  Status valid = ValidateComponent("session_id", session_id);
  if (!valid.ok()) return valid;
  valid = ValidateComponent("host name", host);
  if (!valid.ok()) return valid;
  target.directories.push_back(session_id);
  target.file_name = host + ".xplane.pb";
  return target;
}

Status WriteRepositoryFile(const RepositoryTarget& target, std::string_view bytes) {
  Fd directory(::open(target.root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() < 0) {
    return InternalError("cannot open the repository root " + target.root + ": " + ErrnoText());
  }
  std::string shown = target.root;
  for (const std::string& name : target.directories) {
    shown += "/" + name;
    StatusOr<int> child = OpenChildDirectory(directory.get(), name, shown, target.root);
    if (!child.ok()) return child.status();
    directory.reset(*child);
  }
  // A temporary name no one else picks (O_EXCL), renamed over the final name: rename
  // replaces a symbolic link planted there instead of writing through it.
  static std::atomic<uint64_t> counter{0};
  std::string temporary = "." + target.file_name + ".tmp." + std::to_string(::getpid()) + "." +
                          std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
  std::string path = target.path();
  Fd file(::openat(directory.get(), temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (file.get() < 0) return IoError("cannot create a temporary file next to " + path + ": " + ErrnoText());
  Status status = WriteAll(file.get(), bytes, path);
  if (status.ok() && ::fsync(file.get()) != 0) status = IoError("cannot fsync " + path + ": " + ErrnoText());
  file.reset(-1);
  if (status.ok() && ::renameat(directory.get(), temporary.c_str(), directory.get(), target.file_name.c_str()) != 0) {
    status = IoError("cannot rename into " + path + ": " + ErrnoText());
  }
  if (!status.ok()) ::unlinkat(directory.get(), temporary.c_str(), 0);
  return status;
}

}  // namespace stepscope::remote
