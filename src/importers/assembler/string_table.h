// Interned strings for the import: every event name, stat name and string value is
// stored once and referred to by a dense 32-bit id. Id 0 is the empty string.
//
// Interning runs once or more per event argument, so the table is an open-addressing hash
// table over the ids (no node per string, one cache line per probe), with strings kept in
// fixed blocks that never move: views returned by Get() stay valid for the table's
// lifetime. Not thread-safe.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace stepscope::importers {

// A fast 64-bit hash of a string (word at a time); not for adversarial keys' sake but
// for speed. Exposed for tests.
uint64_t HashString(std::string_view text);

class StringTable {
 public:
  StringTable();
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;

  uint32_t Intern(std::string_view text);
  std::string_view Get(uint32_t id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }

 private:
  struct Slot {
    uint32_t id_plus_one = 0;  // 0: empty
    uint32_t tag = 0;          // high bits of the hash, to skip most string compares
  };

  // Names repeat on most events (an op's name, a kernel's of hundreds of bytes, a flow's
  // category): a direct-mapped cache on (length, first and last 8 bytes) finds them
  // without hashing every byte, and without a compare up to 16 bytes.
  static constexpr size_t kRecentSlots = 256;
  struct Recent {
    uint64_t head = 0;
    uint64_t tail = 0;
    uint32_t size = 0;  // the length plus one; 0: empty
    uint32_t id = 0;
  };

  uint32_t InternHashed(std::string_view text, uint64_t hash);
  std::string_view Store(std::string_view text);
  void Grow();

  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  std::vector<std::string_view> strings_;
  std::vector<uint64_t> hashes_;  // per id, for rehashing
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  Recent recent_[kRecentSlots];
};


}  // namespace stepscope::importers
