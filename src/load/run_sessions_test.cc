#include "src/load/run_sessions.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xspace_io.h"

namespace stepscope::load {
namespace {

namespace fs = std::filesystem;
constexpr int64_t kSecond = 1000000000;

RunProfiles MakeRun(const std::string& name, std::vector<std::string> hosts) {
  RunProfiles run{.name = name, .path = "/logdir/plugins/profile/" + name};
  for (const std::string& host : hosts) run.hosts.push_back({.host = host, .path = run.path + "/" + host + ".xplane.pb"});
  return run;
}

RunWindow Window(int64_t start_s, int64_t stop_s) {
  return {.start_ns = start_s * kSecond, .stop_ns = stop_s * kSecond, .source = WindowSource::kTaskEnvironment};
}

std::vector<std::string> Hosts(const RunProfiles& run) {
  std::vector<std::string> hosts;
  for (const HostProfileFile& file : run.hosts) hosts.push_back(file.host);
  return hosts;
}

TEST(RunSessionsTest, OverlappingRunsOfDifferentHostsAreOneSessionNamedAfterTheFirst) {
  std::vector<RunProfiles> sessions = AssembleSessions(
      {MakeRun("2026_12_07_10_00_01", {"worker1"}), MakeRun("2026_12_07_10_00_00", {"worker0"}),
       MakeRun("2026_12_07_10_00_03", {"worker2", "worker3"})},
      {Window(101, 110), Window(100, 109), Window(103, 112)});
  ASSERT_EQ(sessions.size(), 1u);
  EXPECT_EQ(sessions[0].name, "2026_12_07_10_00_00");
  EXPECT_EQ(sessions[0].path, "/logdir/plugins/profile/2026_12_07_10_00_00");
  EXPECT_EQ(sessions[0].member_runs,
            (std::vector<std::string>{"2026_12_07_10_00_00", "2026_12_07_10_00_01", "2026_12_07_10_00_03"}));
  EXPECT_EQ(sessions[0].member_paths.size(), 3u);
  EXPECT_EQ(Hosts(sessions[0]), (std::vector<std::string>{"worker0", "worker1", "worker2", "worker3"}));
}

TEST(RunSessionsTest, RunsApartInTimeStayApart) {
  const RunProfiles a = MakeRun("2026_12_07_10_00_00", {"worker0"}), b = MakeRun("2026_12_07_10_00_13", {"worker1"});
  std::vector<RunProfiles> sessions = AssembleSessions({a, b}, {Window(100, 110), Window(110 + 3, 120)});
  ASSERT_EQ(sessions.size(), 2u);
  EXPECT_TRUE(sessions[0].member_runs.empty());
  EXPECT_EQ(sessions[0].name, a.name);
  // Within the slack (workers start and stop seconds apart): one session.
  EXPECT_EQ(AssembleSessions({a, b}, {Window(100, 110), Window(111, 120)}).size(), 1u);
}

// Names someone chose are runs of their own, whenever they were written.
TEST(RunSessionsTest, RunsNotNamedAfterTheirStartStayApart) {
  EXPECT_EQ(AssembleSessions({MakeRun("baseline", {"worker0"}), MakeRun("2026_12_07_10_00_00", {"worker1"})},
                             {Window(100, 110), Window(100, 110)})
                .size(),
            2u);
}

// One host cannot be in a session twice: a second run of the same host is another session,
// even when a third run overlapping both could join either.
TEST(RunSessionsTest, ARunSharingAHostIsAnotherSession) {
  std::vector<RunProfiles> sessions =
      AssembleSessions({MakeRun("2026_12_07_10_00_00", {"worker0"}), MakeRun("2026_12_07_10_00_01", {"worker0"}),
                        MakeRun("2026_12_07_10_00_02", {"worker1"})},
                       {Window(100, 110), Window(101, 111), Window(102, 112)});
  ASSERT_EQ(sessions.size(), 2u);
  EXPECT_EQ(sessions[0].name, "2026_12_07_10_00_00");
  EXPECT_EQ(Hosts(sessions[0]), (std::vector<std::string>{"worker0", "worker1"}));
  EXPECT_EQ(sessions[1].name, "2026_12_07_10_00_01");
  EXPECT_EQ(Hosts(sessions[1]), (std::vector<std::string>{"worker0"}));
}

TEST(RunSessionsTest, RunsOfDifferentSubdirectoriesStayApart) {
  std::vector<RunProfiles> sessions = AssembleSessions({MakeRun("job1/2026_12_07_10_00_00", {"worker0"}),
                                                        MakeRun("job2/2026_12_07_10_00_00", {"worker1"})},
                                                       {Window(100, 110), Window(100, 110)});
  EXPECT_EQ(sessions.size(), 2u);
}

TEST(RunSessionsTest, RunNamesGiveLocalStartTimes) {
  ASSERT_TRUE(RunNameStartNs("2026_12_07_10_00_00").has_value());
  EXPECT_EQ(*RunNameStartNs("2026_12_07_10_00_05") - *RunNameStartNs("2026_12_07_10_00_00"), 5 * kSecond);
  EXPECT_TRUE(RunNameStartNs("2026_12_07_10_00_00_1").has_value());  // a suffix a writer adds
  EXPECT_FALSE(RunNameStartNs("my_run").has_value());
  EXPECT_FALSE(RunNameStartNs("2026-12-07-10-00-00").has_value());
  EXPECT_FALSE(RunNameStartNs("2026_1x_07_10_00_00").has_value());
}

// Writes <logdir>/plugins/profile/<run>/<host>.xplane.pb: a large host plane first, then the
// Task Environment plane with the capture window (where stepscope's recorder puts it).
void WriteHost(const fs::path& logdir, const std::string& run, const std::string& host, int64_t start_ns,
               int64_t stop_ns) {
  xspace::XSpace space;
  xspace::XPlaneBuilder threads(xspace::FindOrAddMutablePlaneWithName(&space, xspace::kHostThreadsPlaneName));
  threads.SetId(7);
  for (int i = 0; i < 2000; ++i) threads.GetOrCreateEventMetadata("op_" + std::to_string(i));
  xspace::XPlaneBuilder task(xspace::FindOrAddMutablePlaneWithName(&space, xspace::kTaskEnvPlaneName));
  task.AddStatValue(xspace::StatType::kProfileStartTime, static_cast<uint64_t>(start_ns));
  task.AddStatValue(xspace::StatType::kProfileStopTime, static_cast<uint64_t>(stop_ns));
  const fs::path dir = logdir / "plugins" / "profile" / run;
  fs::create_directories(dir);
  ASSERT_TRUE(xspace::WriteXSpaceFile((dir / (host + ".xplane.pb")).string(), space).ok());
}

class LogdirSessionsTest : public testing::Test {
 protected:
  void SetUp() override {
    logdir_ = fs::path(testing::TempDir()) / ("stepscope_run_sessions_test_" + std::to_string(getpid()));
    fs::remove_all(logdir_);
  }
  void TearDown() override { fs::remove_all(logdir_); }
  fs::path logdir_;
};

TEST_F(LogdirSessionsTest, TheTaskEnvironmentGivesTheExactWindow) {
  WriteHost(logdir_, "run", "worker0", 1'800'000'000 * kSecond, 1'800'000'010 * kSecond);
  StatusOr<std::vector<HostProfileFile>> files = ListRunFiles((logdir_ / "plugins/profile/run").string());
  ASSERT_TRUE(files.ok() && files->size() == 1u);
  CaptureWindow window = ReadCaptureWindow((*files)[0], "run");
  EXPECT_EQ(window.source, WindowSource::kTaskEnvironment);
  EXPECT_EQ(window.start_ns, 1'800'000'000 * kSecond);
  EXPECT_EQ(window.stop_ns, 1'800'000'010 * kSecond);
}

TEST_F(LogdirSessionsTest, WorkersInTheirOwnRunDirectoriesAreListedAndResolvedAsOneSession) {
  const int64_t t = 1'800'000'000 * kSecond;
  WriteHost(logdir_, "2027_01_15_08_00_00", "worker0", t, t + 10 * kSecond);
  WriteHost(logdir_, "2027_01_15_08_00_01", "worker1", t + kSecond, t + 11 * kSecond);
  WriteHost(logdir_, "2027_01_15_09_00_00", "worker0", t + 3600 * kSecond, t + 3610 * kSecond);  // a later job

  StatusOr<std::vector<RunProfiles>> runs = ListLogdirRuns(logdir_.string());
  ASSERT_TRUE(runs.ok()) << runs.status().ToString();
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ((*runs)[0].name, "2027_01_15_08_00_00");
  EXPECT_EQ(Hosts((*runs)[0]), (std::vector<std::string>{"worker0", "worker1"}));
  EXPECT_EQ((*runs)[1].name, "2027_01_15_09_00_00");

  StatusOr<std::vector<HostProfileFile>> relisted = RelistRunFiles((*runs)[0]);
  ASSERT_TRUE(relisted.ok());
  EXPECT_EQ(relisted->size(), 2u);

  // Any member's name selects the session; --separate_runs (assemble_sessions off) does not.
  StatusOr<ResolvedProfile> by_member = ResolveProfile({.path = logdir_.string(), .run = "2027_01_15_08_00_01"});
  ASSERT_TRUE(by_member.ok()) << by_member.status().ToString();
  EXPECT_EQ(by_member->run, "2027_01_15_08_00_00");
  EXPECT_EQ(by_member->files.size(), 2u);
  StatusOr<ResolvedProfile> separate = ResolveProfile(
      {.path = logdir_.string(), .run = "2027_01_15_08_00_01", .list_options = {.assemble_sessions = false}});
  ASSERT_TRUE(separate.ok());
  EXPECT_EQ(separate->files.size(), 1u);
  StatusOr<std::vector<RunProfiles>> apart = ListLogdirRuns(logdir_.string(), {.assemble_sessions = false});
  ASSERT_TRUE(apart.ok());
  EXPECT_EQ(apart->size(), 3u);
}

}  // namespace
}  // namespace stepscope::load
