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

void WriteResultJson(const TraceViewerSummary& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const TraceViewerSummary& result);
std::string FormatResultText(const TraceViewerSummary& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeTraceViewerTool();

}  // namespace stepscope::analysis
