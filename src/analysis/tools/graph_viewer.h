// graph_viewer: an XLA module's HLO graph around one op, n hops out (XProf's graph
// viewer), as nodes and edges for the browser to lay out.
//
// Hops follow data flow both ways (operands and users), and into and out of fusions: a
// fusion instruction and the root of its fused computation are one hop apart, so the
// fused ops appear next to the fusion that runs them. The node count is capped
// (ToolOptions::max_nodes) so that a 100k-instruction module answers as fast as a small
// one; nodes whose neighbours were cut off are marked, and the page recentres on them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "src/analysis/tool.h"
#include "src/analysis/tools/hlo_module_choice.h"
#include "src/hlo/hlo_module.h"

namespace stepscope::analysis {

struct GraphNode {
  std::string name;
  std::string opcode;
  std::string shape;
  std::string computation;  // the computation holding it
  std::string fusion;       // the fusion instruction whose body holds it; empty outside fusions
  std::string fusion_kind;  // for fusion instructions ("kLoop", ...)
  std::string op_name;      // framework op (metadata op_name)
  std::string calls;        // non-fusion computations it calls ("region_0.1, region_1.2")
  int hops = 0;             // distance from the centre
  bool center = false;
  // Device time of the kernels joined to it (ProfileModel::hlo_ops) and its executions;
  // absent for ops no kernel names (fused ops, parameters, ...).
  std::optional<double> time_ms;
  int64_t occurrences = 0;
  bool more = false;  // has neighbours that are not shown (past the hop count or the node cap)
};

struct GraphEdge {
  std::string from;  // the operand (or the fused computation's root)
  std::string to;    // the user (or the fusion)
  std::string kind;  // "operand" or "fusion"
};

struct GraphViewerResult {
  std::vector<HloModuleChoice> modules;
  std::string module;
  std::string op;  // what was asked for
  int hops = 0;
  int max_nodes = 0;
  std::string center;  // the op shown at the centre; empty when `op` names none
  std::string message;  // why nothing is shown, when nothing is
  // Ops whose name contains `op` (case-insensitive) when it names no op exactly; at most
  // kGraphMaxCandidates, of candidate_count.
  std::vector<std::string> candidates;
  int64_t candidate_count = 0;
  std::vector<GraphNode> nodes;  // by hops, then name
  std::vector<GraphEdge> edges;
  bool truncated = false;  // the node cap cut the neighbourhood
  int64_t module_instructions = 0;
  bool timed = false;  // kernels of the module were joined to its ops (nodes carry time)
  std::vector<std::string> diagnostics;
};

// Device time of one op, from the kernels joined to it.
struct GraphOpTime {
  int64_t total_time_ps = 0;
  int64_t occurrences = 0;
};

inline constexpr int kGraphMaxHops = 10;
inline constexpr int kGraphMaxNodesLimit = 2000;
inline constexpr size_t kGraphMaxCandidates = 50;

// The neighbourhood of `op` in `module` (hops and max_nodes already checked); `times`: by
// instruction index, for the ops kernels were joined to.
GraphViewerResult ComputeGraphViewer(const hlo::HloModule& module, const std::string& op, int hops, int max_nodes,
                                     const std::unordered_map<int32_t, GraphOpTime>& times = {});

void WriteResultJson(const GraphViewerResult& result, output::JsonWriter* writer);
std::vector<output::Table> BuildTables(const GraphViewerResult& result);
std::string FormatResultText(const GraphViewerResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeGraphViewerTool();

}  // namespace stepscope::analysis
