#include "src/analysis/tool_options.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/analysis/tool_reference.h"
#include "src/analysis/tool_registry.h"

namespace stepscope::analysis {
namespace {

using ::testing::HasSubstr;

TEST(ToolOptionsTest, EveryNameAToolReadsIsDeclaredOnce) {
  std::set<std::string_view> names;
  for (const ToolOptionDecl& option : AllToolOptions()) {
    EXPECT_TRUE(names.insert(option.name).second) << option.name;
    EXPECT_NE(option.set, nullptr);
    EXPECT_NE(option.get, nullptr);
    EXPECT_NE(option.copy, nullptr);
  }
  for (const Tool* tool : AllTools()) {
    for (std::string_view name : tool->option_names()) {
      EXPECT_NE(FindToolOption(name), nullptr) << tool->id() << " reads undeclared option " << name;
    }
  }
}

// What set() reads, get() writes back exactly: the cache key and the mask depend on it.
TEST(ToolOptionsTest, SetAndGetRoundTrip) {
  for (auto [name, text] : std::initializer_list<std::pair<std::string_view, std::string_view>>{
           {"include_idle", "1"}, {"start_ps", "-5"}, {"end_ps", "123456789012"}, {"module", "jit_f(3)"},
           {"op", "dot.1"}, {"hops", "3"}, {"max_nodes", "7"}, {"parameters", "25000000"}, {"link_gbps", "37.5"}}) {
    const ToolOptionDecl* option = FindToolOption(name);
    ASSERT_NE(option, nullptr) << name;
    ToolOptions options;
    ASSERT_TRUE(option->set(name, text, &options).ok()) << name;
    EXPECT_EQ(option->get(options), text) << name;
  }
}

TEST(ToolOptionsTest, BadValuesNameTheOptionAsTheCallerSpellsIt) {
  ToolOptions options;
  Status hops = FindToolOption("hops")->set("--hops", "11", &options);
  EXPECT_THAT(hops.message(), HasSubstr("--hops must be a whole number from 0 to 10, not '11'"));
  EXPECT_THAT(FindToolOption("include_idle")->set("include_idle", "yes", &options).message(),
              HasSubstr("include_idle must be 0, 1, true or false"));
  EXPECT_THAT(FindToolOption("start_ps")->set("start_ps", "1.5", &options).message(),
              HasSubstr("start_ps must be a time in picoseconds"));
  EXPECT_FALSE(FindToolOption("link_gbps")->set("link_gbps", "nan", &options).ok());
  EXPECT_FALSE(FindToolOption("parameters")->set("parameters", "0", &options).ok());
  options.start_ps = 10;
  options.end_ps = 5;
  EXPECT_THAT(ValidateToolOptions(options, "--").message(), HasSubstr("--start_ps (10) is after --end_ps (5)"));
}

// A tool sees only its declared options, so its cache key (which holds exactly those)
// stands for everything its result depends on.
TEST(ToolOptionsTest, MaskKeepsOnlyTheToolsOptionsAndTheKeyHoldsEachOfThem) {
  const Tool* graph = *FindTool("graph_viewer");
  const Tool* advisor = *FindTool("advisor");  // takes no option
  ToolOptions options;
  options.include_idle = true;
  options.hops = 4;
  options.op = "add.2";
  options.link_bandwidth_gbps = 100;
  options.text_max_rows = 3;
  ToolOptions masked = MaskToolOptions(*graph, options);
  EXPECT_FALSE(masked.include_idle);
  EXPECT_FALSE(masked.link_bandwidth_gbps.has_value());
  EXPECT_EQ(masked.hops, 4);
  EXPECT_EQ(masked.op, "add.2");
  EXPECT_EQ(masked.text_max_rows, 3u);
  EXPECT_EQ(ToolOptionsKey(*graph, options), std::string("module=\0op=add.2\0hops=4\0max_nodes=150", 37));
  EXPECT_EQ(ToolOptionsKey(*advisor, options), "");
  // Each declared option changes the key of every tool that reads it.
  for (const Tool* tool : AllTools()) {
    for (const ToolOptionDecl* option : OptionsOf(*tool)) {
      ToolOptions changed;
      std::string text = option->kind == OptionKind::kBool ? "1" : option->kind == OptionKind::kText ? "x" : "3";
      ASSERT_TRUE(option->set(option->name, text, &changed).ok()) << option->name;
      EXPECT_NE(ToolOptionsKey(*tool, changed), ToolOptionsKey(*tool, ToolOptions{})) << tool->id() << " "
                                                                                      << option->name;
    }
  }
}

TEST(ToolOptionsTest, FindOptionOfNamesTheToolsOwnOptions) {
  for (const Tool* tool : AllTools()) {
    for (const ToolOptionDecl* option : OptionsOf(*tool)) {
      auto found = FindOptionOf(*tool, option->name);
      ASSERT_TRUE(found.ok()) << tool->id() << " " << option->name;
      EXPECT_EQ(*found, option);
    }
  }
  auto kernel_stats = FindTool("kernel_stats");
  ASSERT_TRUE(kernel_stats.ok());
  EXPECT_EQ(FindOptionOf(**kernel_stats, "hops").status().message(),
            "kernel_stats takes no option 'hops'; its options: max_kernels");
  auto overview = FindTool("overview_page");
  ASSERT_TRUE(overview.ok());
  EXPECT_EQ(FindOptionOf(**overview, "hops").status().message(), "overview_page takes no option 'hops'");
}

TEST(ToolReferenceTest, BlocksAreReplacedAndBadMarkersNamed) {
  auto doc = UpdateReferenceBlocks("a\n<!-- generated: reference framework_op_stats -->\nold\n<!-- end generated -->\nb\n");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_THAT(*doc, HasSubstr("| `include_idle` | bool | `false` |"));
  EXPECT_THAT(*doc, HasSubstr("| `cumulative_self_time_percent` | Cumulative % | number | % |"));
  EXPECT_THAT(*doc, ::testing::Not(HasSubstr("old")));
  EXPECT_THAT(*doc, ::testing::EndsWith("<!-- end generated -->\nb\n"));
  EXPECT_THAT(UpdateReferenceBlocks("<!-- generated: reference nope -->\n<!-- end generated -->").status().message(),
              HasSubstr("names no tool or command"));
  EXPECT_THAT(UpdateReferenceBlocks("<!-- generated: reference advisor -->\n").status().message(),
              HasSubstr("has no <!-- end generated -->"));
}

TEST(ToolReferenceTest, TypeScriptHasEachDeclaredResultAndItsConditionalColumns) {
  std::string ts = ToolsTypeScript();
  // An inlined record is a base interface: its fields are declared once.
  EXPECT_THAT(ts, HasSubstr("export interface FrameworkOpStats extends FrameworkGuess {\n  tool: 'framework_op_stats';"));
  EXPECT_THAT(ts, HasSubstr("export interface OverviewPage extends StepTimeSummary {"));
  // A `when` field of an object is left out, never null; a table row's cell is null.
  EXPECT_THAT(ts, HasSubstr("  xla?: HloOpSummary;\n"));
  EXPECT_THAT(ts, HasSubstr("  cpu_memory_bytes?: number | null;\n"));
  EXPECT_EQ(ts.find("framework_label: string;"), ts.rfind("framework_label: string;"));
  EXPECT_THAT(ts, HasSubstr("  type?: string;"));                     // only where the side has types
  EXPECT_THAT(ts, HasSubstr("  avg_time_ms: number | null;"));        // computed, absent for the idle row
  EXPECT_THAT(ts, HasSubstr("  framework_op_stats: FrameworkOpStats;"));
  EXPECT_THAT(ts, HasSubstr("{ name: 'hops', kind: 'int'"));
}

// The commands that are not tools (diff, check) are declared as tools are: their results
// in `CommandResults`, their tables in TOOL_COLUMNS and a reference block each.
TEST(ToolReferenceTest, DeclaredCommandsAreGeneratedAsToolsAre) {
  std::vector<std::string_view> ids;
  for (const DeclaredCommand& command : DeclaredCommands()) {
    ids.push_back(command.id);
    EXPECT_FALSE(FindTool(command.id).ok()) << command.id << " is a tool too";
  }
  EXPECT_THAT(ids, ::testing::ElementsAre("diff", "check"));
  std::string ts = ToolsTypeScript();
  EXPECT_THAT(ts, HasSubstr("export interface CommandResults {\n  diff: ProfileDiff;\n  check: CheckResult;\n}"));
  EXPECT_THAT(ts, HasSubstr("export interface ProfileDiff {\n  tool: 'diff';"));
  EXPECT_THAT(ts, HasSubstr("  diff: {\n    summary: [\n"));
  EXPECT_THAT(ts, HasSubstr("{ id: 'a_launches', label: 'A launches', unit: 'count'"));
  auto doc = UpdateReferenceBlocks("<!-- generated: reference check -->\n<!-- end generated -->\n");
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  EXPECT_THAT(*doc, HasSubstr("Generated from the command's declaration"));
  EXPECT_THAT(*doc, HasSubstr("Table `budgets` (Budgets)"));
  EXPECT_THAT(*doc, HasSubstr("| `measured` | Measured | number or null |"));
}

}  // namespace
}  // namespace stepscope::analysis
