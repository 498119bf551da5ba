// The flag parser of every stepscope subcommand and of the example programs: a small
// adapter over CLI11 (Debian's libcli11-dev), so all of them accept the same forms and
// report the same errors:
//
//   --name value   --name=value   --bool_flag   --bool_flag=true|false   --   -h   --help
//   (and --nobool_flag for booleans added with BoolForms::kWithNegation)
//
// Arguments that are not flags are positional and kept in order; everything after "--"
// is positional. CLI11 splits the command line; the values are converted and checked
// here, so every error is one line naming the flag and the bad value, e.g.
//   --format: expected one of text, json, got 'xml'
//   --duration_ms: expected an integer in [1, 300000], got 'abc'
//   --steps needs a value
//   unknown flag --frob
// The caller turns a parse error into exit code 2 (src/cli/exit_code.h).
//
//   std::string format = "text";
//   FlagSet flags;
//   flags.AddString("format", &format, "output format", {"text", "json"});
//   std::vector<std::string> positional;
//   Status status = flags.Parse(args, &positional);
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "stepscope/status.h"

namespace stepscope::cli {

// The one form of a bad-value error: "--<flag>: expected <expected>, got '<value>'".
// For flags added with AddCustom, whose parse function checks values itself.
Status BadFlagValue(std::string_view flag, std::string_view value, std::string_view expected);

// A whole-text decimal integer in [min_value, max_value], or BadFlagValue naming `flag`.
Status ParseIntFlag(std::string_view flag, std::string_view text, int64_t min_value, int64_t max_value,
                    int64_t* value);

enum class BoolForms {
  kPlain,          // --name, --name=true|false|1|0
  kWithNegation,   // also --noname (the examples' convention, as in gflags)
};

class FlagSet {
 public:
  // `allowed` (when not empty) lists the only values accepted; an empty string in it means
  // "unset" and is not shown in the usage.
  void AddString(std::string name, std::string* value, std::string help, std::vector<std::string> allowed = {});

  // Accepts decimal integers in [min_value, max_value] (which must fit in T).
  template <typename T>
  void AddInt(std::string name, T* value, std::string help, int64_t min_value = std::numeric_limits<int64_t>::min(),
              int64_t max_value = std::numeric_limits<int64_t>::max()) {
    AddIntFlag(std::move(name), std::move(help), std::to_string(*value), min_value, max_value,
               [value](int64_t parsed) { *value = static_cast<T>(parsed); });
  }

  // "--name" sets true; "--name=true|false|1|0" sets either. Never consumes the next argument.
  void AddBool(std::string name, bool* value, std::string help, BoolForms forms = BoolForms::kPlain);

  // A flag whose text `parse` checks and stores, returning BadFlagValue(...) when it is
  // wrong. `value_name` is shown in the usage ("A,B", "DIR"); `default_text` after the help
  // (empty: none shown).
  void AddCustom(std::string name, std::string value_name, std::string help, std::string default_text,
                 std::function<Status(const std::string& text)> parse);

  // Like AddCustom, for a flag that may be given many times (`--max a=1 --max b=2`):
  // `parse` is called once per occurrence, in command-line order. No default.
  void AddRepeated(std::string name, std::string value_name, std::string help,
                   std::function<Status(const std::string& text)> parse);

  // "-<letter>" as a second spelling of an added flag (-o for --output), also "-o=VALUE".
  void AddShortName(std::string_view name, char letter);

  // Flags added from now on are listed under `title` in the usage.
  void StartSection(std::string title);

  // Parses `args` (the arguments after the program or subcommand name). On error nothing
  // is promised about the flag variables. `-h` / `--help` before "--" set help_requested()
  // and nothing else is checked.
  Status Parse(const std::vector<std::string>& args, std::vector<std::string>* positional);
  bool help_requested() const { return help_requested_; }

  // One line per flag: "  --format text|json  output format (default: text)", with the
  // section titles (StartSection) as headings.
  std::string Usage() const;

 private:
  struct Flag {
    std::string name;
    std::string value_name;  // empty for booleans
    std::string help;
    std::string default_text;
    BoolForms bool_forms = BoolForms::kPlain;
    char short_name = 0;
    std::string section;
    std::function<Status(const std::string& text)> set;
    bool repeated = false;  // every occurrence counts (AddRepeated), not the last
  };

  void AddIntFlag(std::string name, std::string help, std::string default_text, int64_t min_value,
                  int64_t max_value, std::function<void(int64_t)> set);
  bool is_bool(const Flag& flag) const { return flag.value_name.empty(); }
  std::vector<std::string> ExpandShortEquals(const std::vector<std::string>& args) const;

  std::vector<Flag> flags_;
  std::string section_;
  bool help_requested_ = false;
};

}  // namespace stepscope::cli
