#include "src/xspace/columnar/columnar_reader.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "src/base/for_each_index.h"
#include "src/base/utf8.h"
#include "src/xspace/columnar/columnar_finalize.h"
#include "src/xspace/columnar/columnar_memory_decoder.h"
#include "src/xspace/columnar/wire_format.h"
#include "src/xspace/columnar/xplane_fields.h"
#include "src/xspace/read_rules.h"

namespace stepscope::xspace {
namespace {

using wire::WireCursor;

// How often (in bytes consumed) on_consumed runs. 16 MiB: a small window against the
// columns built meanwhile, and madvise calls stay rare.
constexpr uint64_t kProgressIntervalBytes = 16ull << 20;
// Line timestamps below this (~11.6 days in ns) are taken as already relative to the
// profile start, as TF and stepscope save them, and kept as they are. Larger ones are
// wall-clock ns, whose picoseconds overflow int64, so they are made relative.
constexpr int64_t kNormalizedLimitNs = 1'000'000'000'000'000;

// Where an XSpace's planes are, found without parsing them (their events are skipped as
// length-delimited fields), and the time origin the reader would fix.
struct SpaceLayout {
  std::vector<std::pair<const uint8_t*, const uint8_t*>> planes;
  bool origin_set = false;
  int64_t origin_ns = 0;
};

// The origin of ColumnarXSpace::time_origin_ns for a line timestamp.
int64_t OriginFor(int64_t timestamp_ns) {
  return (timestamp_ns > -kNormalizedLimitNs && timestamp_ns < kNormalizedLimitNs) ? 0 : timestamp_ns;
}

class Parser {
 public:
  Parser(std::string_view bytes, std::string_view what, const std::function<void(uint64_t, uint64_t)>& on_consumed,
         const std::function<bool(std::string_view)>* memory_event_records = nullptr)
      : base_(reinterpret_cast<const uint8_t*>(bytes.data())),
        size_(bytes.size()),
        what_(what),
        on_consumed_(on_consumed),
        memory_event_records_(memory_event_records) {
    consumed_from_ = base_;
    next_progress_ = on_consumed_ ? base_ + kProgressIntervalBytes : base_ + size_ + 1;
  }

  // The top level of the space: plane ranges, the strings (into `space`) and the time
  // origin. False at the first malformed top-level field (FailureStatus says which); the
  // planes before it are in `layout`, for they come first in the file and may fail first.
  bool Scan(ColumnarXSpace* space, SpaceLayout* layout) {
    WireCursor c{base_, base_ + size_};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t key;
      if (!c.ReadVarint(&key)) return Fail(key_at, "XSpace field key");
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (type == wire::kLengthDelimited && number == field::kSpacePlanes) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XSpace.planes length");
        layout->planes.emplace_back(b, b + n);
        if (!layout->origin_set) ScanOrigin(b, b + n, layout);
        continue;
      }
      std::vector<std::string>* list = ListOf(space, number, type);
      if (list != nullptr) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return Fail(c.p, "XSpace string");
        if (!CheckUtf8(b, n, "XSpace string")) return false;
        std::string_view text(reinterpret_cast<const char*>(b), n);
        if (number == field::kSpaceHostnames) {
          list->emplace_back(text);
        } else {
          KeepMessage(text, list, number == field::kSpaceWarnings ? &dropped_warnings : &dropped_errors);
        }
        continue;
      }
      if (!Skip(c, type, number, key_at, "XSpace unknown field")) return false;
    }
    NoteDropped(dropped_warnings, "warnings", &space->warnings);
    NoteDropped(dropped_errors, "errors", &space->errors);
    return true;
  }

  // Parses one plane of a scanned space (another Parser may parse the next one at the
  // same time), reporting its consumed input from `begin` on.
  bool ParseOnePlane(const uint8_t* begin, const uint8_t* end, const SpaceLayout& layout, ColumnarPlane* plane) {
    origin_ns_ = layout.origin_ns;
    consumed_from_ = begin;
    next_progress_ = on_consumed_ ? begin + kProgressIntervalBytes : base_ + size_ + 1;
    if (!ParsePlane(begin, end, plane)) return false;
    if (on_consumed_) on_consumed_(static_cast<uint64_t>(consumed_from_ - base_), static_cast<uint64_t>(end - base_));
    return true;
  }

  Status FailureStatus() const {
    if (!status_.ok()) return status_;
    return DataLossError(std::string(what_) + ": truncated or corrupt XSpace at byte " +
                         std::to_string(error_at_ - base_) + " (" + error_where_ +
                         (invalid_utf8_ ? " is not valid UTF-8" : "") + ")");
  }

 private:

  // XSpace.warnings and .errors are diagnostics for people: a file of 1,000 warnings of
  // 1 MiB each (1 GB, 16 MB gzipped) made `analyze` hold and print all of it. At most
  // kMaxSpaceMessages of each are kept, each cut to kMaxSpaceMessageBytes; one last line
  // says how many more there were.
  struct Dropped {
    uint64_t count = 0;
    uint64_t bytes = 0;
  };

  static void KeepMessage(std::string_view text, std::vector<std::string>* list, Dropped* dropped) {
    if (list->size() >= kMaxSpaceMessages) {
      ++dropped->count;
      dropped->bytes += text.size();
      return;
    }
    if (text.size() <= kMaxSpaceMessageBytes) {
      list->emplace_back(text);
      return;
    }
    size_t cut = kMaxSpaceMessageBytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a whole UTF-8 character
    list->push_back(std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size() - cut) +
                    " more bytes not kept)");
  }

  static void NoteDropped(const Dropped& dropped, const char* what, std::vector<std::string>* list) {
    if (dropped.count == 0) return;
    list->push_back("... and " + std::to_string(dropped.count) + " more " + what + " (" +
                    std::to_string(dropped.bytes) + " bytes) not kept");
  }

  static std::vector<std::string>* ListOf(ColumnarXSpace* space, uint32_t number, uint32_t type) {
    if (type != wire::kLengthDelimited) return nullptr;
    return number == field::kSpaceErrors      ? &space->errors
           : number == field::kSpaceWarnings  ? &space->warnings
           : number == field::kSpaceHostnames ? &space->hostnames
                                              : nullptr;
  }

  // The origin LineBasePs fixes: the first line (in file order) with a timestamp gives
  // it - its first timestamp when that comes before the line's events, else its last
  // (ParseLine's rule). Malformed bytes end the search: that plane's parse fails anyway,
  // and with it the whole read, before any later plane's origin could matter.
  void ScanOrigin(const uint8_t* begin, const uint8_t* end, SpaceLayout* layout) {
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t key;
      if (!c.ReadVarint(&key)) return StopOriginSearch(layout);
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (type == wire::kLengthDelimited && number == field::kPlaneLines) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return StopOriginSearch(layout);
        bool events = false, found = false;
        int64_t last = 0;
        WireCursor line{b, b + n};
        while (!line.done()) {
          const uint8_t* line_key_at = line.p;
          uint64_t line_key;
          if (!line.ReadVarint(&line_key)) return StopOriginSearch(layout);
          uint32_t line_number = static_cast<uint32_t>(line_key >> 3), line_type = line_key & 7;
          if (line_type == wire::kVarint && line_number == field::kLineTimestampNs) {
            uint64_t v;
            if (!line.ReadVarint(&v)) return StopOriginSearch(layout);
            if (!found && !events) {
              // Before the line's events: this timestamp is the origin, whatever follows
              // (the events of a long line are not walked one by one).
              layout->origin_set = true;
              layout->origin_ns = OriginFor(static_cast<int64_t>(v));
              return;
            }
            found = true;
            last = static_cast<int64_t>(v);
            continue;
          }
          events = events || (line_type == wire::kLengthDelimited && line_number == field::kLineEvents);
          if (!Skip(line, line_type, line_number, line_key_at, "XLine field")) return StopOriginSearch(layout);
        }
        if (found) {
          layout->origin_set = true;
          layout->origin_ns = OriginFor(last);
          return;
        }
        continue;
      }
      if (!Skip(c, type, number, key_at, "XPlane field")) return StopOriginSearch(layout);
    }
  }

  static void StopOriginSearch(SpaceLayout* layout) { layout->origin_set = true; }

  bool Fail(const uint8_t* at, const char* where) {
    error_at_ = at;
    error_where_ = where;
    return false;
  }
  bool Exhausted(const char* what) {
    status_ = ResourceExhaustedError(std::string(what_) + ": " + what);
    return false;
  }

  // ps of a line's origin on the columnar timeline: (timestamp_ns - time origin) * 1000.
  // The origin is fixed by the first line of the file (see ColumnarXSpace::time_origin_ns),
  // found by Scan before any plane is parsed.
  int64_t LineBasePs(int64_t timestamp_ns) const {
    uint64_t relative_ns = static_cast<uint64_t>(timestamp_ns) - static_cast<uint64_t>(origin_ns_);
    return static_cast<int64_t>(relative_ns * 1000);
  }

  void MaybeReportProgress(const uint8_t* p) {
    if (p >= next_progress_) {
      on_consumed_(static_cast<uint64_t>(consumed_from_ - base_), static_cast<uint64_t>(p - base_));
      consumed_from_ = p;
      next_progress_ = p + kProgressIntervalBytes;
    }
  }

  // proto3 `string` fields must hold UTF-8 (protobuf refuses the message otherwise);
  // checked here too so that a file one reader refuses, the other refuses as well.
  bool CheckUtf8(const uint8_t* b, size_t n, const char* where) {
    if (base::IsValidUtf8(std::string_view(reinterpret_cast<const char*>(b), n))) return true;
    invalid_utf8_ = true;
    return Fail(b, where);
  }

  bool ReadString(WireCursor& c, std::string* out, const char* where) {
    const uint8_t* b;
    size_t n;
    if (!c.ReadLengthDelimited(&b, &n)) return Fail(c.p, where);
    if (!CheckUtf8(b, n, where)) return false;
    out->assign(reinterpret_cast<const char*>(b), n);
    return true;
  }

  bool Skip(WireCursor& c, uint32_t wire_type, uint32_t field_number, const uint8_t* key_at, const char* where) {
    if (!c.SkipField(wire_type, field_number)) return Fail(key_at, where);
    return true;
  }

  bool ParsePlane(const uint8_t* begin, const uint8_t* end, ColumnarPlane* plane) {
    PlaneIds ids;
    std::optional<MemoryRecordDecoder> memory;
    memory_ = nullptr;
    if (memory_event_records_ != nullptr && *memory_event_records_) {
      memory.emplace();
      std::string name;
      if (ScanMemoryMetadata(begin, end, &*memory, &name) && (*memory_event_records_)(name) && memory->Prepare()) {
        memory_ = &*memory;
        plane->memory_in_records = true;
        plane->memory.names.push_back({});  // value 0: none ("")
        plane->memory.ids.push_back({.use = MemoryValueUse::kIdName});
      }
    }
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t key;
      if (!c.ReadVarint(&key)) return Fail(key_at, "XPlane field key");
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (type == wire::kLengthDelimited) {
        const uint8_t* b;
        size_t n;
        switch (number) {
          case field::kPlaneName:
            if (!ReadString(c, &plane->name, "XPlane.name")) return false;
            continue;
          case field::kPlaneLines:
            if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XPlane.lines length");
            if (!ParseLine(b, b + n, plane, &ids)) return false;
            continue;
          case field::kPlaneEventMetadata:
            if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XPlane.event_metadata length");
            if (!ParseEventMetadataEntry(b, b + n, plane, &ids)) return false;
            continue;
          case field::kPlaneStatMetadata:
            if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XPlane.stat_metadata length");
            if (!ParseStatMetadataEntry(b, b + n, plane)) return false;
            continue;
          case field::kPlaneStats: {
            if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XPlane.stats length");
            ColumnarStat stat;
            if (!ParseStat(b, b + n, plane, &ids, &stat)) return false;
            ids.plane_stats.push_back(stat);
            continue;
          }
          default: break;
        }
      } else if (type == wire::kVarint && number == field::kPlaneId) {
        uint64_t v;
        if (!c.ReadVarint(&v)) return Fail(key_at, "XPlane.id");
        plane->id = static_cast<int64_t>(v);
        continue;
      }
      if (!Skip(c, type, number, key_at, "XPlane unknown field")) return false;
    }
    Status status = FinalizePlane(&ids, plane, memory_);
    memory_ = nullptr;
    if (!status.ok()) {
      status_ = status.WithContext(std::string(what_) + ": plane '" + plane->name + "'");
      return false;
    }
    return true;
  }

  bool ParseLine(const uint8_t* begin, const uint8_t* end, ColumnarPlane* plane, PlaneIds* ids) {
    // Every event and every stat takes at least 2 bytes (key + length), so this bounds
    // what the line can append; the events loop then appends without checks.
    // Indices are 32-bit, so never beyond 2^32 - 2 entries.
    const size_t bound = static_cast<size_t>(end - begin) / 2 + 1;
    const size_t events = std::min<size_t>(bound, UINT32_MAX - 2 - plane->num_events());
    const size_t stats = std::min<size_t>(bound, UINT32_MAX - 2 - plane->num_stats());
    if (!plane->ReserveMore(events, stats)) return Exhausted("out of memory for events");
    event_room_end_ = plane->num_events() + events;
    stat_room_end_ = plane->num_stats() + stats;
    ColumnarLine line;
    line.event_begin = plane->num_events();
    bool have_timestamp = false;
    int64_t base_ps = 0;  // added to offsets while parsing; corrected at the end if needed
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t key;
      if (!c.ReadVarint(&key)) return Fail(key_at, "XLine field key");
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (type == wire::kLengthDelimited) {
        if (number == field::kLineEvents) {
          const uint8_t* b;
          size_t n;
          if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XLine.events length");
          if (!ParseEvent(b, b + n, base_ps, plane, ids)) return false;
          MaybeReportProgress(c.p);
          continue;
        }
        if (number == field::kLineName) {
          if (!ReadString(c, &line.name, "XLine.name")) return false;
          continue;
        }
        if (number == field::kLineDisplayName) {
          if (!ReadString(c, &line.display_name, "XLine.display_name")) return false;
          continue;
        }
      } else if (type == wire::kVarint) {
        uint64_t v;
        switch (number) {
          case field::kLineId:
          case field::kLineTimestampNs:
          case field::kLineDurationPs:
          case field::kLineDisplayId:
            if (!c.ReadVarint(&v)) return Fail(key_at, "XLine varint field");
            if (number == field::kLineId) line.id = static_cast<int64_t>(v);
            if (number == field::kLineDurationPs) line.duration_ps = static_cast<int64_t>(v);
            if (number == field::kLineDisplayId) line.display_id = static_cast<int64_t>(v);
            if (number == field::kLineTimestampNs) {
              line.timestamp_ns = static_cast<int64_t>(v);
              if (!have_timestamp && plane->num_events() == line.event_begin) base_ps = LineBasePs(line.timestamp_ns);
              have_timestamp = true;
            }
            continue;
          default: break;
        }
      }
      if (!Skip(c, type, number, key_at, "XLine unknown field")) return false;
    }
    // The timestamp came after some events, or twice: move the line's events.
    int64_t final_base_ps = have_timestamp ? LineBasePs(line.timestamp_ns) : 0;
    line.event_end = plane->num_events();
    if (final_base_ps != base_ps) {
      int64_t delta = static_cast<int64_t>(static_cast<uint64_t>(final_base_ps) - static_cast<uint64_t>(base_ps));
      for (uint32_t i = line.event_begin; i < line.event_end; ++i) plane->ShiftEventStart(i, delta);
      if (memory_ != nullptr) memory_->ShiftLine(plane, line.event_begin);
    }
    plane->lines.push_back(std::move(line));
    return true;
  }

  bool ParseEvent(const uint8_t* begin, const uint8_t* end, int64_t base_ps, ColumnarPlane* plane,
                  PlaneIds* ids) {
    if (memory_ != nullptr) {
      switch (ParseMemoryEvent(begin, end, base_ps, plane, ids)) {
        case FastPath::kDone: return true;
        case FastPath::kExhausted: return false;
        case FastPath::kNotTaken: break;
      }
    }
    uint64_t metadata_id = 0, offset_ps = 0, duration_ps = 0, num_occurrences = 0;
    bool aggregated = false;
    const uint32_t stats_begin = plane->num_stats();
    const size_t wide_begin = plane->wide_payloads.size();
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      // Fast dispatch on the one-byte keys of the known fields (what every writer emits);
      // anything else takes the general path below.
      switch (*c.p) {
        case (field::kEventMetadataId << 3) | wire::kVarint:
          ++c.p;
          if (!c.ReadVarint(&metadata_id)) return Fail(key_at, "XEvent.metadata_id");
          continue;
        case (field::kEventOffsetPs << 3) | wire::kVarint:
          ++c.p;
          if (!c.ReadVarint(&offset_ps)) return Fail(key_at, "XEvent.offset_ps");
          aggregated = false;
          continue;
        case (field::kEventDurationPs << 3) | wire::kVarint:
          ++c.p;
          if (!c.ReadVarint(&duration_ps)) return Fail(key_at, "XEvent.duration_ps");
          continue;
        case (field::kEventStats << 3) | wire::kLengthDelimited: {
          ++c.p;
          const uint8_t* b;
          size_t n;
          if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XStat length");
          ColumnarStat stat;
          if (!ParseIntegerStat(b, b + n, ids, &stat) && !ParseStat(b, b + n, plane, ids, &stat)) return false;
          if (plane->num_stats() >= stat_room_end_) return Exhausted("more than 2^32 stats in one plane");
          plane->AppendEventStat(stat);
          continue;
        }
        default: break;
      }
      uint64_t key;
      if (!c.ReadVarint(&key)) return Fail(key_at, "XEvent field key");
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (type == wire::kVarint) {
        uint64_t v;
        if (number <= field::kEventNumOccurrences && number != field::kEventStats) {
          if (!c.ReadVarint(&v)) return Fail(key_at, "XEvent varint field");
          switch (number) {
            case field::kEventMetadataId: metadata_id = v; break;
            case field::kEventOffsetPs: offset_ps = v; aggregated = false; break;
            case field::kEventDurationPs: duration_ps = v; break;
            case field::kEventNumOccurrences: num_occurrences = v; aggregated = true; break;
            default: break;
          }
          continue;
        }
      } else if (type == wire::kLengthDelimited && number == field::kEventStats) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XStat length");
        ColumnarStat stat;
        if (!ParseStat(b, b + n, plane, ids, &stat)) return false;
        if (plane->num_stats() >= stat_room_end_) return Exhausted("more than 2^32 stats in one plane");
        plane->AppendEventStat(stat);
        continue;
      }
      if (!Skip(c, type, number, key_at, "XEvent unknown field")) return false;
    }
    uint32_t index = plane->num_events();
    if (index >= event_room_end_) return Exhausted("more than 2^32 events in one plane");
    if (aggregated) {
      offset_ps = 0;
      ids->aggregated.emplace_back(index, static_cast<int64_t>(num_occurrences));
    }
    plane->AppendEvent(static_cast<int64_t>(offset_ps + static_cast<uint64_t>(base_ps)),
                       static_cast<int64_t>(duration_ps), ids->EncodeEventId(static_cast<int64_t>(metadata_id)),
                       stats_begin);
    if (memory_ != nullptr && !aggregated) {
      if (const uint8_t kind = memory_->KindOf(metadata_id)) {
        if (!memory_->Decode(plane, *ids, index, kind, stats_begin, wide_begin)) return Exhausted("out of memory");
      }
    }
    return true;
  }

  enum class FastPath : uint8_t { kDone, kExhausted, kNotTaken };

  // The kind of an XStat varint value field by its number (kNone: not a value field).
  static StatKind VarintStatKind(uint32_t number) {
    static constexpr StatKind kKinds[8] = {StatKind::kNone,   StatKind::kNone,  StatKind::kNone, StatKind::kUint64,
                                           StatKind::kInt64,  StatKind::kNone,  StatKind::kNone, StatKind::kRef};
    static_assert(field::kStatUint64 == 3 && field::kStatInt64 == 4 && field::kStatRef == 7);
    return number < 8 ? kKinds[number] : StatKind::kNone;
  }

  // A memory event as writers emit it (metadata id first; then offset, duration and
  // stats of one id and one value each), decoded from the wire straight into its record:
  // its stats never pass through the stat columns, and nothing is hashed or allocated per
  // stat. Anything else - another metadata, aggregated, an unknown field, a stat of
  // another shape - returns kNotTaken before anything is appended, and ParseEvent reads
  // the event as every other (whose memory events MemoryRecordDecoder::Decode then turns
  // into the same record): what was done here by then (value indices, used ids, interned
  // short strings) is found again there, not added twice.
  // Flattened: every stat of every memory event comes through here, and the compiler
  // would otherwise keep ReadVarint and ApplyStat as calls (measured: the model's build
  // took 40 % longer).
  [[gnu::flatten]] FastPath ParseMemoryEvent(const uint8_t* begin, const uint8_t* end, int64_t base_ps,
                                             ColumnarPlane* plane, PlaneIds* ids) {
    constexpr uint8_t kMetadataIdKey = (field::kEventMetadataId << 3) | wire::kVarint;
    if (begin == end || *begin != kMetadataIdKey) return FastPath::kNotTaken;
    WireCursor c{begin + 1, end};
    uint64_t metadata_id = 0, offset_ps = 0, duration_ps = 0;
    if (!c.ReadVarint(&metadata_id)) return FastPath::kNotTaken;
    const uint8_t kind = memory_->KindOf(metadata_id);
    if (kind == 0) return FastPath::kNotTaken;
    MemoryRecordDecoder::Pending pending;
    pending.event.activity = static_cast<MemoryActivity>(kind - 1);
    while (!c.done()) {
      switch (*c.p++) {
        case (field::kEventOffsetPs << 3) | wire::kVarint:
          if (!c.ReadVarint(&offset_ps)) return FastPath::kNotTaken;
          continue;
        case (field::kEventDurationPs << 3) | wire::kVarint:
          if (!c.ReadVarint(&duration_ps)) return FastPath::kNotTaken;
          continue;
        case (field::kEventStats << 3) | wire::kLengthDelimited: {
          const uint8_t* b;
          size_t n;
          if (!c.ReadLengthDelimited(&b, &n) || !ApplyMemoryStat(b, b + n, plane, ids, &pending)) {
            return FastPath::kNotTaken;
          }
          continue;
        }
        default: return FastPath::kNotTaken;
      }
    }
    const uint32_t index = plane->num_events();
    if (index >= event_room_end_) {
      Exhausted("more than 2^32 events in one plane");
      return FastPath::kExhausted;
    }
    plane->AppendEvent(static_cast<int64_t>(offset_ps + static_cast<uint64_t>(base_ps)),
                       static_cast<int64_t>(duration_ps), ids->EncodeEventId(static_cast<int64_t>(metadata_id)),
                       plane->num_stats());
    if (!memory_->Commit(plane, index, &pending)) {
      Exhausted("out of memory");
      return FastPath::kExhausted;
    }
    return FastPath::kDone;
  }

  // One stat of a memory event in the shape writers emit - metadata id (below 2^20), then
  // one int, uint, ref (below 2^20), double, or string/bytes value of up to
  // PlaneIds::kMaxDedupStringBytes (interned, so a second read finds it) - applied to
  // `pending`. False for any other shape, before anything that a second read would repeat.
  bool ApplyMemoryStat(const uint8_t* begin, const uint8_t* end, ColumnarPlane* plane, PlaneIds* ids,
                       MemoryRecordDecoder::Pending* pending) {
    constexpr uint64_t kSmallId = uint64_t{1} << 20;
    if (end - begin < 3 || *begin != ((field::kStatMetadataId << 3) | wire::kVarint)) return false;
    WireCursor c{begin + 1, end};
    uint64_t metadata_id, payload;
    if (!c.ReadVarint(&metadata_id) || metadata_id >= kSmallId || c.done()) return false;
    StatKind kind;
    const uint8_t value_key = *c.p++;
    if ((value_key & 7) == wire::kVarint) {
      // int64, uint64 and ref values (most of a memory event's) share one path: no jump
      // through a table per stat.
      kind = VarintStatKind(value_key >> 3);
      if (kind == StatKind::kNone || !c.ReadVarint(&payload)) return false;
      if (kind == StatKind::kRef && payload >= kSmallId) return false;
    } else if (value_key == ((field::kStatDouble << 3) | wire::kFixed64)) {
      kind = StatKind::kDouble;
      if (!c.ReadFixed64(&payload)) return false;
    } else if (value_key == ((field::kStatStr << 3) | wire::kLengthDelimited) ||
               value_key == ((field::kStatBytes << 3) | wire::kLengthDelimited)) {
      kind = value_key == ((field::kStatStr << 3) | wire::kLengthDelimited) ? StatKind::kStr : StatKind::kBytes;
      const uint8_t* b;
      size_t n;
      if (!c.ReadLengthDelimited(&b, &n) || n > PlaneIds::kMaxDedupStringBytes) return false;
      const std::string_view text(reinterpret_cast<const char*>(b), n);
      if (kind == StatKind::kStr && !base::IsValidUtf8(text)) return false;
      payload = ids->InternString(text, plane);
    } else {
      return false;
    }
    if (!c.done()) return false;
    memory_->ApplyStat(static_cast<uint32_t>(metadata_id), kind, payload, *ids, pending, &plane->memory);
    return true;
  }

  // What ParsePlane needs to decode memory events into records before the lines: the
  // plane's name and its metadata maps (which TF writes after the lines), with
  // FinalizePlane's rule that later duplicates win. Tolerant: false at the first
  // malformed byte (the plane is then read without records, and its parse reports it).
  bool ScanMemoryMetadata(const uint8_t* begin, const uint8_t* end, MemoryRecordDecoder* memory, std::string* name) {
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t key;
      if (!c.ReadVarint(&key)) return false;
      const uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (type == wire::kLengthDelimited &&
          (number == field::kPlaneName || number == field::kPlaneEventMetadata || number == field::kPlaneStatMetadata)) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return false;
        if (number == field::kPlaneName) {
          name->assign(reinterpret_cast<const char*>(b), n);
        } else if (!ScanMetadataEntry(b, b + n, number == field::kPlaneEventMetadata, memory)) {
          return false;
        }
        continue;
      }
      if (!c.SkipField(type, number)) return false;
      (void)key_at;
    }
    return true;
  }

  // One event_metadata or stat_metadata map entry: its key, and in its value the name
  // (field 2 of both messages) and, for event metadata, whether it has stats.
  static bool ScanMetadataEntry(const uint8_t* begin, const uint8_t* end, bool is_event, MemoryRecordDecoder* memory) {
    int64_t entry_key = 0;
    std::string_view name;
    bool has_stats = false;
    WireCursor c{begin, end};
    while (!c.done()) {
      uint64_t key;
      if (!c.ReadVarint(&key)) return false;
      const uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (number == field::kMapKey && type == wire::kVarint) {
        uint64_t v;
        if (!c.ReadVarint(&v)) return false;
        entry_key = static_cast<int64_t>(v);
        continue;
      }
      if (number == field::kMapValue && type == wire::kLengthDelimited) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return false;
        WireCursor value{b, b + n};
        while (!value.done()) {
          uint64_t value_key;
          if (!value.ReadVarint(&value_key)) return false;
          const uint32_t value_number = static_cast<uint32_t>(value_key >> 3), value_type = value_key & 7;
          if (value_type == wire::kLengthDelimited && value_number == 2) {  // name in both messages
            const uint8_t* nb;
            size_t nn;
            if (!value.ReadLengthDelimited(&nb, &nn)) return false;
            name = std::string_view(reinterpret_cast<const char*>(nb), nn);
            continue;
          }
          if (is_event && value_type == wire::kLengthDelimited && value_number == field::kEventMetadataStats) {
            has_stats = true;
          }
          if (!value.SkipField(value_type, value_number)) return false;
        }
        continue;
      }
      if (!c.SkipField(type, number)) return false;
    }
    if (is_event) {
      memory->AddEventMetadata(entry_key, name, has_stats);
    } else {
      memory->AddStatMetadata(entry_key, name);
    }
    return true;
  }

  // The stat writers emit most, read inline: a metadata id and then one int64, uint64 or
  // ref value, one varint each. False for anything else (ParseStat then reads it, and
  // reports what is malformed).
  static bool ParseIntegerStat(const uint8_t* begin, const uint8_t* end, PlaneIds* ids, ColumnarStat* stat) {
    if (end - begin < 4 || *begin != ((field::kStatMetadataId << 3) | wire::kVarint)) return false;
    WireCursor c{begin + 1, end};
    uint64_t metadata_id, value;
    if (!c.ReadVarint(&metadata_id) || c.done()) return false;
    const uint8_t key = *c.p++;
    if (key == ((field::kStatInt64 << 3) | wire::kVarint)) {
      stat->kind = StatKind::kInt64;
    } else if (key == ((field::kStatUint64 << 3) | wire::kVarint)) {
      stat->kind = StatKind::kUint64;
    } else if (key == ((field::kStatRef << 3) | wire::kVarint)) {
      stat->kind = StatKind::kRef;
    } else {
      return false;
    }
    if (!c.ReadVarint(&value) || !c.done()) return false;
    stat->payload = value;
    stat->metadata_index = ids->EncodeStatId(static_cast<int64_t>(metadata_id));
    return true;
  }

  // Parses an XStat. The metadata id is stored encoded (PlaneIds) and, for refs, the
  // payload is the raw id; FinalizePlane turns both into dense indices.
  bool ParseStat(const uint8_t* begin, const uint8_t* end, ColumnarPlane* plane, PlaneIds* ids, ColumnarStat* stat) {
    uint64_t metadata_id = 0;
    stat->kind = StatKind::kNone;
    stat->payload = 0;
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t v;
      switch (*c.p) {  // fast dispatch, as in ParseEvent
        case (field::kStatMetadataId << 3) | wire::kVarint:
          ++c.p;
          if (!c.ReadVarint(&metadata_id)) return Fail(key_at, "XStat.metadata_id");
          continue;
        case (field::kStatInt64 << 3) | wire::kVarint:
        case (field::kStatUint64 << 3) | wire::kVarint:
        case (field::kStatRef << 3) | wire::kVarint: {
          uint8_t number = *c.p >> 3;
          ++c.p;
          if (!c.ReadVarint(&v)) return Fail(key_at, "XStat varint value");
          stat->kind = number == field::kStatUint64  ? StatKind::kUint64
                       : number == field::kStatInt64 ? StatKind::kInt64
                                                     : StatKind::kRef;
          stat->payload = v;
          continue;
        }
        default: break;
      }
      uint64_t key;
      if (!c.ReadVarint(&key)) return Fail(key_at, "XStat field key");
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (type == wire::kVarint &&
          (number == field::kStatMetadataId || number == field::kStatUint64 || number == field::kStatInt64 ||
           number == field::kStatRef)) {
        if (!c.ReadVarint(&v)) return Fail(key_at, "XStat varint field");
        if (number == field::kStatMetadataId) {
          metadata_id = v;
        } else {
          stat->kind = number == field::kStatUint64  ? StatKind::kUint64
                       : number == field::kStatInt64 ? StatKind::kInt64
                                                     : StatKind::kRef;
          stat->payload = v;
        }
        continue;
      }
      if (type == wire::kFixed64 && number == field::kStatDouble) {
        if (!c.ReadFixed64(&v)) return Fail(key_at, "XStat.double_value");
        stat->kind = StatKind::kDouble;
        stat->payload = v;
        continue;
      }
      if (type == wire::kLengthDelimited && (number == field::kStatStr || number == field::kStatBytes)) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XStat string value");
        if (number == field::kStatStr && !CheckUtf8(b, n, "XStat.str_value")) return false;
        stat->kind = number == field::kStatStr ? StatKind::kStr : StatKind::kBytes;
        stat->payload = ids->InternString(std::string_view(reinterpret_cast<const char*>(b), n), plane);
        continue;
      }
      if (!Skip(c, type, number, key_at, "XStat unknown field")) return false;
    }
    stat->metadata_index = ids->EncodeStatId(static_cast<int64_t>(metadata_id));
    return true;
  }

  bool ParseEventMetadataEntry(const uint8_t* begin, const uint8_t* end, ColumnarPlane* plane, PlaneIds* ids) {
    RawEventMetadata entry;
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t key;
      if (!c.ReadVarint(&key)) return Fail(key_at, "event_metadata entry key");
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (number == field::kMapKey && type == wire::kVarint) {
        uint64_t v;
        if (!c.ReadVarint(&v)) return Fail(key_at, "event_metadata map key");
        entry.key = static_cast<int64_t>(v);
        continue;
      }
      if (number == field::kMapValue && type == wire::kLengthDelimited) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XEventMetadata length");
        if (!ParseEventMetadata(b, b + n, plane, ids, &entry)) return false;
        continue;
      }
      if (!Skip(c, type, number, key_at, "event_metadata entry unknown field")) return false;
    }
    ids->event_metadata.push_back(std::move(entry));
    return true;
  }

  bool ParseEventMetadata(const uint8_t* begin, const uint8_t* end, ColumnarPlane* plane, PlaneIds* ids,
                          RawEventMetadata* entry) {
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t key;
      if (!c.ReadVarint(&key)) return Fail(key_at, "XEventMetadata field key");
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (type == wire::kLengthDelimited) {
        if (number == field::kEventMetadataName) {
          if (!ReadString(c, &entry->name, "XEventMetadata.name")) return false;
          continue;
        }
        if (number == field::kEventMetadataDisplayName) {
          if (!ReadString(c, &entry->display_name, "XEventMetadata.display_name")) return false;
          continue;
        }
        if (number == field::kEventMetadataStats) {
          const uint8_t* b;
          size_t n;
          if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XEventMetadata.stats length");
          ColumnarStat stat;
          if (!ParseStat(b, b + n, plane, ids, &stat)) return false;
          entry->stats.push_back(stat);
          continue;
        }
      }
      if (!Skip(c, type, number, key_at, "XEventMetadata unknown field")) return false;
    }
    return true;
  }

  bool ParseStatMetadataEntry(const uint8_t* begin, const uint8_t* end, ColumnarPlane* plane) {
    ColumnarStatMetadata entry;
    WireCursor c{begin, end};
    while (!c.done()) {
      const uint8_t* key_at = c.p;
      uint64_t key;
      if (!c.ReadVarint(&key)) return Fail(key_at, "stat_metadata entry key");
      uint32_t number = static_cast<uint32_t>(key >> 3), type = key & 7;
      if (number == field::kMapKey && type == wire::kVarint) {
        uint64_t v;
        if (!c.ReadVarint(&v)) return Fail(key_at, "stat_metadata map key");
        entry.id = static_cast<int64_t>(v);
        continue;
      }
      if (number == field::kMapValue && type == wire::kLengthDelimited) {
        const uint8_t* b;
        size_t n;
        if (!c.ReadLengthDelimited(&b, &n)) return Fail(key_at, "XStatMetadata length");
        WireCursor value{b, b + n};
        while (!value.done()) {
          const uint8_t* value_key_at = value.p;
          uint64_t value_key;
          if (!value.ReadVarint(&value_key)) return Fail(value_key_at, "XStatMetadata field key");
          uint32_t value_number = static_cast<uint32_t>(value_key >> 3), value_type = value_key & 7;
          if (value_number == field::kStatMetadataName && value_type == wire::kLengthDelimited) {
            if (!ReadString(value, &entry.name, "XStatMetadata.name")) return false;
            continue;
          }
          if (value_number == field::kStatMetadataDescription && value_type == wire::kLengthDelimited) {
            std::string unused;  // not kept, but a string field all the same
            if (!ReadString(value, &unused, "XStatMetadata.description")) return false;
            continue;
          }
          if (!Skip(value, value_type, value_number, value_key_at, "XStatMetadata unknown field")) return false;
        }
        continue;
      }
      if (!Skip(c, type, number, key_at, "stat_metadata entry unknown field")) return false;
    }
    plane->stat_metadata.push_back(std::move(entry));
    return true;
  }

  const uint8_t* base_;
  size_t size_;
  std::string_view what_;
  Dropped dropped_warnings;
  Dropped dropped_errors;
  const std::function<void(uint64_t, uint64_t)>& on_consumed_;
  const uint8_t* consumed_from_;  // start of the consumed input not yet reported
  const uint8_t* next_progress_;
  const uint8_t* error_at_ = nullptr;
  const char* error_where_ = "";
  bool invalid_utf8_ = false;  // the failure at error_at_ is a string that is not UTF-8
  Status status_;  // set for non-DataLoss failures (memory, limits)
  // Capacity reserved by the line being parsed (events and stats append unchecked below).
  size_t event_room_end_ = 0;
  size_t stat_room_end_ = 0;
  int64_t origin_ns_ = 0;
  const std::function<bool(std::string_view)>* memory_event_records_;
  MemoryRecordDecoder* memory_ = nullptr;  // of the plane being parsed, when its memory events are records
};

// Parses the planes of a scanned space on up to `threads` threads, each taking the next
// unparsed plane with a parser of its own. On failure, the error of the first failing
// plane in file order - the one a single thread reports (base::ForEachIndex).
Status ParsePlanes(std::string_view bytes, std::string_view what, const ParseOptions& options,
                   const SpaceLayout& layout, int threads, ColumnarXSpace* space) {
  const size_t planes = layout.planes.size();
  space->planes.resize(planes);
  std::vector<Status> failures(planes);  // each written by the thread that parsed the plane
  std::atomic<uint64_t> decoded{0};
  const size_t first_failed = base::ForEachIndex(planes, threads, [&] {
    return [&, parser = Parser(bytes, what, options.on_consumed, &options.memory_event_records)](size_t p) mutable {
      if (!parser.ParseOnePlane(layout.planes[p].first, layout.planes[p].second, layout, &space->planes[p])) {
        failures[p] = parser.FailureStatus();
        return false;
      }
      uint64_t plane_bytes = space->planes[p].MemoryBytes();
      uint64_t total = decoded.fetch_add(plane_bytes) + plane_bytes;
      if (total <= options.max_decoded_bytes) return true;
      space->planes[p] = ColumnarPlane();  // give it back at once
      failures[p] = ResourceExhaustedError(std::string(what) + ": decodes to more than " +
                                           std::to_string(options.max_decoded_bytes >> 20) +
                                           " MiB of events, stats and strings (" + std::to_string(total >> 20) +
                                           " MiB by plane " + std::to_string(p + 1) + " of " + std::to_string(planes) +
                                           "); raise --max_memory_mb to read it");
      return false;
    };
  });
  return first_failed < planes ? failures[first_failed] : OkStatus();
}

}  // namespace

StatusOr<ColumnarXSpace> ParseColumnarXSpace(std::string_view bytes, std::string_view what,
                                             const ParseOptions& options) {
  ColumnarXSpace space;
  SpaceLayout layout;
  Parser scanner(bytes, what, nullptr);
  const bool scanned = scanner.Scan(&space, &layout);
  space.time_origin_ns = layout.origin_ns;
  const bool parallel = options.threads > 1 && bytes.size() >= options.parallel_min_bytes;
  Status planes = ParsePlanes(bytes, what, options, layout, parallel ? options.threads : 1, &space);
  if (!planes.ok()) return planes;
  if (!scanned) return scanner.FailureStatus();
  // As ValidateXSpace: an empty or foreign file parses as an XSpace without planes.
  if (space.planes.empty()) return DataLossError(std::string(what) + ": " + std::string(kNoPlanesMessage));
  return space;
}

}  // namespace stepscope::xspace
