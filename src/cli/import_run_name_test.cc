#include "src/cli/import_run_name.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace stepscope::cli {
namespace {

TEST(ImportRunNameTest, OneFileIsItsStem) {
  EXPECT_EQ(RunNameForTraces({"/data/resnet50.pt.trace.json.gz"}), "resnet50");
  EXPECT_EQ(RunNameForTraces({"bert.trace.json.gz"}), "bert");
  EXPECT_EQ(RunNameForTraces({"x/plain.json"}), "plain");
  EXPECT_EQ(RunNameForTraces({"same.json", "same.json"}), "same");
}

TEST(ImportRunNameTest, SeveralFilesShareTheirCommonWords) {
  EXPECT_EQ(RunNameForTraces({"hta_sampled_rank-0.json.gz", "hta_sampled_rank-1.json.gz"}), "hta_sampled_rank");
  EXPECT_EQ(RunNameForTraces({"job_rank0.json", "job_rank1.json", "job_rank12.json"}), "job_rank");
  EXPECT_EQ(RunNameForTraces({"resnet_fast.json", "resnet_slow.json"}), "resnet");
  // "alp" names neither file: no prefix, so the first file and how many more.
  EXPECT_EQ(RunNameForTraces({"alpha.json", "alps.json", "beta.json"}), "alpha_and_2_more");
}

TEST(ImportRunNameTest, NamesAreSafeDirectoryNames) {
  EXPECT_EQ(RunNameForTraces({"my trace (1).json"}), "my_trace__1_");
  EXPECT_EQ(RunNameForTraces({"..json"}), "imported");  // stem "." is not a run directory
  EXPECT_EQ(RunNameForTraces({}), "imported");
  EXPECT_EQ(RunNameForTraces({std::string(300, 'a') + ".json"}).size(), 100u);
}

TEST(ImportRunNameTest, AnExistingRunIsNotExtended) {
  std::filesystem::path logdir = std::filesystem::path(::testing::TempDir()) / "import_run_name_logdir";
  std::filesystem::remove_all(logdir);
  EXPECT_EQ(FreshRunName(logdir.string(), "resnet50"), "resnet50");
  std::filesystem::create_directories(logdir / "plugins/profile/resnet50");
  EXPECT_EQ(FreshRunName(logdir.string(), "resnet50"), "resnet50_2");
  std::filesystem::create_directories(logdir / "plugins/profile/resnet50_2");
  EXPECT_EQ(FreshRunName(logdir.string(), "resnet50"), "resnet50_3");
  std::filesystem::remove_all(logdir);
}

}  // namespace
}  // namespace stepscope::cli
