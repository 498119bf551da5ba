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
  EXPECT_EQ(missing.status.message(), "--format needs a value");
  // A value-taking flag does not swallow the next flag as its value.
  EXPECT_EQ(ParseArgs({"--format", "--verbose"}).status.message(), "--format needs a value");
  EXPECT_EQ(ParseArgs({"--format="}).status.message(), "--format needs a value");

  Parsed bad_choice = ParseArgs({"--format=xml"});
  EXPECT_EQ(bad_choice.status.message(), "--format: expected one of text, json, got 'xml'");

  EXPECT_EQ(ParseArgs({"--limit", "abc"}).status.message(), "--limit: expected an integer in [1, 100], got 'abc'");
  EXPECT_EQ(ParseArgs({"--verbose=maybe"}).status.message(), "--verbose: expected true, false, 1 or 0, got 'maybe'");
  EXPECT_EQ(ParseArgs({"--frob"}).status.message(), "unknown flag --frob");
  EXPECT_FALSE(ParseArgs({"--limit", "12x"}).status.ok());
  EXPECT_FALSE(ParseArgs({"--limit", ""}).status.ok());
  EXPECT_FALSE(ParseArgs({"--limit=0"}).status.ok());    // below min
  EXPECT_FALSE(ParseArgs({"--limit=101"}).status.ok());  // above max
  EXPECT_FALSE(ParseArgs({"--limit=99999999999999999999"}).status.ok());  // overflows int64
}

TEST(FlagSetTest, RepeatedFlagTakesTheLastValue) {
  Parsed p = ParseArgs({"--format", "json", "--format=text", "--verbose", "--verbose=false"});
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.format, "text");
  EXPECT_FALSE(p.verbose);
}

TEST(FlagSetTest, RepeatableFlagSeesEveryValueInOrder) {
  std::vector<std::string> seen;
  std::string other;
  FlagSet flags;
  flags.AddRepeated("max", "KEY=VALUE", "a budget", [&seen](const std::string& text) {
    if (text == "bad") return BadFlagValue("max", text, "KEY=VALUE");
    seen.push_back(text);
    return OkStatus();
  });
  flags.AddString("other", &other, "another flag");
  std::vector<std::string> positional;
  Status status = flags.Parse({"--max", "a=1", "p", "--other", "x", "--max=b=2", "--max", "c=3"}, &positional);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(seen, (std::vector<std::string>{"a=1", "b=2", "c=3"}));
  EXPECT_EQ(positional, (std::vector<std::string>{"p"}));
  seen.clear();
  Status bad = flags.Parse({"--max", "a=1", "--max", "bad"}, &positional);
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("--max"), std::string::npos) << bad.message();
  Status missing = flags.Parse({"--max"}, &positional);
  EXPECT_EQ(missing.message(), "--max needs a value");
  EXPECT_NE(flags.Usage().find("--max KEY=VALUE"), std::string::npos);
}

TEST(FlagSetTest, ShortNameNegationAndCustomFlags) {
  std::string output;
  bool cache = false;
  std::pair<int, int> range{-1, -1};
  FlagSet flags;
  flags.AddString("output", &output, "output file");
  flags.AddShortName("output", 'o');
  flags.AddBool("cache", &cache, "keep things", BoolForms::kWithNegation);
  flags.AddCustom("range", "A,B", "two numbers", "", [&range](const std::string& text) {
    if (text.find(',') == std::string::npos) return BadFlagValue("range", text, "A,B");
    range = {std::stoi(text), std::stoi(text.substr(text.find(',') + 1))};
    return OkStatus();
  });
  std::vector<std::string> positional;
  ASSERT_TRUE(flags.Parse({"-o", "a.json", "--cache", "--range=3,4"}, &positional).ok());
  EXPECT_EQ(output, "a.json");
  EXPECT_TRUE(cache);
  EXPECT_EQ(range, std::make_pair(3, 4));
  ASSERT_TRUE(flags.Parse({"-o=b.json", "--nocache"}, &positional).ok());
  EXPECT_EQ(output, "b.json");
  EXPECT_FALSE(cache);
  EXPECT_TRUE(positional.empty());
  EXPECT_EQ(flags.Parse({"--range=7"}, &positional).message(), "--range: expected A,B, got '7'");
  EXPECT_NE(flags.Usage().find("-o, --output VALUE"), std::string::npos) << flags.Usage();
  EXPECT_NE(flags.Usage().find("--cache, --nocache"), std::string::npos) << flags.Usage();
  EXPECT_NE(flags.Usage().find("--range A,B"), std::string::npos) << flags.Usage();
}

TEST(FlagSetTest, AFlagDefinedTwiceIsABugNotAnException) {
  bool a = false;
  FlagSet flags;
  flags.AddBool("same", &a, "one");
  flags.AddBool("same", &a, "two");
  std::vector<std::string> positional;
  EXPECT_EQ(flags.Parse({}, &positional).code(), StatusCode::kInternal);
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
  Parsed after_dashes = ParseArgs({"--", "--help"});
  EXPECT_FALSE(after_dashes.help);
  EXPECT_EQ(after_dashes.positional, std::vector<std::string>{"--help"});
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

  FlagSet sections;
  bool a = false, b = false;
  sections.StartSection("First");
  sections.AddBool("a", &a, "flag a");
  sections.StartSection("Second");
  sections.AddBool("b", &b, "flag b");
  const std::string text = sections.Usage();
  EXPECT_LT(text.find("First\n  --a"), text.find("Second\n  --b")) << text;
  EXPECT_NE(text.find("Second\n  --b"), std::string::npos) << text;

  std::string kind;
  FlagSet optional;
  optional.AddString("kind", &kind, "a kind", {"", "a", "b"});
  EXPECT_NE(optional.Usage().find("--kind a|b  a kind\n"), std::string::npos) << optional.Usage();
}

}  // namespace
}  // namespace stepscope::cli
