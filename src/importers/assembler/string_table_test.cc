#include "src/importers/assembler/string_table.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace stepscope::importers {
namespace {

// Ids are dense and stable, equal strings share one, and strings that differ anywhere
// (long ones alike at both ends, with the same length, included) do not.
TEST(StringTableTest, EqualStringsShareAnIdAndOnlyThey) {
  StringTable table;
  EXPECT_EQ(table.Intern(""), 0u);
  std::vector<std::string> texts = {"a", "aten::add", "ProfilerStep"};
  const std::string head(40, 'h');
  const std::string tail(40, 't');
  for (char middle = 'a'; middle <= 'z'; ++middle) texts.push_back(head + middle + tail);
  std::mt19937 random(3);
  for (int i = 0; i < 2000; ++i) texts.push_back(std::to_string(random() % 500) + std::string(random() % 70, 'x'));
  std::unordered_map<std::string, uint32_t> ids;
  for (int round = 0; round < 3; ++round) {
    for (const std::string& text : texts) {
      uint32_t id = table.Intern(text);
      auto [it, inserted] = ids.try_emplace(text, id);
      EXPECT_EQ(it->second, id) << text;
      EXPECT_EQ(table.Get(id), text);
    }
  }
  EXPECT_EQ(table.size(), ids.size() + 1);  // + the empty string
}

// The recent-string cache keys on the length and the first and last bytes (all of a
// string up to 16): strings of every length up to 40 that differ in one byte, anywhere,
// each interned right after the other, keep their own ids.
TEST(StringTableTest, OneByteDifferencesAtEveryPositionAndLength) {
  StringTable table;
  for (size_t n = 1; n <= 40; ++n) {
    const std::string base(n, 'a');
    const uint32_t base_id = table.Intern(base);
    for (size_t at = 0; at < n; ++at) {
      std::string other = base;
      other[at] = 'b';
      const uint32_t other_id = table.Intern(other);
      EXPECT_NE(other_id, base_id) << "length " << n << ", byte " << at;
      EXPECT_EQ(table.Get(other_id), other);
      EXPECT_EQ(table.Intern(base), base_id) << "length " << n << ", byte " << at;
      EXPECT_EQ(table.Intern(other), other_id) << "length " << n << ", byte " << at;
    }
  }
}

}  // namespace
}  // namespace stepscope::importers
