// A small open-addressing map from integer keys to nonzero 32-bit ids, for the per-plane
// metadata ids the assembler looks up once per event and once per stat when it writes
// the XSpace. std::unordered_map allocates a node per key and follows a pointer per
// lookup; here a lookup is a multiply and (almost always) one probe in a flat array.
#pragma once

#include <cstdint>
#include <vector>

namespace stepscope::importers {

class FlatIdMap {
 public:
  FlatIdMap() : slots_(kInitialSlots), mask_(kInitialSlots - 1) {}

  // The id stored for `key`, or 0 when there is none.
  uint32_t Find(uint64_t key) const {
    for (size_t i = SlotOf(key);; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.id == 0) return 0;
      if (slot.key == key) return slot.id;
    }
  }

  // Stores `id` (nonzero) for `key`, which must not be in the map yet.
  void Insert(uint64_t key, uint32_t id) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    Place(key, id);
    ++size_;
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t id = 0;  // 0: empty
  };
  static constexpr size_t kInitialSlots = 256;

  size_t SlotOf(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask_; }

  void Place(uint64_t key, uint32_t id) {
    size_t i = SlotOf(key);
    while (slots_[i].id != 0) i = (i + 1) & mask_;
    slots_[i] = {key, id};
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.id != 0) Place(slot.key, slot.id);
    }
  }

  std::vector<Slot> slots_;
  size_t mask_;
  size_t size_ = 0;
};

}  // namespace stepscope::importers
