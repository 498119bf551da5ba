#include "src/analysis/trace/trace_export.h"

#include <charconv>
#include <cstdio>
#include <queue>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "src/analysis/output/json_writer.h"
#include "src/analysis/trace/event_details.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using output::AppendJsonDouble;
using output::AppendJsonString;
using xspace::ColumnarPlane;
using xspace::ColumnarStat;
using xspace::StatKind;
using xspace::StatType;

// Integers JavaScript holds exactly.
constexpr uint64_t kMaxExactJsInteger = uint64_t{1} << 53;

void AppendInt(int64_t v, std::string* out) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, end);
}
void AppendUint(uint64_t v, std::string* out) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, end);
}

class Writer {
 public:
  explicit Writer(const ByteSink& sink) : sink_(sink) { buffer_.reserve(kExportChunkBytes + 4096); }
  std::string& buffer() { return buffer_; }
  // Hands the buffer to the sink once it is full; false when the sink gave up.
  bool MaybeFlush() { return buffer_.size() < kExportChunkBytes || Flush(); }
  bool Flush() {
    if (buffer_.empty()) return true;
    bytes_ += buffer_.size();
    bool ok = sink_(buffer_);
    buffer_.clear();
    return ok;
  }
  uint64_t bytes() const { return bytes_; }

 private:
  const ByteSink& sink_;
  std::string buffer_;
  uint64_t bytes_ = 0;
};

void AppendStatValue(const ColumnarPlane& plane, const ColumnarStat& stat, std::string* out) {
  switch (stat.kind) {
    case StatKind::kInt64: {
      int64_t v = static_cast<int64_t>(stat.payload);
      if (static_cast<uint64_t>(v < 0 ? -(v + 1) : v) < kMaxExactJsInteger) {
        AppendInt(v, out);
      } else {
        out->push_back('"');
        AppendInt(v, out);
        out->push_back('"');
      }
      return;
    }
    case StatKind::kUint64:
      if (stat.payload < kMaxExactJsInteger) {
        AppendUint(stat.payload, out);
      } else {
        out->push_back('"');
        AppendUint(stat.payload, out);
        out->push_back('"');
      }
      return;
    case StatKind::kDouble: AppendJsonDouble(ColumnarPlane::AsDouble(stat), out); return;
    default: AppendJsonString(plane.ToString(stat), out); return;
  }
}

struct TrackIds {
  int64_t pid = 0;
  int64_t tid = 0;
};

// pid/tid of every track (see the header for the rule).
std::vector<TrackIds> AssignIds(const TraceIndex& index) {
  std::vector<TrackIds> ids(index.tracks().size());
  for (size_t s = 0; s < index.sections().size(); ++s) {
    const TraceSection& section = index.sections()[s];
    std::multiset<int64_t> line_ids;
    for (uint32_t t : section.tracks) line_ids.insert(index.tracks()[t].line_id);
    for (size_t k = 0; k < section.tracks.size(); ++k) {
      const TraceTrack& track = index.tracks()[section.tracks[k]];
      bool usable = line_ids.count(track.line_id) == 1 && track.line_id >= INT32_MIN && track.line_id <= INT32_MAX;
      ids[section.tracks[k]] = TrackIds{static_cast<int64_t>(s) + 1, usable ? track.line_id : static_cast<int64_t>(k) + 1};
    }
  }
  return ids;
}

void AppendMetadataEvent(int64_t pid, const int64_t* tid, std::string_view name, std::string_view arg_key,
                         std::string_view string_value, int64_t int_value, bool is_int, std::string* out) {
  out->append("{\"ph\":\"M\",\"pid\":");
  AppendInt(pid, out);
  if (tid != nullptr) {
    out->append(",\"tid\":");
    AppendInt(*tid, out);
  }
  out->append(",\"name\":");
  AppendJsonString(name, out);
  out->append(",\"args\":{");
  AppendJsonString(arg_key, out);
  out->push_back(':');
  if (is_int) {
    AppendInt(int_value, out);
  } else {
    AppendJsonString(string_value, out);
  }
  out->append("}},\n");
}

// A flow endpoint of one event: which side it is and the id to pair on.
struct FlowMark {
  bool out = false;  // producer / launch
  bool in = false;   // consumer / kernel
  uint64_t id = 0;
  std::string_view category;
};

void AppendFlowEvent(const FlowMark& mark, const TrackIds& ids, int64_t start_ps, std::string* out) {
  for (int side = 0; side < 2; ++side) {
    bool is_out = side == 0;
    if ((is_out && !mark.out) || (!is_out && !mark.in)) continue;
    out->append(is_out ? "{\"ph\":\"s\"" : "{\"ph\":\"f\",\"bp\":\"e\"");
    out->append(",\"pid\":");
    AppendInt(ids.pid, out);
    out->append(",\"tid\":");
    AppendInt(ids.tid, out);
    out->append(",\"ts\":");
    AppendMicrosFromPs(start_ps, out);
    out->append(",\"id\":");
    AppendUint(mark.id, out);
    out->append(",\"cat\":");
    AppendJsonString(mark.category, out);
    out->append(",\"name\":");
    AppendJsonString(mark.category, out);
    out->append("},\n");
  }
}

}  // namespace

void AppendMicrosFromPs(int64_t ps, std::string* out) {
  uint64_t magnitude = ps < 0 ? static_cast<uint64_t>(-(ps + 1)) + 1 : static_cast<uint64_t>(ps);
  if (ps < 0) out->push_back('-');
  AppendUint(magnitude / 1'000'000, out);
  uint64_t fraction = magnitude % 1'000'000;
  if (fraction == 0) return;
  char digits[7];
  std::snprintf(digits, sizeof(digits), "%06llu", static_cast<unsigned long long>(fraction));
  int length = 6;
  while (length > 0 && digits[length - 1] == '0') --length;
  out->push_back('.');
  out->append(digits, static_cast<size_t>(length));
}

StatusOr<ExportFormat> ParseExportFormat(std::string_view name) {
  if (name == "chrome") return ExportFormat::kChrome;
  if (name == "perfetto") return ExportFormat::kPerfetto;
  return InvalidArgumentError("unknown export format '" + std::string(name) + "'; formats: chrome, perfetto");
}

StatusOr<ExportStats> ExportTraceJson(const TraceIndex& index, ExportFormat format, const ByteSink& sink) {
  Writer writer(sink);
  ExportStats stats;
  std::string& out = writer.buffer();
  out.append("{\"displayTimeUnit\":\"ns\",\"metadata\":{\"highres-ticks\":true,\"producer\":\"stepscope\"},"
             "\"traceEvents\":[\n");
  const std::vector<TrackIds> ids = AssignIds(index);
  const bool several_hosts = index.hosts().size() > 1;
  for (size_t s = 0; s < index.sections().size(); ++s) {
    const TraceSection& section = index.sections()[s];
    const int64_t pid = static_cast<int64_t>(s) + 1;
    std::string name = several_hosts ? section.host + " " + section.name : section.name;
    AppendMetadataEvent(pid, nullptr, "process_name", "name", name, 0, false, &out);
    AppendMetadataEvent(pid, nullptr, "process_sort_index", "sort_index", "", pid, true, &out);
    for (size_t k = 0; k < section.tracks.size(); ++k) {
      const TraceTrack& track = index.tracks()[section.tracks[k]];
      const int64_t tid = ids[section.tracks[k]].tid;
      AppendMetadataEvent(pid, &tid, "thread_name", "name", track.name, 0, false, &out);
      AppendMetadataEvent(pid, &tid, "thread_sort_index", "sort_index", "", static_cast<int64_t>(k), true, &out);
    }
  }
  const uint64_t source_count = index.hosts().size();
  for (uint32_t t = 0; t < index.tracks().size(); ++t) {
    const TraceTrack& track = index.tracks()[t];
    const ColumnarPlane& plane = index.plane_of(track);
    const bool on_device = index.sections()[track.section].kind == SectionKind::kDevice;
    const uint32_t correlation_stat = plane.stat_index(StatType::kCorrelationId);
    const uint32_t flow_stat = plane.stat_index(StatType::kFlow);
    // Time order across the track's rows (parents before children at equal starts).
    using Head = std::tuple<int64_t, uint32_t, uint64_t>;  // start, row, position
    std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
    for (uint32_t r = track.row_begin; r < track.row_end; ++r) {
      RowView row = index.row_view(r);
      if (row.size() > 0) heads.emplace(row.start(0), r, 0);
    }
    while (!heads.empty()) {
      auto [start, r, position] = heads.top();
      heads.pop();
      RowView row = index.row_view(r);
      if (position + 1 < row.size()) heads.emplace(row.start(position + 1), r, position + 1);
      const uint32_t event = row.event(position);
      const auto& metadata = plane.event_metadata[plane.event_metadata_index[event]];
      // Flow marks of this event (rarely more than one; extra ones are dropped).
      FlowMark marks[4];
      size_t mark_count = 0;
      auto note_flow = [&](const ColumnarStat& stat) {
        if (stat.kind != StatKind::kInt64 && stat.kind != StatKind::kUint64) return;
        if (stat.metadata_index == correlation_stat) {
          FlowMark mark;
          mark.out = !on_device;
          mark.in = on_device;
          mark.id = stat.payload * source_count + track.source;
          mark.category = "correlation";
          if (mark_count < 4) marks[mark_count++] = mark;
        } else if (stat.metadata_index == flow_stat) {
          XFlowValue flow = DecodeXFlow(stat.payload);
          FlowMark mark;
          mark.out = flow.direction != 1;
          mark.in = flow.direction != 2;
          mark.id = flow.id * source_count + track.source;
          mark.category = "flow";
          if (mark_count < 4) marks[mark_count++] = mark;
        }
      };
      out.append("{\"ph\":\"X\",\"pid\":");
      AppendInt(ids[t].pid, &out);
      out.append(",\"tid\":");
      AppendInt(ids[t].tid, &out);
      out.append(",\"ts\":");
      AppendMicrosFromPs(start, &out);
      out.append(",\"dur\":");
      AppendMicrosFromPs(row.duration(position), &out);
      out.append(",\"name\":");
      std::string_view shown = index.EventName(t, event);
      AppendJsonString(shown, &out);
      out.append(",\"args\":{");
      bool first = true;
      auto key = [&](std::string_view name) {
        if (!first) out.push_back(',');
        first = false;
        AppendJsonString(name, &out);
        out.push_back(':');
      };
      if (shown != metadata.name) {
        key("long_name");
        AppendJsonString(metadata.name, &out);
      }
      for (uint32_t i = metadata.stats_begin; i < metadata.stats_end; ++i) {
        const ColumnarStat& stat = plane.other_stats[i];
        key(plane.stat_name(stat));
        AppendStatValue(plane, stat, &out);
        note_flow(stat);
      }
      for (uint32_t i = plane.event_stats_begin[event], end = plane.event_stats_begin[event + 1]; i < end; ++i) {
        ColumnarStat stat = plane.event_stat(i);
        key(plane.stat_name(stat));
        AppendStatValue(plane, stat, &out);
        note_flow(stat);
      }
      out.push_back('}');
      if (format == ExportFormat::kPerfetto && mark_count > 0) {
        // Flow v2: one binding per event; the first link wins when an event has several.
        out.append(",\"bind_id\":");
        AppendUint(marks[0].id, &out);
        if (marks[0].out) out.append(",\"flow_out\":true");
        if (marks[0].in) out.append(",\"flow_in\":true");
        ++stats.flow_events;
      }
      out.append("},\n");
      ++stats.events;
      if (format == ExportFormat::kChrome) {
        for (size_t m = 0; m < mark_count; ++m) {
          const FlowMark& mark = marks[m];
          AppendFlowEvent(mark, ids[t], start, &out);
          stats.flow_events += (mark.out ? 1 : 0) + (mark.in ? 1 : 0);
        }
      }
      if (!writer.MaybeFlush()) return UnavailableError("the export was cancelled by its receiver");
    }
  }
  // No trailing comma in JSON: end with an empty object, as TensorFlow's converter does.
  out.append("{}]}\n");
  if (!writer.Flush()) return UnavailableError("the export was cancelled by its receiver");
  stats.bytes = writer.bytes();
  return stats;
}

}  // namespace stepscope::analysis::trace
