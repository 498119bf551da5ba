// trace_viewer: the timeline of every event (TF Profiler's trace viewer, capability 14).
//
// The timeline itself is interactive and event-level, so it is not a function of the
// profile model: it is served from the trace index (src/analysis/trace) by the HTTP API
// (/api/trace/*, docs/trace_viewer.md) and exported by `stepscope convert`. This tool is
// its entry in the registry: it puts "Trace viewer" in every tool list and says, from the
// model, what the timeline holds and how to open it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/analysis/tool.h"

namespace stepscope::analysis {

struct TraceViewerSummary {
  std::vector<std::string> hosts;
  int64_t events = 0;          // events in the profile (all planes)
  int64_t device_planes = 0;   // devices with activity
  int64_t streams = 0;         // device streams with activity
  int64_t host_threads = 0;    // host thread tracks (single-host models)
  int64_t steps = 0;
};

TraceViewerSummary ComputeTraceViewerSummary(const ProfileModel& model);

// The result's declaration (output/schema.h): its JSON, TypeScript and docs.
constexpr auto DescribeRecord(std::type_identity<TraceViewerSummary>) {
  using R = TraceViewerSummary;
  return output::Record(
      "TraceViewerSummary", output::Constant("tool", "trace_viewer"),
      output::Field("hosts", &R::hosts, {.description = "the hosts on the timeline"}),
      output::Field("events", &R::events, {.unit = "count", .description = "events in the profile (all planes)"}),
      output::Field("device_planes", &R::device_planes, {.unit = "count", .description = "devices with activity"}),
      output::Field("streams", &R::streams, {.unit = "count", .description = "device streams with activity"}),
      output::Field("host_threads", &R::host_threads,
                    {.unit = "count", .description = "host thread tracks (single-host models)"}),
      output::Field("steps", &R::steps, {.unit = "count"}),
      output::Constant("tracks_endpoint", "/api/trace/tracks",
                       {.description = "where the timeline itself is (docs/trace_viewer.md)"}),
      output::Computed<R>("export_formats", [](const R&) { return std::vector<std::string>{"chrome", "perfetto"}; },
                          {.description = "`stepscope convert --to` and the UI's export"}));
}
std::string FormatResultText(const TraceViewerSummary& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeTraceViewerTool();

}  // namespace stepscope::analysis
