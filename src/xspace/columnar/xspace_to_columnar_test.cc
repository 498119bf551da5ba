#include "src/xspace/columnar/xspace_to_columnar.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "src/xspace/columnar/columnar_test_util.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::xspace {
namespace {

void ExpectWalkMatchesReader(const XSpace& space) {
  StatusOr<ColumnarXSpace> want = ConvertXSpaceToColumnar(space);
  StatusOr<ColumnarXSpace> got = XSpaceMessageToColumnar(space);
  ASSERT_EQ(got.ok(), want.ok()) << got.status().ToString() << " vs " << want.status().ToString();
  if (!want.ok()) {
    EXPECT_EQ(got.status().code(), want.status().code());
    return;
  }
  ExpectSameColumns(*want, *got);
}

// Every kind of field and the reader's special cases: all stat kinds (wide, negative,
// double, str, bytes, refs), metadata and plane stats, display names, aggregated events,
// 64-bit and negative durations, undefined, negative and huge metadata ids, repeated
// strings (interned once), a line without a timestamp before one with.
XSpace MakeEveryFieldSpace() {
  XSpace space;
  space.add_hostnames("worker0");
  space.add_warnings("something odd");
  space.add_errors("an error");
  XPlaneBuilder plane(space.add_planes());
  plane.SetName(kHostThreadsPlaneName);
  plane.SetId(7);
  plane.AddStatValue(*plane.GetOrCreateStatMetadata("logical_cores"), int64_t{16});
  XEventMetadata* train = plane.GetOrCreateEventMetadata("train");
  XEventMetadata* matmul = plane.GetOrCreateEventMetadata("dense/MatMul:MatMul");
  matmul->set_display_name("MatMul");
  XStatsBuilder<XEventMetadata>(matmul, &plane).AddStatValue(StatType::kFlops, uint64_t{4096});
  XLineBuilder untimed = plane.GetOrCreateLine(100);
  untimed.SetName("untimed");
  untimed.AddEvent(*train).SetDurationPs(5);
  XLineBuilder line = plane.GetOrCreateLine(101);
  line.SetName("main");
  line.SetTimestampNs(1000);
  line.SetDurationPs(123);
  XEventBuilder step = line.AddEvent(*train);
  step.SetTimestampNs(1000);
  step.SetEndTimestampNs(11000);
  step.AddStatValue(StatType::kStepNum, int64_t{5});
  step.AddStatValue(StatType::kIsRoot, int64_t{1});
  for (int i = 0; i < 3; ++i) {
    XEventBuilder op = line.AddEvent(*matmul);
    op.SetTimestampNs(2000 + i);
    op.SetDurationPs(1234567);
    op.AddStatValue(*plane.GetOrCreateStatMetadata("ratio"), 0.25);
    op.AddStatValue(*plane.GetOrCreateStatMetadata("big"), uint64_t{18446744073709551615ull});
    op.AddStatValue(*plane.GetOrCreateStatMetadata("neg"), int64_t{-3});
    op.AddStatValue(*plane.GetOrCreateStatMetadata("str"), "hello");
    op.AddStatValue(*plane.GetOrCreateStatMetadata("empty"), "");
    op.AddRefStatValue(*plane.GetOrCreateStatMetadata("tf_op"), "dense/MatMul:MatMul");
    op.AddBytesStatValue(*plane.GetOrCreateStatMetadata("blob"), std::string("\0\1\2", 3));
    op.AddStatValue(*plane.GetOrCreateStatMetadata("long string"), std::string(100, 'x'));
  }
  XLineBuilder other = plane.GetOrCreateLine(102);
  other.SetName("worker");
  other.SetTimestampNs(500);
  XEventBuilder long_event = other.AddEvent(*train);
  long_event.SetTimestampNs(600);
  long_event.SetDurationPs(int64_t{5} * 1000 * 1000 * 1000 * 1000);
  XEventBuilder negative = other.AddEvent(*train);
  negative.SetTimestampNs(700);
  negative.SetDurationPs(-7);
  XEventBuilder aggregated = other.AddEvent(*matmul);
  aggregated.SetNumOccurrences(42);
  aggregated.SetDurationPs(99);

  XPlane* raw = space.add_planes();
  raw->set_name("/device:GPU:0");
  (*raw->mutable_event_metadata())[-5].set_name("negative");
  (*raw->mutable_event_metadata())[1ll << 40].set_name("huge");
  (*raw->mutable_stat_metadata())[1ll << 35].set_name("step_num");
  (*raw->mutable_stat_metadata())[-2].set_name("value string");
  XLine* raw_line = raw->add_lines();
  raw_line->set_display_id(3);
  raw_line->set_display_name("Stream #3");
  XEvent* a = raw_line->add_events();
  a->set_metadata_id(-5);
  a->set_offset_ps(0);  // set, so on the wire although 0
  XStat* st = a->add_stats();
  st->set_metadata_id(1ll << 35);
  st->set_int64_value(3);
  XStat* ref = a->add_stats();
  ref->set_metadata_id(1ll << 35);
  ref->set_ref_value(static_cast<uint64_t>(-2));
  a->add_stats()->set_metadata_id(77);  // no value, undefined metadata
  raw_line->add_events()->set_metadata_id(1ll << 40);
  raw_line->add_events()->set_metadata_id(999);  // undefined
  return space;
}

TEST(XSpaceToColumnarTest, MessageWalkEqualsSerializeAndRead) {
  ExpectWalkMatchesReader(MakeEveryFieldSpace());
}

TEST(XSpaceToColumnarTest, WallClockTimestampsSetTheSameOrigin) {
  XSpace space;
  XPlaneBuilder plane(space.add_planes());
  plane.SetName(kHostThreadsPlaneName);
  XEventMetadata* op = plane.GetOrCreateEventMetadata("op");
  const int64_t wall_ns = int64_t{1'700'000'000} * 1'000'000'000;
  for (int l = 0; l < 3; ++l) {
    XLineBuilder line = plane.GetOrCreateLine(l);
    line.SetTimestampNs(wall_ns + l * 1000);
    XEventBuilder event = line.AddEvent(*op);
    event.SetTimestampNs(wall_ns + l * 1000 + 5);
    event.SetDurationPs(10);
  }
  ExpectWalkMatchesReader(space);
  StatusOr<ColumnarXSpace> got = XSpaceMessageToColumnar(space);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->time_origin_ns, wall_ns);
}

TEST(XSpaceToColumnarTest, RealFilesGiveTheSameColumns) {
  int files = 0;
  const std::string dir = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.path().string().ends_with(".xplane.pb")) continue;
    SCOPED_TRACE(entry.path().string());
    StatusOr<XSpace> space = ReadXSpaceFile(entry.path().string());
    ASSERT_TRUE(space.ok()) << space.status().ToString();
    ExpectWalkMatchesReader(*space);
    ++files;
  }
  EXPECT_GE(files, 3);
}

TEST(XSpaceToColumnarTest, RefusesWhatTheReaderRefuses) {
  XSpace empty;
  StatusOr<ColumnarXSpace> none = XSpaceMessageToColumnar(empty, "empty.json");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(none.status().message().rfind("empty.json: ", 0), 0u) << none.status().message();

  XSpace bad_utf8 = MakeEveryFieldSpace();
  bad_utf8.mutable_planes(0)->mutable_lines(1)->mutable_events(1)->mutable_stats(3)->set_str_value("bad\xff");
  StatusOr<ColumnarXSpace> bad = XSpaceMessageToColumnar(bad_utf8, "trace.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(bad.status().message().find("XStat.str_value is not valid UTF-8"), std::string::npos)
      << bad.status().message();

  XSpace bad_name = MakeEveryFieldSpace();
  bad_name.mutable_planes(1)->set_name("\xc0\xaf");
  EXPECT_EQ(XSpaceMessageToColumnar(bad_name).status().code(), StatusCode::kDataLoss);

  XSpace nameless;  // events, none with defined metadata
  nameless.add_planes()->add_lines()->add_events()->set_metadata_id(5);
  ExpectWalkMatchesReader(nameless);
  EXPECT_EQ(XSpaceMessageToColumnar(nameless).status().code(), StatusCode::kDataLoss);
}

}  // namespace
}  // namespace stepscope::xspace
