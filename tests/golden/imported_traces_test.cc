// Every trace in shared/testdata/traces/ imported (src/importers) and analysed by the four
// tools a PyTorch/JAX user opens first, held to two references:
//   - facts read from the file's JSON by importers/testing (not through the importer):
//     the steps are exactly the ProfilerStep#N annotations (minus stubs without device
//     work, which the model must name); each step's time is its ProfilerStep#N duration,
//     unless the step's device work is not inside it, then the span of that device work
//     (XProf's StepTime, docs/model.md "Steps"); kernel launches add up to the file's
//     `kernel` events;
//   - a golden digest per trace (tests/golden/imported/<trace>.json): the tools' JSON with
//     long arrays cut to their first rows (the length kept), so a change in what the
//     tools say about a real trace shows up in review.
#include <algorithm>
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
// time by XProf's StepTime rule, and kernel events.
struct StepAndKernelFacts {
  std::map<int64_t, int64_t> step_duration_ns;
  std::map<int64_t, int64_t> step_time_ns;  // the host duration, or the device span not inside it
  int64_t kernels = 0;
};

struct Span {
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  bool Includes(const Span& other) const { return begin_ns <= other.begin_ns && other.end_ns <= end_ns; }
};

bool IsLaunchCat(std::string_view cat) { return cat == "cuda_runtime" || cat == "Runtime" || cat == "cuda_driver"; }
bool IsDeviceActivityCat(std::string_view cat) {
  return cat == "kernel" || cat == "Kernel" || cat == "gpu_memcpy" || cat == "Memcpy" || cat == "gpu_memset" ||
         cat == "Memset";
}

// Each step's device span, as XProf derives device step markers: a launch belongs to the
// step whose ProfilerStep window holds it (any thread); a device event to its launch's
// step (same `correlation`); per device, consecutive events of one step in time order
// make one span; a step keeps its longest.
std::map<int64_t, Span> DeviceStepSpans(const std::vector<importers::testing::FileEvent>& events,
                                        const std::map<int64_t, Span>& host_steps) {
  std::map<std::string, int64_t> step_of_launch;  // correlation -> step
  for (const importers::testing::FileEvent& e : events) {
    auto correlation = e.args.find("correlation");
    if (e.ph != "X" || !IsLaunchCat(e.cat) || correlation == e.args.end()) continue;
    for (const auto& [step, span] : host_steps) {
      if (span.begin_ns <= e.ts_ns && e.ts_ns < span.end_ns) step_of_launch[correlation->second] = step;
    }
  }
  std::map<std::string, std::vector<std::pair<Span, int64_t>>> by_device;  // pid -> (span, step)
  for (const importers::testing::FileEvent& e : events) {
    auto correlation = e.args.find("correlation");
    if (e.ph != "X" || !IsDeviceActivityCat(e.cat) || correlation == e.args.end()) continue;
    auto step = step_of_launch.find(correlation->second);
    if (step != step_of_launch.end()) by_device[e.pid].push_back({{e.ts_ns, e.ts_ns + e.dur_ns}, step->second});
  }
  std::map<int64_t, Span> longest;
  auto keep = [&](int64_t step, const Span& span) {
    Span& l = longest[step];
    if (span.end_ns - span.begin_ns > l.end_ns - l.begin_ns) l = span;
  };
  for (auto& [pid, spans] : by_device) {
    std::stable_sort(spans.begin(), spans.end(),
                     [](const auto& a, const auto& b) { return a.first.begin_ns < b.first.begin_ns; });
    Span run;
    int64_t run_step = -1;
    bool open = false;
    for (const auto& [span, step] : spans) {
      if (open && step != run_step) keep(run_step, run);
      if (!open || step != run_step) {
        run = span;
        run_step = step;
        open = true;
      }
      run.end_ns = std::max(run.end_ns, span.end_ns);
    }
    if (open) keep(run_step, run);
  }
  return longest;
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
  const std::map<int64_t, Span> device_steps = DeviceStepSpans(file.events, host_steps);
  for (const auto& [step, host] : host_steps) {
    auto device = device_steps.find(step);
    const bool device_time = device != device_steps.end() && !host.Includes(device->second);
    const Span& time = device_time ? device->second : host;
    facts.step_time_ns[step] = time.end_ns - time.begin_ns;
  }
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

  // Steps: every model step is a ProfilerStep#N of the file, with its time by XProf's rule
  // (the file's µs, ns fractions included, exactly).
  for (const analysis::StepInfo& step : model->steps) {
    auto it = facts.step_time_ns.find(step.step_number);
    ASSERT_NE(it, facts.step_time_ns.end()) << "step " << step.step_number << " is not a ProfilerStep of the file";
    EXPECT_EQ(step.duration_ps, it->second * 1000) << "step " << step.step_number;
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
