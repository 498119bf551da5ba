#include "src/cli/flags.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>

namespace stepscope::cli {
namespace {

std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out.append(separator);
    out.append(items[i]);
  }
  return out;
}

Status ParseBoolText(std::string_view flag, const std::string& text, bool* value) {
  if (text == "true" || text == "1") {
    *value = true;
  } else if (text == "false" || text == "0") {
    *value = false;
  } else {
    return BadFlagValue(flag, text, "true, false, 1 or 0");
  }
  return OkStatus();
}

// "--format" or "--cache,!--nocache", and "-o," in front for a short name.
std::string Cli11Name(const std::string& name, char short_name, bool negatable) {
  std::string spec;
  if (short_name != 0) spec = std::string("-") + short_name + ",";
  spec += "--" + name;
  if (negatable) spec += ",!--no" + name;
  return spec;
}

}  // namespace

Status BadFlagValue(std::string_view flag, std::string_view value, std::string_view expected) {
  return InvalidArgumentError("--" + std::string(flag) + ": expected " + std::string(expected) + ", got '" +
                              std::string(value) + "'");
}

Status ParseIntFlag(std::string_view flag, std::string_view text, int64_t min_value, int64_t max_value,
                    int64_t* value) {
  int64_t parsed = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || parsed < min_value ||
      parsed > max_value) {
    return BadFlagValue(flag, text,
                        "an integer in [" + std::to_string(min_value) + ", " + std::to_string(max_value) + "]");
  }
  *value = parsed;
  return OkStatus();
}

void FlagSet::AddString(std::string name, std::string* value, std::string help, std::vector<std::string> allowed) {
  std::vector<std::string> shown;
  for (const std::string& choice : allowed) {
    if (!choice.empty()) shown.push_back(choice);
  }
  std::string flag_name = name;
  auto set = [flag_name, value, allowed, shown](const std::string& text) {
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), text) == allowed.end()) {
      return BadFlagValue(flag_name, text, "one of " + Join(shown, ", "));
    }
    *value = text;
    return OkStatus();
  };
  flags_.push_back({std::move(name), shown.empty() ? "VALUE" : Join(shown, "|"), std::move(help), *value,
                    BoolForms::kPlain, 0, section_, std::move(set)});
}

void FlagSet::AddIntFlag(std::string name, std::string help, std::string default_text, int64_t min_value,
                         int64_t max_value, std::function<void(int64_t)> store) {
  std::string flag_name = name;
  auto set = [flag_name, min_value, max_value, store](const std::string& text) {
    int64_t parsed = 0;
    Status status = ParseIntFlag(flag_name, text, min_value, max_value, &parsed);
    if (status.ok()) store(parsed);
    return status;
  };
  flags_.push_back({std::move(name), "N", std::move(help), std::move(default_text), BoolForms::kPlain, 0, section_,
                    std::move(set)});
}

void FlagSet::AddBool(std::string name, bool* value, std::string help, BoolForms forms) {
  std::string flag_name = name;
  auto set = [flag_name, value](const std::string& text) { return ParseBoolText(flag_name, text, value); };
  flags_.push_back({std::move(name), "", std::move(help), *value ? "true" : "false", forms, 0, section_,
                    std::move(set)});
}

void FlagSet::AddCustom(std::string name, std::string value_name, std::string help, std::string default_text,
                        std::function<Status(const std::string& text)> parse) {
  flags_.push_back({std::move(name), std::move(value_name), std::move(help), std::move(default_text),
                    BoolForms::kPlain, 0, section_, std::move(parse)});
}

void FlagSet::AddRepeated(std::string name, std::string value_name, std::string help,
                          std::function<Status(const std::string& text)> parse) {
  flags_.push_back({std::move(name), std::move(value_name), std::move(help), "", BoolForms::kPlain, 0, section_,
                    std::move(parse), /*repeated=*/true});
}

void FlagSet::AddShortName(std::string_view name, char letter) {
  for (Flag& flag : flags_) {
    if (flag.name == name) flag.short_name = letter;
  }
}

void FlagSet::StartSection(std::string title) { section_ = std::move(title); }

// CLI11 takes "-o=x" as the value "=x"; people who write --output=x write -o=x too.
std::vector<std::string> FlagSet::ExpandShortEquals(const std::vector<std::string>& args) const {
  std::vector<std::string> out;
  out.reserve(args.size());
  bool flags_ended = false;
  for (const std::string& arg : args) {
    if (arg == "--") flags_ended = true;
    const Flag* flag = nullptr;
    if (!flags_ended && arg.size() >= 3 && arg[0] == '-' && arg[2] == '=') {
      for (const Flag& candidate : flags_) {
        if (candidate.short_name != 0 && candidate.short_name == arg[1]) flag = &candidate;
      }
    }
    out.push_back(flag != nullptr ? "--" + flag->name + arg.substr(2) : arg);
  }
  return out;
}

Status FlagSet::Parse(const std::vector<std::string>& args, std::vector<std::string>* positional) {
  CLI::App app;
  std::vector<CLI::Option*> options;
  std::vector<std::string> in_order;
  try {
    app.set_help_flag("-h,--help");
    // Unknown flags are collected (app.remaining()) and reported below in our words.
    app.allow_extras();
    // A repeated flag: the last value counts.
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    for (const Flag& flag : flags_) {
      const bool negatable = flag.bool_forms == BoolForms::kWithNegation;
      if (is_bool(flag)) {
        options.push_back(app.add_flag(Cli11Name(flag.name, flag.short_name, negatable)));
      } else {
        // 0..1 values: a value-taking flag at the end, or followed by another flag, arrives
        // here empty and is reported as "needs a value" rather than swallowing that flag.
        options.push_back(app.add_option(Cli11Name(flag.name, flag.short_name, false))->expected(0, 1));
        if (flag.repeated) options.back()->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
      }
    }
    app.add_option("positional", in_order);
  } catch (const CLI::ConstructionError& e) {
    // A flag added twice, or a name CLI11 cannot take: a bug in the caller's definitions.
    return InternalError(std::string("bad flag definitions: ") + e.what());
  }

  // CLI11 parses a reversed vector (it pops arguments off the back).
  std::vector<std::string> reversed = ExpandShortEquals(args);
  std::reverse(reversed.begin(), reversed.end());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    help_requested_ = true;
    return OkStatus();
  } catch (const CLI::ParseError& e) {
    return InvalidArgumentError(e.what());
  }
  for (const std::string& extra : app.remaining()) {
    if (extra == "--") continue;  // the end-of-flags mark itself
    if (extra.size() >= 2 && extra[1] != '-') {
      return InvalidArgumentError("unknown flag " + extra + " (flags are spelled --name)");
    }
    return InvalidArgumentError("unknown flag " + extra);
  }
  for (size_t i = 0; i < flags_.size(); ++i) {
    const CLI::Option& option = *options[i];
    if (option.count() == 0) continue;
    const Flag& flag = flags_[i];
    if (flag.repeated) {
      for (const std::string& text : option.results()) {
        if (text.empty()) return InvalidArgumentError("--" + flag.name + " needs a value");
        Status status = flag.set(text);
        if (!status.ok()) return status;
      }
      continue;
    }
    const std::string text = option.results().empty() ? std::string() : option.results().back();
    if (text.empty() && !is_bool(flag)) return InvalidArgumentError("--" + flag.name + " needs a value");
    Status status = flag.set(text);
    if (!status.ok()) return status;
  }
  positional->insert(positional->end(), in_order.begin(), in_order.end());
  return OkStatus();
}

std::string FlagSet::Usage() const {
  std::vector<std::string> left;
  size_t width = 0;
  for (const Flag& flag : flags_) {
    std::string text = "--" + flag.name;
    if (flag.short_name != 0) text = std::string("-") + flag.short_name + ", " + text;
    if (flag.bool_forms == BoolForms::kWithNegation) text += ", --no" + flag.name;
    if (!is_bool(flag)) {
      // Appended piecewise: GCC 12 -O3 warns falsely (-Wrestrict) on " " + std::string.
      text += ' ';
      text += flag.value_name;
    }
    width = std::max(width, text.size());
    left.push_back(std::move(text));
  }
  std::string out;
  std::string section;
  for (size_t i = 0; i < flags_.size(); ++i) {
    const Flag& flag = flags_[i];
    if (flag.section != section) {
      section = flag.section;
      out += section + "\n";
    }
    out += "  " + left[i] + std::string(width - left[i].size() + 2, ' ') + flag.help;
    if (!flag.default_text.empty()) out += " (default: " + flag.default_text + ")";
    out += "\n";
  }
  return out;
}

}  // namespace stepscope::cli
