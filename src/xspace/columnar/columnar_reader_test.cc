#include "src/xspace/columnar/columnar_reader.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <filesystem>
#include <string>
#include <vector>

#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/base/testing/resident_pages.h"
#include "src/xspace/columnar/columnar_finalize.h"
#include "src/xspace/columnar/columnar_test_util.h"
#include "src/xspace/columnar/xspace_to_columnar.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xplane_visitor.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::xspace {
namespace {

// ---- a tiny wire writer for hand-made inputs ----
std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}
std::string VarintField(uint32_t number, uint64_t v) { return Varint(number << 3 | 0) + Varint(v); }
std::string BytesField(uint32_t number, const std::string& bytes) {
  return Varint(number << 3 | 2) + Varint(bytes.size()) + bytes;
}

std::string TestDir() {
  std::string dir = std::filesystem::temp_directory_path() / ("columnar_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

// Builds a plane exercising every stat kind, metadata stats, plane stats, an aggregated
// event and two lines.
XSpace MakeSampleSpace() {
  XSpace space;
  space.add_hostnames("worker0");
  space.add_warnings("something odd");
  XPlaneBuilder plane(space.add_planes());
  plane.SetName(kHostThreadsPlaneName);
  plane.SetId(7);
  plane.AddStatValue(*plane.GetOrCreateStatMetadata("logical_cores"), int64_t{16});
  XEventMetadata* train = plane.GetOrCreateEventMetadata("train");
  XEventMetadata* matmul = plane.GetOrCreateEventMetadata("dense/MatMul:MatMul");
  matmul->set_display_name("MatMul");
  XStatsBuilder<XEventMetadata>(matmul, &plane).AddStatValue(StatType::kFlops, uint64_t{4096});
  XLineBuilder line = plane.GetOrCreateLine(101);
  line.SetName("main");
  line.SetTimestampNs(1000);
  XEventBuilder step = line.AddEvent(*train);
  step.SetTimestampNs(1000);
  step.SetEndTimestampNs(11000);
  step.AddStatValue(StatType::kStepNum, int64_t{5});
  step.AddStatValue(StatType::kIsRoot, int64_t{1});
  XEventBuilder op = line.AddEvent(*matmul);
  op.SetTimestampNs(2000);
  op.SetDurationPs(1234567);
  op.AddStatValue(*plane.GetOrCreateStatMetadata("ratio"), 0.25);
  op.AddStatValue(*plane.GetOrCreateStatMetadata("big"), uint64_t{18446744073709551615ull});
  op.AddStatValue(*plane.GetOrCreateStatMetadata("neg"), int64_t{-3});
  op.AddStatValue(*plane.GetOrCreateStatMetadata("str"), "hello");
  op.AddRefStatValue(*plane.GetOrCreateStatMetadata("tf_op"), "dense/MatMul:MatMul");
  op.AddBytesStatValue(*plane.GetOrCreateStatMetadata("blob"), std::string("\0\1\2", 3));
  XLineBuilder other = plane.GetOrCreateLine(102);
  other.SetName("worker");
  other.SetTimestampNs(500);
  XEventBuilder long_event = other.AddEvent(*train);  // longer than 32 bits of ps
  long_event.SetTimestampNs(600);
  long_event.SetDurationPs(int64_t{5} * 1000 * 1000 * 1000 * 1000);
  XEventBuilder negative = other.AddEvent(*train);  // malformed
  negative.SetTimestampNs(700);
  negative.SetDurationPs(-7);
  XEventBuilder aggregated = other.AddEvent(*matmul);
  aggregated.SetNumOccurrences(42);
  aggregated.SetDurationPs(99);
  return space;
}

TEST(ColumnarReaderTest, ConvertsEveryFieldOfABuiltSpace) {
  XSpace space = MakeSampleSpace();
  StatusOr<ColumnarXSpace> columnar = ConvertXSpaceToColumnar(space);
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  ASSERT_EQ(columnar->planes.size(), 1u);
  EXPECT_EQ(columnar->hostnames, std::vector<std::string>{"worker0"});
  EXPECT_EQ(columnar->warnings, std::vector<std::string>{"something odd"});
  const ColumnarPlane& plane = columnar->planes[0];
  EXPECT_EQ(plane.name, kHostThreadsPlaneName);
  EXPECT_EQ(plane.id, 7);
  ASSERT_EQ(plane.lines.size(), 2u);
  EXPECT_EQ(plane.lines[0].name, "main");
  EXPECT_EQ(plane.lines[0].id, 101);
  ASSERT_EQ(plane.lines[0].num_events(), 2u);
  ASSERT_EQ(plane.num_events(), 5u);
  EXPECT_EQ(plane.duration_ps(2), int64_t{5} * 1000 * 1000 * 1000 * 1000);
  EXPECT_EQ(plane.event_end_ps(2), 600 * 1000 + int64_t{5} * 1000 * 1000 * 1000 * 1000);
  EXPECT_EQ(plane.duration_ps(3), 0) << "negative durations are malformed and read as 0";

  EXPECT_EQ(plane.event_name(0), "train");
  EXPECT_EQ(plane.event_start_ps[0], 1000 * 1000);
  EXPECT_EQ(plane.duration_ps(0), 10000 * 1000);
  ColumnarStat stat;
  ASSERT_TRUE(plane.FindStat(0, StatType::kStepNum, &stat));
  EXPECT_EQ(ColumnarPlane::AsInt64(stat), 5);

  EXPECT_EQ(plane.event_name(1), "dense/MatMul:MatMul");
  EXPECT_EQ(plane.event_metadata[plane.event_metadata_index[1]].display_name, "MatMul");
  EXPECT_EQ(plane.event_start_ps[1], 2000 * 1000);
  EXPECT_EQ(plane.duration_ps(1), 1234567);
  ASSERT_TRUE(plane.FindStat(1, StatType::kFlops, &stat));  // from the metadata
  EXPECT_EQ(stat.kind, StatKind::kUint64);
  EXPECT_EQ(stat.payload, 4096u);
  ASSERT_TRUE(plane.FindStat(1, StatType::kTfOp, &stat));
  EXPECT_EQ(stat.kind, StatKind::kRef);
  EXPECT_EQ(plane.AsString(stat), "dense/MatMul:MatMul");
  std::vector<std::string> rendered;
  for (uint32_t i = plane.event_stats_begin[1]; i < plane.event_stats_begin[2]; ++i) {
    ColumnarStat s = plane.event_stat(i);
    rendered.push_back(std::string(plane.stat_name(s)) + "=" + plane.ToString(s));
  }
  EXPECT_EQ(rendered, (std::vector<std::string>{"ratio=0.25", "big=18446744073709551615", "neg=-3", "str=hello",
                                                "tf_op=dense/MatMul:MatMul", "blob=<3 bytes>"}));

  // Aggregated event: starts at its line's timestamp, listed separately.
  EXPECT_EQ(plane.event_start_ps[4], 500 * 1000);
  EXPECT_EQ(plane.duration_ps(4), 99);
  ASSERT_EQ(plane.aggregated_events.size(), 1u);
  EXPECT_EQ(plane.aggregated_events[0], (std::pair<uint32_t, int64_t>{4, 42}));

  ASSERT_TRUE(plane.FindPlaneStat(StatType::kLogicalCores, &stat));
  EXPECT_EQ(ColumnarPlane::AsInt64(stat), 16);
}

TEST(ColumnarReaderTest, AcceptsAnyFieldOrderUnknownFieldsAndMapValueBeforeKey) {
  // Event with stats first and metadata id last; the line's timestamp after its events;
  // metadata maps before the lines with value before key; unknown fields of every wire type.
  std::string stat = VarintField(4, 77) + VarintField(1, 9);  // int64 value before metadata id
  std::string event = BytesField(4, stat) + VarintField(3, 50) + VarintField(2, 10) + VarintField(1, 3) +
                      Varint(99 << 3 | 5) + std::string(4, 'x') +  // unknown fixed32
                      Varint(98 << 3 | 1) + std::string(8, 'y');   // unknown fixed64
  std::string line = BytesField(4, event) + VarintField(3, 2) + BytesField(2, "t") + VarintField(1, 11) +
                     Varint(97 << 3 | 3) + VarintField(1, 5) + Varint(97 << 3 | 4);  // unknown group
  std::string event_md = BytesField(2, BytesField(2, "op")) + VarintField(1, 3);
  std::string stat_md = BytesField(2, VarintField(1, 9) + BytesField(2, "step_num") + BytesField(3, "desc")) +
                        VarintField(1, 9);
  std::string plane = BytesField(4, event_md) + BytesField(5, stat_md) + BytesField(42, "future") +
                      BytesField(3, line) + BytesField(2, "/host:CPU");
  std::string space = BytesField(1, plane) + VarintField(17, 1);
  StatusOr<ColumnarXSpace> columnar = ParseColumnarXSpace(space, "hand-made");
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  const ColumnarPlane& p = columnar->planes[0];
  EXPECT_EQ(p.name, "/host:CPU");
  ASSERT_EQ(p.num_events(), 1u);
  EXPECT_EQ(p.event_name(0), "op");
  EXPECT_EQ(p.event_start_ps[0], 2000 + 10);  // timestamp applied although it came later
  EXPECT_EQ(p.duration_ps(0), 50);
  ColumnarStat s;
  ASSERT_TRUE(p.FindStat(0, StatType::kStepNum, &s));
  EXPECT_EQ(ColumnarPlane::AsInt64(s), 77);
}

TEST(ColumnarReaderTest, UndefinedMetadataIdsGetEmptyNames) {
  std::string event = VarintField(1, 12345) + BytesField(4, VarintField(1, 555) + VarintField(7, 556));
  std::string named = VarintField(1, 7);
  std::string event_md = BytesField(2, BytesField(2, "known")) + VarintField(1, 7);
  std::string plane = BytesField(4, event_md) + BytesField(3, BytesField(4, event) + BytesField(4, named));
  StatusOr<ColumnarXSpace> columnar = ParseColumnarXSpace(BytesField(1, plane), "dangling");
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  const ColumnarPlane& p = columnar->planes[0];
  EXPECT_EQ(p.event_name(1), "known");
  EXPECT_EQ(p.event_name(0), "");
  EXPECT_EQ(p.event_metadata[p.event_metadata_index[0]].id, 12345);
  ColumnarStat s = p.event_stat(0);
  EXPECT_EQ(p.stat_name(s), "");
  EXPECT_EQ(p.AsString(s), "");
}

TEST(ColumnarReaderTest, LargeAndNegativeIdsResolve) {
  XSpace space;
  XPlane* plane = space.add_planes();
  (*plane->mutable_event_metadata())[-5].set_name("negative");
  (*plane->mutable_event_metadata())[1ll << 40].set_name("huge");
  (*plane->mutable_stat_metadata())[1ll << 35].set_name("step_num");
  (*plane->mutable_stat_metadata())[-2].set_name("value string");
  XLine* line = plane->add_lines();
  XEvent* a = line->add_events();
  a->set_metadata_id(-5);
  XStat* st = a->add_stats();
  st->set_metadata_id(1ll << 35);
  st->set_int64_value(3);
  XStat* ref = a->add_stats();
  ref->set_metadata_id(1ll << 35);
  ref->set_ref_value(static_cast<uint64_t>(-2));
  line->add_events()->set_metadata_id(1ll << 40);
  StatusOr<ColumnarXSpace> columnar = ConvertXSpaceToColumnar(space);
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  const ColumnarPlane& p = columnar->planes[0];
  EXPECT_EQ(p.event_name(0), "negative");
  EXPECT_EQ(p.event_name(1), "huge");
  EXPECT_EQ(p.stat_name(p.event_stat(0)), "step_num");
  EXPECT_EQ(p.AsString(p.event_stat(1)), "value string");
}

TEST(ColumnarReaderTest, CorruptInputIsDataLossWithOffset) {
  std::string good = MakeSampleSpace().SerializeAsString();
  // A length prefix pointing past the end.
  StatusOr<ColumnarXSpace> bad = ParseColumnarXSpace(BytesField(1, "") + Varint(1 << 3 | 2) + Varint(1000), "x");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(bad.status().message().find("at byte 2"), std::string::npos) << bad.status().message();
  // An over-long varint.
  bad = ParseColumnarXSpace(std::string(12, '\xff'), "x");
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  // Wire type 7 does not exist.
  bad = ParseColumnarXSpace(Varint(5 << 3 | 7), "x");
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  // An end-group with no start.
  bad = ParseColumnarXSpace(Varint(5 << 3 | 4), "x");
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  EXPECT_TRUE(ParseColumnarXSpace(good, "good").ok());
  // Input that parses but holds nothing is refused as info's reader refuses it.
  bad = ParseColumnarXSpace("", "empty");
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(bad.status().message().find(kNoPlanesMessage), std::string::npos) << bad.status().message();
  bad = ParseColumnarXSpace(std::string(64, '\0'), "zeros");
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss) << bad.status().ToString();
  // A plane whose every event names undefined metadata is a corrupt file, not a profile.
  std::string orphan = BytesField(1, BytesField(3, BytesField(4, VarintField(1, 12345))));
  bad = ParseColumnarXSpace(orphan, "orphans");
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss) << bad.status().ToString();
  // Strings must be UTF-8 (protobuf's rule for `string` fields).
  bad = ParseColumnarXSpace(BytesField(1, BytesField(2, "bad\xff")), "utf8");
  EXPECT_EQ(bad.status().code(), StatusCode::kDataLoss) << bad.status().ToString();
  EXPECT_NE(bad.status().message().find("UTF-8"), std::string::npos) << bad.status().message();
}

TEST(ColumnarReaderTest, ReadsGzipAndReportsMissingFiles) {
  std::string dir = TestDir();
  std::string path = dir + "/gz.xplane.pb";
  ASSERT_TRUE(WriteXSpaceFile(path, MakeSampleSpace(), /*gzip=*/true).ok());
  StatusOr<ColumnarXSpace> columnar = ReadColumnarXSpaceFile(path);
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  EXPECT_EQ(columnar->num_events(), 5u);
  ColumnarReadOptions tight;
  tight.limits.inflate.max_output_bytes = 10;
  EXPECT_FALSE(ReadColumnarXSpaceFile(path, tight).ok());
  EXPECT_EQ(ReadColumnarXSpaceFile(dir + "/missing.xplane.pb").status().code(), StatusCode::kNotFound);
  std::filesystem::remove_all(dir);
}

// A file over 2 GiB (protobuf's message limit): a plane whose bytes straddle the 2 GiB
// and 4 GiB marks because of a large unknown field. The unknown field's bytes are a hole
// in a sparse file, so the test costs no disk and no memory: the reader skips them.
TEST(ColumnarReaderTest, ReadsFilesOverFourGiB) {
  std::string dir = TestDir();
  std::string path = dir + "/big.xplane.pb";
  const uint64_t hole_bytes = (4ull << 30) + 12345;
  std::string event = VarintField(1, 1) + VarintField(2, 5) + VarintField(3, 6);
  std::string md = BytesField(4, VarintField(1, 1) + BytesField(2, BytesField(2, "after the hole")));
  std::string tail = BytesField(3, BytesField(4, event)) + md;  // plane fields after the hole
  std::string hole_key = Varint(15 << 3 | 2) + Varint(hole_bytes);
  std::string plane_head = BytesField(2, "/host:CPU");
  uint64_t plane_len = plane_head.size() + hole_key.size() + hole_bytes + tail.size();
  std::string head = Varint(1 << 3 | 2) + Varint(plane_len) + plane_head + hole_key;
  int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(pwrite(fd, head.data(), head.size(), 0), static_cast<ssize_t>(head.size()));
  off_t tail_at = static_cast<off_t>(head.size() + hole_bytes);
  ASSERT_EQ(pwrite(fd, tail.data(), tail.size(), tail_at), static_cast<ssize_t>(tail.size()));
  close(fd);
  StatusOr<ColumnarXSpace> columnar = ReadColumnarXSpaceFile(path);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  ASSERT_EQ(columnar->planes.size(), 1u);
  ASSERT_EQ(columnar->planes[0].num_events(), 1u);
  EXPECT_EQ(columnar->planes[0].event_name(0), "after the hole");
  EXPECT_EQ(columnar->planes[0].duration_ps(0), 6);
}

// ---- real files: same content as the generated-message parse ----

std::vector<std::string> RealXPlaneFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane")) {
    if (entry.path().string().ends_with(".xplane.pb")) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ColumnarReaderTest, RealFilesMatchTheMessageParse) {
  std::vector<std::string> files = RealXPlaneFiles();
  ASSERT_GE(files.size(), 3u);
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    StatusOr<XSpace> message = ReadXSpaceFile(path);
    ASSERT_TRUE(message.ok()) << message.status().ToString();
    StatusOr<ColumnarXSpace> columnar = ReadColumnarXSpaceFile(path);
    ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
    ASSERT_EQ(columnar->planes.size(), static_cast<size_t>(message->planes_size()));
    EXPECT_EQ(columnar->hostnames.size(), static_cast<size_t>(message->hostnames_size()));
    EXPECT_EQ(columnar->time_origin_ns, 0) << "test files are normalized";
    uint64_t events = 0, stats = 0;
    for (int p = 0; p < message->planes_size(); ++p) {
      XPlaneVisitor plane(&message->planes(p));
      const ColumnarPlane& cp = columnar->planes[p];
      EXPECT_EQ(cp.name, plane.name());
      EXPECT_EQ(cp.id, plane.id());
      ASSERT_EQ(cp.lines.size(), static_cast<size_t>(plane.num_lines()));
      // Plane stats.
      std::vector<std::string> want_plane_stats, got_plane_stats;
      plane.ForEachStat([&](const XStatVisitor& s) { want_plane_stats.push_back(std::string(s.name()) + "=" + s.ToString()); });
      for (uint32_t i = cp.plane_stats_begin; i < cp.plane_stats_end; ++i) {
        got_plane_stats.push_back(std::string(cp.stat_name(cp.other_stats[i])) + "=" + cp.ToString(cp.other_stats[i]));
      }
      EXPECT_EQ(got_plane_stats, want_plane_stats);
      for (int l = 0; l < plane.num_lines(); ++l) {
        XLineVisitor line = plane.line(l);
        const ColumnarLine& cl = cp.lines[l];
        EXPECT_EQ(cl.name, line.name());
        EXPECT_EQ(cl.id, line.id());
        EXPECT_EQ(cl.timestamp_ns, line.timestamp_ns());
        ASSERT_EQ(cl.num_events(), static_cast<uint32_t>(line.num_events()));
        for (int e = 0; e < line.num_events(); ++e) {
          XEventVisitor event = line.event(e);
          uint32_t ce = cl.event_begin + e;
          ASSERT_EQ(cp.event_name(ce), event.name());
          ASSERT_EQ(cp.event_start_ps[ce], event.timestamp_ps());
          ASSERT_EQ(cp.duration_ps(ce), std::max<int64_t>(event.duration_ps(), 0));
          uint32_t s = cp.event_stats_begin[ce];
          for (const XStat& raw : event.raw().stats()) {
            XStatVisitor want(&plane, &raw);
            ColumnarStat got = cp.event_stat(s++);
            ASSERT_EQ(cp.stat_name(got), want.name());
            ASSERT_EQ(cp.ToString(got), want.ToString());
            ++stats;
          }
          ASSERT_EQ(s, cp.event_stats_begin[ce + 1]);
          ++events;
        }
      }
    }
    EXPECT_EQ(columnar->num_events(), events);
    EXPECT_GT(events, 1000u);
    EXPECT_GT(stats, 0u);
  }
}

TEST(ColumnarReaderTest, TruncationAtEveryFiftiethNeverCrashes) {
  for (const std::string& path : RealXPlaneFiles()) {
    SCOPED_TRACE(path);
    StatusOr<std::string> bytes = base::ReadFile(path, 1 << 30);
    ASSERT_TRUE(bytes.ok());
    int failures = 0;
    for (int k = 1; k < 50; ++k) {
      size_t cut = bytes->size() * k / 50;
      // Copy so that AddressSanitizer catches any read past the cut.
      std::string prefix = bytes->substr(0, cut);
      StatusOr<ColumnarXSpace> columnar = ParseColumnarXSpace(prefix, "prefix");
      if (!columnar.ok()) {
        ++failures;
        EXPECT_EQ(columnar.status().code(), StatusCode::kDataLoss);
        EXPECT_NE(columnar.status().message().find("at byte"), std::string::npos);
      }
    }
    // Cutting inside the first (huge) plane message must be noticed.
    EXPECT_GT(failures, 40);
  }
}

// ---- planes parsed on several threads: the same result, and the same errors ----

ParseOptions Threads(int threads) {
  ParseOptions options;
  options.threads = threads;
  options.parallel_min_bytes = 0;  // small test inputs take the parallel path too
  return options;
}

// Several planes, lines whose timestamps are wall-clock (so the time origin matters),
// the first timed line only in the second plane, and one line whose timestamp comes after
// its events (the origin is then its last timestamp).
std::string MultiPlaneBytes() {
  const int64_t wall_ns = int64_t{1'700'000'000} * 1'000'000'000;
  std::string event = VarintField(1, 1) + VarintField(2, 7) + VarintField(3, 5) +
                      BytesField(4, VarintField(1, 1) + BytesField(5, "hello"));
  std::string event_md = BytesField(4, VarintField(1, 1) + BytesField(2, VarintField(1, 1) + BytesField(2, "op")));
  std::string stat_md = BytesField(5, VarintField(1, 1) + BytesField(2, VarintField(1, 1) + BytesField(2, "s")));
  std::string untimed_plane = BytesField(2, "/host:untimed") + BytesField(3, BytesField(4, event)) + event_md + stat_md;
  std::string late_line = BytesField(4, event) + VarintField(3, static_cast<uint64_t>(wall_ns + 50)) +
                          VarintField(3, static_cast<uint64_t>(wall_ns + 60));
  std::string timed_plane = BytesField(2, "/host:CPU") + BytesField(3, late_line) +
                            BytesField(3, VarintField(3, static_cast<uint64_t>(wall_ns)) + BytesField(4, event)) +
                            event_md + stat_md;
  std::string out = BytesField(1, untimed_plane) + BytesField(4, "host") + BytesField(1, timed_plane);
  for (int p = 0; p < 5; ++p) out += BytesField(1, timed_plane);
  return out;
}

TEST(ColumnarReaderTest, PlanesParsedInParallelGiveTheSameColumns) {
  std::vector<std::string> inputs = {MultiPlaneBytes(), MakeSampleSpace().SerializeAsString()};
  for (const std::string& path : RealXPlaneFiles()) {
    StatusOr<std::string> bytes = base::ReadFile(path, 1 << 30);
    ASSERT_TRUE(bytes.ok());
    inputs.push_back(*bytes);
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    SCOPED_TRACE("input " + std::to_string(i));
    StatusOr<ColumnarXSpace> one = ParseColumnarXSpace(inputs[i], "x", Threads(1));
    ASSERT_TRUE(one.ok()) << one.status().ToString();
    for (int threads : {2, 3, 8}) {
      StatusOr<ColumnarXSpace> many = ParseColumnarXSpace(inputs[i], "x", Threads(threads));
      ASSERT_TRUE(many.ok()) << many.status().ToString();
      ExpectSameColumns(*one, *many);
    }
  }
  StatusOr<ColumnarXSpace> wall = ParseColumnarXSpace(MultiPlaneBytes(), "x", Threads(4));
  ASSERT_TRUE(wall.ok());
  EXPECT_EQ(wall->time_origin_ns, int64_t{1'700'000'000} * 1'000'000'000 + 60)
      << "the first timed line's last timestamp: it came after the line's events";
}

TEST(ColumnarReaderTest, PlanesParsedInParallelFailAsOneThreadDoes) {
  std::string good = MultiPlaneBytes();
  std::vector<std::string> bad = {good.substr(0, good.size() / 2), good.substr(0, good.size() - 3),
                                  good + BytesField(1, BytesField(2, "bad\xff")),
                                  good + BytesField(2, "bad\xff") + BytesField(1, BytesField(2, "ok"))};
  for (int k = 1; k < 20; ++k) bad.push_back(good.substr(0, good.size() * k / 20));
  std::string flipped = good;
  flipped[flipped.size() * 2 / 3] ^= 0x5a;
  bad.push_back(flipped);
  for (size_t i = 0; i < bad.size(); ++i) {
    SCOPED_TRACE("input " + std::to_string(i));
    StatusOr<ColumnarXSpace> one = ParseColumnarXSpace(bad[i], "x", Threads(1));
    StatusOr<ColumnarXSpace> many = ParseColumnarXSpace(bad[i], "x", Threads(4));
    ASSERT_EQ(many.ok(), one.ok());
    if (one.ok()) {
      ExpectSameColumns(*one, *many);
    } else {
      EXPECT_EQ(many.status().ToString(), one.status().ToString());
    }
  }
}

TEST(ColumnarReaderTest, ConsumedRangesAreDisjointAndInsideTheInput) {
  // Large enough for several reports per plane (16 MiB each).
  XSpace space;
  for (int p = 0; p < 3; ++p) {
    XPlaneBuilder plane(space.add_planes());
    plane.SetName("/host:p" + std::to_string(p));
    XEventMetadata* op = plane.GetOrCreateEventMetadata("op");
    XLineBuilder line = plane.GetOrCreateLine(1);
    for (int e = 0; e < 1'200'000; ++e) {
      XEventBuilder event = line.AddEvent(*op);
      event.SetOffsetPs(e * 10);
      event.SetDurationPs(5);
      event.AddStatValue(*plane.GetOrCreateStatMetadata("v"), int64_t{e});
    }
  }
  const std::string bytes = space.SerializeAsString();
  ASSERT_GT(bytes.size(), 3u * (16u << 20));
  for (int threads : {1, 3}) {
    SCOPED_TRACE(threads);
    std::mutex mutex;
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    ParseOptions options = Threads(threads);
    options.on_consumed = [&](uint64_t begin, uint64_t end) {
      std::lock_guard<std::mutex> lock(mutex);
      ranges.emplace_back(begin, end);
    };
    StatusOr<ColumnarXSpace> columnar = ParseColumnarXSpace(bytes, "x", options);
    ASSERT_TRUE(columnar.ok());
    std::sort(ranges.begin(), ranges.end());
    ASSERT_GE(ranges.size(), 3u);
    for (size_t r = 0; r + 1 < ranges.size(); ++r) {
      EXPECT_LT(ranges[r].first, ranges[r].second);
      EXPECT_LE(ranges[r].second, ranges[r + 1].first) << "disjoint";
    }
    EXPECT_LE(ranges.back().second, bytes.size());
  }
}

// A finished plane keeps resident only what its columns use: FinalizePlane hands back the
// rest of what ReserveMore reserved (backed here by PopulateReserved, as the importer's
// idle threads back it).
TEST(ColumnarPlaneTest, FinalizedPlaneHandsBackItsUnusedReservation) {
  ColumnarPlane plane;
  plane.name = std::string(kHostThreadsPlaneName);
  constexpr size_t kReserved = size_t{1} << 20;
  ASSERT_TRUE(plane.ReserveMore(kReserved, kReserved));
  plane.PopulateReserved();
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  ASSERT_GE(base::ResidentPages(plane.event_start_ps.data(), kReserved * sizeof(int64_t)), kReserved * 8 / page / 2);
  PlaneIds ids;
  RawEventMetadata& op = ids.event_metadata.emplace_back();
  op.key = 1;
  op.name = "op";
  for (int64_t i = 0; i < 10; ++i) plane.AppendEvent(i * 1000, 500, ids.EncodeEventId(1), plane.num_stats());
  ASSERT_TRUE(FinalizePlane(&ids, &plane).ok());
  EXPECT_EQ(plane.num_events(), 10u);
  EXPECT_EQ(plane.event_start_ps[9], 9000);
  EXPECT_LE(base::ResidentPages(plane.event_start_ps.data(), kReserved * sizeof(int64_t)), 1u);
  EXPECT_LE(base::ResidentPages(plane.stat_key.data(), kReserved * sizeof(uint32_t)), 1u);
  EXPECT_LE(base::ResidentPages(plane.event_stats_begin.data(), kReserved * sizeof(uint32_t)), 1u);
}

}  // namespace
}  // namespace stepscope::xspace
