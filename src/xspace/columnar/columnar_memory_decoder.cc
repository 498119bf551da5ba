#include "src/xspace/columnar/columnar_memory_decoder.h"

#include <string>


namespace stepscope::xspace {
namespace {

// Ids below this are looked up in flat tables (writers number metadata from 1).
constexpr uint64_t kSmallId = uint64_t{1} << 20;

}  // namespace

void MemoryRecordDecoder::AddEventMetadata(int64_t key, std::string_view name, bool has_stats) {
  uint8_t kind = 0;
  if (name == kMemoryAllocationEventName) kind = 1 + static_cast<uint8_t>(MemoryActivity::kAllocation);
  if (name == kMemoryDeallocationEventName) kind = 1 + static_cast<uint8_t>(MemoryActivity::kDeallocation);
  event_entries_[key] = {kind, has_stats};
}

void MemoryRecordDecoder::AddStatMetadata(int64_t id, std::string_view name) {
  stat_entries_[id] = MemoryStatRoleOf(FindStatType(name), name);
}

bool MemoryRecordDecoder::Prepare() {
  bool any = false;
  for (const auto& [key, entry] : event_entries_) {
    if (entry.first == 0) continue;
    if (entry.second) return false;
    any = true;
    const uint64_t id = static_cast<uint64_t>(key);
    if (id < kSmallId) {
      if (id >= kind_small_.size()) kind_small_.resize(id + 1);
      kind_small_[id] = entry.first;
    } else {
      kind_big_[id] = entry.first;
    }
  }
  if (!any) return false;
  for (const auto& [id, role] : stat_entries_) {
    if (role == MemoryStatRole::kNone) continue;
    if (id >= 0 && static_cast<uint64_t>(id) < kSmallId) {
      if (static_cast<uint64_t>(id) >= role_small_.size()) role_small_.resize(id + 1, MemoryStatRole::kNone);
      role_small_[id] = role;
    } else {
      role_big_[id] = role;
    }
  }
  return true;
}

uint32_t MemoryRecordDecoder::AddValue(MemoryValueUse use, StatKind kind, uint64_t payload,
                                         ColumnarMemoryEvents* out) {
  const int u = static_cast<int>(use);
  std::vector<uint32_t>* table = nullptr;
  if (kind == StatKind::kRef && payload < kSmallId) table = &by_ref_[u];
  if ((kind == StatKind::kStr || kind == StatKind::kBytes) && payload < kSmallId) table = &by_string_[u];
  std::vector<ColumnarMemoryEvents::NameValue>& values = use == MemoryValueUse::kName ? out->names : out->ids;
  const auto next = static_cast<uint32_t>(values.size());
  if (table != nullptr) {
    if (payload >= table->size()) table->resize(payload + 1, kNoValue);
    uint32_t& slot = (*table)[payload];
    if (slot == kNoValue) {
      slot = next;
      values.push_back({static_cast<uint8_t>(kind), use, payload});
    }
    return slot;
  }
  auto [it, inserted] = by_other_.try_emplace({static_cast<uint8_t>(use), static_cast<uint8_t>(kind), payload}, next);
  if (inserted) values.push_back({static_cast<uint8_t>(kind), use, payload});
  return it->second;
}

uint32_t MemoryRecordDecoder::SlotOf(uint32_t memory_id, ColumnarMemoryEvents* out) {
  if (memory_id == last_memory_id_) return last_slot_;
  if (memory_id >= slot_of_value_.size()) slot_of_value_.resize(memory_id + 1, kNoValue);
  uint32_t& slot = slot_of_value_[memory_id];
  if (slot == kNoValue) {
    slot = static_cast<uint32_t>(out->slots.size());
    out->slots.emplace_back().memory_id = memory_id;
  }
  last_memory_id_ = memory_id;
  last_slot_ = slot;
  return slot;
}

bool MemoryRecordDecoder::Commit(ColumnarPlane* plane, uint32_t index, Pending* pending) {
  ColumnarMemoryEvents* out = &plane->memory;
  MemoryEvent& e = pending->event;
  e.time_ps = plane->event_start_ps[index];
  ColumnarMemoryEvents::Slot& slot = out->slots[SlotOf(pending->memory_id, out)];
  if (!slot.events.push_back(e) || !slot.event_index.push_back(index)) return false;
  slot.without_step += e.step_id == -1;
  slot.without_op += e.op_name == 0;
  out->invalid_values += pending->invalid;
  return true;
}

bool MemoryRecordDecoder::Decode(ColumnarPlane* plane, const PlaneIds& ids, uint32_t index, uint8_t kind,
                                 uint32_t stats_begin, size_t wide_begin) {
  Pending pending;
  pending.event.activity = static_cast<MemoryActivity>(kind - 1);
  const uint32_t stats_end = plane->num_stats();
  for (uint32_t s = stats_begin; s < stats_end; ++s) {
    const uint32_t key = plane->stat_key[s];
    const uint64_t payload =
        (key & ColumnarPlane::kWidePayload) ? plane->wide_payloads[plane->stat_payload[s]] : plane->stat_payload[s];
    ApplyStat(key & ColumnarPlane::kMaxStatMetadata, static_cast<StatKind>(key >> ColumnarPlane::kKindShift), payload,
              ids, &pending, &plane->memory);
  }
  if (!Commit(plane, index, &pending)) return false;
  // The stats live on in the record only: the columns' room is reused by the next event.
  (void)plane->stat_key.Resize(stats_begin);
  (void)plane->stat_payload.Resize(stats_begin);
  plane->wide_payloads.resize(wide_begin);
  return true;
}

void MemoryRecordDecoder::ShiftLine(ColumnarPlane* plane, uint32_t line_event_begin) const {
  for (ColumnarMemoryEvents::Slot& slot : plane->memory.slots) {
    for (size_t k = slot.events.size(); k > 0 && slot.event_index[k - 1] >= line_event_begin; --k) {
      slot.events[k - 1].time_ps = plane->event_start_ps[slot.event_index[k - 1]];
    }
  }
}

}  // namespace stepscope::xspace
