#include "src/xspace/columnar/columnar_writer.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/base/status_macros.h"
#include "src/xspace/columnar/wire_format.h"
#include "src/xspace/columnar/xplane_fields.h"

namespace stepscope::xspace {
namespace {

using wire::WireType;

size_t VarintSize(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}
size_t TagSize(uint32_t field) { return VarintSize(uint64_t{field} << 3); }
// An int64 is encoded as the varint of its two's complement (10 bytes when negative).
size_t Int64Size(uint32_t field, int64_t value) { return TagSize(field) + VarintSize(static_cast<uint64_t>(value)); }
// proto3: a scalar equal to its default is not written.
size_t OptionalInt64Size(uint32_t field, int64_t value) { return value == 0 ? 0 : Int64Size(field, value); }
size_t BytesSize(uint32_t field, size_t length) { return TagSize(field) + VarintSize(length) + length; }
size_t OptionalStringSize(uint32_t field, std::string_view text) {
  return text.empty() ? 0 : BytesSize(field, text.size());
}

// Buffered wire output into a sink (an OutputFile's Write); remembers the first failed
// write. Numbers are encoded straight into the buffer.
class WireWriter {
 public:
  explicit WireWriter(std::function<bool(std::string_view)> sink)
      : sink_(std::move(sink)), buffer_(new char[kBufferBytes]) {}

  void Varint(uint64_t value) {
    Room(10);
    while (value >= 0x80) {
      buffer_[used_++] = static_cast<char>(value | 0x80);
      value >>= 7;
    }
    buffer_[used_++] = static_cast<char>(value);
  }
  void Tag(uint32_t field, WireType type) { Varint(uint64_t{field} << 3 | type); }
  void Int64(uint32_t field, int64_t value) {
    Tag(field, wire::kVarint);
    Varint(static_cast<uint64_t>(value));
  }
  void OptionalInt64(uint32_t field, int64_t value) {
    if (value != 0) Int64(field, value);
  }
  void Fixed64(uint32_t field, uint64_t bits) {
    Tag(field, wire::kFixed64);
    Room(8);
    for (int i = 0; i < 8; ++i) buffer_[used_++] = static_cast<char>(bits >> (8 * i));  // little-endian
  }
  void Bytes(uint32_t field, std::string_view bytes) {
    LengthPrefix(field, bytes.size());
    if (bytes.size() > kBufferBytes - used_) {
      Flush();
      if (bytes.size() >= kBufferBytes) {
        if (ok_) ok_ = sink_(bytes);
        return;
      }
    }
    std::memcpy(buffer_.get() + used_, bytes.data(), bytes.size());
    used_ += bytes.size();
  }
  void OptionalString(uint32_t field, std::string_view text) {
    if (!text.empty()) Bytes(field, text);
  }
  // The key and length of an embedded message whose bytes follow.
  void LengthPrefix(uint32_t field, size_t length) {
    Tag(field, wire::kLengthDelimited);
    Varint(length);
  }

  // Writes what is buffered; false once any write failed.
  bool Flush() {
    if (ok_ && used_ > 0) ok_ = sink_(std::string_view(buffer_.get(), used_));
    used_ = 0;
    return ok_;
  }

 private:
  static constexpr size_t kBufferBytes = 1 << 20;

  void Room(size_t bytes) {
    if (kBufferBytes - used_ < bytes) Flush();
  }

  std::function<bool(std::string_view)> sink_;
  std::unique_ptr<char[]> buffer_;
  size_t used_ = 0;
  bool ok_ = true;
};

// One plane. Each message's size is computed from the same fields, in the same order, as
// its bytes are written; a line's size once (it walks every event), an event's twice.
class PlaneWriter {
 public:
  PlaneWriter(const ColumnarXSpace& space, const ColumnarPlane& plane) : space_(space), plane_(plane) {
    for (const auto& [event, occurrences] : plane.aggregated_events) occurrences_.emplace(event, occurrences);
    event_metadata_order_ = DefinedInIdOrder(plane.event_metadata);
    stat_metadata_order_ = DefinedInIdOrder(plane.stat_metadata);
    for (const ColumnarLine& line : plane.lines) line_bytes_.push_back(LineBytes(line));
  }

  size_t Bytes() const {
    size_t bytes = OptionalInt64Size(field::kPlaneId, plane_.id) + OptionalStringSize(field::kPlaneName, plane_.name);
    for (size_t line_bytes : line_bytes_) bytes += BytesSize(field::kPlaneLines, line_bytes);
    for (uint32_t m : event_metadata_order_) {
      bytes += BytesSize(field::kPlaneEventMetadata, EventMetadataEntryBytes(plane_.event_metadata[m]));
    }
    for (uint32_t m : stat_metadata_order_) {
      bytes += BytesSize(field::kPlaneStatMetadata, StatMetadataEntryBytes(plane_.stat_metadata[m]));
    }
    for (uint32_t i = plane_.plane_stats_begin; i < plane_.plane_stats_end; ++i) {
      bytes += BytesSize(field::kPlaneStats, StatBytes(plane_.other_stats[i]));
    }
    return bytes;
  }

  void Write(WireWriter& out) const {
    out.OptionalInt64(field::kPlaneId, plane_.id);
    out.OptionalString(field::kPlaneName, plane_.name);
    for (size_t l = 0; l < plane_.lines.size(); ++l) WriteLine(plane_.lines[l], line_bytes_[l], out);
    for (uint32_t m : event_metadata_order_) WriteEventMetadataEntry(plane_.event_metadata[m], out);
    for (uint32_t m : stat_metadata_order_) WriteStatMetadataEntry(plane_.stat_metadata[m], out);
    for (uint32_t i = plane_.plane_stats_begin; i < plane_.plane_stats_end; ++i) {
      WriteStat(field::kPlaneStats, plane_.other_stats[i], out);
    }
  }

 private:
  // Indices of the defined entries, by id: protobuf's deterministic map order.
  template <typename Metadata>
  static std::vector<uint32_t> DefinedInIdOrder(const std::vector<Metadata>& metadata) {
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < metadata.size(); ++i) {
      if (metadata[i].defined) order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return metadata[a].id < metadata[b].id; });
    return order;
  }

  // ---- XStat ----
  int64_t StatMetadataId(uint32_t index) const {
    return index < plane_.stat_metadata.size() ? plane_.stat_metadata[index].id : 0;
  }
  size_t StatBytes(const ColumnarStat& stat) const {
    size_t bytes = OptionalInt64Size(field::kStatMetadataId, StatMetadataId(stat.metadata_index));
    switch (stat.kind) {
      case StatKind::kNone: break;
      case StatKind::kDouble: bytes += TagSize(field::kStatDouble) + 8; break;
      case StatKind::kUint64: bytes += TagSize(field::kStatUint64) + VarintSize(stat.payload); break;
      case StatKind::kInt64: bytes += TagSize(field::kStatInt64) + VarintSize(stat.payload); break;
      case StatKind::kStr: bytes += BytesSize(field::kStatStr, StringOf(stat).size()); break;
      case StatKind::kBytes: bytes += BytesSize(field::kStatBytes, StringOf(stat).size()); break;
      case StatKind::kRef:
        bytes += TagSize(field::kStatRef) + VarintSize(static_cast<uint64_t>(StatMetadataId(RefIndex(stat))));
        break;
    }
    return bytes;
  }
  void WriteStat(uint32_t field_number, const ColumnarStat& stat, WireWriter& out) const {
    out.LengthPrefix(field_number, StatBytes(stat));
    out.OptionalInt64(field::kStatMetadataId, StatMetadataId(stat.metadata_index));
    switch (stat.kind) {
      case StatKind::kNone: break;
      case StatKind::kDouble: out.Fixed64(field::kStatDouble, stat.payload); break;
      case StatKind::kUint64:
        out.Tag(field::kStatUint64, wire::kVarint);
        out.Varint(stat.payload);
        break;
      case StatKind::kInt64:
        out.Tag(field::kStatInt64, wire::kVarint);
        out.Varint(stat.payload);
        break;
      case StatKind::kStr: out.Bytes(field::kStatStr, StringOf(stat)); break;
      case StatKind::kBytes: out.Bytes(field::kStatBytes, StringOf(stat)); break;
      case StatKind::kRef:
        out.Tag(field::kStatRef, wire::kVarint);
        out.Varint(static_cast<uint64_t>(StatMetadataId(RefIndex(stat))));
        break;
    }
  }
  std::string_view StringOf(const ColumnarStat& stat) const {
    return stat.payload < plane_.strings.size() ? std::string_view(plane_.strings[stat.payload]) : std::string_view();
  }
  static uint32_t RefIndex(const ColumnarStat& stat) { return static_cast<uint32_t>(stat.payload); }

  // ---- XEvent ----
  int64_t EventMetadataId(uint32_t event) const {
    const uint32_t index = plane_.event_metadata_index[event];
    return index < plane_.event_metadata.size() ? plane_.event_metadata[index].id : 0;
  }
  // The event's offset in its line, or its occurrences when it is aggregated.
  struct EventTiming {
    bool aggregated = false;
    int64_t value = 0;
  };
  EventTiming TimingOf(uint32_t event, int64_t line_base_ps) const {
    if (!occurrences_.empty()) {
      auto it = occurrences_.find(event);
      if (it != occurrences_.end()) return {true, it->second};
    }
    return {false, static_cast<int64_t>(static_cast<uint64_t>(plane_.event_start_ps[event]) -
                                        static_cast<uint64_t>(line_base_ps))};
  }
  size_t EventBytes(uint32_t event, int64_t line_base_ps) const {
    const EventTiming timing = TimingOf(event, line_base_ps);
    size_t bytes = OptionalInt64Size(field::kEventMetadataId, EventMetadataId(event)) +
                   Int64Size(timing.aggregated ? field::kEventNumOccurrences : field::kEventOffsetPs, timing.value) +
                   OptionalInt64Size(field::kEventDurationPs, plane_.duration_ps(event));
    for (uint32_t i = plane_.event_stats_begin[event], end = plane_.event_stats_begin[event + 1]; i < end; ++i) {
      bytes += BytesSize(field::kEventStats, StatBytes(plane_.event_stat(i)));
    }
    return bytes;
  }
  void WriteEvent(uint32_t event, int64_t line_base_ps, WireWriter& out) const {
    out.LengthPrefix(field::kLineEvents, EventBytes(event, line_base_ps));
    const EventTiming timing = TimingOf(event, line_base_ps);
    out.OptionalInt64(field::kEventMetadataId, EventMetadataId(event));
    if (!timing.aggregated) out.Int64(field::kEventOffsetPs, timing.value);
    out.OptionalInt64(field::kEventDurationPs, plane_.duration_ps(event));
    for (uint32_t i = plane_.event_stats_begin[event], end = plane_.event_stats_begin[event + 1]; i < end; ++i) {
      WriteStat(field::kEventStats, plane_.event_stat(i), out);
    }
    if (timing.aggregated) out.Int64(field::kEventNumOccurrences, timing.value);
  }

  // ---- XLine ----
  // Event starts are (timestamp_ns - time_origin_ns) * 1000 + offset_ps on the columns'
  // timeline (ColumnarXSpace::time_origin_ns); wrapping arithmetic, as the reader's.
  int64_t LineBasePs(const ColumnarLine& line) const {
    return static_cast<int64_t>((static_cast<uint64_t>(line.timestamp_ns) - static_cast<uint64_t>(space_.time_origin_ns)) *
                                1000);
  }
  size_t LineBytes(const ColumnarLine& line) const {
    const int64_t base = LineBasePs(line);
    size_t bytes = OptionalInt64Size(field::kLineId, line.id) + OptionalStringSize(field::kLineName, line.name) +
                   OptionalInt64Size(field::kLineTimestampNs, line.timestamp_ns) +
                   OptionalInt64Size(field::kLineDurationPs, line.duration_ps) +
                   OptionalInt64Size(field::kLineDisplayId, line.display_id) +
                   OptionalStringSize(field::kLineDisplayName, line.display_name);
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) {
      bytes += BytesSize(field::kLineEvents, EventBytes(e, base));
    }
    return bytes;
  }
  void WriteLine(const ColumnarLine& line, size_t line_bytes, WireWriter& out) const {
    out.LengthPrefix(field::kPlaneLines, line_bytes);
    out.OptionalInt64(field::kLineId, line.id);
    out.OptionalString(field::kLineName, line.name);
    out.OptionalInt64(field::kLineTimestampNs, line.timestamp_ns);
    const int64_t base = LineBasePs(line);
    for (uint32_t e = line.event_begin; e < line.event_end; ++e) WriteEvent(e, base, out);
    out.OptionalInt64(field::kLineDurationPs, line.duration_ps);
    out.OptionalInt64(field::kLineDisplayId, line.display_id);
    out.OptionalString(field::kLineDisplayName, line.display_name);
  }

  // ---- metadata map entries (key, then value, both always written) ----
  size_t EventMetadataBytes(const ColumnarEventMetadata& metadata) const {
    size_t bytes = OptionalInt64Size(field::kEventMetadataIdField, metadata.id) +
                   OptionalStringSize(field::kEventMetadataName, metadata.name) +
                   OptionalStringSize(field::kEventMetadataDisplayName, metadata.display_name);
    for (uint32_t i = metadata.stats_begin; i < metadata.stats_end; ++i) {
      bytes += BytesSize(field::kEventMetadataStats, StatBytes(plane_.other_stats[i]));
    }
    return bytes;
  }
  size_t EventMetadataEntryBytes(const ColumnarEventMetadata& metadata) const {
    return Int64Size(field::kMapKey, metadata.id) + BytesSize(field::kMapValue, EventMetadataBytes(metadata));
  }
  void WriteEventMetadataEntry(const ColumnarEventMetadata& metadata, WireWriter& out) const {
    out.LengthPrefix(field::kPlaneEventMetadata, EventMetadataEntryBytes(metadata));
    out.Int64(field::kMapKey, metadata.id);
    out.LengthPrefix(field::kMapValue, EventMetadataBytes(metadata));
    out.OptionalInt64(field::kEventMetadataIdField, metadata.id);
    out.OptionalString(field::kEventMetadataName, metadata.name);
    out.OptionalString(field::kEventMetadataDisplayName, metadata.display_name);
    for (uint32_t i = metadata.stats_begin; i < metadata.stats_end; ++i) {
      WriteStat(field::kEventMetadataStats, plane_.other_stats[i], out);
    }
  }
  static size_t StatMetadataBytes(const ColumnarStatMetadata& metadata) {
    return OptionalInt64Size(field::kStatMetadataIdField, metadata.id) +
           OptionalStringSize(field::kStatMetadataName, metadata.name);
  }
  static size_t StatMetadataEntryBytes(const ColumnarStatMetadata& metadata) {
    return Int64Size(field::kMapKey, metadata.id) + BytesSize(field::kMapValue, StatMetadataBytes(metadata));
  }
  static void WriteStatMetadataEntry(const ColumnarStatMetadata& metadata, WireWriter& out) {
    out.LengthPrefix(field::kPlaneStatMetadata, StatMetadataEntryBytes(metadata));
    out.Int64(field::kMapKey, metadata.id);
    out.LengthPrefix(field::kMapValue, StatMetadataBytes(metadata));
    out.OptionalInt64(field::kStatMetadataIdField, metadata.id);
    out.OptionalString(field::kStatMetadataName, metadata.name);
  }

  const ColumnarXSpace& space_;
  const ColumnarPlane& plane_;
  std::unordered_map<uint32_t, int64_t> occurrences_;  // aggregated event -> num_occurrences
  std::vector<uint32_t> event_metadata_order_;
  std::vector<uint32_t> stat_metadata_order_;
  std::vector<size_t> line_bytes_;  // each line's message, computed once
};

// Streams `space` into `sink`; false from the sink ends the writing.
Status WriteColumnarXSpaceTo(const ColumnarXSpace& space, std::function<bool(std::string_view)> sink) {
  for (const ColumnarPlane& plane : space.planes) {
    if (plane.memory_in_records) {
      return UnimplementedError("plane '" + plane.name +
                                "' holds its memory events as records, not stats: it cannot be written as an XSpace");
    }
  }
  WireWriter out(std::move(sink));
  for (const ColumnarPlane& plane : space.planes) {
    const PlaneWriter writer(space, plane);
    out.LengthPrefix(field::kSpacePlanes, writer.Bytes());
    writer.Write(out);
  }
  // Repeated strings are written even when empty.
  for (const std::string& error : space.errors) out.Bytes(field::kSpaceErrors, error);
  for (const std::string& warning : space.warnings) out.Bytes(field::kSpaceWarnings, warning);
  for (const std::string& hostname : space.hostnames) out.Bytes(field::kSpaceHostnames, hostname);
  if (!out.Flush()) return IoError("cannot write the XSpace (see the file's error on close)");
  return OkStatus();
}

}  // namespace

Status WriteColumnarXSpace(const ColumnarXSpace& space, base::OutputFile* file) {
  return WriteColumnarXSpaceTo(space, [file](std::string_view bytes) { return file->Write(bytes); });
}

StatusOr<std::string> SerializeColumnarXSpace(const ColumnarXSpace& space) {
  std::string bytes;
  STEPSCOPE_RETURN_IF_ERROR(WriteColumnarXSpaceTo(space, [&bytes](std::string_view more) {
    bytes.append(more);
    return true;
  }));
  return bytes;
}

Status WriteColumnarXSpaceFile(const std::string& path, const ColumnarXSpace& space) {
  return base::WriteOutputFile(path, {.sync = true}, [&](base::OutputFile* file) {
    Status written = WriteColumnarXSpace(space, file);
    return written.ok() ? written : written.WithContext(path);
  });
}

}  // namespace stepscope::xspace
