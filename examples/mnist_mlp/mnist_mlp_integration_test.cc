// Runs the mnist_mlp binary and checks what it prints and the profile it writes: one
// "train" step marker per step with TensorFlow's stats, input waits nested in their
// steps, pipeline events on named threads, and the program's own timing agreeing with
// the recorded events (the check the analyses of issue 3 build on).
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "examples/mnist_mlp/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/xspace/logdir.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "src/xspace/xplane_visitor.h"
#include "src/xspace/xspace_io.h"

namespace mnist_mlp {
namespace {

using ::testing::HasSubstr;
using stepscope::xspace::StatType;
using stepscope::xspace::XEventVisitor;
using stepscope::xspace::XLineVisitor;
using stepscope::xspace::XPlaneVisitor;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Small and fast: 1200 examples, batch 32, hidden 128. The dataset is generated once per
// test binary run in a shared temporary directory.
class MnistMlpBinaryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = new ScopedTempDir(); }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  RunResult Run(const std::string& args, bool small_defaults = true) {
    const std::string out_path = dir_->path() + "/stdout", err_path = dir_->path() + "/stderr";
    std::string command = std::string(STEPSCOPE_BINARY_DIR) + "/bin/mnist_mlp ";
    if (small_defaults) {
      command += "--train_examples 1200 --shards 2 --batch_size 32 --hidden_units 128 --log_every 0 --data_dir " +
                 dir_->path() + "/data ";
    }
    command += args + " >" + out_path + " 2>" + err_path;
    RunResult result;
    const int status = std::system(command.c_str());
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = ReadText(out_path);
    result.err = ReadText(err_path);
    return result;
  }

  static std::string Dir() { return dir_->path(); }
  static ScopedTempDir* dir_;
};

ScopedTempDir* MnistMlpBinaryTest::dir_ = nullptr;

// The fields of the machine-readable summary line.
std::map<std::string, double> ParseSummary(const std::string& out) {
  std::map<std::string, double> fields;
  std::smatch match;
  const std::regex line(R"(mnist_mlp: (steps=\S+ first_step=\S+ last_step=\S+ mean_step_ms=\S+ mean_input_ms=\S+ input_percent=\S+))");
  if (!std::regex_search(out, match, line)) return fields;
  std::istringstream pairs(match[1].str());
  std::string pair;
  while (pairs >> pair) {
    const size_t equals = pair.find('=');
    fields[pair.substr(0, equals)] = std::stod(pair.substr(equals + 1));
  }
  return fields;
}

// Reads the single profile written under `logdir`.
stepscope::xspace::XSpace ReadOnlyProfile(const std::string& logdir) {
  stepscope::StatusOr<std::vector<stepscope::xspace::RunInfo>> runs = stepscope::xspace::ListRuns(logdir);
  EXPECT_TRUE(runs.ok()) << runs.status().ToString();
  if (!runs.ok() || runs->size() != 1 || runs->front().hosts.size() != 1) {
    ADD_FAILURE() << "expected exactly one run with one host under " << logdir;
    return {};
  }
  stepscope::StatusOr<stepscope::xspace::XSpace> space =
      stepscope::xspace::ReadXSpaceFile(runs->front().hosts.front().path);
  EXPECT_TRUE(space.ok()) << space.status().ToString();
  return space.ok() ? std::move(space).value() : stepscope::xspace::XSpace();
}

struct Interval {
  int64_t begin_ps;
  int64_t end_ps;
};

// What the tests need from the host plane, gathered in one pass.
struct HostEvents {
  std::map<int64_t, Interval> steps;    // step_num -> the "train" event
  std::map<int64_t, int64_t> step_root;  // step_num -> its _r stat
  std::vector<Interval> get_next;
  std::map<std::string, int> count_by_name;
  std::map<std::string, std::set<std::string>> lines_by_event;  // event name -> line names
  std::set<std::string> line_names;
  // Iterator event name -> the distinct (id, parent_id) pairs it was recorded with
  // (-1 when the stat is absent).
  std::map<std::string, std::set<std::pair<int64_t, int64_t>>> iterator_ids;
  int duplicate_steps = 0;
};

HostEvents CollectHostEvents(const stepscope::xspace::XSpace& space) {
  HostEvents events;
  const auto* plane = stepscope::xspace::FindPlaneWithName(space, stepscope::xspace::kHostThreadsPlaneName);
  if (plane == nullptr) {
    ADD_FAILURE() << "no /host:CPU plane";
    return events;
  }
  XPlaneVisitor visitor(plane);
  visitor.ForEachLine([&](const XLineVisitor& line) {
    events.line_names.insert(std::string(line.name()));
    line.ForEachEvent([&](const XEventVisitor& event) {
      const std::string name(event.name());
      ++events.count_by_name[name];
      events.lines_by_event[name].insert(std::string(line.name()));
      const Interval interval{event.timestamp_ps(), event.end_timestamp_ps()};
      if (name.rfind("Iterator::", 0) == 0) {
        const auto id = event.GetStat(StatType::kStepId);
        const auto parent = event.GetStat(StatType::kParentId);
        events.iterator_ids[name].insert({id ? id->IntValue() : -1, parent ? parent->IntValue() : -1});
      }
      if (name == "train") {
        const auto step_num = event.GetStat(StatType::kStepNum);
        const auto root = event.GetStat(StatType::kIsRoot);
        if (!step_num.has_value()) {
          ADD_FAILURE() << "a train event without step_num";
          return;
        }
        if (!events.steps.emplace(step_num->IntValue(), interval).second) ++events.duplicate_steps;
        events.step_root[step_num->IntValue()] = root.has_value() ? root->IntValue() : -1;
      } else if (name == "IteratorGetNext") {
        events.get_next.push_back(interval);
      }
    });
  });
  return events;
}

TEST_F(MnistMlpBinaryTest, WritesAProfileWithOneTrainEventPerStep) {
  const std::string logdir = Dir() + "/logdir_all";
  const RunResult run = Run("--steps 12 --logdir " + logdir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("mnist_mlp: profile written to " + logdir + "/plugins/profile/"));

  const std::map<std::string, double> summary = ParseSummary(run.out);
  ASSERT_FALSE(summary.empty()) << run.out;
  EXPECT_EQ(summary.at("steps"), 12);
  EXPECT_EQ(summary.at("first_step"), 0);
  EXPECT_EQ(summary.at("last_step"), 11);

  HostEvents events = CollectHostEvents(ReadOnlyProfile(logdir));
  EXPECT_EQ(events.duplicate_steps, 0);
  ASSERT_EQ(events.steps.size(), 12u);
  for (int64_t step = 0; step < 12; ++step) {
    ASSERT_EQ(events.steps.count(step), 1u) << "step " << step;
    EXPECT_EQ(events.step_root.at(step), 1) << "step " << step << " must carry _r=1";
  }
  // Every input wait lies inside a step (the batch is fetched inside the step scope).
  ASSERT_EQ(events.get_next.size(), 12u);
  for (const Interval& wait : events.get_next) {
    bool inside = false;
    for (const auto& [step, interval] : events.steps) {
      inside |= interval.begin_ps <= wait.begin_ps && wait.end_ps <= interval.end_ps;
    }
    EXPECT_TRUE(inside) << "IteratorGetNext at " << wait.begin_ps << " ps is outside every step";
  }
  for (const char* name : {"forward", "backward", "optimizer", "Iterator::Batch"}) {
    EXPECT_EQ(events.count_by_name[name], 12) << name;
  }
  EXPECT_EQ(events.count_by_name["Iterator::Batch::Map"], 12 * 32);
  EXPECT_EQ(events.count_by_name["Iterator::Batch::Map::FixedLengthRecord"], 12 * 32);
  // Synchronous pipeline: everything happens on the training thread.
  EXPECT_EQ(events.lines_by_event["Iterator::Batch::Map::FixedLengthRecord"], std::set<std::string>{"train_loop"});
  EXPECT_EQ(events.lines_by_event["train"], std::set<std::string>{"train_loop"});

  // The program's own numbers agree with the recorded events: the same boundaries are
  // measured twice, so the means differ by timer placement only.
  double step_ps = 0, input_ps = 0;
  for (const auto& [step, interval] : events.steps) step_ps += static_cast<double>(interval.end_ps - interval.begin_ps);
  for (const Interval& wait : events.get_next) input_ps += static_cast<double>(wait.end_ps - wait.begin_ps);
  const double profile_mean_step_ms = step_ps / 12 / 1e9;
  EXPECT_NEAR(profile_mean_step_ms, summary.at("mean_step_ms"), 0.02 * summary.at("mean_step_ms"));
  EXPECT_NEAR(100.0 * input_ps / step_ps, summary.at("input_percent"), 3.0);
  EXPECT_NEAR(input_ps / 12 / 1e9, summary.at("mean_input_ms"), 0.02 * summary.at("mean_step_ms"));
}

TEST_F(MnistMlpBinaryTest, ProfileStepsRecordsOnlyTheWindow) {
  const std::string logdir = Dir() + "/logdir_window";
  const RunResult run = Run("--steps 10 --profile_steps=3,5 --logdir " + logdir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const std::map<std::string, double> summary = ParseSummary(run.out);
  ASSERT_FALSE(summary.empty()) << run.out;
  EXPECT_EQ(summary.at("steps"), 3);
  EXPECT_EQ(summary.at("first_step"), 3);
  EXPECT_EQ(summary.at("last_step"), 5);

  HostEvents events = CollectHostEvents(ReadOnlyProfile(logdir));
  std::vector<int64_t> steps;
  for (const auto& [step, interval] : events.steps) steps.push_back(step);
  EXPECT_EQ(steps, (std::vector<int64_t>{3, 4, 5}));
  double step_ps = 0;
  for (const auto& [step, interval] : events.steps) step_ps += static_cast<double>(interval.end_ps - interval.begin_ps);
  EXPECT_NEAR(step_ps / 3 / 1e9, summary.at("mean_step_ms"), 0.02 * summary.at("mean_step_ms"));
}

TEST_F(MnistMlpBinaryTest, FastConfigurationRunsThePipelineOnNamedThreads) {
  const std::string logdir = Dir() + "/logdir_fast";
  const RunResult run = Run("--steps 8 --input_threads 2 --prefetch 2 --cache --logdir " + logdir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  HostEvents events = CollectHostEvents(ReadOnlyProfile(logdir));
  EXPECT_EQ(events.steps.size(), 8u);
  for (const char* line : {"train_loop", "input_prefetch", "input_worker/0", "input_worker/1"}) {
    EXPECT_EQ(events.line_names.count(line), 1u) << line;
  }
  EXPECT_EQ(events.lines_by_event["Iterator::Prefetch"], std::set<std::string>{"train_loop"});
  EXPECT_EQ(events.lines_by_event["Iterator::Prefetch::Batch"], std::set<std::string>{"input_prefetch"});
  EXPECT_EQ(events.lines_by_event["Iterator::Prefetch::Batch::ParallelMap::FixedLengthRecord"],
            (std::set<std::string>{"input_worker/0", "input_worker/1"}));
  EXPECT_EQ(events.count_by_name["Iterator::Prefetch"], 8);

  // Each stage names the stage consuming its output as parent (tf.data's id/parent_id),
  // which is how analyses link the worker threads' events to the pipeline.
  auto only = [&](const std::string& name) {
    const auto& ids = events.iterator_ids[name];
    EXPECT_EQ(ids.size(), 1u) << name << " must be one iterator";
    return ids.empty() ? std::pair<int64_t, int64_t>{-2, -2} : *ids.begin();
  };
  const auto root = only("Iterator::Prefetch");
  const auto batch = only("Iterator::Prefetch::Batch");
  const auto map = only("Iterator::Prefetch::Batch::ParallelMap");
  const auto read = only("Iterator::Prefetch::Batch::ParallelMap::FixedLengthRecord");
  EXPECT_GT(root.first, 0);
  EXPECT_EQ(root.second, -1) << "the root iterator has no parent";
  EXPECT_EQ(batch.second, root.first);
  EXPECT_EQ(map.second, batch.first);
  EXPECT_EQ(read.second, map.first);
  EXPECT_EQ((std::set<int64_t>{root.first, batch.first, map.first, read.first}).size(), 4u);
}

TEST_F(MnistMlpBinaryTest, LevelOneRecordsStepsButNotIterators) {
  const std::string logdir = Dir() + "/logdir_level1";
  const RunResult run = Run("--steps 4 --host_tracer_level 1 --logdir " + logdir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  HostEvents events = CollectHostEvents(ReadOnlyProfile(logdir));
  EXPECT_EQ(events.steps.size(), 4u);
  EXPECT_EQ(events.count_by_name["IteratorGetNext"], 4);
  EXPECT_EQ(events.count_by_name["Iterator::Batch"], 0) << "iterators record at level 2, as tf.data's do";
}

TEST_F(MnistMlpBinaryTest, WithoutLogdirNothingIsWrittenAndTimingIsStillPrinted) {
  const RunResult run = Run("--steps 3");
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, ::testing::Not(HasSubstr("profile written")));
  EXPECT_EQ(ParseSummary(run.out).at("steps"), 3);
}

TEST_F(MnistMlpBinaryTest, BadFlagsExitWithCode2AndAClearMessage) {
  RunResult run = Run("--steps=abc", /*small_defaults=*/false);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("--steps: expected an integer"));
  run = Run("--input_threads=-1", false);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("--input_threads"));
  run = Run("--frobnicate", false);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("unknown flag --frobnicate"));
  run = Run("--help", false);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.out, HasSubstr("--input_threads"));
}

TEST_F(MnistMlpBinaryTest, ProfilerPortStartsTheProfilerServer) {
  // Captures through the server are tested in tests/integration/remote_*; here only that
  // the flag starts it (or, if the port is taken, that training goes on regardless).
  const RunResult run = Run("--steps 2 --profiler_port 6009");
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_TRUE(run.err.find("profiler server listening on 127.0.0.1:6009") != std::string::npos ||
              run.err.find("--profiler_port 6009") != std::string::npos)
      << run.out << run.err;
}

TEST_F(MnistMlpBinaryTest, UnwritableDataDirFailsWithExitCode1) {
  const RunResult run = Run("--steps 2 --data_dir /proc/mnist_mlp_cannot_write_here", false);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("/proc/mnist_mlp_cannot_write_here"));
}

}  // namespace
}  // namespace mnist_mlp
