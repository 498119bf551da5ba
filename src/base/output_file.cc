#include "src/base/output_file.h"

#include <fcntl.h>  // AT_FDCWD
#include <signal.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/base/file_io.h"
#include "src/base/gzip.h"

namespace stepscope::base {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Unique within the process too: two threads may write the same path (the collector and a
// capture of the same host), and each must own its temporary file.
std::string TemporaryPath(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(counter.fetch_add(1, std::memory_order_relaxed));
}

// rename() that fails with EEXIST rather than replace `to`. renameat2's flag where the
// file system has it; elsewhere link() + unlink(), which is exclusive too.
int RenameNoReplace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  if (::link(from.c_str(), to.c_str()) != 0) return -1;
  ::unlink(from.c_str());
  return 0;
}

}  // namespace

struct OutputFile::Impl {
  std::string path;
  std::string temp_path;
  bool sync = false;
  bool replace = true;
  FILE* plain = nullptr;                // the temporary file
  std::unique_ptr<GzipDeflater> gz;     // set for gzip: compresses into `plain`
  std::string error;
  bool closed = false;

  bool WritePlain(std::string_view data) {
    if (!error.empty()) return false;
    if (std::fwrite(data.data(), 1, data.size(), plain) != data.size()) {
      error = std::strerror(errno);
      return false;
    }
    return true;
  }

  // Flushes, fsyncs when asked and closes `plain`; false (with `error`) when any fails.
  bool FinishPlain() {
    bool ok = std::fflush(plain) == 0;
    if (ok && sync) ok = ::fsync(::fileno(plain)) == 0;
    if (!ok && error.empty()) error = std::strerror(errno);
    ok = std::fclose(plain) == 0 && ok;
    if (!ok && error.empty()) error = std::strerror(errno);
    plain = nullptr;
    return ok;
  }
};

OutputFile::OutputFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

OutputFile::~OutputFile() {
  if (impl_->closed) return;
  if (impl_->plain != nullptr) std::fclose(impl_->plain);
  std::remove(impl_->temp_path.c_str());
}

StatusOr<std::unique_ptr<OutputFile>> OutputFile::Open(const std::string& path, const OutputFileOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->temp_path = TemporaryPath(path);
  impl->sync = options.sync;
  impl->replace = options.replace;
  impl->plain = std::fopen(impl->temp_path.c_str(), "wbx");  // x: never another's file
  if (impl->plain == nullptr) return OutputFileError(errno, path + ": cannot create: " + std::strerror(errno));
  if (options.gzip) {
    Impl* raw = impl.get();
    impl->gz = std::make_unique<GzipDeflater>([raw](std::string_view bytes) { return raw->WritePlain(bytes); });
  }
  return std::unique_ptr<OutputFile>(new OutputFile(std::move(impl)));
}

StatusOr<std::unique_ptr<OutputFile>> OutputFile::Open(const std::string& path) {
  return Open(path, {.gzip = EndsWith(path, ".gz")});
}

bool OutputFile::Write(std::string_view data) {
  if (!impl_->error.empty()) return false;
  return impl_->gz != nullptr ? impl_->gz->Write(data) : impl_->WritePlain(data);
}

bool OutputFile::failed() const { return !impl_->error.empty(); }

Status OutputFile::Close() {
  bool ok = impl_->error.empty();
  if (impl_->gz != nullptr) {
    ok = ok && impl_->gz->Finish();
    impl_->gz = nullptr;
  }
  if (impl_->plain != nullptr) ok = impl_->FinishPlain() && ok;
  // The file was created, so whatever fails now is the storage: kIoError.
  if (!ok) {
    if (impl_->error.empty()) impl_->error = std::strerror(errno);
    std::remove(impl_->temp_path.c_str());
    impl_->closed = true;
    return IoError(impl_->path + ": write failed: " + impl_->error);
  }
  int renamed = impl_->replace ? std::rename(impl_->temp_path.c_str(), impl_->path.c_str())
                               : RenameNoReplace(impl_->temp_path, impl_->path);
  if (renamed != 0) {
    const int error = errno;
    std::remove(impl_->temp_path.c_str());
    impl_->closed = true;
    if (error == EEXIST) return AlreadyExistsError(impl_->path + " already exists");
    return IoError(impl_->path + ": cannot rename into place: " + std::strerror(error));
  }
  impl_->closed = true;
  return OkStatus();
}

namespace {

// The pid of "<name>.tmp.<pid>.<n>", or 0 when `name` is not such a file.
pid_t TemporaryFileOwner(std::string_view name) {
  size_t counter_dot = name.rfind('.');
  if (counter_dot == std::string_view::npos || counter_dot + 1 == name.size()) return 0;
  size_t pid_dot = name.rfind('.', counter_dot - 1);
  if (pid_dot == std::string_view::npos || pid_dot < 4 || name.substr(pid_dot - 4, 4) != ".tmp") return 0;
  auto digits = [](std::string_view text) {
    return !text.empty() && text.size() <= 18 &&
           text.find_first_not_of("0123456789") == std::string_view::npos;
  };
  std::string_view pid = name.substr(pid_dot + 1, counter_dot - pid_dot - 1);
  if (!digits(pid) || !digits(name.substr(counter_dot + 1))) return 0;
  long long value = std::stoll(std::string(pid));
  return value > 0 && value <= INT32_MAX ? static_cast<pid_t>(value) : 0;
}

bool ProcessIsRunning(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

}  // namespace

int RemoveStaleTemporaryFiles(const std::string& dir, std::chrono::seconds min_age) {
  std::error_code ec;
  int removed = 0;
  const auto now = std::filesystem::file_time_type::clock::now();
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    pid_t owner = TemporaryFileOwner(entry.path().filename().string());
    if (owner == 0 || owner == ::getpid() || !entry.is_regular_file(ec) || ProcessIsRunning(owner)) continue;
    auto modified = entry.last_write_time(ec);
    if (ec || now - modified < min_age) continue;
    if (std::filesystem::remove(entry.path(), ec)) ++removed;
  }
  return removed;
}

Status WriteOutputFile(const std::string& path, const OutputFileOptions& options,
                       const std::function<Status(OutputFile*)>& write) {
  StatusOr<std::unique_ptr<OutputFile>> file = OutputFile::Open(path, options);
  if (!file.ok()) return file.status();
  Status written = write(file->get());
  if (!written.ok() && !(*file)->failed()) return written;  // the destructor removes the temporary file
  return (*file)->Close();
}

}  // namespace stepscope::base
