#include "src/analysis/tool_registry.h"

#include <set>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace stepscope::analysis {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ToolRegistryTest, ToolIdsAreTensorBoardsAndInOrder) {
  std::vector<std::string_view> ids;
  std::set<std::string_view> unique;
  for (const Tool* tool : AllTools()) {
    ids.push_back(tool->id());
    EXPECT_TRUE(unique.insert(tool->id()).second) << "duplicate id " << tool->id();
    EXPECT_FALSE(tool->description().empty()) << tool->id();
    EXPECT_EQ(tool->id().find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), std::string_view::npos) << tool->id();
  }
  // The issue-3 tools come first, in the order UIs list them; later issues append theirs.
  ASSERT_GE(ids.size(), 5u);
  EXPECT_THAT(std::vector<std::string_view>(ids.begin(), ids.begin() + 5),
              ElementsAre("overview_page", "input_pipeline_analyzer", "framework_op_stats", "kernel_stats", "advisor"));
}

TEST(ToolRegistryTest, UnknownToolListsTheValidIds) {
  auto tool = FindTool("overview");
  ASSERT_FALSE(tool.ok());
  EXPECT_EQ(tool.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(tool.status().message(),
              HasSubstr("valid tools: overview_page, input_pipeline_analyzer, framework_op_stats, kernel_stats, advisor"));
  EXPECT_TRUE(FindTool("kernel_stats").ok());
}

TEST(ToolRegistryTest, KernelStatsIsUnavailableWithoutAGpu) {
  ProfileModel cpu;
  std::vector<std::string_view> available;
  for (const Tool* tool : AvailableTools(cpu)) available.push_back(tool->id());
  EXPECT_THAT(available, ::testing::IsSupersetOf({"overview_page", "input_pipeline_analyzer", "framework_op_stats",
                                                  "advisor"}));
  EXPECT_THAT(available, ::testing::Not(::testing::Contains("kernel_stats")));
  auto result = RunTool("kernel_stats", cpu);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(result.status().message(), HasSubstr("/device:GPU:"));
}

TEST(ToolRegistryTest, EveryToolRunsOnAnEmptyModelAndRendersAllForms) {
  ProfileModel empty;
  DeviceActivity gpu;
  gpu.plane_name = "/device:GPU:0";
  empty.devices.push_back(gpu);
  for (const Tool* tool : AllTools()) {
    auto result = tool->Run(empty, {});
    ASSERT_TRUE(result.ok()) << tool->id();
    std::string json = (*result)->ToJson(/*pretty=*/false);
    EXPECT_THAT(json, HasSubstr("\"tool\":\"" + std::string(tool->id()) + "\"")) << tool->id();
    EXPECT_FALSE((*result)->FormatText({}).empty()) << tool->id();
    std::set<std::string> table_names;
    for (const output::Table& table : (*result)->Tables()) {
      EXPECT_TRUE(table_names.insert(table.name).second) << tool->id() << ": duplicate table " << table.name;
      EXPECT_TRUE((*result)->TableCsv(table.name).ok()) << tool->id() << " " << table.name;
      std::set<std::string> column_ids;  // JSON keys and CSV headers must be unique
      for (const output::Column& column : table.columns) {
        EXPECT_TRUE(column_ids.insert(column.id).second) << tool->id() << "/" << table.name << ": " << column.id;
      }
    }
  }
}

}  // namespace
}  // namespace stepscope::analysis
