#include "src/load/trace_import.h"

namespace stepscope::load {

// The importers layer is not part of this build yet.
bool TraceImportAvailable() { return false; }

StatusOr<xspace::XSpace> ImportTraceFile(const std::string& path) {
  return UnimplementedError(path + ": reading trace JSON needs the importers, which this build lacks");
}

}  // namespace stepscope::load
