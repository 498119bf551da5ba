// Internal to the columnar reader: decodes a plane's memory events into records
// (ColumnarMemoryEvents) as they are parsed, when ColumnarReadOptions asks for it.
//
// TensorFlow writes a plane's lines before its metadata, so which events are memory
// events and which stat fills which field is found first by a scan of the plane's
// metadata (the reader's ScanMemoryMetadata, same rules as FinalizePlane: later
// duplicates win). A memory event in the shape writers emit is decoded by the reader
// straight from the wire (Parser::ParseMemoryEvent: ApplyStat per stat, then Commit);
// any other has its stats appended to the stat columns as usual, decoded from there
// into the record while hot (Decode, through the same ApplyStat), and cut off again.
// Ids stay raw until FinalizePlane, as in the columns.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "src/xspace/columnar/columnar_finalize.h"
#include "src/xspace/columnar/columnar_memory_apply.h"
#include "src/xspace/columnar/columnar_memory_events.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::xspace {

class MemoryRecordDecoder {
 public:
  // The plane's metadata map entries, in file order.
  void AddEventMetadata(int64_t key, std::string_view name, bool has_stats);
  void AddStatMetadata(int64_t id, std::string_view name);
  // After the scan. False when the plane has no memory events, or when they cannot be
  // records: an event metadata of them carries stats (every event would merge them).
  bool Prepare();

  // 0: event metadata `raw_id` is not a memory event; else 1 + MemoryActivity.
  uint8_t KindOf(uint64_t raw_id) const {
    if (raw_id < kind_small_.size()) return kind_small_[raw_id];
    auto it = kind_big_.find(raw_id);
    return it == kind_big_.end() ? 0 : it->second;
  }

  // One memory event while its stats are applied: nothing reaches the plane's records
  // (nor its invalid-value count) before Commit, so a decode can be dropped half way.
  struct Pending {
    MemoryEvent event;
    uint32_t memory_id = 0;  // the last stat naming one wins; 0: none ("")
    int64_t invalid = 0;     // values clamped
  };

  // Applies one stat (its metadata id as PlaneIds encodes it) to `pending`. Repeating it
  // is harmless: value indices and used ids are found again, not added twice.
  void ApplyStat(uint32_t encoded, StatKind kind, uint64_t payload, const PlaneIds& ids, Pending* pending,
                 ColumnarMemoryEvents* out) {
    MarkUsed(encoded);
    if (kind == StatKind::kRef) MarkUsedRaw(payload);
    MemoryEvent* e = &pending->event;
    const MemoryStatRole role = RoleOf(encoded, ids);
    if (IsMemoryBytesRole(role)) {  // most stats: before the switch, whose jump is costly per stat
      ApplyMemoryNumber(role, ColumnarStat{0, kind, payload}, e, &pending->invalid);
      return;
    }
    switch (role) {
      case MemoryStatRole::kNone: break;
      case MemoryStatRole::kMemoryIdName:
        pending->memory_id = ValueIndex(MemoryValueUse::kIdName, kind, payload, out);
        break;
      case MemoryStatRole::kMemoryIdNumber:
        pending->memory_id = ValueIndex(MemoryValueUse::kIdNumber, kind, payload, out);
        break;
      case MemoryStatRole::kOp: e->op_name = ValueIndex(MemoryValueUse::kName, kind, payload, out); break;
      case MemoryStatRole::kRegion: e->region_type = ValueIndex(MemoryValueUse::kName, kind, payload, out); break;
      case MemoryStatRole::kShape: e->shape = ValueIndex(MemoryValueUse::kName, kind, payload, out); break;
      default: ApplyMemoryNumber(role, ColumnarStat{0, kind, payload}, e, &pending->invalid); break;
    }
  }

  // Appends the record of event `index` (its time as the plane's column holds it). False
  // when memory is exhausted.
  [[nodiscard]] bool Commit(ColumnarPlane* plane, uint32_t index, Pending* pending);

  // Decodes the stats [stats_begin, end of the columns) of event `index` into its record
  // and removes them from the columns (and wide payloads from `wide_begin` on). False
  // when memory is exhausted. (The reader decodes most memory events from the wire
  // instead, never putting their stats in the columns: Parser::ParseMemoryEvent.)
  [[nodiscard]] bool Decode(ColumnarPlane* plane, const PlaneIds& ids, uint32_t index, uint8_t kind,
                            uint32_t stats_begin, size_t wide_begin);

  // A line's events moved (its timestamp came after them): their records follow.
  void ShiftLine(ColumnarPlane* plane, uint32_t line_event_begin) const;

  // FinalizePlane: the largest raw stat id the records used (and whether any was out of
  // the verbatim range), then every used id resolved by `resolve` (raw -> dense index).
  uint64_t max_used_stat_id() const {
    if (!used_mid_.empty()) return static_cast<uint64_t>(*used_mid_.rbegin());
    return used_small_.empty() ? 0 : used_small_.size() - 1;
  }
  bool any_big_stat_id() const { return !used_big_raw_.empty() || !used_big_encoded_.empty(); }
  template <typename Resolve>
  void Finalize(const PlaneIds& ids, Resolve resolve, ColumnarPlane* plane) const {
    std::set<uint32_t> dense;
    for (uint64_t raw = 0; raw < used_small_.size(); ++raw) {
      if (used_small_[raw]) dense.insert(resolve(static_cast<int64_t>(raw)));
    }
    for (int64_t raw : used_mid_) dense.insert(resolve(raw));
    for (int64_t raw : used_big_raw_) dense.insert(resolve(raw));
    for (uint32_t encoded : used_big_encoded_) dense.insert(resolve(ids.DecodeStatId(encoded)));
    plane->memory_stat_indices.assign(dense.begin(), dense.end());
    for (auto* values : {&plane->memory.names, &plane->memory.ids}) {
      for (ColumnarMemoryEvents::NameValue& v : *values) {
        if (static_cast<StatKind>(v.kind) == StatKind::kRef) v.payload = resolve(static_cast<int64_t>(v.payload));
      }
    }
  }

 private:
  static constexpr uint32_t kNoValue = UINT32_MAX;
  MemoryStatRole RoleOf(uint32_t encoded, const PlaneIds& ids) const {
    if ((encoded & PlaneIds::kBigStatIdFlag) == 0 && encoded < role_small_.size()) return role_small_[encoded];
    if (role_big_.empty()) return MemoryStatRole::kNone;
    auto it = role_big_.find((encoded & PlaneIds::kBigStatIdFlag) ? ids.DecodeStatId(encoded) : encoded);
    return it == role_big_.end() ? MemoryStatRole::kNone : it->second;
  }
  // Small ids in a flat table (writers number metadata from 1), the rest in sets.
  static constexpr uint64_t kSmallUsedId = uint64_t{1} << 20;
  void MarkUsedRaw(uint64_t raw) {
    if (raw < kSmallUsedId) {
      if (raw >= used_small_.size()) used_small_.resize(raw + 1);
      used_small_[raw] = 1;
    } else if (raw <= UINT32_MAX) {
      used_mid_.insert(static_cast<int64_t>(raw));
    } else {
      used_big_raw_.insert(static_cast<int64_t>(raw));
    }
  }
  void MarkUsed(uint32_t encoded) {
    if (encoded & PlaneIds::kBigStatIdFlag) {
      used_big_encoded_.insert(encoded);
    } else {
      MarkUsedRaw(encoded);
    }
  }
  // Value (use, kind, payload) -> index into ColumnarMemoryEvents::names or ids; a value
  // seen before costs one table read.
  uint32_t ValueIndex(MemoryValueUse use, StatKind kind, uint64_t payload, ColumnarMemoryEvents* out) {
    const std::vector<uint32_t>& table = kind == StatKind::kRef ? by_ref_[static_cast<int>(use)]
                                                                : by_string_[static_cast<int>(use)];
    if ((kind == StatKind::kRef || kind == StatKind::kStr || kind == StatKind::kBytes) && payload < table.size() &&
        table[payload] != kNoValue) {
      return table[payload];
    }
    return AddValue(use, kind, payload, out);
  }
  uint32_t AddValue(MemoryValueUse use, StatKind kind, uint64_t payload, ColumnarMemoryEvents* out);
  uint32_t SlotOf(uint32_t memory_id, ColumnarMemoryEvents* out);

  // From the scan: later duplicates win.
  std::map<int64_t, std::pair<uint8_t, bool>> event_entries_;  // key -> (kind, has stats)
  std::map<int64_t, MemoryStatRole> stat_entries_;
  // Lookup tables built by Prepare.
  std::vector<uint8_t> kind_small_;
  std::unordered_map<uint64_t, uint8_t> kind_big_;
  std::vector<MemoryStatRole> role_small_;
  std::unordered_map<int64_t, MemoryStatRole> role_big_;
  // Stat ids the records used (as FinalizePlane must see them).
  std::vector<uint8_t> used_small_;
  std::set<int64_t> used_mid_;
  std::set<int64_t> used_big_raw_;
  std::set<uint32_t> used_big_encoded_;
  // Value (use, kind, payload) -> index into ColumnarMemoryEvents::names or ids.
  std::vector<uint32_t> by_ref_[3];
  std::vector<uint32_t> by_string_[3];
  std::map<std::tuple<uint8_t, uint8_t, uint64_t>, uint32_t> by_other_;
  std::vector<uint32_t> slot_of_value_;
  uint32_t last_memory_id_ = kNoValue;
  uint32_t last_slot_ = 0;
};

}  // namespace stepscope::xspace
