// A host's summary (src/analysis/model/host_summary.h) gives every tool the result its
// model gives, byte for byte: on the shared profiles, one host and several combined.
#include "src/analysis/model/host_summary.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "src/analysis/model/combine_hosts.h"
#include "src/analysis/tool.h"
#include "src/analysis/tool_registry.h"
#include "src/load/plane_scan.h"
#include "src/load/profile_loader.h"
#include "src/xspace/schema.h"

namespace stepscope::load {
namespace {

using analysis::ProfileModel;

// The one tool that reads the events themselves.
bool ReadsTheFile(std::string_view tool) { return tool == "trace_viewer"; }

std::string ToolJson(const ProfileModel& model, const analysis::Tool& tool) {
  if (!tool.IsAvailable(model)) return "(unavailable)";
  StatusOr<std::unique_ptr<analysis::ToolResult>> result = tool.Run(model, {});
  return result.ok() ? (*result)->ToJson(/*pretty=*/false) : result.status().ToString();
}

// Every tool a summary serves gives the same JSON from `summarised` as from `model`.
void ExpectSameResults(const ProfileModel& model, const ProfileModel& summarised) {
  int compared = 0;
  for (const analysis::Tool* tool : analysis::AllTools()) {
    if (ReadsTheFile(tool->id())) continue;
    SCOPED_TRACE(std::string(tool->id()));
    EXPECT_EQ(ToolJson(model, *tool), ToolJson(summarised, *tool));
    ++compared;
  }
  EXPECT_GE(compared, 14);
}

ProfileModel LoadOrDie(const std::string& relative, ProfileFormat format) {
  const std::string path = std::string(STEPSCOPE_SHARED_DIR) + "/testdata/" + relative;
  HostProfileFile file{.host = std::filesystem::path(path).filename().string(), .path = path, .format = format};
  StatusOr<ProfileModel> model = LoadHostModel(file, {.keep_event_tree = false});
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(*model) : ProfileModel();
}

// The model through its summary, with the XLA programs of `path` (an .xplane.pb) as a
// summary carries them.
ProfileModel RoundTrip(const ProfileModel& model, const std::string& path = "") {
  std::string xla_programs;
  if (!path.empty()) {
    xla_programs = FindPlaneInFile(path, xspace::kMetadataPlaneName, uint64_t{1} << 30).value_or("");
  }
  EXPECT_EQ(model.hlo != nullptr, !xla_programs.empty());
  StatusOr<ProfileModel> decoded = analysis::DecodeHostSummary(analysis::EncodeHostSummary(model, xla_programs));
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  return decoded.ok() ? std::move(*decoded) : ProfileModel();
}

struct SharedProfile {
  const char* path;
  ProfileFormat format;
};

constexpr SharedProfile kProfiles[] = {
    {"xplane/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb", ProfileFormat::kXSpace},
    {"xplane/tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb", ProfileFormat::kXSpace},
    {"xplane/tracelens_jax_mi300_te_fused_attn.xplane.pb", ProfileFormat::kXSpace},
    {"traces/hta_ns_resolution_rank-0.pt.trace.json.gz", ProfileFormat::kTraceJson},
    {"traces/tracelens_h100_qwen1.5_0.5b_chat.json.gz", ProfileFormat::kTraceJson},
    {"traces/hta_amd_mi250_minitoy_train_ROCm6_2_kineto.json.gz", ProfileFormat::kTraceJson},
    {"traces/xprof_tf_trace_viewer_demo_trace.json", ProfileFormat::kTraceJson},
};

TEST(HostSummaryTest, EveryToolGivesTheModelsResultOnEverySharedProfile) {
  for (const SharedProfile& profile : kProfiles) {
    SCOPED_TRACE(profile.path);
    const ProfileModel model = LoadOrDie(profile.path, profile.format);
    ExpectSameResults(model, RoundTrip(model, std::string(STEPSCOPE_SHARED_DIR) + "/testdata/" + profile.path));
  }
}

TEST(HostSummaryTest, CombinedSummariesGiveTheCombinedModelsResults) {
  std::vector<ProfileModel> models, summarised;
  // Two PyTorch ranks and a TensorFlow worker with a tf.data pipeline (whose events a
  // summary carries as their analysis, the step time applied after the reduce).
  const std::string tf_worker = kProfiles[0].path;
  for (const std::string& host :
       {std::string("traces/hta_sampled_rank-0.json.gz"), std::string("traces/hta_sampled_rank-1.json.gz"), tf_worker}) {
    const bool xspace = host == tf_worker;
    models.push_back(LoadOrDie(host, xspace ? ProfileFormat::kXSpace : ProfileFormat::kTraceJson));
    summarised.push_back(RoundTrip(models.back(), xspace ? std::string(STEPSCOPE_SHARED_DIR) + "/testdata/" + host : ""));
  }
  ExpectSameResults(analysis::CombineHostModels(std::move(models)), analysis::CombineHostModels(std::move(summarised)));
}

TEST(HostSummaryTest, TheSameModelEncodesToTheSameBytes) {
  const ProfileModel model = LoadOrDie(kProfiles[0].path, kProfiles[0].format);
  const std::string bytes = analysis::EncodeHostSummary(model);
  EXPECT_EQ(analysis::EncodeHostSummary(RoundTrip(model)), bytes);
}

void ExpectDamageIsAnError(const std::string& bytes);

// Cut anywhere, or with any byte changed: an error or a model, never a crash (and never
// an allocation past the bytes' bound: the sanitizer build runs this too).
TEST(HostSummaryTest, DamagedSummariesAreErrors) {
  // With kernels and ops (the first), and with allocator events (the second).
  for (const char* trace : {"traces/hta_sampled_rank-0.json.gz", "traces/tracelens_h100_qwen1.5_0.5b_chat.json.gz"}) {
    SCOPED_TRACE(trace);
    ExpectDamageIsAnError(analysis::EncodeHostSummary(LoadOrDie(trace, ProfileFormat::kTraceJson)));
  }
}

void ExpectDamageIsAnError(const std::string& bytes) {
  ASSERT_GT(bytes.size(), 100u);
  for (size_t cut = 0; cut < bytes.size(); cut += std::max<size_t>(1, bytes.size() / 997)) {
    StatusOr<ProfileModel> decoded = analysis::DecodeHostSummary(std::string_view(bytes).substr(0, cut));
    ASSERT_FALSE(decoded.ok()) << "cut at " << cut;
    EXPECT_EQ(decoded.status().code(), StatusCode::kDataLoss) << decoded.status().ToString();
  }
  for (size_t at = 9; at < bytes.size(); at += std::max<size_t>(1, bytes.size() / 499)) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0xff);
    (void)analysis::DecodeHostSummary(damaged);  // ok or an error, but it returns
  }
  std::string other_version = bytes;
  other_version[8] = static_cast<char>(analysis::kHostSummaryVersion + 1);
  EXPECT_EQ(analysis::DecodeHostSummary(other_version).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(analysis::DecodeHostSummary("not a summary").status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(analysis::DecodeHostSummary(bytes + "x").status().code(), StatusCode::kDataLoss);
}

}  // namespace
}  // namespace stepscope::load
