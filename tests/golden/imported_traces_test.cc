// Every trace in shared/testdata/traces/ imported (src/importers) and analysed by the four
// tools a PyTorch/JAX user opens first, held to two references:
//   - facts counted independently from the file's JSON here (not through the importer):
//     each step's time is its ProfilerStep#N duration, the steps are exactly the
//     ProfilerStep#N annotations (minus stubs without device work, which the model must
//     name), kernel launches add up to the file's `kernel` events;
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
#include "src/analysis/tool_registry.h"
#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/importers/importer_registry.h"
#include "tests/golden/golden_file.h"

namespace stepscope::golden {
namespace {

namespace fs = std::filesystem;

constexpr size_t kDigestRows = 5;  // rows of each long array kept in the digest

std::string TracesDir() { return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/traces"; }

std::vector<std::string> TraceFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(TracesDir(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".json") || name.ends_with(".json.gz")) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// What the file itself says, read with simdjson's DOM (the files are small): host
// ProfilerStep#N annotations by N with their durations, and kernel events.
struct FileFacts {
  std::map<int64_t, double> step_duration_us;
  int64_t kernels = 0;
};

FileFacts ReadFacts(const std::string& path) {
  FileFacts facts;
  StatusOr<std::string> bytes = base::ReadFile(path, uint64_t{1} << 30);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return facts;
  std::string json = *bytes;
  if (base::IsGzip(json)) {
    StatusOr<std::string> inflated = base::GunzipWithLimit(json, uint64_t{1} << 30);
    EXPECT_TRUE(inflated.ok()) << inflated.status().ToString();
    if (!inflated.ok()) return facts;
    json = *inflated;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json).get(doc) != simdjson::SUCCESS) return facts;  // not all are Kineto
  simdjson::dom::array events;
  if (doc["traceEvents"].get(events) != simdjson::SUCCESS && doc.get(events) != simdjson::SUCCESS) return facts;
  for (simdjson::dom::element event : events) {
    std::string_view cat, name, ph;
    if (event["ph"].get(ph) != simdjson::SUCCESS || ph != "X") continue;
    if (event["cat"].get(cat) != simdjson::SUCCESS) continue;
    if (cat == "kernel" || cat == "Kernel") ++facts.kernels;
    if ((cat == "user_annotation" || cat == "Operator" || cat == "cpu_op") && event["name"].get(name) == simdjson::SUCCESS &&
        name.starts_with("ProfilerStep#")) {
      double dur = 0;
      if (event["dur"].get(dur) != simdjson::SUCCESS) continue;
      facts.step_duration_us[std::stoll(std::string(name.substr(13)))] = dur;
    }
  }
  return facts;
}

// The element as pretty JSON (two-space indent, one element per line, so reviews diff
// well) with every array longer than kDigestRows replaced by
// {"length": N, "first": [its first kDigestRows elements]}.
void AppendDigest(simdjson::dom::element e, int depth, std::string* out) {
  const std::string pad(2 * (depth + 1), ' '), close_pad(2 * depth, ' ');
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      simdjson::dom::array array = e.get_array();
      const size_t n = array.size();
      if (n > kDigestRows) {
        *out += "{\n" + pad + "\"length\": " + std::to_string(n) + ",\n" + pad + "\"first\": ";
        ++depth;
      }
      const std::string item_pad(2 * (depth + 1), ' '), end_pad(2 * depth, ' ');
      *out += '[';
      size_t i = 0;
      for (simdjson::dom::element item : array) {
        if (i == kDigestRows) break;
        *out += (i++ > 0 ? ",\n" : "\n") + item_pad;
        AppendDigest(item, depth + 1, out);
      }
      *out += i > 0 ? "\n" + end_pad + "]" : "]";
      if (n > kDigestRows) *out += "\n" + close_pad + "}";
      return;
    }
    case simdjson::dom::element_type::OBJECT: {
      *out += '{';
      bool first = true;
      for (simdjson::dom::key_value_pair field : e.get_object()) {
        *out += (first ? "\n" : ",\n") + pad + "\"" + std::string(field.key) + "\": ";  // our keys need no escaping
        first = false;
        AppendDigest(field.value, depth + 1, out);
      }
      *out += first ? "}" : "\n" + close_pad + "}";
      return;
    }
    default:
      *out += simdjson::minify(e);
  }
}

class ImportedTraceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ImportedTraceTest, ToolsAgreeWithTheFileAndTheGoldenDigest) {
  const std::string path = TracesDir() + "/" + GetParam();
  StatusOr<xspace::XSpace> space = importers::ImportTraceFile(path);
  ASSERT_TRUE(space.ok()) << space.status().ToString();
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(*space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const FileFacts facts = ReadFacts(path);

  // Steps: every model step is a ProfilerStep#N of the file, with that duration (the
  // file's µs, ns fractions included, to within a picosecond of rounding).
  for (const analysis::StepInfo& step : model->steps) {
    auto it = facts.step_duration_us.find(step.step_number);
    ASSERT_NE(it, facts.step_duration_us.end()) << "step " << step.step_number << " is not a ProfilerStep of the file";
    EXPECT_NEAR(static_cast<double>(step.duration_ps), it->second * 1e6, 1.0) << "step " << step.step_number;
  }
  // Every file step is a model step, unless the model says why not.
  const size_t missing = facts.step_duration_us.size() - model->steps.size();
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
  std::string digest = "{";
  simdjson::dom::parser parser;
  bool first = true;
  for (const char* id : {"overview_page", "input_pipeline_analyzer", "framework_op_stats", "kernel_stats"}) {
    auto result = analysis::RunTool(id, *model);
    if (!result.ok()) {
      EXPECT_EQ(result.status().code(), StatusCode::kFailedPrecondition) << id << ": " << result.status().ToString();
      continue;
    }
    simdjson::dom::element doc;
    const std::string json = (*result)->ToJson(/*pretty=*/false);
    ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << id;
    digest += std::string(first ? "\n" : ",\n") + "  \"" + id + "\": ";
    first = false;
    AppendDigest(doc, 1, &digest);
  }
  digest += "\n}\n";
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

TEST(ImportedTracesTest, TheSharedTracesAreThere) { EXPECT_GE(TraceFiles().size(), 8u) << TracesDir(); }

}  // namespace
}  // namespace stepscope::golden
