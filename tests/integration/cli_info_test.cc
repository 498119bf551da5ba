// `stepscope info` end to end: the real binary on real and generated profiles.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <sstream>

#include "src/base/gzip.h"
#include "tests/integration/subprocess.h"
#include "tests/integration/test_util.h"

namespace stepscope::testing {
namespace {

simdjson::dom::element ParseJson(simdjson::dom::parser& parser, const std::string& text) {
  simdjson::dom::element doc;
  EXPECT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS) << text.substr(0, 500);
  return doc;
}

TEST(CliInfoTest, HelpListsRegisteredCommandsOnly) {
  ProcessResult help = RunStepscope({"help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(RunStepscope({"--help"}).out, help.out);
  // ./dev demo runs `analyze` / `serve` when help lists them, so every listed command must
  // be real: each one answers `help <command>` with its own usage.
  std::vector<std::string> listed;
  std::istringstream lines(help.out.substr(help.out.find("commands:\n") + 10));
  for (std::string line; std::getline(lines, line) && line.rfind("  ", 0) == 0;) {
    listed.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  EXPECT_NE(std::find(listed.begin(), listed.end(), "info"), listed.end()) << help.out;
  for (const std::string& name : listed) {
    if (name == "help") continue;
    ProcessResult usage = RunStepscope({"help", name});
    EXPECT_EQ(usage.exit_code, 0) << name << ": " << usage.err;
    EXPECT_NE(usage.out.find("usage: stepscope " + name), std::string::npos) << name << ": " << usage.out;
  }

  ProcessResult info_help = RunStepscope({"help", "info"});
  EXPECT_EQ(info_help.exit_code, 0);
  EXPECT_NE(info_help.out.find("--format text|json"), std::string::npos);
  EXPECT_EQ(RunStepscope({"info", "--help"}).out, info_help.out);

  ProcessResult none = RunStepscope({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("usage: stepscope"), std::string::npos);
}

TEST(CliInfoTest, TensorFlowDemoFileAsJson) {
  ProcessResult r = RunStepscope({"info", "--format", "json", TfDemoFile()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty());
  simdjson::dom::parser parser;
  simdjson::dom::element file = ParseJson(parser, r.out)["file"];
  EXPECT_EQ(int64_t(file["file_bytes"]), 3039638);
  EXPECT_EQ(int64_t(file["num_planes"]), 9);
  EXPECT_EQ(int64_t(file["num_lines"]), 37);
  EXPECT_EQ(int64_t(file["num_events"]), 23128);
  EXPECT_EQ(std::string_view(file["hostnames"].at(0)), "34.83.195.179:6003");
  EXPECT_TRUE(file["dropped_events"].is_null());
  EXPECT_EQ(std::string_view(file["steps"]["plane"]), "/device:GPU:4");
  EXPECT_EQ(int64_t(file["steps"]["count"]), 1);
  EXPECT_DOUBLE_EQ(double(file["steps"]["mean_ms"]), 19.865491);
  EXPECT_EQ(simdjson::dom::array(file["step_series"]).size(), 2u);
  simdjson::dom::element host = file["planes"].at(0);
  EXPECT_EQ(std::string_view(host["name"]), "/host:CPU");
  EXPECT_EQ(int64_t(host["num_events"]), 15354);
  EXPECT_EQ(simdjson::dom::array(host["lines"]).size(), 22u);
  EXPECT_EQ(int64_t(file["planes"].at(5)["stats"]["core_count"]), 80);
}

// A trace file analyze accepts, info accepts too, and summarizes as the XSpace `import`
// makes of it: the same planes, events and steps.
TEST(CliInfoTest, TraceJsonReadsLikeItsImport) {
  const std::string trace = TraceFile("hta_ns_resolution_rank-0.pt.trace.json.gz");
  ProcessResult direct = RunStepscope({"info", "--format", "json", trace});
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  const std::string logdir = FreshDir("info_trace_json");
  ProcessResult imported = RunStepscope({"import", trace, "--logdir", logdir, "--run", "r"});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  ProcessResult via_import =
      RunStepscope({"info", "--format", "json", logdir + "/plugins/profile/r/rank0.xplane.pb"});
  ASSERT_EQ(via_import.exit_code, 0) << via_import.err;
  simdjson::dom::parser a, b;
  simdjson::dom::element got = ParseJson(a, direct.out)["file"];
  simdjson::dom::element want = ParseJson(b, via_import.out)["file"];
  EXPECT_EQ(std::string_view(got["hostnames"].at(0)), "rank0");
  EXPECT_EQ(int64_t(got["num_planes"]), int64_t(want["num_planes"]));
  EXPECT_EQ(int64_t(got["num_lines"]), int64_t(want["num_lines"]));
  EXPECT_EQ(int64_t(got["num_events"]), int64_t(want["num_events"]));
  EXPECT_EQ(int64_t(got["steps"]["count"]), 5);  // ProfilerStep#101-#105 (testdata/traces/README.md)
  EXPECT_EQ(int64_t(want["steps"]["count"]), 5);
  EXPECT_DOUBLE_EQ(double(got["steps"]["mean_ms"]), double(want["steps"]["mean_ms"]));

  // A file that is neither names the problem, as for any unreadable profile.
  const std::string bad = logdir + "/broken.json";
  WriteBytes(bad, "{\"traceEvents\": [{\"ph\": \"X\", ");
  ProcessResult broken = RunStepscope({"info", bad});
  EXPECT_EQ(broken.exit_code, 2) << broken.err;
  EXPECT_NE(broken.err.find(bad), std::string::npos) << broken.err;
}

TEST(CliInfoTest, TextOutputIsAlignedAndNamesEverySection) {
  ProcessResult r = RunStepscope({"info", TfDemoFile()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* needle : {"Planes:        9 (37 lines, 23128 events)", "Hosts:         34.83.195.179:6003",
                             "Step markers:  1 (device 'Steps' line on /device:GPU:4): mean 19.865 ms",
                             "Dropped:       none recorded; 0 warnings, 0 errors", "\nLines\n", "\nStep markers\n",
                             "/device:GPU:0-7:  clock_rate=1530000 core_count=80"}) {
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << "\n" << r.out;
  }
}

TEST(CliInfoTest, GzipFileReadsLikeThePlainOne) {
  std::string dir = FreshDir("gz");
  auto gz = base::Gzip(ReadBytes(TfDemoFile()));
  ASSERT_TRUE(gz.ok());
  WriteBytes(dir + "/h.xplane.pb.gz", *gz);
  ProcessResult plain = RunStepscope({"info", "--format=json", TfDemoFile()});
  ProcessResult packed = RunStepscope({"info", "--format=json", dir + "/h.xplane.pb.gz"});
  ASSERT_EQ(packed.exit_code, 0) << packed.err;
  simdjson::dom::parser p1, p2;
  simdjson::dom::element a = ParseJson(p1, plain.out)["file"];
  simdjson::dom::element b = ParseJson(p2, packed.out)["file"];
  EXPECT_EQ(int64_t(a["num_events"]), int64_t(b["num_events"]));
  EXPECT_EQ(int64_t(a["num_lines"]), int64_t(b["num_lines"]));
  EXPECT_LT(int64_t(b["file_bytes"]), int64_t(a["file_bytes"]));
}

// A logdir holding two runs: one with two real hosts, one with one.
std::string MakeLogdir() {
  std::string logdir = FreshDir("logdir");
  const std::string root = logdir + "/plugins/profile/";
  WriteBytes(root + "2026_01_01_00_00_00/tf_host.xplane.pb", ReadBytes(TfDemoFile()));
  WriteBytes(root + "2026_01_01_00_00_00/jax_host.xplane.pb",
             ReadBytes(XPlaneTestDataDir() + "/tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb"));
  WriteBytes(root + "2026_01_02_00_00_00/attn.xplane.pb",
             ReadBytes(XPlaneTestDataDir() + "/tracelens_jax_mi300_te_fused_attn.xplane.pb"));
  return logdir;
}

TEST(CliInfoTest, LogdirListsEveryRunAndHost) {
  std::string logdir = MakeLogdir();
  ProcessResult r = RunStepscope({"info", logdir, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = ParseJson(parser, r.out);
  EXPECT_EQ(std::string_view(doc["kind"]), "logdir");
  simdjson::dom::array runs = doc["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(std::string_view(runs.at(0)["name"]), "2026_01_01_00_00_00");
  simdjson::dom::array hosts = runs.at(0)["hosts"];
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(std::string_view(hosts.at(0)["host"]), "jax_host");  // sorted by host
  EXPECT_EQ(int64_t(hosts.at(0)["num_events"]), 3650);
  EXPECT_TRUE(hosts.at(0)["steps"].is_null());
  EXPECT_EQ(int64_t(hosts.at(1)["num_events"]), 23128);
  EXPECT_EQ(int64_t(hosts.at(1)["steps"]["count"]), 1);
  EXPECT_EQ(int64_t(runs.at(1)["hosts"].at(0)["num_events"]), 1992);

  ProcessResult text = RunStepscope({"info", logdir});
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("Logdir " + logdir + " (2 runs)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("2026_01_02_00_00_00  attn"), std::string::npos) << text.out;
}

TEST(CliInfoTest, RunDirectoryShowsEachHost) {
  std::string logdir = MakeLogdir();
  std::string run = logdir + "/plugins/profile/2026_01_01_00_00_00";
  ProcessResult r = RunStepscope({"info", run, "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = ParseJson(parser, r.out);
  EXPECT_EQ(std::string_view(doc["kind"]), "run");
  simdjson::dom::array hosts = doc["hosts"];
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(int64_t(hosts.at(1)["num_planes"]), 9);
  EXPECT_EQ(simdjson::dom::array(hosts.at(1)["planes"]).size(), 9u);

  ProcessResult text = RunStepscope({"info", run});
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("Host jax_host"), std::string::npos);
  EXPECT_NE(text.out.find("Host tf_host"), std::string::npos);
}

}  // namespace
}  // namespace stepscope::testing
