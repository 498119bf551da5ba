#include "src/load/trace_import.h"

#ifdef STEPSCOPE_HAVE_IMPORTERS
#include <filesystem>

#include "src/importers/importer_registry.h"
#endif

namespace stepscope::load {

#ifdef STEPSCOPE_HAVE_IMPORTERS
namespace {

importers::ImportOptions OptionsFor(const std::string& path) {
  importers::ImportOptions options;
  // The host when the trace names none (no rank, no host_name): the file's name.
  options.fallback_host_name = std::filesystem::path(path).filename().string();
  return options;
}

}  // namespace

bool TraceImportAvailable() { return true; }

StatusOr<xspace::XSpace> ImportTraceFile(const std::string& path) {
  return importers::ImportTraceFile(path, OptionsFor(path));
}

StatusOr<xspace::ColumnarXSpace> ImportTraceFileColumnar(const std::string& path) {
  xspace::ColumnarXSpace columnar;
  Status imported = importers::ImportTraceFileColumnar(path, OptionsFor(path), &columnar);
  if (!imported.ok()) return imported;
  return columnar;
}

#else

// The importers layer is not part of this build.
bool TraceImportAvailable() { return false; }

StatusOr<xspace::XSpace> ImportTraceFile(const std::string& path) {
  return UnimplementedError(path + ": reading trace JSON needs the importers, which this build lacks");
}

StatusOr<xspace::ColumnarXSpace> ImportTraceFileColumnar(const std::string& path) {
  return UnimplementedError(path + ": reading trace JSON needs the importers, which this build lacks");
}

#endif

bool IsTraceFileName(const std::string& path) { return path.ends_with(".json") || path.ends_with(".json.gz"); }

StatusOr<xspace::ColumnarXSpace> ReadProfileFileColumnar(const std::string& path,
                                                        const xspace::ColumnarReadOptions& options) {
  if (IsTraceFileName(path)) return ImportTraceFileColumnar(path);
  return xspace::ReadColumnarXSpaceFile(path, options);
}

}  // namespace stepscope::load
