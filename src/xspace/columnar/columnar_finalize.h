// Internal to the columnar reader: per-plane state while parsing, and the step that turns
// the file's metadata ids into dense indices once a plane is complete.
//
// Ids cannot be resolved while parsing because TensorFlow writes a plane's lines (field 3)
// before its metadata maps (fields 4 and 5), and any order is legal. So columns hold the
// raw ids, encoded into 32 bits (ids below a bound verbatim, rarer large or negative ids
// through a side table), and FinalizePlane rewrites them in one pass per column.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "src/xspace/columnar/columnar_xspace.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

struct RawEventMetadata {
  int64_t key = 0;  // the map key (what events refer to)
  std::string name;
  std::string display_name;
  std::vector<ColumnarStat> stats;  // metadata ids still encoded
};

struct StringViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class PlaneIds {
 public:
  // Event metadata ids in [0, 2^31) are stored verbatim; others get this flag + side index.
  static constexpr uint32_t kBigEventIdFlag = 0x80000000u;
  // Stat metadata ids share the 28 index bits of the stat key (ColumnarPlane): ids in
  // [0, 2^27) verbatim, others flagged.
  static constexpr uint32_t kBigStatIdFlag = 1u << 27;
  // Strings up to this size are deduplicated (context ids, short names repeat a lot);
  // longer ones (serialized protos) are stored as they come.
  static constexpr size_t kMaxDedupStringBytes = 64;

  uint32_t EncodeEventId(int64_t raw) {
    if (static_cast<uint64_t>(raw) < kBigEventIdFlag) return static_cast<uint32_t>(raw);
    return kBigEventIdFlag | BigIndex(raw, &big_event_ids_, &big_event_index_);
  }
  uint32_t EncodeStatId(int64_t raw) {
    if (static_cast<uint64_t>(raw) < kBigStatIdFlag) return static_cast<uint32_t>(raw);
    return kBigStatIdFlag | BigIndex(raw, &big_stat_ids_, &big_stat_index_);
  }
  int64_t DecodeEventId(uint32_t encoded) const {
    return (encoded & kBigEventIdFlag) ? big_event_ids_[encoded & ~kBigEventIdFlag] : encoded;
  }
  int64_t DecodeStatId(uint32_t encoded) const {
    return (encoded & kBigStatIdFlag) ? big_stat_ids_[encoded & (kBigStatIdFlag - 1)] : encoded;
  }
  // True when more distinct large ids were seen than the encoding can hold.
  bool overflowed() const { return big_stat_ids_.size() >= kBigStatIdFlag || big_event_ids_.size() >= kBigEventIdFlag; }

  uint64_t InternString(std::string_view value, ColumnarPlane* plane);

  std::vector<RawEventMetadata> event_metadata;
  std::vector<ColumnarStat> plane_stats;
  std::vector<std::pair<uint32_t, int64_t>> aggregated;

 private:
  static uint32_t BigIndex(int64_t raw, std::vector<int64_t>* ids, std::unordered_map<int64_t, uint32_t>* index) {
    auto [it, inserted] = index->try_emplace(raw, static_cast<uint32_t>(ids->size()));
    if (inserted) ids->push_back(raw);
    return it->second;
  }

  std::vector<int64_t> big_event_ids_;
  std::unordered_map<int64_t, uint32_t> big_event_index_;
  std::vector<int64_t> big_stat_ids_;
  std::unordered_map<int64_t, uint32_t> big_stat_index_;
  std::unordered_map<std::string, uint32_t, StringViewHash, std::equal_to<>> string_index_;
};

class MemoryRecordDecoder;

// Resolves every id of `plane` to a dense index (placeholders for undefined ids), moves
// the metadata and stats into place and indexes well-known stat names. `memory`: the
// decoder of the plane's memory-event records, whose stats count as used ones.
Status FinalizePlane(PlaneIds* ids, ColumnarPlane* plane, const MemoryRecordDecoder* memory = nullptr);

}  // namespace stepscope::xspace
