// Whole-text number parsing: the one rule every option, flag and setting reader uses, so
// "12x", " 12", "" and "1e3" for an integer are refused the same way everywhere.
#pragma once

#include <charconv>
#include <string_view>
#include <system_error>

namespace stepscope::base {

// Parses all of `text` as a T (std::from_chars: no sign for unsigned, no leading spaces or
// '+', decimal for integers); false, `*value` unspecified, for anything else.
template <typename T>
bool ParseWhole(std::string_view text, T* value) {
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

}  // namespace stepscope::base
