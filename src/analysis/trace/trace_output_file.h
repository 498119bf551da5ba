// A file the trace export streams into: plain, or gzip-compressed when the path ends in
// ".gz". Written to "<path>.tmp.<pid>" and renamed on Close(), so a failed or interrupted
// export never leaves a half-written file under the final name.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "stepscope/status.h"

namespace stepscope::analysis::trace {

class TraceOutputFile {
 public:
  static StatusOr<std::unique_ptr<TraceOutputFile>> Open(const std::string& path);
  ~TraceOutputFile();  // removes the temporary file unless Close() succeeded
  TraceOutputFile(const TraceOutputFile&) = delete;
  TraceOutputFile& operator=(const TraceOutputFile&) = delete;

  // False on a write error (the error is kept for Close()).
  bool Write(std::string_view data);
  // Flushes, closes and renames into place.
  Status Close();

 private:
  struct Impl;
  explicit TraceOutputFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Streaming gzip: compresses what is written and hands the compressed bytes to `out`
// (for downloads that are compressed on the fly).
class GzipStream {
 public:
  explicit GzipStream(std::function<bool(std::string_view)> out, int level = 6);
  ~GzipStream();
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

  // False once `out` refused data or zlib failed.
  bool Write(std::string_view data);
  // Writes the gzip trailer; call once after the last Write.
  bool Finish();

 private:
  bool Pump(int flush);
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace stepscope::analysis::trace
