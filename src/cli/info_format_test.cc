#include "src/cli/info_format.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::cli {
namespace {

TEST(InfoFormatTest, CompressPlaneNamesMakesOrdinalRanges) {
  EXPECT_EQ(CompressPlaneNames({"/device:GPU:0", "/device:GPU:1", "/device:GPU:2", "/device:GPU:3"}), "/device:GPU:0-3");
  EXPECT_EQ(CompressPlaneNames({"/device:GPU:1", "/device:GPU:4", "/device:GPU:5", "/device:GPU:6"}),
            "/device:GPU:1,4-6");
  EXPECT_EQ(CompressPlaneNames({"/device:GPU:0"}), "/device:GPU:0");
  EXPECT_EQ(CompressPlaneNames({"/device:GPU:0", "/device:TPU:1"}), "/device:GPU:0, /device:TPU:1");
  EXPECT_EQ(CompressPlaneNames({"/device:CUSTOM:a", "/device:CUSTOM:b"}), "/device:CUSTOM:a, /device:CUSTOM:b");
  EXPECT_EQ(CompressPlaneNames({}), "");
}

FileInfo SampleFile() {
  xspace::XSpace space;
  space.add_hostnames("h\"ost");  // needs escaping in JSON
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  host.AddStatValue(xspace::StatType::kLogicalCores, int64_t{8});
  xspace::XLineBuilder line = host.GetOrCreateLine(1);
  line.SetName("main\x01thread");  // a control character must not reach the terminal
  xspace::XEventBuilder e = line.AddEvent(*host.GetOrCreateEventMetadata("train"));
  e.SetDurationPs(3'000'000'000);
  e.AddStatValue(xspace::StatType::kIsRoot, int64_t{1});
  FileInfo file;
  file.path = "/tmp/x.xplane.pb";
  file.file_bytes = 123;
  StatusOr<xspace::ColumnarXSpace> columnar = xspace::ConvertXSpaceToColumnar(space);
  EXPECT_TRUE(columnar.ok()) << columnar.status().ToString();
  if (columnar.ok()) file.summary = SummarizeXSpace(*columnar);
  return file;
}

TEST(InfoFormatTest, FileJsonIsValidAndCarriesTheNumbers) {
  std::string json = FormatFileJson(SampleFile());
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  EXPECT_EQ(std::string_view(doc["kind"]), "file");
  simdjson::dom::element file = doc["file"];
  EXPECT_EQ(int64_t(file["num_events"]), 1);
  EXPECT_EQ(std::string_view(file["hostnames"].at(0)), "h\"ost");
  EXPECT_TRUE(file["dropped_events"].is_null());
  EXPECT_EQ(int64_t(file["steps"]["count"]), 1);
  EXPECT_DOUBLE_EQ(double(file["steps"]["mean_ms"]), 3.0);
  EXPECT_EQ(int64_t(file["planes"].at(0)["stats"]["logical_cores"]), 8);
  EXPECT_EQ(int64_t(file["planes"].at(0)["lines"].at(0)["end_ps"]), 3'000'000'000);
}

TEST(InfoFormatTest, TextShowsHeadlineAndSanitizesNames) {
  std::string text = FormatFileText(SampleFile());
  EXPECT_NE(text.find("Step markers:  1 (host root 'train' level 1 on /host:CPU): mean 3.000 ms"), std::string::npos)
      << text;
  EXPECT_NE(text.find("main?thread"), std::string::npos);
  EXPECT_EQ(text.find('\x01'), std::string::npos);
  EXPECT_NE(text.find("logical_cores=8"), std::string::npos);
}

TEST(InfoFormatTest, LogdirJsonReportsUnreadableHostsWithTheirError) {
  RunInfoSummary run{"run1", "/l/plugins/profile/run1", {}};
  FileInfo bad;
  bad.host = "h1";
  bad.path = "/l/plugins/profile/run1/h1.xplane.pb";
  bad.status = DataLossError(bad.path + ": not a valid XSpace protobuf (truncated or corrupt)");
  run.hosts.push_back(bad);
  FileInfo good = SampleFile();
  good.host = "h2";
  run.hosts.push_back(good);
  std::string json = FormatLogdirJson("/l", {run});
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  simdjson::dom::element hosts = doc["runs"].at(0)["hosts"];
  EXPECT_NE(std::string_view(hosts.at(0)["error"]).find("truncated"), std::string_view::npos);
  EXPECT_EQ(int64_t(hosts.at(1)["num_planes"]), 1);
  std::string text = FormatLogdirText("/l", {run});
  EXPECT_NE(text.find("unreadable: not a valid XSpace protobuf"), std::string::npos) << text;
}

}  // namespace
}  // namespace stepscope::cli
