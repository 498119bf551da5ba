#include "src/importers/assembler/string_table.h"

#include <algorithm>
#include <cstring>

#include "src/base/equal_bytes.h"

namespace stepscope::importers {
namespace {

// Block size for string storage: large enough that allocations are rare, small enough not
// to matter for tiny traces.
constexpr size_t kBlockBytes = 256 << 10;
// Initial number of hash slots; the table doubles at half load, which keeps probes short.
constexpr size_t kInitialSlots = 1024;

constexpr uint64_t kMultiplier = 0x9E3779B97F4A7C15ull;

uint64_t Mix(uint64_t h) {
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return h;
}

}  // namespace

uint64_t HashString(std::string_view text) {
  uint64_t h = text.size() * kMultiplier;
  const char* p = text.data();
  size_t n = text.size();
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    h = (h ^ word) * kMultiplier;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    uint64_t word = 0;
    std::memcpy(&word, p, n);
    h = (h ^ word) * kMultiplier;
  }
  return Mix(h);
}

StringTable::StringTable() {
  slots_.resize(kInitialSlots);
  mask_ = kInitialSlots - 1;
  strings_.push_back(std::string_view());
  hashes_.push_back(HashString(std::string_view()));
  Slot& slot = slots_[hashes_[0] & mask_];
  slot.id_plus_one = 1;
  slot.tag = static_cast<uint32_t>(hashes_[0] >> 32);
}

std::string_view StringTable::Store(std::string_view text) {
  if (text.empty()) return std::string_view();
  if (blocks_.empty() || block_used_ + text.size() > block_size_) {
    block_size_ = std::max(kBlockBytes, text.size());
    blocks_.push_back(std::make_unique<char[]>(block_size_));
    block_used_ = 0;
  }
  char* dst = blocks_.back().get() + block_used_;
  std::memcpy(dst, text.data(), text.size());
  block_used_ += text.size();
  return std::string_view(dst, text.size());
}

void StringTable::Grow() {
  std::vector<Slot> slots(slots_.size() * 2);
  size_t mask = slots.size() - 1;
  for (uint32_t id = 0; id < strings_.size(); ++id) {
    size_t i = hashes_[id] & mask;
    while (slots[i].id_plus_one != 0) i = (i + 1) & mask;
    slots[i].id_plus_one = id + 1;
    slots[i].tag = static_cast<uint32_t>(hashes_[id] >> 32);
  }
  slots_ = std::move(slots);
  mask_ = mask;
}

uint32_t StringTable::Intern(std::string_view text) {
  // (length, head, tail) read inside the string: head and tail are its first and last 8
  // bytes (4, or the bytes themselves, when shorter), so up to 16 bytes they are all of
  // it and a match needs no compare.
  const char* p = text.data();
  const size_t n = text.size();
  uint64_t head = 0;
  uint64_t tail = 0;
  if (n >= 8) {
    std::memcpy(&head, p, 8);
    std::memcpy(&tail, p + n - 8, 8);
  } else if (n >= 4) {
    uint32_t first, last;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + n - 4, 4);
    head = first;
    tail = last;
  } else {
    for (size_t i = 0; i < n; ++i) head |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  }
  const size_t slot = static_cast<size_t>(Mix(head ^ (tail * kMultiplier) ^ n) % kRecentSlots);
  Recent& recent = recent_[slot];
  if (recent.size == n + 1 && recent.head == head && recent.tail == tail &&
      (n <= 16 || base::EqualBytes(strings_[recent.id], text))) {
    return recent.id;
  }
  const uint32_t id = InternHashed(text, HashString(text));
  recent = {head, tail, static_cast<uint32_t>(n + 1), id};
  return id;
}

uint32_t StringTable::InternHashed(std::string_view text, uint64_t hash) {
  uint32_t tag = static_cast<uint32_t>(hash >> 32);
  size_t i = hash & mask_;
  while (true) {
    const Slot& slot = slots_[i];
    if (slot.id_plus_one == 0) break;
    if (slot.tag == tag && base::EqualBytes(strings_[slot.id_plus_one - 1], text)) return slot.id_plus_one - 1;
    i = (i + 1) & mask_;
  }
  uint32_t id = static_cast<uint32_t>(strings_.size());
  strings_.push_back(Store(text));
  hashes_.push_back(hash);
  slots_[i].id_plus_one = id + 1;
  slots_[i].tag = tag;
  if (strings_.size() * 2 > slots_.size()) Grow();
  return id;
}

}  // namespace stepscope::importers
