#include "src/load/trace_index_loader.h"

#include <memory>
#include <string>
#include <utility>

#include "src/load/trace_import.h"
#include "src/xspace/columnar/columnar_reader.h"

namespace stepscope::load {
namespace {

StatusOr<xspace::ColumnarXSpace> ReadColumnar(const HostProfileFile& file) {
  if (file.format == ProfileFormat::kTraceJson) {
    return ImportTraceFileColumnar(file.path);  // no serialize / re-read round trip
  }
  return xspace::ReadColumnarXSpaceFile(file.path);
}

}  // namespace

StatusOr<analysis::trace::TraceIndex> LoadTraceIndex(const std::vector<HostProfileFile>& files) {
  if (files.empty()) return InvalidArgumentError("no profile files to index");
  std::vector<analysis::trace::TraceSourceInput> sources;
  for (const HostProfileFile& file : files) {
    StatusOr<xspace::ColumnarXSpace> space = ReadColumnar(file);
    if (!space.ok()) {
      if (space.status().message().find(file.path) != std::string::npos) return space.status();
      return space.status().WithContext(file.path);
    }
    sources.push_back(analysis::trace::TraceSourceInput{
        file.host, std::make_shared<const xspace::ColumnarXSpace>(std::move(space).value())});
  }
  return analysis::trace::TraceIndex::Build(std::move(sources));
}

}  // namespace stepscope::load
