#include "src/importers/assembler/string_table.h"

#include <algorithm>
#include <cstring>

namespace stepscope::importers {
namespace {
// Block size for string storage: large enough that allocations are rare, small enough not
// to matter for tiny traces.
constexpr size_t kBlockBytes = 256 << 10;
}  // namespace

StringTable::StringTable() {
  strings_.push_back(std::string_view());
  ids_.emplace(std::string_view(), 0);
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

uint32_t StringTable::Intern(std::string_view text) {
  auto it = ids_.find(text);
  if (it != ids_.end()) return it->second;
  std::string_view stored = Store(text);
  uint32_t id = static_cast<uint32_t>(strings_.size());
  strings_.push_back(stored);
  ids_.emplace(stored, id);
  return id;
}

}  // namespace stepscope::importers
