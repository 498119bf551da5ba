// A file the trace export streams into: plain, or gzip-compressed when the path ends in
// ".gz" (base::GzipDeflater). Written to "<path>.tmp.<pid>" and renamed on Close(), so a failed or interrupted
// export never leaves a half-written file under the final name.
#pragma once

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

}  // namespace stepscope::analysis::trace
