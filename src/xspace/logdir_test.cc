#include "src/xspace/logdir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/base/testing/fresh_dir.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::xspace {
namespace {
namespace fs = std::filesystem;

// An empty scratch directory of this test's own (base::FreshTestDir).
std::string FreshDir(const std::string& name) { return base::FreshTestDir("logdir_test", name); }

XSpace SmallSpace() {
  XSpace space;
  XPlaneBuilder plane(space.add_planes());
  plane.SetName(kHostThreadsPlaneName);
  XLineBuilder line = plane.GetOrCreateLine(1);
  line.SetName("main");
  line.AddEvent(*plane.GetOrCreateEventMetadata("work")).SetDurationPs(1000);
  return space;
}

TEST(LogdirTest, WriteListAndReadBack) {
  std::string logdir = FreshDir("write");
  auto path = WriteXSpaceToLogdir(logdir, "run1", "10.0.0.1:6009", SmallSpace());
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_EQ(*path, logdir + "/plugins/profile/run1/10.0.0.1_6009.xplane.pb");
  ASSERT_TRUE(WriteXSpaceToLogdir(logdir, "run1", "b", SmallSpace()).ok());
  ASSERT_TRUE(WriteXSpaceToLogdir(logdir, "", "a", SmallSpace()).ok());

  auto runs = ListRuns(logdir);
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 2u);
  const RunInfo& run1 = (*runs)[0].name == "run1" ? (*runs)[0] : (*runs)[1];
  ASSERT_EQ(run1.hosts.size(), 2u);
  EXPECT_EQ(run1.hosts[0].host, "10.0.0.1_6009");
  EXPECT_EQ(run1.hosts[1].host, "b");

  auto space = ReadXSpaceFile(*path);
  ASSERT_TRUE(space.ok());
  EXPECT_EQ(space->SerializeAsString(), SmallSpace().SerializeAsString());
  EXPECT_EQ(*ClassifyProfilePath(logdir), ProfilePathKind::kLogdir);
  EXPECT_EQ(*ClassifyProfilePath(run1.path), ProfilePathKind::kRunDir);
  EXPECT_EQ(*ClassifyProfilePath(*path), ProfilePathKind::kXSpaceFile);
}

TEST(LogdirTest, NestedRunsAreNamedLikeTensorBoard) {
  std::string logdir = FreshDir("nested");
  ASSERT_TRUE(WriteXSpaceToLogdir(logdir + "/train", "r", "h", SmallSpace()).ok());
  auto runs = ListRuns(logdir);
  ASSERT_TRUE(runs.ok());
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ((*runs)[0].name, "train/r");
}

TEST(LogdirTest, BadRunNamesAndEmptyLogdirs) {
  std::string logdir = FreshDir("bad");
  EXPECT_EQ(WriteXSpaceToLogdir(logdir, "../escape", "h", SmallSpace()).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(ListRuns(logdir).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(ListRuns(logdir + "/missing").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(SanitizeHostName(".."), "localhost");
}

// Names the server would refuse to serve are refused when a run is named.
TEST(LogdirTest, RunNamesEveryReaderAccepts) {
  for (std::string_view good : {"run1", "2026_12_07_10_00_00", "my run (2)", "<img src=x>", "ünïcode"}) {
    EXPECT_TRUE(ValidateRunName(good).ok()) << good;
  }
  const std::string too_long(256, 'r');
  for (std::string_view bad : {std::string_view(""), std::string_view("."), std::string_view(".."),
                               std::string_view("a/b"), std::string_view("a\\b"), std::string_view("tab\there"),
                               std::string_view("esc\x1b[2J"), std::string_view("nul\0x", 5), std::string_view("del\x7f"),
                               std::string_view("a%2fb"), std::string_view("%2E%2E"), std::string_view(too_long)}) {
    Status status = ValidateRunName(bad);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << "accepted: " << bad;
    EXPECT_EQ(status.message().find('\x1b'), std::string::npos) << "a control character reached the message";
  }
  EXPECT_EQ(WriteXSpaceToLogdir(FreshDir("names"), "bell\a", "h", SmallSpace()).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(LogdirTest, AFreshRunDirectoryIsNeverOneThatExists) {
  std::string logdir = FreshDir("fresh");
  EXPECT_EQ(*CreateRunDir(logdir, "r", RunDirMode::kFresh), "r");
  EXPECT_EQ(*CreateRunDir(logdir, "r", RunDirMode::kFresh), "r_2");
  EXPECT_EQ(*CreateRunDir(logdir, "r", RunDirMode::kFresh), "r_3");
  EXPECT_EQ(*CreateRunDir(logdir, "r", RunDirMode::kJoin), "r");
  std::ofstream(ProfileRootDir(logdir) + "/file") << "x";
  EXPECT_EQ(CreateRunDir(logdir, "file", RunDirMode::kJoin).status().code(), StatusCode::kInvalidArgument);
}

// A run (or plugins/, or profile/) that is a symbolic link to a directory outside the
// logdir: writers refuse it rather than write through it.
TEST(LogdirTest, WritersNeverFollowALinkOutOfTheLogdir) {
  std::string logdir = FreshDir("links");
  std::string outside = FreshDir("links_outside");
  fs::create_directories(ProfileRootDir(logdir));
  fs::create_directory_symlink(outside, ProfileRootDir(logdir) + "/evil");
  for (RunDirMode mode : {RunDirMode::kJoin, RunDirMode::kFresh}) {
    auto made = CreateRunDir(logdir, "evil", mode);
    ASSERT_FALSE(made.ok());
    EXPECT_NE(made.status().message().find("symbolic link"), std::string::npos) << made.status().ToString();
  }
  EXPECT_FALSE(WriteXSpaceToLogdir(logdir, "evil", "h", SmallSpace()).ok());
  std::string linked_logdir = FreshDir("linked_plugins");
  fs::create_directory_symlink(outside, linked_logdir + "/plugins");
  EXPECT_FALSE(WriteXSpaceToLogdir(linked_logdir, "run", "h", SmallSpace()).ok());
  EXPECT_TRUE(fs::is_empty(outside));
}

TEST(LogdirTest, ARunIsJoinedButAHostFileIsReplacedOnlyWhenAskedTo) {
  std::string logdir = FreshDir("join");
  ASSERT_TRUE(WriteXSpaceToLogdir(logdir, "run", "h", SmallSpace(), /*replace=*/false).ok());
  ASSERT_TRUE(WriteXSpaceToLogdir(logdir, "run", "other", SmallSpace(), /*replace=*/false).ok());
  EXPECT_EQ(WriteXSpaceToLogdir(logdir, "run", "h", XSpace(), /*replace=*/false).status().code(),
            StatusCode::kAlreadyExists);
  EXPECT_TRUE(ReadXSpaceFile(ProfileRootDir(logdir) + "/run/h.xplane.pb").ok()) << "the first file stays";
}

TEST(XSpaceIoTest, TruncatedGarbageAndEmptyFilesAreRejected) {
  std::string dir = FreshDir("io");
  std::string bytes = SmallSpace().SerializeAsString();
  EXPECT_EQ(ParseXSpace(bytes.substr(0, bytes.size() - 3), "t").status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(ParseXSpace("", "empty").status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(ParseXSpace("this is not a protobuf at all", "text").status().code(), StatusCode::kDataLoss);
  // gzip-compressed files read the same.
  std::string path = dir + "/x.xplane.pb";
  ASSERT_TRUE(WriteXSpaceFile(path, SmallSpace(), /*gzip=*/true).ok());
  auto space = ReadXSpaceFile(path);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  EXPECT_EQ(space->planes(0).name(), "/host:CPU");
  ReadLimits tiny;
  tiny.max_file_bytes = 10;
  EXPECT_EQ(ReadXSpaceFile(path, tiny).status().code(), StatusCode::kResourceExhausted);
}

// WriteXSpaceFile streams the serialization through a 1 MiB buffer: the file must hold
// exactly the bytes SerializeXSpace gives (deterministic, metadata maps in key order), also
// for a space several buffers long, and inflate to them when gzipped.
TEST(XSpaceIoTest, StreamedFileHoldsTheDeterministicSerialization) {
  const std::string dir = FreshDir("streamed");
  XSpace space;
  XPlaneBuilder plane(space.add_planes());
  plane.SetName(kHostThreadsPlaneName);
  for (int64_t l = 0; l < 4; ++l) {
    XLineBuilder line = plane.GetOrCreateLine(l);
    line.SetName("thread " + std::to_string(l));
    // Metadata ids created out of order, so map order matters.
    for (int e = 0; e < 40000; ++e) {
      XEventBuilder event = line.AddEvent(*plane.GetOrCreateEventMetadata("op " + std::to_string((e * 7919) % 997)));
      event.SetOffsetPs(e * 1000);
      event.SetDurationPs(500 + e % 13);
      event.AddStatValue(*plane.GetOrCreateStatMetadata("step_num"), static_cast<int64_t>(e / 100));
    }
  }
  StatusOr<std::string> expected = SerializeXSpace(space);
  ASSERT_TRUE(expected.ok());
  ASSERT_GT(expected->size(), 2u << 20);
  const std::string plain = dir + "/plain.xplane.pb";
  const std::string packed = dir + "/packed.xplane.pb";
  ASSERT_TRUE(WriteXSpaceFile(plain, space).ok());
  ASSERT_TRUE(WriteXSpaceFile(packed, space, /*gzip=*/true).ok());
  EXPECT_TRUE(*base::ReadFile(plain, 64 << 20) == *expected);
  std::string gz = *base::ReadFile(packed, 64 << 20);
  ASSERT_TRUE(base::IsGzip(gz));
  auto inflated = base::GunzipWithLimit(gz, uint64_t{64} << 20);
  ASSERT_TRUE(inflated.ok());
  EXPECT_TRUE(*inflated == *expected);
  // Nothing but the two files is left in the directory.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
}

}  // namespace
}  // namespace stepscope::xspace
