// Tools compose through the model: `stepscope analyze --tool all` runs overview_page, which
// shows the advisor's findings, and the advisor; every derivation they read is computed
// once for the model, however many tools read it (src/analysis/model/derivations.h).
#include <gtest/gtest.h>

#include "src/analysis/model/derivations.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/test_model_util.h"

namespace stepscope::analysis {
namespace {

using tools_testing::FinishDb;
using tools_testing::MakeOp;
using tools_testing::MakeStep;

ProfileModel InputBoundModel() {
  ProfileModel m;
  for (int i = 0; i < 4; ++i) {
    m.steps.push_back(MakeStep(i, i * 100.0, 100.0, {{EventType::kHostWaitInput, 30}, {EventType::kHostCompute, 50}}));
  }
  m.host_ops.ops.push_back(MakeOp("IteratorGetNext", "IteratorGetNext", OpCategory::kTfData, true, 4, 120, 120));
  FinishDb(&m.host_ops, 0);
  return m;
}

TEST(ToolCompositionTest, OverviewThenAdvisorComputesEachDerivationOnce) {
  const ProfileModel m = InputBoundModel();
  ASSERT_TRUE(RunTool("overview_page", m, {}).ok());
  const int64_t after_overview = m.derived.computations();
  EXPECT_GT(after_overview, 0);
  const AdvisorReport* advice = &AdviceOf(m);
  // The advisor and the tools whose derivations the advice read compute nothing more.
  for (const char* id : {"advisor", "input_pipeline_analyzer", "overview_page"}) {
    SCOPED_TRACE(id);
    ASSERT_TRUE(RunTool(id, m, {}).ok());
    EXPECT_EQ(m.derived.computations(), after_overview);
  }
  EXPECT_EQ(&AdviceOf(m), advice);
}

TEST(ToolCompositionTest, EveryToolTwiceComputesNothingTheSecondTime) {
  const ProfileModel m = InputBoundModel();
  for (const Tool* tool : AvailableTools(m)) ASSERT_TRUE(tool->Run(m, {}).ok()) << tool->id();
  const int64_t once = m.derived.computations();
  for (const Tool* tool : AvailableTools(m)) ASSERT_TRUE(tool->Run(m, {}).ok()) << tool->id();
  EXPECT_EQ(m.derived.computations(), once);
}

}  // namespace
}  // namespace stepscope::analysis
