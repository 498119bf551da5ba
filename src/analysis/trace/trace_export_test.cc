#include "src/analysis/trace/trace_export.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>
#include <string>

#include "src/analysis/trace/trace_test_util.h"
#include "src/xspace/schema.h"

namespace stepscope::analysis::trace {
namespace {

using testing::AddEventPs;
using testing::IndexOf;
using xspace::XLineBuilder;
using xspace::XPlaneBuilder;
using xspace::XSpace;

std::string Micros(int64_t ps) {
  std::string out;
  AppendMicrosFromPs(ps, &out);
  return out;
}

XSpace LaunchKernelSpace() {
  XSpace space;
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  XLineBuilder thread = host.GetOrCreateLine(4242);
  thread.SetName("python3");
  AddEventPs(host, thread, "train", 0, 10'000'000);
  xspace::XEventBuilder launch = AddEventPs(host, thread, "cudaLaunchKernel", 1'234'567, 1000);
  launch.AddStatValue(*host.GetOrCreateStatMetadata("correlation_id"), uint64_t{5});
  launch.AddStatValue(*host.GetOrCreateStatMetadata("huge"), uint64_t{1} << 60);
  XPlaneBuilder gpu(space.add_planes());
  gpu.SetName("/device:GPU:0");
  XLineBuilder stream = gpu.GetOrCreateLine(7);
  stream.SetName("Stream #7(Compute)");
  xspace::XEventMetadata* kernel = gpu.GetOrCreateEventMetadata("volta_sgemm");
  kernel->set_display_name("sgemm");
  xspace::XEventBuilder k = stream.AddEvent(*kernel);
  k.SetOffsetPs(2'000'000);
  k.SetDurationPs(3'000'001);
  k.AddStatValue(*gpu.GetOrCreateStatMetadata("correlation_id"), uint64_t{5});
  k.AddRefStatValue(*gpu.GetOrCreateStatMetadata("kernel_details"), "regs:32");
  AddEventPs(gpu, stream, "instant", 9'000'000, 0);
  return space;
}

struct Parsed {
  std::map<std::string, int> phases;
  std::map<std::string, std::string> process_names;
  int bound_out = 0, bound_in = 0;
  std::string kernel_ts, kernel_dur, kernel_long_name, huge;
};

Parsed Parse(const std::string& json) {
  Parsed parsed;
  simdjson::dom::parser parser;
  simdjson::dom::element root = parser.parse(json);
  EXPECT_EQ(std::string_view(root["displayTimeUnit"].get_string().value()), "ns");
  for (simdjson::dom::object event : root["traceEvents"].get_array()) {
    std::string_view ph;
    if (event["ph"].get(ph)) continue;  // the closing {}
    ++parsed.phases[std::string(ph)];
    if (ph == "M" && std::string_view(event["name"].get_string().value()) == "process_name") {
      parsed.process_names[std::to_string(int64_t(event["pid"]))] = std::string(event["args"]["name"].get_string().value());
    }
    bool b;
    if (!event["flow_out"].get(b) && b) ++parsed.bound_out;
    if (!event["flow_in"].get(b) && b) ++parsed.bound_in;
    if (ph == "X" && std::string_view(event["name"].get_string().value()) == "sgemm") {
      parsed.kernel_ts = simdjson::to_string(event["ts"]);
      parsed.kernel_dur = simdjson::to_string(event["dur"]);
      parsed.kernel_long_name = std::string(event["args"]["long_name"].get_string().value());
    }
    if (ph == "X" && std::string_view(event["name"].get_string().value()) == "cudaLaunchKernel") {
      parsed.huge = std::string(event["args"]["huge"].get_string().value());
    }
  }
  return parsed;
}

TEST(TraceExportTest, MicrosecondsKeepEveryPicosecond) {
  EXPECT_EQ(Micros(0), "0");
  EXPECT_EQ(Micros(1), "0.000001");
  EXPECT_EQ(Micros(1'000), "0.001");
  EXPECT_EQ(Micros(1'234'567'000), "1234.567");
  EXPECT_EQ(Micros(5'000'000), "5");
  EXPECT_EQ(Micros(-1'500'000), "-1.5");
}

TEST(TraceExportTest, ChromeJsonHasEveryEventNamesAndFlows) {
  TraceIndex index = IndexOf(LaunchKernelSpace());
  std::string json;
  int calls = 0;
  auto stats = ExportTraceJson(index, ExportFormat::kChrome, [&](std::string_view piece) {
    json.append(piece);
    ++calls;
    return true;
  });
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->events, index.num_events());
  EXPECT_EQ(stats->bytes, json.size());
  Parsed parsed = Parse(json);
  EXPECT_EQ(parsed.phases["X"], 4);
  EXPECT_EQ(parsed.phases["s"], 1);  // the launch
  EXPECT_EQ(parsed.phases["f"], 1);  // the kernel
  // process_name + sort index per section, thread_name + sort index per track.
  EXPECT_EQ(parsed.phases["M"], 2 * 2 + 2 * 2);
  EXPECT_EQ(parsed.process_names["1"], "/device:GPU:0");
  EXPECT_EQ(parsed.process_names["2"], "Host Threads");
  // The kernel started 2'000'000 - 0 ps after the trace start: 2 µs; 3'000'001 ps long.
  EXPECT_EQ(parsed.kernel_ts, "2");
  EXPECT_EQ(parsed.kernel_dur, "3.000001");
  EXPECT_EQ(parsed.kernel_long_name, "volta_sgemm");
  EXPECT_EQ(parsed.huge, std::to_string(uint64_t{1} << 60)) << "beyond 2^53 integers are strings";
}

TEST(TraceExportTest, PerfettoJsonBindsFlowsOnTheEvents) {
  TraceIndex index = IndexOf(LaunchKernelSpace());
  std::string json;
  auto stats = ExportTraceJson(index, ExportFormat::kPerfetto, [&](std::string_view piece) {
    json.append(piece);
    return true;
  });
  ASSERT_TRUE(stats.ok());
  Parsed parsed = Parse(json);
  EXPECT_EQ(parsed.phases["X"], 4);
  EXPECT_EQ(parsed.phases.count("s"), 0u);
  EXPECT_EQ(parsed.bound_out, 1);
  EXPECT_EQ(parsed.bound_in, 1);
}

TEST(TraceExportTest, ACancellingSinkStopsTheExport) {
  TraceIndex index = IndexOf(LaunchKernelSpace());
  auto stats = ExportTraceJson(index, ExportFormat::kChrome, [](std::string_view) { return false; });
  EXPECT_FALSE(stats.ok());
  EXPECT_EQ(ParseExportFormat("perfetto").value(), ExportFormat::kPerfetto);
  EXPECT_EQ(ParseExportFormat("svg").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace stepscope::analysis::trace
