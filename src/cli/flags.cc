#include "src/cli/flags.h"

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

}  // namespace

void FlagSet::AddString(std::string name, std::string* value, std::string help,
                        std::vector<std::string> allowed) {
  Flag flag{std::move(name), Kind::kString, value, std::move(help), std::move(allowed)};
  flag.default_text = *value;
  flags_.push_back(std::move(flag));
}

void FlagSet::AddInt(std::string name, int64_t* value, std::string help, int64_t min_value,
                     int64_t max_value) {
  Flag flag{std::move(name), Kind::kInt, value, std::move(help), {}, min_value, max_value};
  flag.default_text = std::to_string(*value);
  flags_.push_back(std::move(flag));
}

void FlagSet::AddBool(std::string name, bool* value, std::string help) {
  Flag flag{std::move(name), Kind::kBool, value, std::move(help)};
  flag.default_text = *value ? "true" : "false";
  flags_.push_back(std::move(flag));
}

const FlagSet::Flag* FlagSet::Find(std::string_view name) const {
  for (const Flag& flag : flags_) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

Status FlagSet::Set(const Flag& flag, std::string_view text) const {
  const std::string where = "--" + flag.name;
  switch (flag.kind) {
    case Kind::kString: {
      if (!flag.allowed.empty() &&
          std::find(flag.allowed.begin(), flag.allowed.end(), text) == flag.allowed.end()) {
        return InvalidArgumentError(where + " must be one of " + Join(flag.allowed, ", ") + ", not '" +
                                    std::string(text) + "'");
      }
      *static_cast<std::string*>(flag.value) = std::string(text);
      return OkStatus();
    }
    case Kind::kInt: {
      int64_t parsed = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
      if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        return InvalidArgumentError(where + " needs an integer, not '" + std::string(text) + "'");
      }
      if (parsed < flag.min_value || parsed > flag.max_value) {
        return InvalidArgumentError(where + " must be between " + std::to_string(flag.min_value) + " and " +
                                    std::to_string(flag.max_value));
      }
      *static_cast<int64_t*>(flag.value) = parsed;
      return OkStatus();
    }
    case Kind::kBool: {
      bool* value = static_cast<bool*>(flag.value);
      if (text == "true" || text == "1") {
        *value = true;
      } else if (text == "false" || text == "0") {
        *value = false;
      } else {
        return InvalidArgumentError(where + " takes true or false, not '" + std::string(text) + "'");
      }
      return OkStatus();
    }
  }
  return InternalError("unhandled flag kind");
}

Status FlagSet::Parse(const std::vector<std::string>& args, std::vector<std::string>* positional) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      positional->insert(positional->end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      return OkStatus();
    }
    if (arg == "-h" || arg == "--help") {
      help_requested_ = true;
      return OkStatus();
    }
    if (arg.size() < 2 || arg[0] != '-') {
      positional->push_back(arg);
      continue;
    }
    if (arg[1] != '-') {
      return InvalidArgumentError("unknown flag " + arg + " (flags are spelled --name)");
    }
    std::string_view body = std::string_view(arg).substr(2);
    size_t eq = body.find('=');
    std::string_view name = body.substr(0, eq);
    const Flag* flag = Find(name);
    if (flag == nullptr) return InvalidArgumentError("unknown flag --" + std::string(name));
    if (eq != std::string_view::npos) {
      Status status = Set(*flag, body.substr(eq + 1));
      if (!status.ok()) return status;
      continue;
    }
    if (flag->kind == Kind::kBool) {
      *static_cast<bool*>(flag->value) = true;
      continue;
    }
    if (i + 1 >= args.size()) return InvalidArgumentError("--" + flag->name + " needs a value");
    Status status = Set(*flag, args[++i]);
    if (!status.ok()) return status;
  }
  return OkStatus();
}

std::string FlagSet::Usage() const {
  std::vector<std::string> left;
  size_t width = 0;
  for (const Flag& flag : flags_) {
    std::string text = "--" + flag.name;
    if (flag.kind == Kind::kString) {
      // An empty allowed value (meaning "unset") is not something to type; leave it out.
      std::vector<std::string> shown;
      for (const std::string& value : flag.allowed) {
        if (!value.empty()) shown.push_back(value);
      }
      // Appended piecewise: GCC 12 -O3 warns falsely (-Wrestrict) on " " + std::string.
      text += ' ';
      text += shown.empty() ? std::string("VALUE") : Join(shown, "|");
    }
    if (flag.kind == Kind::kInt) text += " N";
    width = std::max(width, text.size());
    left.push_back(std::move(text));
  }
  std::string out;
  for (size_t i = 0; i < flags_.size(); ++i) {
    out += "  " + left[i] + std::string(width - left[i].size() + 2, ' ') + flags_[i].help;
    if (!flags_[i].default_text.empty()) out += " (default: " + flags_[i].default_text + ")";
    out += "\n";
  }
  return out;
}

}  // namespace stepscope::cli
