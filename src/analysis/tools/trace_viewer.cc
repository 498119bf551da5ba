#include "src/analysis/tools/trace_viewer.h"

#include "src/analysis/output/json_writer.h"

namespace stepscope::analysis {
namespace {

class TraceViewerTool final : public DeclaredTool<TraceViewerSummary> {
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
