// A file an output is streamed into: plain, or gzip-compressed (base::GzipDeflater). It is
// written to "<path>.tmp.<pid>.<n>" and renamed over `path` by Close(), so a failed or
// interrupted write never leaves a half-written file under the final name, and the file
// that was there before stays whole until the new one is complete.
//
// Users: `stepscope convert -o` and the trace viewer's downloads (Chrome / Perfetto JSON),
// and every XSpace written (xspace_io.h WriteXSpaceFile), which streams its serialization
// here instead of holding it in memory beside the message.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "stepscope/status.h"

namespace stepscope::base {

struct OutputFileOptions {
  bool gzip = false;
  // fsync before the rename: the new file is on disk before it replaces the old one (a
  // profile, whose loss a crash must not cause); exports skip it.
  bool sync = false;
  // False: Close() fails with kAlreadyExists instead of replacing a file already at the
  // path (atomically: of two writers racing for one path, exactly one wins).
  bool replace = true;
};

class OutputFile {
 public:
  // Creates the temporary file. Errors as WriteFileAtomically's (file_io.h): kInvalidArgument
  // when the path cannot be created (no such directory, no permission), kIoError when the
  // storage fails.
  static StatusOr<std::unique_ptr<OutputFile>> Open(const std::string& path, const OutputFileOptions& options);
  // Gzip when the path ends in ".gz".
  static StatusOr<std::unique_ptr<OutputFile>> Open(const std::string& path);
  ~OutputFile();  // removes the temporary file unless Close() succeeded
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // False on a write error (the error is kept for Close()).
  bool Write(std::string_view data);
  // True once a write failed: Close() will fail with kIoError.
  bool failed() const;
  // Flushes (and with `sync`, fsyncs), closes and renames into place. kIoError when a
  // write failed or the rename did; the temporary file is removed then.
  Status Close();

 private:
  struct Impl;
  explicit OutputFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Writes `path` through an OutputFile that `write` fills, then closes it into place. A
// failed write is the storage, and Close() says so (kIoError); another error `write`
// returns is returned as it is. Either way the temporary file is removed and the file
// that was at `path` stays whole.
Status WriteOutputFile(const std::string& path, const OutputFileOptions& options,
                       const std::function<Status(OutputFile*)>& write);

// A temporary file untouched for this long, of a process that is not running, is stale.
// The age guards a writer in another PID namespace (a container sharing the logdir),
// whose pid means nothing here; a live writer touches its file at every write.
inline constexpr std::chrono::seconds kStaleTemporaryAge{600};

// Removes the temporary files ("<name>.tmp.<pid>.<n>", as OutputFile and
// WriteFileAtomically name them) that dead processes left in `dir`: a writer killed with
// SIGKILL never reaches its cleanup. Returns how many were removed; errors are ignored
// (this is tidying, and the next writer tries again).
int RemoveStaleTemporaryFiles(const std::string& dir, std::chrono::seconds min_age = kStaleTemporaryAge);

}  // namespace stepscope::base
