#include "src/importers/tf_trace_json/tf_trace_json_importer.h"

#include <cstring>

#include "src/importers/assembler/trace_assembler.h"
#include "src/importers/chrome_json/chrome_json_importer.h"
#include "src/importers/chrome_json/chrome_trace_parser.h"
#include "src/importers/json/json_text.h"
#include "src/xspace/schema.h"

namespace stepscope::importers {
namespace {

using xspace::GetStatTypeStr;
using xspace::StatType;

bool IsPlaneName(std::string_view name) { return name.rfind("/device:", 0) == 0 || name.rfind("/host:", 0) == 0; }

class TfTraceParser : public ChromeTraceParser {
 public:
  using ChromeTraceParser::ChromeTraceParser;

 protected:
  void PrepareSlice(const RawTraceEvent& event, Slice* slice) override {
    if (const JsonArg* long_name = FindArg(event, "long_name")) {
      slice->display_storage = std::string(slice->name);
      slice->display_name = slice->display_storage;
      slice->name_storage = std::string(UnescapeJsonStringLenient(long_name->value.text(), &scratch_));
      slice->name = slice->name_storage;
    }
    const JsonArg* step = FindArg(event, "step_num");
    std::string_view process = ProcessName(current_pid());
    if (step == nullptr || process.rfind("/device:", 0) == 0) return;
    slice->flags |= kEventStepMarker;
    std::string suffix = " " + std::string(step->value.text());
    if (slice->name.size() > suffix.size() && slice->name.substr(slice->name.size() - suffix.size()) == suffix) {
      slice->display_storage = std::string(slice->name);
      slice->display_name = slice->display_storage;
      slice->name_storage = std::string(slice->name.substr(0, slice->name.size() - suffix.size()));
      slice->name = slice->name_storage;
    }
  }

  void AddSliceStats(const RawTraceEvent& event, const Slice& slice, EventRef ref) override {
    bool has_root = false;
    for (const JsonArg& arg : event.args) {
      if (arg.key == "long_name") continue;
      has_root = has_root || arg.key == "_r";
      std::optional<PendingStat> stat = ArgAsStat(arg);
      if (!stat) continue;
      if (arg.value.kind == JsonKind::kString) {
        // The viewer wrote every stat as a string: read it back as TraceMe args are read.
        std::string_view text = UnescapeJsonStringLenient(arg.value.text(), &scratch_);
        JsonNumber number = ParseJsonNumber(text);
        bool integer_text = number.kind == JsonNumberKind::kInt64 || number.kind == JsonNumberKind::kUint64;
        bool decimal_text = number.kind == JsonNumberKind::kDouble && text != "NaN" && text.find("Inf") == std::string_view::npos;
        if (integer_text) {
          stat->kind = number.kind == JsonNumberKind::kInt64 ? StatKind::kInt64 : StatKind::kUint64;
          stat->bits = number.kind == JsonNumberKind::kInt64 ? static_cast<uint64_t>(number.int_value) : number.uint_value;
        } else if (decimal_text) {
          stat->kind = StatKind::kDouble;
          std::memcpy(&stat->bits, &number.double_value, sizeof(stat->bits));
        }
      }
      assembler_->AddStat(ref, stat->key_id, stat->kind, stat->bits);
    }
    if ((slice.flags & kEventStepMarker) && !has_root) {
      assembler_->AddInt(ref, assembler_->Intern(GetStatTypeStr(StatType::kIsRoot)), 1);
    }
  }

  TrackPlacement PlaceTrack(const TrackKey& track) override {
    TrackPlacement placement = ChromeTraceParser::PlaceTrack(track);
    std::string_view process = ProcessName(track.pid);
    if (track.kind != TrackKind::kThread || !IsPlaneName(process)) return placement;
    placement.plane_name = std::string(process);
    placement.plane_id = TrailingInteger(process).value_or(0);
    placement.line_id = track.tid;
    std::string_view name = ThreadName(track.pid, track.tid);
    placement.line_name = name.empty() ? "Thread " + std::to_string(track.tid) : std::string(name);
    placement.line_display_name.clear();
    return placement;
  }

 private:
  std::string scratch_;
};

}  // namespace

int TfTraceJsonImporter::Sniff(std::string_view head) const {
  if (ChromeJsonImporter().Sniff(head) == kSniffNo) return kSniffNo;
  if (HeadContains(head, "\"name\":\"/device:") ||
      HeadContains(head, "\"name\":\"/host:") ||
      HeadContains(head, "\"name\": \"/device:") ||
      HeadContains(head, "\"name\": \"/host:")) {
    return kSniffCertain;
  }
  if (HeadContains(head, "\"highres-ticks\"")) return kSniffLikely - 10;
  return kSniffNo;
}

Status TfTraceJsonImporter::Import(ByteSource& source, const ImportOptions& options, const ImportOutput& output,
                                   ImportStats* stats) const {
  stats->format = std::string(name());
  TraceAssembler assembler(stats);
  TfTraceParser parser(&assembler, stats, options);
  return RunChromeTraceImport(source, options, parser, assembler, output, stats);
}

}  // namespace stepscope::importers
