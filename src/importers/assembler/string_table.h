// Interned strings for the import: every event name, stat name and string value is
// stored once and referred to by a dense 32-bit id. Id 0 is the empty string.
//
// Not thread-safe. Views returned by Get() stay valid for the table's lifetime (strings
// live in fixed blocks that never move).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope::importers {

class StringTable {
 public:
  StringTable();
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;

  uint32_t Intern(std::string_view text);
  std::string_view Get(uint32_t id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }

 private:
  std::string_view Store(std::string_view text);

  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  std::vector<std::string_view> strings_;
  std::unordered_map<std::string_view, uint32_t> ids_;
};

}  // namespace stepscope::importers
