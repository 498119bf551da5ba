#include "src/cli/flags.h"

#include <gtest/gtest.h>

namespace stepscope::cli {
namespace {

struct Parsed {
  std::string format = "text";
  int64_t limit = 10;
  bool verbose = false;
  std::vector<std::string> positional;
  Status status;
  bool help = false;
};

Parsed ParseArgs(std::vector<std::string> args) {
  Parsed p;
  FlagSet flags;
  flags.AddString("format", &p.format, "output format", {"text", "json"});
  flags.AddInt("limit", &p.limit, "a limit", 1, 100);
  flags.AddBool("verbose", &p.verbose, "say more");
  p.status = flags.Parse(args, &p.positional);
  p.help = flags.help_requested();
  return p;
}

TEST(FlagSetTest, SpaceAndEqualsFormsAndPositionalsInOrder) {
  Parsed p = ParseArgs({"a", "--format", "json", "b", "--limit=42", "--verbose", "c"});
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.format, "json");
  EXPECT_EQ(p.limit, 42);
  EXPECT_TRUE(p.verbose);
  EXPECT_EQ(p.positional, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(FlagSetTest, DefaultsStayWhenFlagsAreAbsent) {
  Parsed p = ParseArgs({"path"});
  ASSERT_TRUE(p.status.ok());
  EXPECT_EQ(p.format, "text");
  EXPECT_EQ(p.limit, 10);
  EXPECT_FALSE(p.verbose);
}

TEST(FlagSetTest, BoolTakesExplicitValuesOnlyWithEquals) {
  Parsed p = ParseArgs({"--verbose=false", "x"});
  ASSERT_TRUE(p.status.ok());
  EXPECT_FALSE(p.verbose);
  EXPECT_EQ(p.positional, std::vector<std::string>{"x"});  // not consumed as the bool's value
  EXPECT_FALSE(ParseArgs({"--verbose=maybe"}).status.ok());
}

TEST(FlagSetTest, ErrorsNameTheFlag) {
  Parsed unknown = ParseArgs({"--frob", "1"});
  EXPECT_EQ(unknown.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status.message().find("--frob"), std::string::npos);

  Parsed single_dash = ParseArgs({"-format", "json"});
  EXPECT_FALSE(single_dash.status.ok());

  Parsed missing = ParseArgs({"--format"});
  EXPECT_NE(missing.status.message().find("--format needs a value"), std::string::npos);

  Parsed bad_choice = ParseArgs({"--format=xml"});
  EXPECT_NE(bad_choice.status.message().find("text, json"), std::string::npos);

  EXPECT_FALSE(ParseArgs({"--limit", "12x"}).status.ok());
  EXPECT_FALSE(ParseArgs({"--limit", ""}).status.ok());
  EXPECT_FALSE(ParseArgs({"--limit=0"}).status.ok());    // below min
  EXPECT_FALSE(ParseArgs({"--limit=101"}).status.ok());  // above max
  EXPECT_FALSE(ParseArgs({"--limit=99999999999999999999"}).status.ok());  // overflows int64
}

TEST(FlagSetTest, DoubleDashEndsFlagsAndHelpStopsParsing) {
  Parsed p = ParseArgs({"--", "--format", "-x"});
  ASSERT_TRUE(p.status.ok());
  EXPECT_EQ(p.format, "text");
  EXPECT_EQ(p.positional, (std::vector<std::string>{"--format", "-x"}));

  Parsed help = ParseArgs({"--help", "--frob"});
  EXPECT_TRUE(help.status.ok());
  EXPECT_TRUE(help.help);
  EXPECT_TRUE(ParseArgs({"-h"}).help);
  // A lone "-" is a positional (conventionally stdin).
  EXPECT_EQ(ParseArgs({"-"}).positional, std::vector<std::string>{"-"});
}

TEST(FlagSetTest, UsageListsEveryFlagWithItsDefault) {
  std::string format = "text";
  int64_t limit = 7;
  FlagSet flags;
  flags.AddString("format", &format, "output format", {"text", "json"});
  flags.AddInt("limit", &limit, "a limit");
  std::string usage = flags.Usage();
  EXPECT_NE(usage.find("--format text|json"), std::string::npos);
  EXPECT_NE(usage.find("(default: text)"), std::string::npos);
  EXPECT_NE(usage.find("--limit N"), std::string::npos);
  EXPECT_NE(usage.find("(default: 7)"), std::string::npos);

  std::string kind;
  FlagSet optional;
  optional.AddString("kind", &kind, "a kind", {"", "a", "b"});
  EXPECT_NE(optional.Usage().find("--kind a|b  a kind\n"), std::string::npos) << optional.Usage();
}

}  // namespace
}  // namespace stepscope::cli
