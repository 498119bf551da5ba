#include "src/analysis/trace/trace_output_file.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "src/base/file_io.h"

namespace stepscope::analysis::trace {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

struct TraceOutputFile::Impl {
  std::string path;
  std::string temp_path;
  FILE* plain = nullptr;
  gzFile gz = nullptr;
  std::string error;
  bool closed = false;
};

TraceOutputFile::TraceOutputFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

TraceOutputFile::~TraceOutputFile() {
  if (impl_->closed) return;
  if (impl_->plain != nullptr) std::fclose(impl_->plain);
  if (impl_->gz != nullptr) gzclose(impl_->gz);
  std::remove(impl_->temp_path.c_str());
}

StatusOr<std::unique_ptr<TraceOutputFile>> TraceOutputFile::Open(const std::string& path) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  impl->temp_path = path + ".tmp." + std::to_string(getpid());
  if (EndsWith(path, ".gz")) {
    // Level 6: zlib's default; the export is bound by JSON formatting, not compression.
    impl->gz = gzopen(impl->temp_path.c_str(), "wb6");
    if (impl->gz == nullptr) return base::OutputFileError(errno, path + ": cannot create: " + std::strerror(errno));
    gzbuffer(impl->gz, 1 << 20);
  } else {
    impl->plain = std::fopen(impl->temp_path.c_str(), "wb");
    if (impl->plain == nullptr) {
      return base::OutputFileError(errno, path + ": cannot create: " + std::strerror(errno));
    }
  }
  return std::unique_ptr<TraceOutputFile>(new TraceOutputFile(std::move(impl)));
}

bool TraceOutputFile::Write(std::string_view data) {
  if (!impl_->error.empty()) return false;
  if (impl_->gz != nullptr) {
    while (!data.empty()) {
      unsigned chunk = static_cast<unsigned>(std::min<size_t>(data.size(), 1u << 30));
      if (gzwrite(impl_->gz, data.data(), chunk) != static_cast<int>(chunk)) {
        int code = 0;
        impl_->error = gzerror(impl_->gz, &code);
        return false;
      }
      data.remove_prefix(chunk);
    }
    return true;
  }
  if (std::fwrite(data.data(), 1, data.size(), impl_->plain) != data.size()) {
    impl_->error = std::strerror(errno);
    return false;
  }
  return true;
}

Status TraceOutputFile::Close() {
  bool ok = impl_->error.empty();
  if (impl_->gz != nullptr) {
    ok = gzclose(impl_->gz) == Z_OK && ok;
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

struct GzipStream::State {
  std::function<bool(std::string_view)> out;
  z_stream zs{};
  bool ok = false;
  std::string buffer;
};

GzipStream::GzipStream(std::function<bool(std::string_view)> out, int level) : state_(std::make_unique<State>()) {
  state_->out = std::move(out);
  // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
  state_->ok = deflateInit2(&state_->zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
  state_->buffer.resize(1 << 18);
}

GzipStream::~GzipStream() { deflateEnd(&state_->zs); }

bool GzipStream::Pump(int flush) {
  z_stream& zs = state_->zs;
  while (true) {
    zs.next_out = reinterpret_cast<Bytef*>(state_->buffer.data());
    zs.avail_out = static_cast<uInt>(state_->buffer.size());
    int code = deflate(&zs, flush);
    if (code == Z_STREAM_ERROR) return state_->ok = false;
    size_t produced = state_->buffer.size() - zs.avail_out;
    if (produced > 0 && !state_->out(std::string_view(state_->buffer.data(), produced))) return state_->ok = false;
    if (flush == Z_FINISH ? code == Z_STREAM_END : (zs.avail_in == 0 && zs.avail_out != 0)) return true;
  }
}

bool GzipStream::Write(std::string_view data) {
  if (!state_->ok) return false;
  while (!data.empty()) {
    uInt chunk = static_cast<uInt>(std::min<size_t>(data.size(), 1u << 30));
    state_->zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    state_->zs.avail_in = chunk;
    if (!Pump(Z_NO_FLUSH)) return false;
    data.remove_prefix(chunk);
  }
  return true;
}

bool GzipStream::Finish() {
  if (!state_->ok) return false;
  state_->zs.next_in = nullptr;
  state_->zs.avail_in = 0;
  return Pump(Z_FINISH);
}

}  // namespace stepscope::analysis::trace
