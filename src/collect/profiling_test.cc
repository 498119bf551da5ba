// The process-wide API: StartProfiling / StopProfiling / FlushProfiles, ScopedProfile and
// ProfileStepRange, checked through the files they write.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "src/xspace/schema.h"
#include "src/xspace/validate.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xplane_visitor.h"
#include "src/xspace/xspace_io.h"
#include "stepscope/stepscope.h"

namespace stepscope {
namespace {

namespace fs = std::filesystem;
using xspace::StatType;
using xspace::XEventVisitor;
using xspace::XLineVisitor;
using xspace::XPlaneVisitor;

// Hands out fresh logdirs and removes them after the test.
class ProfilingTest : public testing::Test {
 protected:
  std::string NewLogdir(const std::string& name) {
    fs::path dir = fs::path(testing::TempDir()) /
                   ("stepscope_profiling_test_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(dir);
    dirs_.push_back(dir);
    return dir.string();
  }
  void TearDown() override {
    std::error_code ignored;
    for (const fs::path& dir : dirs_) fs::remove_all(dir, ignored);
  }

 private:
  std::vector<fs::path> dirs_;
};

std::vector<std::string> FlushOrDie() {
  std::vector<std::string> paths;
  Status flushed = FlushProfiles(&paths);
  EXPECT_TRUE(flushed.ok()) << flushed.ToString();
  return paths;
}

xspace::XSpace ReadOrDie(const std::string& path) {
  StatusOr<xspace::XSpace> space = xspace::ReadXSpaceFile(path);
  EXPECT_TRUE(space.ok()) << space.status().ToString();
  return space.ok() ? *std::move(space) : xspace::XSpace();
}

// step_num of every "train" event on the host plane, in time order per line.
std::vector<int64_t> TrainSteps(const xspace::XSpace& space) {
  std::vector<int64_t> steps;
  const xspace::XPlane* host = xspace::FindPlaneWithName(space, xspace::kHostThreadsPlaneName);
  if (host == nullptr) return steps;
  XPlaneVisitor plane(host);
  plane.ForEachLine([&](const XLineVisitor& line) {
    line.ForEachEvent([&](const XEventVisitor& event) {
      if (event.name() == "train") steps.push_back(event.GetStat(StatType::kStepNum)->IntValue());
    });
  });
  return steps;
}

TEST_F(ProfilingTest, StopHandsOffAndFlushWritesALogdirFileThatRoundTrips) {
  const std::string logdir = NewLogdir("roundtrip");
  ProfileOptions options;
  options.run_name = "run_a";
  options.host_name = "worker:6009";
  ASSERT_TRUE(StartProfiling(logdir, options).ok());
  EXPECT_TRUE(IsProfiling());
  for (int64_t n = 0; n < 3; ++n) {
    Step step("train", n);
    STEPSCOPE_ANNOTATE("forward");
  }
  ASSERT_TRUE(StopProfiling().ok());
  EXPECT_FALSE(IsProfiling());
  std::vector<std::string> paths = FlushOrDie();
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_EQ(paths[0], logdir + "/plugins/profile/run_a/worker_6009.xplane.pb");

  xspace::XSpace space = ReadOrDie(paths[0]);
  EXPECT_TRUE(xspace::ValidateXSpace(space).ok());
  EXPECT_THAT(TrainSteps(space), testing::ElementsAre(0, 1, 2));
  ASSERT_NE(xspace::FindPlaneWithName(space, xspace::kTaskEnvPlaneName), nullptr);

  // Re-writing what was read gives the same message back (compared as messages: map
  // fields have no defined byte order).
  const std::string copy = logdir + "/copy.xplane.pb";
  ASSERT_TRUE(xspace::WriteXSpaceFile(copy, space).ok());
  xspace::XSpace reread = ReadOrDie(copy);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(reread, space));
  EXPECT_TRUE(FlushOrDie().empty()) << "paths are reported once";
}

TEST_F(ProfilingTest, StopWithoutStartAndDoubleStartAreErrors) {
  EXPECT_EQ(StopProfiling().code(), StatusCode::kFailedPrecondition);
  const std::string logdir = NewLogdir("double");
  ASSERT_TRUE(StartProfiling(logdir).ok());
  Status second = StartProfiling(logdir);
  EXPECT_EQ(second.code(), StatusCode::kAlreadyExists);
  EXPECT_THAT(second.message(), testing::HasSubstr("already active"));
  ASSERT_TRUE(StopProfiling().ok());
  FlushOrDie();
}

TEST_F(ProfilingTest, BadLogdirFailsAtStart) {
  EXPECT_EQ(StartProfiling("").code(), StatusCode::kInvalidArgument);
  // A NUL would make the OS see a shorter path than ours (issue 33): refused, nothing made.
  const std::string with_nul = NewLogdir("nul") + std::string("/x\0y", 4);
  Status nul = StartProfiling(with_nul);
  EXPECT_EQ(nul.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(nul.message().find("NUL byte"), std::string::npos) << nul.ToString();
  EXPECT_FALSE(fs::exists(with_nul.substr(0, with_nul.find('\0'))));
  EXPECT_FALSE(IsProfiling());
  EXPECT_EQ(ProfileStepRange(with_nul, 0, 1).code(), StatusCode::kInvalidArgument);
  const std::string logdir = NewLogdir("bad");
  fs::create_directories(logdir);
  const std::string file = logdir + "/a_file";
  { std::ofstream(file) << "x"; }
  Status status = StartProfiling(file + "/sub");
  EXPECT_FALSE(status.ok());
  EXPECT_FALSE(IsProfiling());
}

// In memory: the profile comes back as XSpace bytes, and nothing is written - not even a
// write job for FlushProfiles to report.
TEST_F(ProfilingTest, InMemorySessionHandsBackTheProfileAndWritesNothing) {
  ProfileOptions options;
  options.host_name = "in_memory_host";
  ASSERT_TRUE(StartProfilingInMemory(options).ok());
  EXPECT_TRUE(IsProfiling());
  EXPECT_EQ(StartProfiling(NewLogdir("second")).code(), StatusCode::kAlreadyExists);
  for (int64_t n = 0; n < 4; ++n) Step step("train", n);
  Status refused = StopProfiling();
  EXPECT_EQ(refused.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.message(), testing::HasSubstr("StopProfilingInMemory"));
  EXPECT_TRUE(IsProfiling()) << "a refused stop leaves the session recording";
  std::string bytes;
  ASSERT_TRUE(StopProfilingInMemory(&bytes).ok());
  EXPECT_FALSE(IsProfiling());
  xspace::XSpace space;
  ASSERT_TRUE(space.ParseFromString(bytes));
  EXPECT_THAT(TrainSteps(space), testing::ElementsAre(0, 1, 2, 3));
  EXPECT_TRUE(FlushOrDie().empty());
  EXPECT_EQ(StopProfilingInMemory(&bytes).code(), StatusCode::kFailedPrecondition);
}

// A session started with a logdir can be collected in memory instead of written.
TEST_F(ProfilingTest, LogdirSessionCanBeCollectedInMemoryInstead) {
  const std::string logdir = NewLogdir("collected");
  ASSERT_TRUE(StartProfiling(logdir).ok());
  { Step step("train", 7); }
  std::string bytes;
  ASSERT_TRUE(StopProfilingInMemory(&bytes).ok());
  xspace::XSpace space;
  ASSERT_TRUE(space.ParseFromString(bytes));
  EXPECT_THAT(TrainSteps(space), testing::ElementsAre(7));
  EXPECT_TRUE(FlushOrDie().empty());
  EXPECT_FALSE(fs::exists(logdir + "/plugins")) << "nothing is written under the logdir";
}

TEST_F(ProfilingTest, ScopedProfileWritesWhenItGoesOutOfScope) {
  const std::string logdir = NewLogdir("scoped");
  {
    ScopedProfile profile(logdir);
    ASSERT_TRUE(profile.status().ok());
    Step step("train", 42);
  }
  EXPECT_FALSE(IsProfiling());
  std::vector<std::string> paths = FlushOrDie();
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_THAT(TrainSteps(ReadOrDie(paths[0])), testing::ElementsAre(42));
}

TEST_F(ProfilingTest, DefaultRunNamesOfQuickSessionsDoNotCollide) {
  const std::string logdir = NewLogdir("runs");
  for (int64_t n = 0; n < 3; ++n) {
    ASSERT_TRUE(StartProfiling(logdir).ok());
    { Step step("train", n); }
    ASSERT_TRUE(StopProfiling().ok());
  }
  std::vector<std::string> paths = FlushOrDie();
  ASSERT_EQ(paths.size(), 3u);
  EXPECT_EQ(std::set<std::string>(paths.begin(), paths.end()).size(), 3u) << "a profile was overwritten";
  for (size_t i = 0; i < paths.size(); ++i) {
    EXPECT_THAT(TrainSteps(ReadOrDie(paths[i])), testing::ElementsAre(static_cast<int64_t>(i)));
  }
}

TEST_F(ProfilingTest, StepRangeRecordsExactlyTheRequestedSteps) {
  const std::string logdir = NewLogdir("range");
  ProfileOptions options;
  options.run_name = "range";
  ASSERT_TRUE(ProfileStepRange(logdir, 3, 5, options).ok());
  EXPECT_FALSE(IsProfiling()) << "nothing is recorded before the first step of the range";
  for (int64_t n = 0; n < 10; ++n) {
    Step step("train", n);
    STEPSCOPE_ANNOTATE("work");
    if (n == 4) {
      EXPECT_TRUE(IsProfiling());
    }
  }
  EXPECT_FALSE(IsProfiling()) << "the range stops after its last step";
  std::vector<std::string> paths = FlushOrDie();
  ASSERT_EQ(paths.size(), 1u);
  xspace::XSpace space = ReadOrDie(paths[0]);
  EXPECT_THAT(TrainSteps(space), testing::ElementsAre(3, 4, 5));
  // The trigger fired once: a second loop records nothing.
  for (int64_t n = 0; n < 10; ++n) Step step("train", n);
  EXPECT_TRUE(FlushOrDie().empty());
}

TEST_F(ProfilingTest, StepRangeStopsBeforeAStepPastTheRange) {
  const std::string logdir = NewLogdir("range_skip");
  ASSERT_TRUE(ProfileStepRange(logdir, 2, 4).ok());
  // Step numbers jump over the last step of the range.
  for (int64_t n : {0, 2, 3, 7, 8}) Step step("train", n);
  std::vector<std::string> paths = FlushOrDie();
  ASSERT_EQ(paths.size(), 1u);
  EXPECT_THAT(TrainSteps(ReadOrDie(paths[0])), testing::ElementsAre(2, 3));
}

TEST_F(ProfilingTest, StepRangeArgumentsAndConflictsAreChecked) {
  const std::string logdir = NewLogdir("range_args");
  EXPECT_EQ(ProfileStepRange(logdir, 5, 3).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ProfileStepRange(logdir, -1, 3).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ProfileStepRange("", 1, 3).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(ProfileStepRange(logdir, 1, 3).ok());
  EXPECT_EQ(ProfileStepRange(logdir, 1, 3).code(), StatusCode::kAlreadyExists);
  CancelProfileStepRange();
  for (int64_t n = 0; n < 5; ++n) Step step("train", n);
  EXPECT_TRUE(FlushOrDie().empty()) << "a cancelled range must not record";

  ASSERT_TRUE(StartProfiling(logdir).ok());
  EXPECT_EQ(ProfileStepRange(logdir, 1, 3).code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(StopProfiling().ok());
  FlushOrDie();
}

TEST_F(ProfilingTest, WriteFailuresReachFlush) {
  const std::string logdir = NewLogdir("unwritable");
  ASSERT_TRUE(StartProfiling(logdir).ok());
  { Step step("train", 1); }
  // Make the run directory impossible to create after the start succeeded.
  fs::remove_all(logdir);
  { std::ofstream(logdir) << "now a file"; }
  ASSERT_TRUE(StopProfiling().ok()) << "stop itself never writes";
  std::vector<std::string> paths;
  Status flushed = FlushProfiles(&paths);
  EXPECT_FALSE(flushed.ok());
  EXPECT_TRUE(paths.empty());
  EXPECT_TRUE(FlushProfiles().ok()) << "an error is reported once";
  fs::remove(logdir);
}

// A child forked while the parent profiles (PyTorch's DataLoader workers, multiprocessing)
// records nothing, cannot start or stop, and writes no profile even when it exits through
// exit() and its atexit handlers; the parent's session is unaffected.
TEST_F(ProfilingTest, ForkedChildNeitherRecordsNorWrites) {
  const std::string logdir = NewLogdir("fork");
  ASSERT_TRUE(StartProfiling(logdir).ok());
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int failures = 0;
    failures += internal::IsLevelEnabled(internal::kLevelCritical) ? 1 : 0;
    failures += IsProfiling() ? 2 : 0;
    { STEPSCOPE_ANNOTATE("in_child"); }
    failures += StartProfiling(logdir + "/child").code() == StatusCode::kFailedPrecondition ? 0 : 4;
    Status stopped = StopProfiling();
    failures += stopped.code() == StatusCode::kFailedPrecondition ? 0 : 8;
    failures += stopped.message().find("forked") != std::string::npos ? 0 : 16;
    std::exit(failures);  // runs the atexit handlers: they must not write the parent's session
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "bit mask of the child's failed checks";
  { STEPSCOPE_ANNOTATE("in_parent"); }
  ASSERT_TRUE(StopProfiling().ok());
  std::vector<std::string> paths = FlushOrDie();
  ASSERT_EQ(paths.size(), 1u) << "only the parent writes";
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(logdir)) files += entry.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1);
  std::set<std::string> names;
  const xspace::XSpace space = ReadOrDie(paths[0]);
  XPlaneVisitor plane(xspace::FindPlaneWithName(space, xspace::kHostThreadsPlaneName));
  plane.ForEachLine([&](const XLineVisitor& line) {
    line.ForEachEvent([&](const XEventVisitor& event) { names.insert(std::string(event.name())); });
  });
  EXPECT_TRUE(names.count("in_parent"));
  EXPECT_FALSE(names.count("in_child"));
}

}  // namespace
}  // namespace stepscope
