// FlatUint64Map: an open-addressing hash map from uint64 keys to uint32 values.
//
// The model joins millions of events by integer keys (correlation ids, interned string
// ids); std::unordered_map costs a node allocation and a pointer chase per entry. This
// keeps keys and values in one array with linear probing, 12 bytes per slot, load <= 1/2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stepscope::analysis {

class FlatUint64Map {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  explicit FlatUint64Map(size_t expected = 16) { Rehash(Capacity(expected)); }

  uint32_t Find(uint64_t key) const {
    for (size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
      if (!used_[i]) return kAbsent;
      if (keys_[i] == key) return values_[i];
    }
  }
  // The value slot of `key`, inserting `absent_value` first if absent: a find and a set
  // in one probe. The pointer is valid until the next insertion.
  uint32_t* Slot(uint64_t key, uint32_t absent_value) {
    if ((size_ + 1) * 2 > keys_.size()) Rehash(keys_.size() * 2);
    for (size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
      if (!used_[i]) {
        used_[i] = 1;
        keys_[i] = key;
        values_[i] = absent_value;
        ++size_;
        return &values_[i];
      }
      if (keys_[i] == key) return &values_[i];
    }
  }
  // Returns the value for `key`, inserting `value` first if absent.
  uint32_t FindOrInsert(uint64_t key, uint32_t value) { return *Slot(key, value); }
  void Set(uint64_t key, uint32_t value) { *Slot(key, value) = value; }
  // Removes `key` if present. Backward-shift deletion (no tombstones): the entries after
  // it in its probe run move up, so a map whose keys come and go (live addresses of an
  // allocator) stays as small as what is in it.
  void Erase(uint64_t key) {
    size_t hole = Hash(key) & mask_;
    for (;; hole = (hole + 1) & mask_) {
      if (!used_[hole]) return;
      if (keys_[hole] == key) break;
    }
    --size_;
    for (size_t j = (hole + 1) & mask_; used_[j]; j = (j + 1) & mask_) {
      // Entry j may fill the hole unless its home slot lies cyclically in (hole, j].
      const size_t home = Hash(keys_[j]) & mask_;
      if (((j - home) & mask_) < ((j - hole) & mask_)) continue;
      keys_[hole] = keys_[j];
      values_[hole] = values_[j];
      hole = j;
    }
    used_[hole] = 0;
  }
  size_t size() const { return size_; }

 private:
  static size_t Capacity(size_t expected) {
    size_t capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    return capacity;
  }
  static size_t Hash(uint64_t key) {
    // Murmur3 finalizer: sequential ids spread over the table.
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ull;
    key ^= key >> 33;
    return static_cast<size_t>(key);
  }
  void Rehash(size_t capacity) {
    std::vector<uint64_t> old_keys = std::move(keys_);
    std::vector<uint32_t> old_values = std::move(values_);
    std::vector<uint8_t> old_used = std::move(used_);
    keys_.assign(capacity, 0);
    values_.assign(capacity, 0);
    used_.assign(capacity, 0);
    mask_ = capacity - 1;
    size_ = 0;
    for (size_t i = 0; i < old_keys.size(); ++i) {
      if (old_used[i]) Set(old_keys[i], old_values[i]);
    }
  }

  std::vector<uint64_t> keys_;
  std::vector<uint32_t> values_;
  std::vector<uint8_t> used_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace stepscope::analysis
