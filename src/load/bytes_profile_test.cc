#include "src/load/bytes_profile.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/analysis/tool.h"
#include "src/analysis/tool_registry.h"
#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/load/profile_loader.h"

namespace stepscope::load {
namespace {

std::string SharedFile(const std::string& relative) {
  return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/" + relative;
}

std::string ToolJson(const analysis::ProfileModel& model, const std::string& tool_id) {
  StatusOr<const analysis::Tool*> tool = analysis::FindTool(tool_id);
  EXPECT_TRUE(tool.ok());
  StatusOr<std::unique_ptr<analysis::ToolResult>> result = (*tool)->Run(model, {});
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? (*result)->ToJson(/*pretty=*/false) : "";
}

// The bytes of a file give the model the file gives: every tool's JSON the same.
void ExpectSameModelAsFile(const std::string& path, ProfileFormat format, const std::string& host) {
  SCOPED_TRACE(path);
  StatusOr<std::string> bytes = base::ReadFile(path, uint64_t{1} << 30);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  HostProfileFile file{.host = host, .path = path, .format = format};
  StatusOr<analysis::ProfileModel> from_file = LoadHostModel(file);
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  StatusOr<analysis::ProfileModel> from_bytes = LoadModelFromBytes(*bytes, "", {.hostname = host});
  ASSERT_TRUE(from_bytes.ok()) << from_bytes.status().ToString();
  for (const char* tool : {"overview_page", "framework_op_stats", "kernel_stats", "input_pipeline_analyzer"}) {
    SCOPED_TRACE(tool);
    EXPECT_EQ(ToolJson(*from_file, tool), ToolJson(*from_bytes, tool));
  }
}

TEST(BytesProfileTest, GzipTraceJsonGivesTheFilesModel) {
  ExpectSameModelAsFile(SharedFile("traces/hta_sampled_rank-0.json.gz"), ProfileFormat::kTraceJson,
                        "hta_sampled_rank-0.json.gz");
}

TEST(BytesProfileTest, PlainTraceJsonGivesTheFilesModel) {
  ExpectSameModelAsFile(SharedFile("traces/xprof_tf_trace_viewer_demo_trace.json"), ProfileFormat::kTraceJson,
                        "xprof_tf_trace_viewer_demo_trace.json");
}

TEST(BytesProfileTest, XSpaceGivesTheFilesModel) {
  ExpectSameModelAsFile(SharedFile("xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb"),
                        ProfileFormat::kXSpace, "34.83.195.179_6003");
}

TEST(BytesProfileTest, GzipXSpaceIsInflated) {
  StatusOr<std::string> bytes = base::ReadFile(
      SharedFile("xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb"), uint64_t{1} << 30);
  ASSERT_TRUE(bytes.ok());
  StatusOr<std::string> compressed = base::Gzip(*bytes);
  ASSERT_TRUE(compressed.ok());
  StatusOr<analysis::ProfileModel> plain = LoadModelFromBytes(*bytes, "");
  StatusOr<analysis::ProfileModel> inflated = LoadModelFromBytes(*compressed, "");
  ASSERT_TRUE(plain.ok() && inflated.ok());
  EXPECT_EQ(ToolJson(*plain, "overview_page"), ToolJson(*inflated, "overview_page"));
}

TEST(BytesProfileTest, SniffsJsonByItsFirstTextByte) {
  EXPECT_EQ(SniffBytesFormat("  \n{\"traceEvents\": []}"), BytesFormat::kTraceJson);
  EXPECT_EQ(SniffBytesFormat("\xEF\xBB\xBF[]"), BytesFormat::kTraceJson);
  EXPECT_EQ(SniffBytesFormat(std::string("\x0a\x05", 2)), BytesFormat::kXSpace);
}

// Bad bytes are errors naming what was given, never a crash or an empty model.
TEST(BytesProfileTest, BadBytesAreErrorsNamingTheSource) {
  StatusOr<analysis::ProfileModel> empty = LoadModelFromBytes("", "my profile");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(empty.status().message().find("my profile"), std::string::npos) << empty.status().message();

  StatusOr<analysis::ProfileModel> garbage = LoadModelFromBytes(std::string("\xff\xff\xff\xff\x0f", 5), "");
  ASSERT_FALSE(garbage.ok());
  EXPECT_NE(garbage.status().message().find("<bytes>"), std::string::npos) << garbage.status().message();

  StatusOr<analysis::ProfileModel> truncated_json = LoadModelFromBytes("{\"traceEvents\": [{\"ph\": \"X\"", "t");
  ASSERT_FALSE(truncated_json.ok());

  StatusOr<std::string> compressed = base::Gzip(std::string(1000, 'x'));
  ASSERT_TRUE(compressed.ok());
  StatusOr<analysis::ProfileModel> cut_gzip =
      LoadModelFromBytes(std::string_view(*compressed).substr(0, compressed->size() / 2), "cut");
  ASSERT_FALSE(cut_gzip.ok());
  EXPECT_NE(cut_gzip.status().message().find("cut"), std::string::npos) << cut_gzip.status().message();
}

}  // namespace
}  // namespace stepscope::load
