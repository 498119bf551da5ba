#include "src/xspace/columnar/columnar_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "src/base/file_io.h"
#include "src/base/testing/fresh_dir.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/columnar/columnar_test_util.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::xspace {
namespace {

namespace fs = std::filesystem;

// An empty scratch directory of this test's own (base::FreshTestDir).
std::string FreshDir(const std::string& name) { return base::FreshTestDir("columnar_writer_test", name); }

// Every field the columns keep, with the values the encoding treats specially: negative
// and zero numbers, empty strings, oneof members set to 0, wall-clock line timestamps
// (the columns' time origin), an aggregated event, metadata and plane stats, ids defined
// out of order.
XSpace EveryField() {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetId(7);
  host.SetName(kHostThreadsPlaneName);
  host.AddStatValue(*host.GetOrCreateStatMetadata("host_name"), std::string("worker-0"));
  host.AddStatValue(*host.GetOrCreateStatMetadata("logical_cores"), int64_t{-3});
  XEventMetadata* step = host.GetOrCreateEventMetadata("train");
  step->set_display_name("train step");
  XStat* metadata_stat = step->add_stats();
  metadata_stat->set_metadata_id(host.GetOrCreateStatMetadata("kind")->id());
  metadata_stat->set_uint64_value(uint64_t{1} << 63);
  XLineBuilder line = host.GetOrCreateLine(3);
  line.SetName("python3");
  line.SetDisplayName("main thread");
  line.SetTimestampNs(1'700'000'000'000'000'000);  // wall clock: not relative to the profile
  line.SetDurationPs(5'000'000);
  XEventBuilder first = line.AddEvent(*step);
  first.SetOffsetPs(0);  // a oneof member set to 0 is still written
  first.SetDurationPs(2'000'000);
  first.AddStatValue(*host.GetOrCreateStatMetadata("step_num"), int64_t{-1});
  first.AddStatValue(*host.GetOrCreateStatMetadata("ratio"), 0.25);
  first.AddStatValue(*host.GetOrCreateStatMetadata("empty"), std::string());
  first.AddStatValue(*host.GetOrCreateStatMetadata("huge"), uint64_t{1} << 40);
  first.AddBytesStatValue(*host.GetOrCreateStatMetadata("blob"), std::string_view("\0\1\2", 3));
  first.AddRefStatValue(*host.GetOrCreateStatMetadata("tf_op"), "MatMul");
  XEvent* first_proto = line.proto()->mutable_events(0);
  first_proto->add_stats()->set_metadata_id(host.GetOrCreateStatMetadata("no_value")->id());
  XEventBuilder second = line.AddEvent(*host.GetOrCreateEventMetadata("work"));
  second.SetOffsetPs(3'000'000);
  second.SetDurationPs(int64_t{5} << 40);  // longer than the 32-bit duration column
  XEvent* aggregated = line.proto()->add_events();
  aggregated->set_metadata_id(host.GetOrCreateEventMetadata("counted")->id());
  aggregated->set_num_occurrences(12);
  aggregated->set_duration_ps(40);
  XLine* display = host.proto()->add_lines();
  display->set_id(9);
  display->set_display_id(4);
  display->set_timestamp_ns(1'700'000'000'000'000'500);

  XPlaneBuilder device(space.add_planes());
  device.SetId(1);
  device.SetName("/device:GPU:0");
  XLineBuilder stream = device.GetOrCreateLine(0);
  stream.SetName("Stream #7");
  stream.SetTimestampNs(1'700'000'000'000'000'100);
  XEventBuilder kernel = stream.AddEvent(*device.GetOrCreateEventMetadata("volta_sgemm"));
  kernel.SetOffsetPs(10);
  kernel.SetDurationPs(0);

  space.add_errors("an error");
  space.add_warnings("");
  space.add_warnings("a warning");
  space.add_hostnames("worker-0");
  return space;
}

TEST(ColumnarWriterTest, BytesAreProtobufsDeterministicSerialization) {
  const XSpace message = EveryField();
  StatusOr<ColumnarXSpace> columns = ConvertXSpaceToColumnar(message);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  ASSERT_NE(columns->time_origin_ns, 0);  // the wall-clock path is the one taken
  const std::string path = FreshDir("bytes") + "/every.xplane.pb";
  ASSERT_TRUE(WriteColumnarXSpaceFile(path, *columns).ok());
  StatusOr<std::string> expected = SerializeXSpace(message);
  ASSERT_TRUE(expected.ok());
  StatusOr<std::string> written = base::ReadFile(path, 1 << 20);
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(written->size(), expected->size());
  EXPECT_TRUE(*written == *expected);

  // And the file reads back to the columns protobuf's bytes read to (the converter from
  // a message orders the other-stats table differently from the wire, so it is the reader
  // on both sides).
  StatusOr<ColumnarXSpace> want = ParseColumnarXSpace(*expected, "serialized");
  ASSERT_TRUE(want.ok()) << want.status().ToString();
  StatusOr<ColumnarXSpace> again = ReadColumnarXSpaceFile(path);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  ExpectSameColumns(*want, *again);
}

// A real XSpace (TensorFlow's, multi-worker GPU): its
// columns, written and read again, are the same columns.
TEST(ColumnarWriterTest, TheSharedTensorFlowXSpaceRoundTrips) {
  const std::string path =
      std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb";
  StatusOr<ColumnarXSpace> columns = ReadColumnarXSpaceFile(path);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  ASSERT_GT(columns->num_events(), 20000u);
  const std::string out = FreshDir("shared") + "/again.xplane.pb";
  ASSERT_TRUE(WriteColumnarXSpaceFile(out, *columns).ok());
  StatusOr<ColumnarXSpace> again = ReadColumnarXSpaceFile(out);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  ExpectSameColumns(*columns, *again);
}

TEST(ColumnarWriterTest, MemoryRecordsCannotBeWrittenAndTheOldFileStays) {
  const std::string dir = FreshDir("records");
  const std::string path = dir + "/host.xplane.pb";
  ASSERT_TRUE(base::WriteFileAtomically(path, "precious").ok());
  ColumnarXSpace space;
  space.planes.emplace_back().memory_in_records = true;
  space.planes.back().name = kHostThreadsPlaneName;
  Status written = WriteColumnarXSpaceFile(path, space);
  EXPECT_EQ(written.code(), StatusCode::kUnimplemented);
  EXPECT_NE(written.message().find("records"), std::string::npos);
  EXPECT_EQ(*base::ReadFile(path, 100), "precious");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace stepscope::xspace
