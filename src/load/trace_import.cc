#include "src/load/trace_import.h"

#ifdef STEPSCOPE_HAVE_IMPORTERS
#include <google/protobuf/arena.h>

#include <filesystem>

#include "src/importers/importer_registry.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
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
  // Millions of small messages: allocating them from large arena blocks, and freeing the
  // blocks rather than each message, was a sixth of `analyze` on a 15 MB Kineto trace.
  google::protobuf::ArenaOptions arena_options;
  arena_options.start_block_size = 64 << 10;
  arena_options.max_block_size = 1 << 20;
  google::protobuf::Arena arena(arena_options);
  auto* space = google::protobuf::Arena::CreateMessage<xspace::XSpace>(&arena);
  Status imported = importers::ImportTraceFile(path, OptionsFor(path), space);
  if (!imported.ok()) return imported;
  return xspace::XSpaceMessageToColumnar(*space, path);
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

}  // namespace stepscope::load
