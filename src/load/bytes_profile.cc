#include "src/load/bytes_profile.h"

#include <memory>
#include <string>
#include <utility>

#include "src/base/gzip.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/read_rules.h"

#ifdef STEPSCOPE_HAVE_IMPORTERS
#include "src/importers/importer_registry.h"
#endif

namespace stepscope::load {
namespace {

constexpr size_t kSniffBytes = 4096;

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The first non-blank byte of JSON text; a UTF-8 byte-order mark is skipped too.
char FirstTextByte(std::string_view bytes) {
  if (bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);
  for (char c : bytes) {
    if (!IsBlank(c)) return c;
  }
  return '\0';
}

StatusOr<analysis::ProfileModel> ModelFromColumns(xspace::ColumnarXSpace columns,
                                                  const analysis::ModelOptions& options) {
  analysis::ModelOptions with_host = options;
  if (with_host.hostname.empty()) with_host.hostname = "localhost";
  return analysis::BuildProfileModel(std::make_shared<const xspace::ColumnarXSpace>(std::move(columns)), with_host);
}

StatusOr<analysis::ProfileModel> TraceJsonModel(std::string_view bytes, const std::string& what,
                                                const analysis::ModelOptions& options) {
#ifdef STEPSCOPE_HAVE_IMPORTERS
  importers::ImportOptions import;
  import.fallback_host_name = options.hostname.empty() ? "localhost" : options.hostname;
  import.max_inflated_bytes = xspace::InflateLimitsForBudget().max_output_bytes;
  xspace::ColumnarXSpace columns;
  Status imported = importers::ImportTraceBytes(bytes, import, importers::ImportOutput{.columnar = &columns});
  if (!imported.ok()) return imported.WithContext(what);
  return ModelFromColumns(std::move(columns), options);
#else
  (void)bytes;
  (void)options;
  return UnimplementedError(what + ": reading trace JSON needs the importers, which this build lacks");
#endif
}

StatusOr<analysis::ProfileModel> XSpaceModel(std::string_view bytes, const std::string& what,
                                             const analysis::ModelOptions& options) {
  xspace::ParseOptions parse;
  parse.max_decoded_bytes = xspace::ReadLimits{}.max_decoded_bytes;
  StatusOr<xspace::ColumnarXSpace> columns = xspace::ParseColumnarXSpace(bytes, what, parse);
  if (!columns.ok()) return columns.status();
  return ModelFromColumns(std::move(*columns), options);
}

// The first few KiB of gzip'ed `bytes`, inflated (enough to tell JSON from an XSpace).
StatusOr<std::string> InflatedHead(std::string_view bytes) {
  base::GzipInflater inflater(xspace::InflateLimitsForBudget());
  std::string head(kSniffBytes, '\0');
  std::string_view input = bytes;
  StatusOr<size_t> produced = inflater.Inflate(&input, /*input_end=*/true, head.data(), head.size());
  if (!produced.ok()) return produced.status();
  head.resize(*produced);
  return head;
}

}  // namespace

BytesFormat SniffBytesFormat(std::string_view bytes) {
  const char first = FirstTextByte(bytes.substr(0, kSniffBytes));
  return first == '{' || first == '[' ? BytesFormat::kTraceJson : BytesFormat::kXSpace;
}

StatusOr<analysis::ProfileModel> LoadModelFromBytes(std::string_view bytes, std::string_view what,
                                                    const analysis::ModelOptions& options) {
  const std::string name = what.empty() ? "<bytes>" : std::string(what);
  if (bytes.empty()) return InvalidArgumentError(name + ": no bytes (an empty profile)");
  if (!base::IsGzip(bytes)) {
    if (SniffBytesFormat(bytes) == BytesFormat::kTraceJson) return TraceJsonModel(bytes, name, options);
    return XSpaceModel(bytes, name, options);
  }
  // Compressed: the head tells the format. The importer inflates JSON itself, streaming on
  // threads of its own (a whole inflate first made a 15 MB trace ~70 % slower to load);
  // an XSpace is parsed from whole bytes, so it is inflated here.
  StatusOr<std::string> head = InflatedHead(bytes);
  if (!head.ok()) return head.status().WithContext(name);
  if (SniffBytesFormat(*head) == BytesFormat::kTraceJson) return TraceJsonModel(bytes, name, options);
  StatusOr<std::string> inflated = base::GunzipWithLimit(bytes, xspace::InflateLimitsForBudget());
  if (!inflated.ok()) return inflated.status().WithContext(name);
  return XSpaceModel(*inflated, name, options);
}

}  // namespace stepscope::load
