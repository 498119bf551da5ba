#include "src/analysis/trace/trace_output_file.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/base/file_io.h"
#include "src/base/gzip.h"

namespace stepscope::analysis::trace {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

struct TraceOutputFile::Impl {
  std::string path;
  std::string temp_path;
  FILE* plain = nullptr;                      // the temporary file
  std::unique_ptr<base::GzipDeflater> gz;     // set for ".gz": compresses into `plain`
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
};

TraceOutputFile::TraceOutputFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

TraceOutputFile::~TraceOutputFile() {
  if (impl_->closed) return;
  if (impl_->plain != nullptr) std::fclose(impl_->plain);
  std::remove(impl_->temp_path.c_str());
}

StatusOr<std::unique_ptr<TraceOutputFile>> TraceOutputFile::Open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->temp_path = path + ".tmp." + std::to_string(getpid());
  impl->plain = std::fopen(impl->temp_path.c_str(), "wb");
  if (impl->plain == nullptr) return base::OutputFileError(errno, path + ": cannot create: " + std::strerror(errno));
  if (EndsWith(path, ".gz")) {
    Impl* raw = impl.get();
    impl->gz = std::make_unique<base::GzipDeflater>([raw](std::string_view bytes) { return raw->WritePlain(bytes); });
  }
  return std::unique_ptr<TraceOutputFile>(new TraceOutputFile(std::move(impl)));
}

bool TraceOutputFile::Write(std::string_view data) {
  if (!impl_->error.empty()) return false;
  return impl_->gz != nullptr ? impl_->gz->Write(data) : impl_->WritePlain(data);
}

Status TraceOutputFile::Close() {
  bool ok = impl_->error.empty();
  if (impl_->gz != nullptr) {
    ok = ok && impl_->gz->Finish();
    impl_->gz = nullptr;
  }
  if (impl_->plain != nullptr) {
    ok = std::fclose(impl_->plain) == 0 && ok;
    impl_->plain = nullptr;
  }
  // The file was created, so whatever fails now is the storage: kIoError.
  if (!ok) {
    if (impl_->error.empty()) impl_->error = std::strerror(errno);
    std::remove(impl_->temp_path.c_str());
    impl_->closed = true;
    return IoError(impl_->path + ": write failed: " + impl_->error);
  }
  if (std::rename(impl_->temp_path.c_str(), impl_->path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    std::remove(impl_->temp_path.c_str());
    impl_->closed = true;
    return IoError(impl_->path + ": cannot rename into place: " + reason);
  }
  impl_->closed = true;
  return OkStatus();
}

}  // namespace stepscope::analysis::trace
