#include "src/importers/importer_registry.h"

#include <sys/stat.h>

#include <memory>

#include "src/importers/byte_source.h"
#include "src/importers/chrome_json/chrome_json_importer.h"
#include "src/importers/kineto_json/kineto_json_importer.h"
#include "src/importers/tf_trace_json/tf_trace_json_importer.h"

namespace stepscope::importers {
namespace {

// A trace whose every event was dropped would become a profile no reader accepts (no
// planes): that is an import failure, with the reasons, not a file.
Status RequireSomethingImported(const std::string& what, const ImportStats& stats) {
  if (stats.xevents_written > 0) return OkStatus();
  std::string reasons;
  for (const auto& [reason, count] : stats.dropped) {
    reasons += (reasons.empty() ? "" : "; ") + std::to_string(count) + " x " + reason;
  }
  if (stats.events_read == 0) return InvalidArgumentError(what + ": the trace holds no events");
  return InvalidArgumentError(what + ": nothing to import: none of the " + std::to_string(stats.events_read) +
                              " events became a timeline event" + (reasons.empty() ? "" : " (dropped: " + reasons + ")"));
}

// Sniffs (unless `format` names the importer) and imports from one pass over `source`:
// the head read for sniffing is put back in front, so a pipe or FIFO is read once, as a
// stream, and a file is opened once.
Status Import(const std::string& what, std::unique_ptr<ByteSource> source, const ImportOptions& options,
              const ImportOutput& output, ImportStats* stats, std::string_view format) {
  ImportStats local_stats;
  if (stats == nullptr) stats = &local_stats;
  // A .gz is inflated on a thread of its own when each of the three stages (inflater,
  // tokenizer, parser) can have a core. With two cores the tokenizer inflates: a third
  // thread then only makes the scheduler time-slice them, and each hand-over between two
  // threads sharing a core waits for a slice (15 MB Kineto .gz on 2 cores: 23.5 -> 22.2 ms).
  if (ImportThreads(options) >= kReadAheadMinThreads && source->inflates()) {
    source = MakeReadAheadByteSource(std::move(source));
  }
  const TraceImporter* importer = nullptr;
  if (!format.empty()) {
    importer = FindImporter(format);
    if (importer == nullptr) return InvalidArgumentError("unknown trace format \"" + std::string(format) + "\"");
  } else {
    StatusOr<std::string> head = ReadHead(*source, kSniffHeadBytes);
    if (!head.ok()) return head.status().WithContext(what);
    importer = SniffImporter(*head);
    if (importer == nullptr) {
      if (head->empty()) return InvalidArgumentError(what + ": the file is empty, not a trace");
      return InvalidArgumentError(what + ": not a trace this version can import (expected Chrome trace-event JSON: "
                                         "PyTorch/Kineto, TensorFlow/JAX trace viewer, or chrome://tracing)");
    }
    source = MakePrefixedByteSource(std::move(head).value(), std::move(source));
  }
  Status status = importer->Import(*source, options, output, stats);
  if (!status.ok()) return status.WithContext(what);
  return RequireSomethingImported(what, *stats);
}

}  // namespace

const std::vector<const TraceImporter*>& AllImporters() {
  static const auto* importers = new std::vector<const TraceImporter*>{
      new TfTraceJsonImporter(),
      new KinetoJsonImporter(),
      new ChromeJsonImporter(),
  };
  return *importers;
}

const TraceImporter* FindImporter(std::string_view name) {
  for (const TraceImporter* importer : AllImporters()) {
    if (importer->name() == name) return importer;
  }
  return nullptr;
}

const TraceImporter* SniffImporter(std::string_view head) {
  const TraceImporter* best = nullptr;
  int best_confidence = kSniffNo;
  for (const TraceImporter* importer : AllImporters()) {
    int confidence = importer->Sniff(head);
    if (confidence > best_confidence) {
      best = importer;
      best_confidence = confidence;
    }
  }
  return best;
}

Status ImportTraceFile(const std::string& path, const ImportOptions& options, xspace::XSpace* space,
                       ImportStats* stats, std::string_view format) {
  StatusOr<std::unique_ptr<ByteSource>> head = OpenTraceByteSource(path, options.max_inflated_bytes);
  if (!head.ok()) return head.status();
  return Import(path, std::move(head).value(), options, ImportOutput{.space = space}, stats, format);
}

Status ImportTraceFileColumnar(const std::string& path, const ImportOptions& options, xspace::ColumnarXSpace* columnar,
                               ImportStats* stats, std::string_view format) {
  StatusOr<std::unique_ptr<ByteSource>> head = OpenTraceByteSource(path, options.max_inflated_bytes);
  if (!head.ok()) return head.status();
  return Import(path, std::move(head).value(), options, ImportOutput{.columnar = columnar}, stats, format);
}

StatusOr<xspace::XSpace> ImportTraceFile(const std::string& path, const ImportOptions& options, ImportStats* stats) {
  xspace::XSpace space;
  Status status = ImportTraceFile(path, options, &space, stats);
  if (!status.ok()) return status;
  return space;
}

Status ImportTraceBytes(std::string_view bytes, const ImportOptions& options, const ImportOutput& output,
                        ImportStats* stats, std::string_view format) {
  return Import("trace", MakeTraceByteSource(bytes, options.max_inflated_bytes), options, output, stats, format);
}

bool LooksLikeTraceFile(const std::string& path) {
  struct stat info{};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
  StatusOr<std::unique_ptr<ByteSource>> source = OpenTraceByteSource(path, uint64_t{1} << 30);
  if (!source.ok()) return false;
  StatusOr<std::string> head = ReadHead(**source, kSniffHeadBytes);
  return head.ok() && SniffImporter(*head) != nullptr;
}

}  // namespace stepscope::importers
