#include "src/xspace/columnar/xspace_to_columnar.h"

#include <cstring>
#include <string>
#include <vector>

#include "src/base/utf8.h"
#include "src/xspace/columnar/columnar_finalize.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/read_rules.h"

namespace stepscope::xspace {
namespace {

// Line timestamps below this are taken as relative to the profile start (the reader's
// rule, columnar_reader.cc).
constexpr int64_t kNormalizedLimitNs = 1'000'000'000'000'000;

// XSpaceMessageToColumnar's walk. Mirrors the reader field by field, in the order the
// serializer writes fields (by number; maps in iteration order), so that strings are
// interned and metadata laid out in the same order. A proto3 scalar equal to 0 is
// absent on the wire, which is why a line's timestamp 0 is "no timestamp" here.
class MessageWalker {
 public:
  explicit MessageWalker(std::string_view what) : what_(what) {}

  Status Run(const XSpace& message, ColumnarXSpace* space) {
    space_ = space;
    space->planes.reserve(message.planes_size());
    for (const XPlane& plane : message.planes()) {
      space->planes.emplace_back();
      Status status = ConvertPlane(plane, &space->planes.back());
      if (!status.ok()) return status;
    }
    if (!CopyStrings(message.errors(), &space->errors) || !CopyStrings(message.warnings(), &space->warnings) ||
        !CopyStrings(message.hostnames(), &space->hostnames)) {
      return status_;
    }
    if (space->planes.empty()) return DataLossError(std::string(what_) + ": " + std::string(kNoPlanesMessage));
    return OkStatus();
  }

 private:
  bool Utf8(const std::string& s, const char* where) {
    if (base::IsValidUtf8(s)) return true;
    status_ = DataLossError(std::string(what_) + ": " + where + " is not valid UTF-8");
    return false;
  }

  bool CopyStrings(const google::protobuf::RepeatedPtrField<std::string>& from, std::vector<std::string>* to) {
    for (const std::string& s : from) {
      if (!Utf8(s, "XSpace string")) return false;
      to->push_back(s);
    }
    return true;
  }

  Status Exhausted(const char* what) const { return ResourceExhaustedError(std::string(what_) + ": " + what); }

  int64_t LineBasePs(int64_t timestamp_ns) {
    if (!origin_set_) {
      origin_set_ = true;
      origin_ns_ = (timestamp_ns > -kNormalizedLimitNs && timestamp_ns < kNormalizedLimitNs) ? 0 : timestamp_ns;
      space_->time_origin_ns = origin_ns_;
    }
    uint64_t relative_ns = static_cast<uint64_t>(timestamp_ns) - static_cast<uint64_t>(origin_ns_);
    return static_cast<int64_t>(relative_ns * 1000);
  }

  Status ConvertPlane(const XPlane& message, ColumnarPlane* plane) {
    PlaneIds ids;
    plane->id = message.id();
    if (!Utf8(message.name(), "XPlane.name")) return status_;
    plane->name = message.name();
    uint64_t events = 0, stats = 0;
    for (const XLine& line : message.lines()) {
      events += static_cast<uint64_t>(line.events_size());
      for (const XEvent& event : line.events()) stats += static_cast<uint64_t>(event.stats_size());
    }
    // Indices are 32-bit: the reader's bound.
    if (events > UINT32_MAX - 2) return Exhausted("more than 2^32 events in one plane");
    if (stats > UINT32_MAX - 2) return Exhausted("more than 2^32 stats in one plane");
    if (!plane->ReserveMore(events, stats)) return Exhausted("out of memory for events");
    plane->lines.reserve(message.lines_size());
    for (const XLine& line : message.lines()) {
      if (!ConvertLine(line, plane, &ids)) return status_;
    }
    for (const auto& [key, value] : message.event_metadata()) {
      RawEventMetadata& entry = ids.event_metadata.emplace_back();
      entry.key = key;
      if (!Utf8(value.name(), "XEventMetadata.name") || !Utf8(value.display_name(), "XEventMetadata.display_name")) {
        return status_;
      }
      entry.name = value.name();
      entry.display_name = value.display_name();
      for (const XStat& stat : value.stats()) {
        if (!ConvertStat(stat, plane, &ids, &entry.stats.emplace_back())) return status_;
      }
    }
    for (const auto& [key, value] : message.stat_metadata()) {
      if (!Utf8(value.name(), "XStatMetadata.name") || !Utf8(value.description(), "XStatMetadata.description")) {
        return status_;
      }
      ColumnarStatMetadata& entry = plane->stat_metadata.emplace_back();
      entry.id = key;
      entry.name = value.name();
    }
    for (const XStat& stat : message.stats()) {
      if (!ConvertStat(stat, plane, &ids, &ids.plane_stats.emplace_back())) return status_;
    }
    Status status = FinalizePlane(&ids, plane);
    if (!status.ok()) return status.WithContext(std::string(what_) + ": plane '" + plane->name + "'");
    return OkStatus();
  }

  bool ConvertLine(const XLine& message, ColumnarPlane* plane, PlaneIds* ids) {
    ColumnarLine& line = plane->lines.emplace_back();
    line.id = message.id();
    line.display_id = message.display_id();
    if (!Utf8(message.name(), "XLine.name") || !Utf8(message.display_name(), "XLine.display_name")) return false;
    line.name = message.name();
    line.display_name = message.display_name();
    line.timestamp_ns = message.timestamp_ns();
    line.duration_ps = message.duration_ps();
    const int64_t base_ps = line.timestamp_ns != 0 ? LineBasePs(line.timestamp_ns) : 0;
    line.event_begin = plane->num_events();
    for (const XEvent& event : message.events()) {
      const uint32_t stats_begin = plane->num_stats();
      for (const XStat& stat : event.stats()) {
        ColumnarStat columnar;
        if (!ConvertStat(stat, plane, ids, &columnar)) return false;
        plane->AppendEventStat(columnar);
      }
      uint64_t offset_ps = static_cast<uint64_t>(event.offset_ps());
      if (event.data_case() == XEvent::kNumOccurrences) {
        offset_ps = 0;
        ids->aggregated.emplace_back(plane->num_events(), event.num_occurrences());
      }
      plane->AppendEvent(static_cast<int64_t>(offset_ps + static_cast<uint64_t>(base_ps)), event.duration_ps(),
                         ids->EncodeEventId(event.metadata_id()), stats_begin);
    }
    line.event_end = plane->num_events();
    return true;
  }

  bool ConvertStat(const XStat& message, ColumnarPlane* plane, PlaneIds* ids, ColumnarStat* stat) {
    stat->kind = StatKind::kNone;
    stat->payload = 0;
    switch (message.value_case()) {
      case XStat::kDoubleValue: {
        double value = message.double_value();
        stat->kind = StatKind::kDouble;
        static_assert(sizeof(value) == sizeof(stat->payload));
        std::memcpy(&stat->payload, &value, sizeof(value));
        break;
      }
      case XStat::kUint64Value:
        stat->kind = StatKind::kUint64;
        stat->payload = message.uint64_value();
        break;
      case XStat::kInt64Value:
        stat->kind = StatKind::kInt64;
        stat->payload = static_cast<uint64_t>(message.int64_value());
        break;
      case XStat::kStrValue:
        if (!Utf8(message.str_value(), "XStat.str_value")) return false;
        stat->kind = StatKind::kStr;
        stat->payload = ids->InternString(message.str_value(), plane);
        break;
      case XStat::kBytesValue:
        stat->kind = StatKind::kBytes;
        stat->payload = ids->InternString(message.bytes_value(), plane);
        break;
      case XStat::kRefValue:
        stat->kind = StatKind::kRef;
        stat->payload = message.ref_value();
        break;
      case XStat::VALUE_NOT_SET: break;
    }
    stat->metadata_index = ids->EncodeStatId(message.metadata_id());
    return true;
  }

  std::string_view what_;
  ColumnarXSpace* space_ = nullptr;
  Status status_;
  bool origin_set_ = false;
  int64_t origin_ns_ = 0;
};

}  // namespace

StatusOr<ColumnarXSpace> ConvertXSpaceToColumnar(const XSpace& space) {
  std::string bytes;
  if (!space.SerializeToString(&bytes)) {
    return ResourceExhaustedError("in-memory XSpace cannot be serialized (over 2 GiB?)");
  }
  return ParseColumnarXSpace(bytes, "in-memory XSpace");
}

StatusOr<ColumnarXSpace> XSpaceMessageToColumnar(const XSpace& space, std::string_view what) {
  ColumnarXSpace columnar;
  Status status = MessageWalker(what).Run(space, &columnar);
  if (!status.ok()) return status;
  return columnar;
}

}  // namespace stepscope::xspace
