// Trace files other profilers write (Chrome trace JSON, PyTorch/Kineto, TensorFlow's
// trace.json.gz) read into an XSpace, so the same model and tools apply to them.
// A thin seam over the importers layer: when the importers are not built in,
// TraceImportAvailable() is false and run listings skip trace files.
#pragma once

#include <string>

#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::load {

bool TraceImportAvailable();

// The file (optionally gzip-compressed) as an XSpace; kUnimplemented without importers.
StatusOr<xspace::XSpace> ImportTraceFile(const std::string& path);

// The file as the columnar XSpace the model reads (what the analysis path wants), written
// by the importer directly (no XSpace message in between).
StatusOr<xspace::ColumnarXSpace> ImportTraceFileColumnar(const std::string& path);

// True for a file name trace JSON has (.json, .json.gz): what a run directory's
// listing and a single file given on the command line go by.
bool IsTraceFileName(const std::string& path);

// Any profile file's columns: trace JSON (IsTraceFileName) through the importers, an
// XSpace (.xplane.pb[.gz]) through the streaming reader with `options`.
StatusOr<xspace::ColumnarXSpace> ReadProfileFileColumnar(const std::string& path,
                                                        const xspace::ColumnarReadOptions& options = {});

}  // namespace stepscope::load
