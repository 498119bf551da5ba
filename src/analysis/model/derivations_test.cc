#include "src/analysis/model/derivations.h"

#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace stepscope::analysis {
namespace {

// Three 100 ms steps, 30 ms of each waiting for input.
ProfileModel InputBoundModel() {
  ProfileModel m;
  for (int i = 0; i < 3; ++i) {
    StepInfo step;
    step.step_number = i;
    step.group_id = i;
    step.begin_ps = int64_t{i} * 100'000'000'000;
    step.duration_ps = 100'000'000'000;
    step.breakdown.type_ps[static_cast<int>(EventType::kHostWaitInput)] = 30'000'000'000;
    step.breakdown.type_ps[static_cast<int>(EventType::kUnknownTime)] = 70'000'000'000;
    m.steps.push_back(step);
  }
  return m;
}

TEST(DerivationsTest, EachIsComputedOnceAndKept) {
  const ProfileModel m = InputBoundModel();
  EXPECT_EQ(m.derived.computations(), 0);
  const StepTimeSummary& first = StepSummaryOf(m);
  EXPECT_EQ(first.step_count, 3);
  EXPECT_EQ(first.verdict, InputBoundVerdict::kHighly);
  const int64_t after_first = m.derived.computations();
  EXPECT_EQ(after_first, 1);
  EXPECT_EQ(&StepSummaryOf(m), &first);
  EXPECT_EQ(m.derived.computations(), after_first);
}

TEST(DerivationsTest, AdviceComputesEveryDerivationItReadsOnce) {
  const ProfileModel m = InputBoundModel();
  const AdvisorReport& advice = AdviceOf(m);
  ASSERT_FALSE(advice.findings.empty());
  EXPECT_EQ(advice.findings.front().id, "input_bound");
  const int64_t computed = m.derived.computations();
  // What the advice read is there already: reading it again computes nothing.
  StepSummaryOf(m);
  InputAnalysisOf(m);  // (its tf.data bottleneck only for profiles with tf.data iterators)
  KernelSummaryOf(m);
  OpPlacementOf(m);
  MemoryAnalysisOf(m);
  StepRowsOf(m);
  EXPECT_EQ(&AdviceOf(m), &advice);
  EXPECT_EQ(m.derived.computations(), computed);
}

TEST(DerivationsTest, ConcurrentReadersShareOneComputation) {
  const ProfileModel m = InputBoundModel();
  constexpr int kThreads = 8;
  std::vector<const AdvisorReport*> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&, t] { seen[t] = &AdviceOf(m); });
  for (std::thread& t : threads) t.join();
  for (const AdvisorReport* r : seen) EXPECT_EQ(r, seen[0]);
  const int64_t computed = m.derived.computations();
  AdviceOf(m);
  EXPECT_EQ(m.derived.computations(), computed);
}

TEST(DerivationsTest, ACopyDerivesAfreshAMoveKeeps) {
  ProfileModel m = InputBoundModel();
  const StepTimeSummary* summary = &StepSummaryOf(m);
  ProfileModel copy = m;
  EXPECT_EQ(copy.derived.computations(), 0);
  copy.steps.pop_back();  // a copy may change before it is analysed
  EXPECT_EQ(StepSummaryOf(copy).step_count, 2);
  EXPECT_EQ(StepSummaryOf(m).step_count, 3);

  ProfileModel moved = std::move(m);
  EXPECT_EQ(&StepSummaryOf(moved), summary);
  EXPECT_EQ(moved.derived.computations(), 1);
}

TEST(DerivationsTest, FreshDerivationsSeeAChangedModelAndLeaveItsCacheAlone) {
  ProfileModel m = InputBoundModel();
  EXPECT_EQ(StepSummaryOf(m).step_count, 3);
  m.steps.pop_back();  // not allowed once analysed, but tests do it to the public Compute*
  const int64_t fresh_steps =
      WithFreshDerivations(m, [&] { return StepSummaryOf(m).step_count; });
  EXPECT_EQ(fresh_steps, 2);
  EXPECT_EQ(m.derived.computations(), 1);
  EXPECT_EQ(StepSummaryOf(m).step_count, 3);  // the model's cache, as computed first
}

}  // namespace
}  // namespace stepscope::analysis
