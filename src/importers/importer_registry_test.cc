#include "src/importers/importer_registry.h"

#include <gtest/gtest.h>

#include <fstream>

#include "src/importers/testing/trace_facts.h"

namespace stepscope::importers {
namespace {

TEST(ImporterRegistryTest, EachTestTraceSniffsAsItsFormat) {
  const std::pair<const char*, const char*> kExpected[] = {
      {"hta_sampled_rank-0.json.gz", "kineto_json"},
      {"hta_ns_resolution_rank-0.pt.trace.json.gz", "kineto_json"},
      {"hta_amd_mi250_minitoy_train_ROCm6_2_kineto.json.gz", "kineto_json"},
      {"tracelens_h100_bert_small.json.gz", "kineto_json"},
      {"tracelens_h100_qwen1.5_0.5b_chat.json.gz", "kineto_json"},
      {"perfetto_flow_events_json_v1.json", "chrome_json"},
      {"xprof_tf_trace_viewer_demo_trace.json", "chrome_json"},
  };
  for (const auto& [file, format] : kExpected) {
    std::string path = testing::TraceTestFile(file);
    std::string head = testing::ReadInflated(path).substr(0, kSniffHeadBytes);
    const TraceImporter* importer = SniffImporter(head);
    ASSERT_NE(importer, nullptr) << file;
    EXPECT_EQ(importer->name(), format) << file;
    EXPECT_TRUE(LooksLikeTraceFile(path)) << file;
  }
}

TEST(ImporterRegistryTest, NonTracesAreRejectedWithTheFileName) {
  std::string dir = ::testing::TempDir();
  std::string text = dir + "/notes.txt";
  std::ofstream(text) << "hello";
  EXPECT_FALSE(LooksLikeTraceFile(text));
  EXPECT_FALSE(LooksLikeTraceFile(dir));
  EXPECT_FALSE(LooksLikeTraceFile(dir + "/missing.json"));
  StatusOr<xspace::XSpace> space = ImportTraceFile(text);
  ASSERT_FALSE(space.ok());
  EXPECT_EQ(space.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(space.status().message().find("notes.txt"), std::string::npos);
  EXPECT_EQ(ImportTraceFile(dir + "/missing.json").status().code(), StatusCode::kNotFound);
  std::string json = dir + "/other.json";
  std::ofstream(json) << R"({"name": "not a trace"})";
  EXPECT_FALSE(LooksLikeTraceFile(json));
}

TEST(ImporterRegistryTest, FormatCanBeForced) {
  xspace::XSpace space;
  ImportStats stats;
  ASSERT_TRUE(ImportTraceBytes(R"([{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1}])", {}, &space, &stats,
                               "kineto_json")
                  .ok());
  EXPECT_EQ(stats.format, "kineto_json");
  EXPECT_EQ(ImportTraceBytes("[]", {}, &space, nullptr, "nope").code(), StatusCode::kInvalidArgument);
  EXPECT_NE(FindImporter("tf_trace_json"), nullptr);
  EXPECT_EQ(AllImporters().size(), 3u);
}

}  // namespace
}  // namespace stepscope::importers
