// Trace files other profilers write (Chrome trace JSON, PyTorch/Kineto, TensorFlow's
// trace.json.gz) read into an XSpace, so the same model and tools apply to them.
// A thin seam over the importers layer: when the importers are not built in,
// TraceImportAvailable() is false and run listings skip trace files.
#pragma once

#include <string>

#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::load {

bool TraceImportAvailable();

// The file (optionally gzip-compressed) as an XSpace; kUnimplemented without importers.
StatusOr<xspace::XSpace> ImportTraceFile(const std::string& path);

// The file as the columnar XSpace the model reads (what the analysis path wants). The
// imported messages live in an arena that is freed at once, not message by message.
StatusOr<xspace::ColumnarXSpace> ImportTraceFileColumnar(const std::string& path);

}  // namespace stepscope::load
