// The flag parser every stepscope subcommand uses, so all of them accept the same forms:
//
//   --name value   --name=value   --bool_flag   --bool_flag=true|false   --   -h   --help
//
// Arguments that are not flags are positional and kept in order; everything after "--"
// is positional. An unknown flag, a missing value or a value of the wrong kind is an
// error naming the flag (the caller turns it into exit code 2).
//
//   std::string format = "text";
//   FlagSet flags;
//   flags.AddString("format", &format, "output format", {"text", "json"});
//   std::vector<std::string> positional;
//   Status status = flags.Parse(args, &positional);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stepscope/status.h"

namespace stepscope::cli {

class FlagSet {
 public:
  // `allowed` (when not empty) lists the only values accepted.
  void AddString(std::string name, std::string* value, std::string help,
                 std::vector<std::string> allowed = {});
  // Accepts decimal integers in [min_value, max_value].
  void AddInt(std::string name, int64_t* value, std::string help, int64_t min_value = INT64_MIN,
              int64_t max_value = INT64_MAX);
  // "--name" sets true; "--name=true|false|1|0" sets either. Never consumes the next argument.
  void AddBool(std::string name, bool* value, std::string help);

  // Parses `args` (the arguments after the subcommand name). On error nothing is promised
  // about the flag variables. `-h` / `--help` set help_requested() and stop parsing.
  Status Parse(const std::vector<std::string>& args, std::vector<std::string>* positional);
  bool help_requested() const { return help_requested_; }

  // One line per flag: "  --format text|json  output format (default: text)".
  std::string Usage() const;

 private:
  enum class Kind { kString, kInt, kBool };
  struct Flag {
    std::string name;
    Kind kind;
    void* value;
    std::string help;
    std::vector<std::string> allowed;
    int64_t min_value = 0;
    int64_t max_value = 0;
    std::string default_text;
  };

  const Flag* Find(std::string_view name) const;
  Status Set(const Flag& flag, std::string_view text) const;

  std::vector<Flag> flags_;
  bool help_requested_ = false;
};

}  // namespace stepscope::cli
