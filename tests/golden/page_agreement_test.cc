// Every page agrees with every other (issue 12, item 1): each shared profile
// (shared/testdata/xplane/*.xplane.pb), each imported shared trace
// (shared/testdata/traces/*) and our PyTorch trace with a DataLoader and copies to the
// GPU (tests/golden/traces: none of the shared traces has a DataLoader) through every page a user opens - overview_page,
// input_pipeline_analyzer, framework_op_stats, kernel_stats, advisor, pod_viewer, and
// `stepscope info` - and the numbers the pages show for one quantity must be equal:
//   - steps: count and average step time (overview, input pipeline, their step tables,
//     pod viewer);
//   - input share: the overview's headline, the input pipeline's headline, the sum of its
//     input-share rows, the per-step input mean, the pod viewer's worker;
//   - host / device op time: framework_op_stats' totals against its tables, the overview's
//     op placement against framework_op_stats', the overview's top device ops against the
//     device op table;
//   - kernels: kernel_stats' launch, group and name counts against its own table and the
//     model's device activity;
//   - input ops: each host input op against the host op row of the same name, the host
//     breakdown against its ops;
//   - op placement: host and device shares the same on both pages.
// Where two pages show different quantities they must say so in their labels: `stepscope
// info` shows step *markers* (as recorded) and framework_op_stats shows all host events'
// self time next to the placement of framework ops; the test checks those labels.
//
// Numbers are read from what the pages are given: the tools' JSON (the web UI's data) and
// their text reports.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_registry.h"
#include "src/cli/info_format.h"
#include "src/cli/xspace_summary.h"
#include "src/importers/importer_registry.h"
#include "src/xspace/columnar/columnar_reader.h"
#include "src/xspace/columnar/xspace_to_columnar.h"

namespace stepscope::golden {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using simdjson::dom::element;

// "xplane/<file>" and "traces/<file>" name shared files, "local/<file>" ours.
std::string PathOf(const std::string& file) {
  if (file.starts_with("local/")) return std::string(STEPSCOPE_SOURCE_DIR) + "/tests/golden/traces/" + file.substr(6);
  return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/" + file;
}

// Every shared profile and trace, and ours.
std::vector<std::string> SharedProfiles() {
  std::vector<std::string> files = {"local/pytorch_dataloader.pt.trace.json"};
  std::error_code ec;
  for (const char* sub : {"xplane", "traces"}) {
    for (const auto& entry : fs::directory_iterator(PathOf(sub), ec)) {
      const std::string name = entry.path().filename().string();
      const bool xplane = name.ends_with(".xplane.pb") || name.ends_with(".xplane.pb.gz");
      const bool trace = name.ends_with(".json") || name.ends_with(".json.gz");
      if (std::string(sub) == "xplane" ? xplane : trace) files.push_back(std::string(sub) + "/" + name);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// One profile's pages: each tool's JSON and text, and `stepscope info`'s summary and text.
struct Pages {
  analysis::ProfileModel model;
  std::map<std::string, std::string> json;  // tool id -> JSON text (kept alive for the DOM)
  std::map<std::string, std::string> text;
  cli::XSpaceSummary info;
  std::string info_text;
};

void Load(const std::string& file, Pages* pages) {
  const std::string path = PathOf(file);
  StatusOr<xspace::ColumnarXSpace> columnar = InternalError("not read");
  if (file.starts_with("xplane/")) {
    columnar = xspace::ReadColumnarXSpaceFile(path);
  } else {
    StatusOr<xspace::XSpace> space = importers::ImportTraceFile(path);
    ASSERT_TRUE(space.ok()) << space.status().ToString();
    columnar = xspace::ConvertXSpaceToColumnar(*space);
  }
  ASSERT_TRUE(columnar.ok()) << columnar.status().ToString();
  pages->info = cli::SummarizeXSpace(*columnar);
  cli::FileInfo info_file;
  info_file.path = file;
  info_file.summary = pages->info;
  pages->info_text = cli::FormatFileText(info_file);
  auto shared = std::make_shared<const xspace::ColumnarXSpace>(std::move(*columnar));
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModel(shared);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  pages->model = std::move(*model);
  for (const analysis::Tool* tool : analysis::AvailableTools(pages->model)) {
    if (tool->id() == "trace_viewer") continue;  // a timeline, no summary numbers
    auto result = tool->Run(pages->model, {});
    ASSERT_TRUE(result.ok()) << tool->id() << ": " << result.status().ToString();
    pages->json[std::string(tool->id())] = (*result)->ToJson(/*pretty=*/false);
    pages->text[std::string(tool->id())] = (*result)->FormatText({});
  }
}

// Equal up to the rounding of summing the same picoseconds in another order.
void ExpectSame(const std::string& quantity, const std::string& page_a, double a, const std::string& page_b, double b) {
  EXPECT_NEAR(a, b, 1e-6 + 1e-9 * std::max(std::abs(a), std::abs(b)))
      << quantity << ": " << page_a << " shows " << a << ", " << page_b << " shows " << b;
}

std::string Str(element e) { return std::string(std::string_view(e)); }

double Num(element e) {
  if (e.is_int64()) return static_cast<double>(int64_t(e));
  if (e.is_uint64()) return static_cast<double>(uint64_t(e));
  return double(e);
}

class PageAgreementTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    Load(GetParam(), &pages_);
    for (const auto& [id, json] : pages_.json) {
      ASSERT_EQ(parsers_[id].parse(json).get(docs_[id]), simdjson::SUCCESS) << id;
    }
  }
  bool Has(const std::string& tool) const { return docs_.count(tool) > 0; }
  element Page(const std::string& tool) { return docs_.at(tool); }

  Pages pages_;
  std::map<std::string, simdjson::dom::parser> parsers_;
  std::map<std::string, element> docs_;
};

TEST_P(PageAgreementTest, StepCountAndStepTime) {
  element overview = Page("overview_page"), input = Page("input_pipeline_analyzer");
  const double steps = Num(overview["steps"]);
  ExpectSame("step count", "overview_page", steps, "input_pipeline_analyzer", Num(input["steps"]));
  ExpectSame("step count", "overview_page", steps, "overview step graph rows",
             static_cast<double>(simdjson::dom::array(overview["step_time_graph"]).size()));
  ExpectSame("step count", "overview_page", steps, "input pipeline step table rows",
             static_cast<double>(simdjson::dom::array(input["step_details"]).size()));
  const double avg = Num(overview["avg_step_time_ms"]);
  ExpectSame("average step time", "overview_page", avg, "input_pipeline_analyzer", Num(input["avg_step_time_ms"]));
  ExpectSame("average step time", "overview_page", avg, "input pipeline step statistics",
             Num(input["step_time_stats_ms"]["mean"]));
  ExpectSame("average step time", "overview_page", avg, "overview step statistics",
             Num(overview["step_time_stats_ms"]["mean"]));
  double graph_sum = 0;
  for (element row : simdjson::dom::array(overview["step_time_graph"])) graph_sum += Num(row["step_time_ms"]);
  if (steps > 0) ExpectSame("average step time", "overview_page", avg, "mean of the step graph", graph_sum / steps);
  // The breakdown shown on both pages is one breakdown.
  for (auto field : simdjson::dom::object(overview["step_time_breakdown_ms"])) {
    ExpectSame(std::string("breakdown ") + std::string(field.key), "overview_page", Num(field.value),
               "input_pipeline_analyzer", Num(input["step_time_breakdown_ms"][field.key]));
  }
  // The pod viewer of one host is that host's steps.
  element worker = Page("pod_viewer")["workers"].at(0);
  if (steps > 0) {
    ExpectSame("step count", "overview_page", steps, "pod_viewer", Num(worker["steps"]));
    ExpectSame("average step time", "overview_page", avg, "pod_viewer", Num(worker["avg_step_time_ms"]));
  }
}

TEST_P(PageAgreementTest, InfoShowsStepMarkersAndSaysSo) {
  // `stepscope info` reports the step markers as recorded (count, mean marker duration);
  // the pages report steps by XProf's StepTime rule. Where they differ, info's label must
  // say markers, never "Steps".
  EXPECT_THAT(pages_.info_text, Not(HasSubstr("\n  Steps:")));
  EXPECT_THAT(pages_.info_text, HasSubstr("\n  Step markers:"));
  if (pages_.info.step_series.empty()) {
    EXPECT_EQ(pages_.model.steps.size(), 0u) << "steps without markers";
    return;
  }
  const analysis::StepTimeStats& markers = pages_.info.step_series.front().stats;
  const double avg = Num(Page("overview_page")["avg_step_time_ms"]);
  if (markers.count != static_cast<int64_t>(pages_.model.steps.size()) ||
      std::abs(markers.mean_ps / 1e9 - avg) > 1e-6) {
    std::cout << "[ note ] " << GetParam() << ": info shows " << markers.count << " step markers, mean "
              << markers.mean_ps / 1e9 << " ms; the pages show " << pages_.model.steps.size() << " steps, mean " << avg
              << " ms (labelled apart)\n";
  }
}

TEST_P(PageAgreementTest, InputShare) {
  element overview = Page("overview_page"), input = Page("input_pipeline_analyzer");
  if (Num(overview["steps"]) == 0) {
    // No steps: no input share anywhere (null), rather than an input share of 0.
    EXPECT_TRUE(overview["input_bound_percent"].is_null());
    EXPECT_TRUE(input["input_bound_percent"].is_null());
    EXPECT_EQ(simdjson::dom::array(input["input_share"]).size(), 0u);
    return;
  }
  const double share = Num(overview["input_bound_percent"]);
  ExpectSame("input share", "overview_page", share, "input_pipeline_analyzer", Num(input["input_bound_percent"]));
  ExpectSame("input share", "overview_page", share, "input pipeline bottleneck", Num(input["bottleneck_percent"]["input"]));
  double parts = 0, parts_ms = 0;
  for (element row : simdjson::dom::array(input["input_share"])) {
    parts += Num(row["percent"]);
    parts_ms += Num(row["avg_ms"]);
  }
  ExpectSame("input share", "overview_page", share, "sum of the input-share rows", parts);
  ExpectSame("input per step (ms)", "input pipeline statistics", Num(input["input_time_stats_ms"]["mean"]),
             "sum of the input-share rows", parts_ms);
  // What the share counts is listed: waiting for input is an input fetch the page counts
  // (IteratorGetNext, DataLoader __next__); copies to the device are input ops.
  for (element row : simdjson::dom::array(input["input_share"])) {
    if (Num(row["percent"]) <= 0) continue;
    if (Str(row["kind"]) == "wait_for_input") {
      EXPECT_GT(Num(input["get_next_count"]), 0) << "input wait with no input fetch counted";
    } else {
      bool listed = false;
      for (element op : simdjson::dom::array(input["input_ops"])) {
        listed = listed || Str(op["host_or_device"]) == "device" || Str(op["category"]) == "enqueue_to_device";
      }
      EXPECT_TRUE(listed) << "host-to-device time in the input share, but no copy among the input ops";
    }
  }
  if (pages_.model.input_pipeline.data_loader_next_count > 0) {
    bool loader_listed = false;
    for (element op : simdjson::dom::array(input["input_ops"])) loader_listed = loader_listed || Str(op["category"]) == "data_loader";
    EXPECT_TRUE(loader_listed) << "a DataLoader in the trace, but not among the input ops";
  }
  ExpectSame("input share", "overview_page", share, "pod_viewer", Num(Page("pod_viewer")["workers"].at(0)["input_percent"]));
  // The overview's breakdown "input" category also holds device-waits-for-host time
  // (TPU infeed; never produced today), so it equals the input share here.
  ExpectSame("input share", "overview_page", share, "overview breakdown 'input'",
             Num(overview["step_time_breakdown_percent"]["input"]));
  // The advisor's input finding cites the same number.
  for (element finding : simdjson::dom::array(Page("advisor")["findings"])) {
    if (std::string_view(finding["id"]) == "input_bound") {
      ExpectSame("input share", "overview_page", share, "advisor input_bound", Num(finding["numbers"]["input_percent"]));
    }
  }
}

TEST_P(PageAgreementTest, HostAndDeviceOpTimeAndPlacement) {
  element ops = Page("framework_op_stats"), overview = Page("overview_page");
  double host_sum = 0, device_sum = 0;
  for (element row : simdjson::dom::array(ops["host_ops"])) host_sum += Num(row["total_self_time_ms"]);
  for (element row : simdjson::dom::array(ops["device_ops"])) device_sum += Num(row["total_self_time_ms"]);
  ExpectSame("host op self time", "framework_op_stats total", Num(ops["host_total_self_time_ms"]), "sum of host_ops", host_sum);
  ExpectSame("device op self time", "framework_op_stats total", Num(ops["device_total_self_time_ms"]),
             "sum of device_ops", device_sum);
  for (const char* field : {"host_percent", "device_percent", "host_time_ms", "device_time_ms"}) {
    ExpectSame(std::string("op placement ") + field, "overview_page", Num(overview["op_placement"][field]),
               "framework_op_stats", Num(ops["op_placement"][field]));
  }
  if (pages_.model.has_device) {
    ExpectSame("device op time", "op placement", Num(ops["op_placement"]["device_time_ms"]),
               "framework_op_stats total", Num(ops["device_total_self_time_ms"]));
  }
  // Placement counts framework ops only: at most all host time, and labelled apart from it.
  EXPECT_LE(Num(ops["op_placement"]["host_time_ms"]), Num(ops["host_total_self_time_ms"]) + 1e-6);
  const std::string& text = pages_.text.at("framework_op_stats");
  EXPECT_THAT(text, HasSubstr("Host self time, all host ops"));
  EXPECT_THAT(text, HasSubstr("Framework op placement"));
  EXPECT_THAT(pages_.text.at("overview_page"), HasSubstr("Framework op placement"));

  // The overview's top device ops are the device op table's first rows.
  std::map<std::string, std::pair<double, double>> device_rows;  // name -> (self ms, self %)
  for (element row : simdjson::dom::array(ops["device_ops"])) {
    device_rows[Str(row["name"])] = {Num(row["total_self_time_ms"]), Num(row["self_time_percent"])};
  }
  for (element top : simdjson::dom::array(overview["top_device_ops"])) {
    const std::string name = Str(top["name"]);
    ASSERT_TRUE(device_rows.count(name)) << name << " is on the overview but not in framework_op_stats";
    ExpectSame("self time of " + name, "overview top device ops", Num(top["self_time_ms"]), "framework_op_stats",
               device_rows[name].first);
    ExpectSame("self % of " + name, "overview top device ops", Num(top["self_time_percent"]), "framework_op_stats",
               device_rows[name].second);
  }
}

TEST_P(PageAgreementTest, KernelCounts) {
  if (!Has("kernel_stats")) return;  // no GPU plane: the page is not offered
  element kernels = Page("kernel_stats");
  element summary = kernels["summary"];
  simdjson::dom::array rows = kernels["kernels"];
  int64_t launches = 0;
  double time_us = 0;
  std::set<std::string> names;
  for (element row : rows) {
    launches += int64_t(row["occurrences"]);
    time_us += Num(row["total_duration_us"]);
    names.insert(Str(row["kernel_name"]));
  }
  // The summary counts two things, each labelled as what it is: kernel names, and the
  // table's (kernel, op, launch parameters) rows.
  EXPECT_THAT(pages_.text.at("kernel_stats"), HasSubstr("distinct kernels in"));
  EXPECT_THAT(pages_.text.at("kernel_stats"), HasSubstr("kernel-op groups"));
  int64_t model_launches = 0;
  for (const analysis::DeviceActivity& d : pages_.model.devices) model_launches += d.kernel_count;
  ExpectSame("kernel launches", "kernel_stats summary", Num(summary["launches"]), "kernels on the device planes",
             static_cast<double>(model_launches));
  if (!bool(kernels["truncated"])) {
    ExpectSame("kernel launches", "kernel_stats summary", Num(summary["launches"]), "sum of the kernel table",
               static_cast<double>(launches));
    ExpectSame("kernel time", "kernel_stats summary (ms)", Num(summary["total_time_ms"]), "sum of the kernel table",
               time_us / 1000);
    ExpectSame("kernel-op groups", "kernel_stats summary", Num(summary["kernel_op_groups"]), "kernel table rows",
               static_cast<double>(rows.size()));
    ExpectSame("distinct kernels", "kernel_stats summary", Num(summary["distinct_kernel_names"]),
               "kernel names in the table", static_cast<double>(names.size()));
  }
}

TEST_P(PageAgreementTest, InputOpsAreTheOpStatsRows) {
  element input = Page("input_pipeline_analyzer"), ops = Page("framework_op_stats");
  std::map<std::string, element> host_rows, device_rows;
  for (element row : simdjson::dom::array(ops["host_ops"])) host_rows[Str(row["name"])] = row;
  for (element row : simdjson::dom::array(ops["device_ops"])) device_rows[Str(row["name"])] = row;
  std::map<std::string, double> class_ms;
  std::map<std::string, int64_t> device_copies;
  for (element row : simdjson::dom::array(input["input_ops"])) {
    const std::string name = Str(row["name"]);
    if (std::string_view(row["host_or_device"]) == "device") {
      device_copies[name] += int64_t(row["count"]);
      continue;
    }
    ASSERT_TRUE(host_rows.count(name)) << name << " is an input op but not a host op in framework_op_stats";
    element op = host_rows[name];
    ExpectSame("count of " + name, "input_ops", Num(row["count"]), "framework_op_stats", Num(op["occurrences"]));
    ExpectSame("total time of " + name, "input_ops", Num(row["total_time_ms"]), "framework_op_stats",
               Num(op["total_time_ms"]));
    ExpectSame("self time of " + name, "input_ops", Num(row["self_time_ms"]), "framework_op_stats",
               Num(op["total_self_time_ms"]));
    ExpectSame("self % of " + name, "input_ops (of host op time)", Num(row["self_time_percent"]),
               "framework_op_stats", Num(op["self_time_percent"]));
    class_ms[Str(row["category"])] += Num(row["self_time_ms"]);
  }
  // A device copy row is part of its op's device row (which may hold kernels too).
  for (const auto& [name, count] : device_copies) {
    ASSERT_TRUE(device_rows.count(name)) << name << " issued host-to-device copies but is no device op";
    EXPECT_LE(count, int64_t(device_rows[name]["occurrences"])) << name;
  }
  for (element row : simdjson::dom::array(input["host_breakdown"])) {
    const std::string category = Str(row["category"]);
    ExpectSame("host input time, " + category, "host breakdown", Num(row["time_ms"]), "sum of its input ops",
               class_ms[category]);
  }
}

INSTANTIATE_TEST_SUITE_P(SharedProfiles, PageAgreementTest, ::testing::ValuesIn(SharedProfiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.find('.'));
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(PageAgreementFilesTest, TheSharedProfilesAreThere) { EXPECT_GE(SharedProfiles().size(), 12u); }

}  // namespace
}  // namespace stepscope::golden
