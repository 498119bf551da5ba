// Every trace in shared/testdata/traces/ imported (src/importers) and analysed by the four
// tools a PyTorch/JAX user opens first, held to two references:
//   - facts read from the file's JSON by importers/testing (not through the importer):
//     the steps are exactly the ProfilerStep#N annotations (minus stubs without device
//     work, which the model must name); each step's time is the program's iteration,
//     from its ProfilerStep#N's start to the next one's, the last to the end of its host
//     step or of its device work, whichever is later (docs/model.md "Steps"); kernel
//     launches add up to the file's `kernel` events;
//   - a golden digest per trace (tests/golden/imported/<trace>.json): the tools' JSON with
//     long arrays cut to their first rows (the length kept), so a change in what the
//     tools say about a real trace shows up in review.
#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/output/json_writer.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/check.h"
#include "src/analysis/tools/diff.h"
#include "src/analysis/tools/input_pipeline.h"
#include "src/analysis/tools/pod_viewer.h"
#include "src/importers/importer_registry.h"
#include "src/importers/testing/trace_facts.h"
#include "tests/golden/golden_file.h"

namespace stepscope::golden {
namespace {

namespace fs = std::filesystem;

constexpr size_t kDigestRows = 5;  // rows of each long array kept in the digest

std::vector<std::string> TraceFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path(importers::testing::TraceTestFile("")), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".json") || name.ends_with(".json.gz")) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// What the file itself says (importers/testing/trace_facts.h reads it without the
// importers): host ProfilerStep#N annotations by N with their durations, each step's
// time as the program's iteration (docs/model.md "Steps"), and kernel events.
struct StepAndKernelFacts {
  std::map<int64_t, int64_t> step_duration_ns;
  std::map<int64_t, int64_t> step_time_ns;  // the step's window
  int64_t kernels = 0;
};

struct Span {
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
};

bool IsLaunchCat(std::string_view cat) { return cat == "cuda_runtime" || cat == "Runtime" || cat == "cuda_driver"; }
bool IsDeviceActivityCat(std::string_view cat) {
  return cat == "kernel" || cat == "Kernel" || cat == "gpu_memcpy" || cat == "Memcpy" || cat == "gpu_memset" ||
         cat == "Memset";
}

// The end of each step's device work: a launch belongs to the step whose ProfilerStep
// window holds it (any thread); a device event to its launch's step (same `correlation`).
std::map<int64_t, int64_t> DeviceEnds(const std::vector<importers::testing::FileEvent>& events,
                                      const std::map<int64_t, Span>& host_steps) {
  std::map<std::string, int64_t> step_of_launch;  // correlation -> step
  for (const importers::testing::FileEvent& e : events) {
    auto correlation = e.args.find("correlation");
    if (e.ph != "X" || !IsLaunchCat(e.cat) || correlation == e.args.end()) continue;
    for (const auto& [step, span] : host_steps) {
      if (span.begin_ns <= e.ts_ns && e.ts_ns < span.end_ns) step_of_launch[correlation->second] = step;
    }
  }
  std::map<int64_t, int64_t> device_end;
  for (const importers::testing::FileEvent& e : events) {
    auto correlation = e.args.find("correlation");
    if (e.ph != "X" || !IsDeviceActivityCat(e.cat) || correlation == e.args.end()) continue;
    auto step = step_of_launch.find(correlation->second);
    if (step == step_of_launch.end()) continue;
    auto [it, inserted] = device_end.try_emplace(step->second, e.ts_ns + e.dur_ns);
    if (!inserted) it->second = std::max(it->second, e.ts_ns + e.dur_ns);
  }
  return device_end;
}

// Each step's window: from its start to the next ProfilerStep's start, the last to the
// later of its host end and its device work's end; where the device's cadence (device
// end to device end) is over 2 % slower than the host's (host end to host end), from one
// device end to the next.
std::map<int64_t, int64_t> StepWindowsNs(const std::map<int64_t, Span>& host_steps,
                                         const std::map<int64_t, int64_t>& device_end) {
  std::vector<std::pair<Span, int64_t>> by_begin;  // (host span, step)
  for (const auto& [step, span] : host_steps) by_begin.push_back({span, step});
  std::sort(by_begin.begin(), by_begin.end(),
            [](const auto& a, const auto& b) { return a.first.begin_ns < b.first.begin_ns; });
  std::vector<std::pair<int64_t, int64_t>> with_device;  // (host end, device end) of steps with device work
  for (const auto& [span, step] : by_begin) {
    auto d = device_end.find(step);
    if (d != device_end.end()) with_device.push_back({span.end_ns, d->second});
  }
  bool device_bound = false;
  if (with_device.size() >= 2 && with_device.size() == by_begin.size()) {
    const int64_t k = static_cast<int64_t>(with_device.size()) - 1;
    const int64_t host = (with_device.back().first - with_device.front().first) * 1000 / k;
    const int64_t device = (with_device.back().second - with_device.front().second) * 1000 / k;
    device_bound = host > 0 && device * 1000 > host * 1020;
  }
  std::map<int64_t, int64_t> window;
  int64_t previous_end = 0;
  for (size_t i = 0; i < by_begin.size(); ++i) {
    const auto& [span, step] = by_begin[i];
    auto d = device_end.find(step);
    const int64_t dev = d != device_end.end() ? d->second : INT64_MIN;
    if (device_bound) {
      const int64_t begin = i == 0 ? span.begin_ns : previous_end;
      int64_t end = std::max(dev, begin);
      if (i + 1 == by_begin.size()) end = std::max(end, span.end_ns);
      window[step] = end - begin;
      previous_end = end;
    } else {
      const int64_t end = i + 1 < by_begin.size() ? by_begin[i + 1].first.begin_ns : std::max(span.end_ns, dev);
      window[step] = end - span.begin_ns;
    }
  }
  return window;
}

StepAndKernelFacts ReadFacts(const std::string& path) {
  std::string error;
  const importers::testing::FileFacts file =
      importers::testing::ReadFileFacts(importers::testing::ReadInflated(path), &error);
  EXPECT_TRUE(error.empty()) << path << ": " << error;
  StepAndKernelFacts facts;
  std::map<int64_t, Span> host_steps;
  for (const importers::testing::FileEvent& event : file.events) {
    if (event.ph != "X" || !event.has_dur || !event.name.starts_with("ProfilerStep#")) continue;
    if (event.cat == "user_annotation" || event.cat == "Operator" || event.cat == "cpu_op") {
      const int64_t step = std::stoll(event.name.substr(13));
      facts.step_duration_ns[step] = event.dur_ns;
      host_steps[step] = {event.ts_ns, event.ts_ns + event.dur_ns};
    }
  }
  facts.step_time_ns = StepWindowsNs(host_steps, DeviceEnds(file.events, host_steps));
  for (const char* cat : {"kernel", "Kernel"}) {
    auto it = file.count_by_cat.find(cat);
    if (it != file.count_by_cat.end()) facts.kernels += it->second;
  }
  return facts;
}

// Writes `e` with every array longer than kDigestRows replaced by
// {"length": N, "first": [its first kDigestRows elements]}.
void WriteDigest(simdjson::dom::element e, analysis::output::JsonWriter* w) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array array = e.get_array();
      const bool cut = array.size() > kDigestRows;
      if (cut) {
        w->BeginObject();
        w->Key("length");
        w->Uint(array.size());
        w->Key("first");
      }
      w->BeginArray();
      size_t i = 0;
      for (simdjson::dom::element item : array) {
        if (i++ == kDigestRows) break;
        WriteDigest(item, w);
      }
      w->EndArray();
      if (cut) w->EndObject();
      return;
    }
    case simdjson::dom::element_type::OBJECT:
      w->BeginObject();
      for (simdjson::dom::key_value_pair field : e.get_object()) {
        w->Key(field.key);
        WriteDigest(field.value, w);
      }
      w->EndObject();
      return;
    case simdjson::dom::element_type::INT64: w->Int(int64_t(e)); return;
    case simdjson::dom::element_type::UINT64: w->Uint(uint64_t(e)); return;
    case simdjson::dom::element_type::DOUBLE: w->Double(double(e)); return;
    case simdjson::dom::element_type::STRING: w->String(std::string_view(e)); return;
    case simdjson::dom::element_type::BOOL: w->Bool(bool(e)); return;
    case simdjson::dom::element_type::NULL_VALUE: w->Null(); return;
  }
}

class ImportedTraceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ImportedTraceTest, ToolsAgreeWithTheFileAndTheGoldenDigest) {
  const std::string path = importers::testing::TraceTestFile(GetParam());
  StatusOr<xspace::XSpace> space = importers::ImportTraceFile(path);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(*space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const StepAndKernelFacts facts = ReadFacts(path);

  // Steps: every model step is a ProfilerStep#N of the file, with its time the program's
  // iteration (the file's µs, ns fractions included, exactly); the breakdown sums to it and
  // steps do not overlap.
  for (const analysis::StepInfo& step : model->steps) {
    auto it = facts.step_time_ns.find(step.step_number);
    ASSERT_NE(it, facts.step_time_ns.end()) << "step " << step.step_number << " is not a ProfilerStep of the file";
    EXPECT_EQ(step.duration_ps, it->second * 1000) << "step " << step.step_number;
    EXPECT_EQ(step.breakdown.total_ps(), step.duration_ps) << "step " << step.step_number;
  }
  for (size_t i = 0; i + 1 < model->steps.size(); ++i) {
    EXPECT_LE(model->steps[i].begin_ps + model->steps[i].duration_ps, model->steps[i + 1].begin_ps);
  }
  for (const analysis::StepInfo& step : model->steps) {
    EXPECT_LE(step.breakdown.category_ps(analysis::TimeCategory::kDeviceCompute), step.duration_ps);
  }
  // Every page and command gives the same step time and input share.
  if (!model->steps.empty()) {
    const analysis::StepTimeSummary summary = analysis::SummarizeSteps(*model);
    std::string why;
    EXPECT_EQ(analysis::MeasureBudgetMetric(*model, "step_ms", &why).value_or(-1), summary.avg_step_time_ms);
    EXPECT_EQ(analysis::MeasureBudgetMetric(*model, "input_pct", &why).value_or(-1), summary.input_percent);
    for (const analysis::DiffMetric& m : analysis::CompareProfiles(*model, *model).summary) {
      if (m.key == "step_time_mean_ms") EXPECT_EQ(m.a.value_or(-1), summary.avg_step_time_ms);
      if (m.key == "input_bound_percent") EXPECT_EQ(m.a.value_or(-1), summary.input_percent);
    }
    const analysis::PodViewerResult pod = analysis::ComputePodViewer(*model);
    ASSERT_EQ(pod.workers.size(), 1u);
    EXPECT_NEAR(pod.workers[0].avg_step_time_ms, summary.avg_step_time_ms, 1e-9);
    EXPECT_NEAR(pod.workers[0].input_percent, summary.input_percent, 1e-9);
  }
  // Every file step is a model step, unless the model says why not.
  const size_t missing = facts.step_duration_ns.size() - model->steps.size();
  if (missing > 0) {
    bool said = false;
    for (const std::string& d : model->diagnostics) said = said || d.find("not counted as steps") != std::string::npos;
    EXPECT_TRUE(said) << missing << " ProfilerStep annotations are missing from the steps without a diagnostic";
  }

  // Kernels: kernel_stats accounts for every kernel event of the file.
  if (facts.kernels > 0) {
    int64_t launches = 0;
    for (const analysis::KernelStats& k : model->kernels) launches += k.occurrences;
    EXPECT_EQ(launches, facts.kernels);
  }

  // The golden digest of the four tools (those that apply to this trace).
  std::string digest;
  analysis::output::JsonWriter writer(&digest, analysis::output::JsonWriter::Style::kPretty);
  writer.BeginObject();
  simdjson::dom::parser parser;
  for (const char* id : {"overview_page", "input_pipeline_analyzer", "framework_op_stats", "kernel_stats"}) {
    auto result = analysis::RunTool(id, *model);
    if (!result.ok()) {
      EXPECT_EQ(result.status().code(), StatusCode::kFailedPrecondition) << id << ": " << result.status().ToString();
      continue;
    }
    simdjson::dom::element doc;
    const std::string json = (*result)->ToJson(/*pretty=*/false);
    ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << id;
    writer.Key(id);
    WriteDigest(doc, &writer);
  }
  writer.EndObject();
  std::string stem = GetParam().substr(0, GetParam().find(".json"));
  std::string failure = CheckGolden("imported/" + stem + ".json", digest);
  EXPECT_TRUE(failure.empty()) << failure;
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, ImportedTraceTest, ::testing::ValuesIn(TraceFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.find(".json"));
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(ImportedTracesTest, TheSharedTracesAreThere) {
  EXPECT_GE(TraceFiles().size(), 8u) << importers::testing::TraceTestFile("");
}

}  // namespace
}  // namespace stepscope::golden
