// Every real XSpace file reads, re-writes and re-reads identically; and files we write
// decode with stock `protoc --decode=tensorflow.profiler.XSpace` against our schema.
#include <gtest/gtest.h>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/message_differencer.h>

#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"
#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

// Map fields serialize in an unspecified order unless deterministic output is asked for.
std::string DeterministicBytes(const xspace::XSpace& space) {
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  space.SerializeToCodedStream(&coded);
  coded.Trim();
  return out;
}

// True if `message` or any message inside it holds fields our schema does not know.
bool HasUnknownFields(const google::protobuf::Message& message) {
  const google::protobuf::Reflection* reflection = message.GetReflection();
  if (!reflection->GetUnknownFields(message).empty()) return true;
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const google::protobuf::FieldDescriptor* field : fields) {
    if (field->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (field->is_repeated()) {
      for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
        if (HasUnknownFields(reflection->GetRepeatedMessage(message, field, i))) return true;
      }
    } else if (HasUnknownFields(reflection->GetMessage(message, field))) {
      return true;
    }
  }
  return false;
}

struct Counts {
  int64_t planes = 0, lines = 0, events = 0, stats = 0, event_metadata = 0, stat_metadata = 0;
  bool operator==(const Counts&) const = default;
};

Counts CountAll(const xspace::XSpace& space) {
  Counts c;
  for (const auto& plane : space.planes()) {
    ++c.planes;
    c.stats += plane.stats_size();
    c.event_metadata += plane.event_metadata_size();
    c.stat_metadata += plane.stat_metadata_size();
    for (const auto& [id, metadata] : plane.event_metadata()) c.stats += metadata.stats_size();
    for (const auto& line : plane.lines()) {
      ++c.lines;
      c.events += line.events_size();
      for (const auto& event : line.events()) c.stats += event.stats_size();
    }
  }
  return c;
}

TEST(XSpaceRoundTripTest, EveryTestFileRewritesIdentically) {
  const std::vector<std::string> files = AllXPlaneTestFiles();
  ASSERT_GE(files.size(), 3u) << "expected the shared xplane test files in " << XPlaneTestDataDir();
  const std::string dir = FreshDir("roundtrip");
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto first = xspace::ReadXSpaceFile(path);
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    const std::string once = dir + "/once.xplane.pb";
    const std::string twice = dir + "/twice.xplane.pb";
    ASSERT_TRUE(xspace::WriteXSpaceFile(once, *first).ok());
    auto second = xspace::ReadXSpaceFile(once);
    ASSERT_TRUE(second.ok()) << second.status().ToString();
    ASSERT_TRUE(xspace::WriteXSpaceFile(twice, *second).ok());

    // Byte-identical once our writer has written it, and nothing lost on the way.
    EXPECT_TRUE(ReadBytes(once) == ReadBytes(twice));  // (EXPECT_EQ would print megabytes)
    EXPECT_TRUE(DeterministicBytes(*first) == DeterministicBytes(*second));
    EXPECT_TRUE(DeterministicBytes(*first) == ReadBytes(once));
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*first, *second));
    EXPECT_EQ(CountAll(*first), CountAll(*second));
    // The original file and our rewrite hold the same message (the original's map order
    // may differ, so compare parsed messages, and sizes, not raw bytes).
    EXPECT_EQ(ReadBytes(once).size(), ReadBytes(path).size());
    EXPECT_FALSE(HasUnknownFields(*first));  // every field is known to our schema

    // gzip-compressed output reads back the same.
    const std::string gz = dir + "/once.xplane.pb.gz";
    ASSERT_TRUE(xspace::WriteXSpaceFile(gz, *first, /*gzip=*/true).ok());
    auto third = xspace::ReadXSpaceFile(gz);
    ASSERT_TRUE(third.ok());
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(*first, *third));
  }
}

TEST(XSpaceRoundTripTest, TensorFlowDemoFileCounts) {
  auto space = xspace::ReadXSpaceFile(TfDemoFile());
  ASSERT_TRUE(space.ok());
  Counts c = CountAll(*space);
  // Decoded independently with protoc --decode (see tests/integration/README or docs/cli.md).
  EXPECT_EQ(c.planes, 9);
  EXPECT_EQ(c.lines, 37);
  EXPECT_EQ(c.events, 23128);
}

std::string Protoc() { return STEPSCOPE_PROTOC_PATH; }

ProcessResult ProtocDecode(const std::string& file) {
  return RunProcess({Protoc(), "--decode=tensorflow.profiler.XSpace", "-I", STEPSCOPE_SOURCE_DIR,
                     "proto/stepscope/xplane.proto"},
                    file);
}

TEST(XSpaceRoundTripTest, StockProtocDecodesWhatWeWrite) {
  if (Protoc().empty()) GTEST_SKIP() << "protoc not found at configure time; install protobuf-compiler";
  xspace::XSpace space;
  space.add_hostnames("worker-0");
  space.add_warnings("dropped 3 events");
  xspace::XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  host.AddStatValue(xspace::StatType::kDroppedTraces, int64_t{3});
  xspace::XLineBuilder line = host.GetOrCreateLine(4242);
  line.SetName("trainer");
  xspace::XEventBuilder e = line.AddEvent(*host.GetOrCreateEventMetadata("train"));
  e.SetTimestampNs(10);
  e.SetDurationPs(5000);
  e.AddStatValue(xspace::StatType::kStepNum, int64_t{7});
  e.AddStatValue(xspace::StatType::kIsRoot, int64_t{1});
  e.ParseAndAddStatValue(*host.GetOrCreateStatMetadata("ratio"), "0.5");
  e.AddRefStatValue(*host.GetOrCreateStatMetadata("tf_op"), "dense:MatMul");
  e.AddBytesStatValue(*host.GetOrCreateStatMetadata("blob"), std::string("\x01\x02", 2));
  const std::string dir = FreshDir("protoc");
  const std::string path = dir + "/ours.xplane.pb";
  ASSERT_TRUE(xspace::WriteXSpaceFile(path, space).ok());

  ProcessResult r = ProtocDecode(path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* needle : {"name: \"/host:CPU\"", "hostnames: \"worker-0\"", "warnings: \"dropped 3 events\"",
                             "id: 4242", "name: \"trainer\"", "name: \"train\"", "int64_value: 7",
                             "double_value: 0.5", "name: \"dense:MatMul\"", "bytes_value: \"\\001\\002\"",
                             "duration_ps: 5000"}) {
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << "\n" << r.out;
  }

  // A real file after our rewrite decodes too, with every event present.
  auto tf = xspace::ReadXSpaceFile(TfDemoFile());
  ASSERT_TRUE(tf.ok());
  const std::string rewritten = dir + "/tf.xplane.pb";
  ASSERT_TRUE(xspace::WriteXSpaceFile(rewritten, *tf).ok());
  ProcessResult big = ProtocDecode(rewritten);
  ASSERT_EQ(big.exit_code, 0) << big.err;
  size_t events = 0;
  for (size_t pos = 0; (pos = big.out.find("\n    events {", pos)) != std::string::npos; ++pos) ++events;
  EXPECT_EQ(events, 23128u);
}

}  // namespace
}  // namespace stepscope::testing
