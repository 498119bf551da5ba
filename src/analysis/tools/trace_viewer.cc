#include "src/analysis/tools/trace_viewer.h"

#include "src/analysis/output/json_writer.h"

namespace stepscope::analysis {
namespace {

class TraceViewerTool final : public Tool {
 public:
  std::string_view id() const override { return "trace_viewer"; }
  std::string_view description() const override {
    return "Timeline of every event (devices: steps, ops, streams; host threads) with zoom, search and flows; "
           "no event cap.";
  }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions&) const override {
    return MakeToolResult(ComputeTraceViewerSummary(model));
  }
};

}  // namespace

TraceViewerSummary ComputeTraceViewerSummary(const ProfileModel& model) {
  TraceViewerSummary summary;
  summary.hosts = model.hostnames;
  summary.events = model.total_events;
  for (const DeviceActivity& device : model.devices) {
    if (!device.has_activity()) continue;
    ++summary.device_planes;
    summary.streams += static_cast<int64_t>(device.streams.size());
  }
  summary.host_threads = static_cast<int64_t>(model.host_threads.size());
  summary.steps = static_cast<int64_t>(model.steps.size());
  return summary;
}

void WriteResultJson(const TraceViewerSummary& result, output::JsonWriter* w) {
  w->BeginObject();
  w->Field("tool", "trace_viewer");
  w->Key("hosts");
  w->BeginArray();
  for (const std::string& host : result.hosts) w->String(host);
  w->EndArray();
  w->Field("events", result.events);
  w->Field("device_planes", result.device_planes);
  w->Field("streams", result.streams);
  w->Field("host_threads", result.host_threads);
  w->Field("steps", result.steps);
  // Where the timeline itself is (docs/trace_viewer.md).
  w->Field("tracks_endpoint", "/api/trace/tracks");
  w->Key("export_formats");
  w->BeginArray();
  w->String("chrome");
  w->String("perfetto");
  w->EndArray();
  w->EndObject();
}

std::vector<output::Table> BuildTables(const TraceViewerSummary&) { return {}; }

std::string FormatResultText(const TraceViewerSummary& result, const ToolOptions&) {
  std::string text = "Trace viewer\n  " + std::to_string(result.events) + " events";
  if (result.device_planes > 0) {
    text += ", " + std::to_string(result.device_planes) + " device(s) with " + std::to_string(result.streams) +
            " stream(s)";
  }
  if (result.host_threads > 0) text += ", " + std::to_string(result.host_threads) + " host thread(s)";
  text += ", " + std::to_string(result.steps) + " step(s)\n";
  text +=
      "  The timeline is interactive: open it with `stepscope serve --logdir <logdir>` (tool \"Trace viewer\"),\n"
      "  or export it for chrome://tracing / ui.perfetto.dev with\n"
      "  `stepscope convert <profile> --to chrome|perfetto -o trace.json.gz`.\n";
  return text;
}

std::unique_ptr<Tool> MakeTraceViewerTool() { return std::make_unique<TraceViewerTool>(); }

}  // namespace stepscope::analysis
