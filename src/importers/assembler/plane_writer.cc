#include "src/importers/assembler/plane_writer.h"

#include <algorithm>
#include <cstring>

#include "src/base/utf8.h"

namespace stepscope::importers {

LateStatIndex::LateStatIndex(const LateStats& late) {
  if (late.empty()) return;
  uint32_t seq_bound = 0;
  for (const LateStat& stat : late) seq_bound = std::max(seq_bound, stat.seq + 1);
  begin_.assign(static_cast<size_t>(seq_bound) + 1, 0);
  for (const LateStat& stat : late) ++begin_[stat.seq + 1];
  for (size_t i = 1; i < begin_.size(); ++i) begin_[i] += begin_[i - 1];
  ordered_.resize(late.size());
  std::vector<uint32_t> next(begin_.begin(), begin_.end() - 1);
  for (const LateStat& stat : late) ordered_[next[stat.seq]++] = stat;
}

// ---- XPlaneWriter ----

int64_t XPlaneWriter::EventMetadataId(uint32_t name_id, uint32_t display_name_id) {
  auto [id, added] = ids_.EventId(name_id, display_name_id);
  if (added) {
    xspace::XEventMetadata& metadata = (*plane_->mutable_event_metadata())[id];
    metadata.set_id(id);
    metadata.set_name(std::string(strings_.Get(name_id)));
    if (display_name_id != 0) metadata.set_display_name(std::string(strings_.Get(display_name_id)));
  }
  return id;
}

int64_t XPlaneWriter::StatMetadataId(uint32_t string_id) {
  auto [id, added] = ids_.StatId(string_id);
  if (added) {
    xspace::XStatMetadata& metadata = (*plane_->mutable_stat_metadata())[id];
    metadata.set_id(id);
    metadata.set_name(std::string(strings_.Get(string_id)));
  }
  return id;
}

void XPlaneWriter::WritePlaneStats(std::span<const PendingStat> stats) {
  for (const PendingStat& stat : stats) SetStat(plane_->add_stats(), stat);
}

uint64_t XPlaneWriter::WriteLine(const LineHeader& header, const PendingEvents& events, const PendingLine& storage,
                                 const LateStatIndex& late, int64_t origin_ps) {
  xspace::XLine* out = plane_->add_lines();
  out->set_id(header.id);
  out->set_name(header.name);
  if (!header.display_name.empty()) out->set_display_name(header.display_name);
  out->set_timestamp_ns(0);
  out->mutable_events()->Reserve(static_cast<int>(events.size()));
  for (const PendingEvent& event : events) {
    xspace::XEvent* xevent = out->add_events();
    xevent->set_metadata_id(EventMetadataId(event.name_id, event.display_name_id));
    xevent->set_offset_ps(event.timestamp_ps - origin_ps);
    xevent->set_duration_ps(event.duration_ps);
    std::span<const LateStat> late_stats = late.Of(event.seq);
    int total = event.stats_count + static_cast<int>(late_stats.size());
    if (total == 0) continue;
    xevent->mutable_stats()->Reserve(total);
    for (uint32_t i = 0; i < event.stats_count; ++i) SetStat(xevent->add_stats(), storage.stats[event.stats_begin + i]);
    for (const LateStat& stat : late_stats) SetStat(xevent->add_stats(), stat.stat);
  }
  return events.size();
}

void XPlaneWriter::SetStat(xspace::XStat* out, const PendingStat& stat) {
  out->set_metadata_id(StatMetadataId(stat.key_id));
  switch (stat.kind) {
    case StatKind::kInt64:
      out->set_int64_value(static_cast<int64_t>(stat.bits));
      break;
    case StatKind::kUint64:
      out->set_uint64_value(stat.bits);
      break;
    case StatKind::kDouble: {
      double value;
      std::memcpy(&value, &stat.bits, sizeof(value));
      out->set_double_value(value);
      break;
    }
    case StatKind::kRef:
      out->set_ref_value(static_cast<uint64_t>(StatMetadataId(static_cast<uint32_t>(stat.bits))));
      break;
    case StatKind::kStr:
      out->set_str_value(std::string(strings_.Get(static_cast<uint32_t>(stat.bits))));
      break;
  }
}

// ---- ColumnarPlaneWriter ----

ColumnarPlaneWriter::ColumnarPlaneWriter(const StringTable& strings, int64_t id, std::string_view name,
                                         uint64_t events, uint64_t stats, xspace::ColumnarPlane* plane)
    : strings_(strings), plane_(plane) {
  plane->id = id;
  plane->name = std::string(name);
  CheckUtf8(name, "XPlane.name");
  // Indices are 32-bit: the reader's bound.
  if (events > UINT32_MAX - 2) {
    status_ = ResourceExhaustedError("more than 2^32 events in one plane");
  } else if (stats > UINT32_MAX - 2) {
    status_ = ResourceExhaustedError("more than 2^32 stats in one plane");
  } else if (!plane->ReserveMore(events, stats)) {
    status_ = ResourceExhaustedError("out of memory for events");
  }
}

void ColumnarPlaneWriter::CheckUtf8(std::string_view text, const char* where) {
  if (status_.ok() && !base::IsValidUtf8(text)) status_ = DataLossError(std::string(where) + " is not valid UTF-8");
}

uint32_t ColumnarPlaneWriter::EventMetadataId(uint32_t name_id, uint32_t display_name_id) {
  auto [id, added] = ids_.EventId(name_id, display_name_id);
  if (added) {
    xspace::RawEventMetadata& metadata = raw_.event_metadata.emplace_back();
    metadata.key = id;
    metadata.name = std::string(strings_.Get(name_id));
    if (display_name_id != 0) metadata.display_name = std::string(strings_.Get(display_name_id));
    CheckUtf8(metadata.name, "XEventMetadata.name");
    CheckUtf8(metadata.display_name, "XEventMetadata.display_name");
  }
  return id;
}

uint32_t ColumnarPlaneWriter::StatMetadataId(uint32_t string_id) {
  auto [id, added] = ids_.StatId(string_id);
  if (added) {
    xspace::ColumnarStatMetadata& metadata = plane_->stat_metadata.emplace_back();
    metadata.id = id;
    metadata.name = std::string(strings_.Get(string_id));
    CheckUtf8(metadata.name, "XStatMetadata.name");
  }
  return id;
}

xspace::ColumnarStat ColumnarPlaneWriter::Convert(const PendingStat& stat) {
  xspace::ColumnarStat out;
  out.metadata_index = raw_.EncodeStatId(StatMetadataId(stat.key_id));
  out.payload = stat.bits;  // integers and doubles as bits, as the reader keeps them
  switch (stat.kind) {
    case StatKind::kInt64: out.kind = xspace::StatKind::kInt64; break;
    case StatKind::kUint64: out.kind = xspace::StatKind::kUint64; break;
    case StatKind::kDouble: out.kind = xspace::StatKind::kDouble; break;
    case StatKind::kRef:
      out.kind = xspace::StatKind::kRef;
      out.payload = StatMetadataId(static_cast<uint32_t>(stat.bits));
      break;
    case StatKind::kStr: {
      std::string_view value = strings_.Get(static_cast<uint32_t>(stat.bits));
      CheckUtf8(value, "XStat.str_value");
      out.kind = xspace::StatKind::kStr;
      out.payload = raw_.InternString(value, plane_);
      break;
    }
  }
  return out;
}

void ColumnarPlaneWriter::WritePlaneStats(std::span<const PendingStat> stats) {
  // Their metadata ids come first, as in the message; their values are converted in
  // Finish, after the events', as the reader meets them.
  for (const PendingStat& stat : stats) {
    StatMetadataId(stat.key_id);
    if (stat.kind == StatKind::kRef) StatMetadataId(static_cast<uint32_t>(stat.bits));
  }
  plane_stats_.assign(stats.begin(), stats.end());
}

uint64_t ColumnarPlaneWriter::WriteLine(const LineHeader& header, const PendingEvents& events,
                                        const PendingLine& storage, const LateStatIndex& late, int64_t origin_ps) {
  if (!status_.ok()) return 0;
  xspace::ColumnarLine& line = plane_->lines.emplace_back();
  line.id = header.id;
  line.name = header.name;
  line.display_name = header.display_name;
  CheckUtf8(line.name, "XLine.name");
  CheckUtf8(line.display_name, "XLine.display_name");
  line.event_begin = plane_->num_events();
  for (const PendingEvent& event : events) {
    const uint32_t stats_begin = plane_->num_stats();
    for (uint32_t i = 0; i < event.stats_count; ++i) {
      plane_->AppendEventStat(Convert(storage.stats[event.stats_begin + i]));
    }
    for (const LateStat& stat : late.Of(event.seq)) plane_->AppendEventStat(Convert(stat.stat));
    plane_->AppendEvent(event.timestamp_ps - origin_ps, event.duration_ps,
                        raw_.EncodeEventId(EventMetadataId(event.name_id, event.display_name_id)), stats_begin);
  }
  line.event_end = plane_->num_events();
  return events.size();
}

Status ColumnarPlaneWriter::Finish() {
  for (const PendingStat& stat : plane_stats_) raw_.plane_stats.push_back(Convert(stat));
  if (!status_.ok()) return status_;
  return xspace::FinalizePlane(&raw_, plane_);
}

}  // namespace stepscope::importers
