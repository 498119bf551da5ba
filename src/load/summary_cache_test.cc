// Host summaries on disk: a multi-host model from summaries is the model from the files,
// tool by tool, whether the summaries were just written or read back; a stale or corrupt
// summary is rebuilt and says so; a read-only run directory sends them to the cache.
#include "src/load/summary_cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "src/analysis/tool.h"
#include "src/analysis/tool_registry.h"

namespace stepscope::load {
namespace {

namespace fs = std::filesystem;

std::string Shared(const std::string& relative) { return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/" + relative; }

class SummaryCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::path(testing::TempDir()) / ("stepscope_summary_cache_test_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "run");
    options_.cache_dir = (root_ / "cache").string();
  }
  void TearDown() override {
    fs::permissions(root_ / "run", fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(root_);
  }
  // The run's host files: symlinks to shared profiles, as hosts of one run.
  std::vector<HostProfileFile> Hosts(const std::vector<std::pair<std::string, std::string>>& links) {
    for (const auto& [name, target] : links) fs::create_symlink(Shared(target), root_ / "run" / name);
    StatusOr<std::vector<HostProfileFile>> files = ListRunFiles((root_ / "run").string());
    EXPECT_TRUE(files.ok()) << files.status().ToString();
    return files.ok() ? *files : std::vector<HostProfileFile>{};
  }

  fs::path root_;
  SummaryOptions options_;
};

void ExpectSameToolResults(const analysis::ProfileModel& want, const analysis::ProfileModel& got) {
  for (const analysis::Tool* tool : analysis::AllTools()) {
    if (tool->id() == "trace_viewer") continue;  // reads the events: not from summaries
    SCOPED_TRACE(std::string(tool->id()));
    ASSERT_EQ(tool->IsAvailable(want), tool->IsAvailable(got));
    if (!tool->IsAvailable(want)) continue;
    auto a = tool->Run(want, {});
    auto b = tool->Run(got, {});
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ((*a)->ToJson(false), (*b)->ToJson(false));
  }
}

TEST_F(SummaryCacheTest, AModelFromSummariesIsTheModelFromTheFilesWrittenOrRead) {
  const std::vector<HostProfileFile> files = Hosts({{"rank0.pt.trace.json.gz", "traces/hta_sampled_rank-0.json.gz"},
                                                    {"rank1.pt.trace.json.gz", "traces/hta_sampled_rank-1.json.gz"},
                                                    {"tf.xplane.pb", "xplane/tracelens_jax_mi300_te_fused_attn.xplane.pb"}});
  ASSERT_EQ(files.size(), 3u);
  StatusOr<analysis::ProfileModel> direct = LoadCombinedModel(files, {.keep_event_tree = false});
  ASSERT_TRUE(direct.ok()) << direct.status().ToString();

  std::vector<std::string> notes;
  StatusOr<analysis::ProfileModel> written = LoadCombinedModelFromSummaries(files, options_, &notes);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_TRUE(notes.empty());
  for (const HostProfileFile& file : files) {
    EXPECT_TRUE(fs::exists(fs::path(file.path).parent_path() / ("." + fs::path(file.path).filename().string() +
                                                                  ".stepscope-summary")));
  }
  ExpectSameToolResults(*direct, *written);

  StatusOr<SummarizedHost> again = SummarizeHost(files[0], options_);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->found, SummaryFound::kCurrent);
  StatusOr<analysis::ProfileModel> read = LoadCombinedModelFromSummaries(files, options_, &notes);
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(notes.empty());
  ExpectSameToolResults(*direct, *read);
}

TEST_F(SummaryCacheTest, StaleAndCorruptSummariesAreRebuiltAndSaySo) {
  const std::vector<HostProfileFile> files = Hosts({{"rank0.pt.trace.json.gz", "traces/hta_sampled_rank-0.json.gz"}});
  ASSERT_EQ(files.size(), 1u);
  StatusOr<SummarizedHost> first = SummarizeHost(files[0], options_);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->found, SummaryFound::kNone);
  const std::string summary = first->summary_path;
  ASSERT_FALSE(summary.empty());

  // Another file's summary under this name: its key does not match.
  const std::string original = [&] {
    std::ifstream in(summary, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  std::string other_key = original;
  other_key[10] = static_cast<char>(other_key[10] ^ 1);  // the recorded file size
  std::ofstream(summary, std::ios::binary | std::ios::trunc) << other_key;
  StatusOr<SummarizedHost> stale = SummarizeHost(files[0], options_);
  ASSERT_TRUE(stale.ok());
  EXPECT_EQ(stale->found, SummaryFound::kStale);
  EXPECT_NE(stale->note.find("stale"), std::string::npos) << stale->note;

  std::ofstream(summary, std::ios::binary | std::ios::trunc) << original.substr(0, original.size() / 2);
  std::vector<std::string> notes;
  ASSERT_TRUE(LoadCombinedModelFromSummaries(files, options_, &notes).ok());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("corrupt"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("rebuilt"), std::string::npos) << notes[0];
  StatusOr<SummarizedHost> rebuilt = SummarizeHost(files[0], options_);
  ASSERT_TRUE(rebuilt.ok());
  EXPECT_EQ(rebuilt->found, SummaryFound::kCurrent);
}

TEST_F(SummaryCacheTest, AReadOnlyRunDirectorySendsSummariesToTheCache) {
  const std::vector<HostProfileFile> files = Hosts({{"rank0.pt.trace.json.gz", "traces/hta_sampled_rank-0.json.gz"}});
  fs::permissions(root_ / "run", fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  StatusOr<SummarizedHost> first = SummarizeHost(files[0], options_);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->summary_path.rfind((root_ / "cache").string(), 0), 0u) << first->summary_path;
  StatusOr<SummarizedHost> again = SummarizeHost(files[0], options_);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->found, SummaryFound::kCurrent);
  // Not written when asked not to (a read-only server).
  fs::remove_all(root_ / "cache");
  StatusOr<SummarizedHost> unwritten = SummarizeHost(files[0], {.cache_dir = options_.cache_dir, .write = false});
  ASSERT_TRUE(unwritten.ok());
  EXPECT_TRUE(unwritten->summary_path.empty());
  EXPECT_FALSE(fs::exists(root_ / "cache"));
}

}  // namespace
}  // namespace stepscope::load
