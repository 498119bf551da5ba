// ASCII case folding for names and protocol tokens: op and kernel names, trace categories,
// HTTP header names. Bytes outside A-Z are left as they are (UTF-8 included). Inline,
// because std::tolower is a call per character through the locale.
#pragma once

#include <string>
#include <string_view>

namespace stepscope::base {

constexpr char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool AsciiStartsWithIgnoreCase(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (AsciiLower(text[i]) != AsciiLower(prefix[i])) return false;
  }
  return true;
}

constexpr bool AsciiEqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && AsciiStartsWithIgnoreCase(a, b);
}

constexpr bool AsciiContainsIgnoreCase(std::string_view text, std::string_view needle) {
  if (needle.empty()) return true;
  if (needle.size() > text.size()) return false;
  const char first = AsciiLower(needle[0]);
  for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
    if (AsciiLower(text[i]) == first && AsciiStartsWithIgnoreCase(text.substr(i + 1), needle.substr(1))) return true;
  }
  return false;
}

// `text` folded once, for looking up several lowercase patterns in it with find (memchr
// and memcmp) instead of one case-folding scan per pattern.
inline std::string AsciiLowerCopy(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = AsciiLower(c);
  return lower;
}

}  // namespace stepscope::base
