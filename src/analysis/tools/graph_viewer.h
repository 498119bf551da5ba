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

// ---- The result's declaration (output/schema.h): its JSON, tables, TypeScript and docs. ----

constexpr auto DescribeRecord(std::type_identity<GraphNode>) {
  using R = GraphNode;
  // Device time and runs only for ops kernels were joined to: null, not 0, for the others.
  return output::Record(
      "GraphNode", output::Field("name", &R::name, {.label = "Op", .max_width = 40}),
      output::Field("opcode", &R::opcode, {.label = "Opcode", .max_width = 20}),
      output::Field("shape", &R::shape, {.label = "Shape", .max_width = 40}),
      output::Field("hops", &R::hops, {.label = "Hops", .unit = "count", .description = "distance from the centre"}),
      output::Field("center", &R::center, {.label = "Centre"}),
      output::Field("time_ms", &R::time_ms,
                    {.label = "Device time (ms)", .unit = "ms",
                     .description = "device time of the kernels joined to the op over the profile; null for ops no "
                                    "kernel names (fused ops, parameters, ...)",
                     .decimals = 3}),
      output::Computed<R>("occurrences",
                          [](const R& n) { return output::OptionalIf(n.time_ms.has_value(), n.occurrences); },
                          {.label = "Runs", .unit = "count", .description = "its executions; null as time_ms"}),
      output::Field("more", &R::more,
                    {.label = "More beyond", .description = "has neighbours not shown: past the hops or the node cap"}),
      output::Field("computation", &R::computation,
                    {.label = "Computation", .description = "the computation holding it", .max_width = 30}),
      output::Field("fusion", &R::fusion,
                    {.label = "In fusion",
                     .description = "the fusion whose body holds it; empty outside fusions",
                     .max_width = 30}),
      output::Field("fusion_kind", &R::fusion_kind,
                    {.label = "Fusion kind", .description = "of a fusion (`kLoop`, ...)", .max_width = 10}),
      output::Field("calls", &R::calls,
                    {.label = "Calls", .description = "non-fusion computations it calls", .max_width = 30}),
      output::Field("op_name", &R::op_name,
                    {.label = "Framework op", .description = "metadata op_name", .max_width = 50}));
}

constexpr auto DescribeRecord(std::type_identity<GraphEdge>) {
  using R = GraphEdge;
  return output::Record(
      "GraphEdge",
      output::Field("from", &R::from,
                    {.label = "From", .description = "the producer: an operand, or a fused computation's root",
                     .max_width = 40}),
      output::Field("to", &R::to, {.label = "To", .description = "its user, or the fusion", .max_width = 40}),
      output::Field("kind", &R::kind, {.label = "Kind", .description = "`operand` or `fusion`", .max_width = 10}));
}

constexpr auto DescribeRecord(std::type_identity<GraphViewerResult>) {
  using R = GraphViewerResult;
  return output::Record(
      "GraphViewerResult", output::Constant("tool", "graph_viewer"),
      output::Field("module", &R::module, {.description = "the module shown (`jit_train_step(5)`)"}),
      output::Field("modules", &R::modules, {.description = "every module, for the selector"}),
      output::Field("op", &R::op, {.description = "the op asked for"}),
      output::Field("hops", &R::hops, {.unit = "count", .description = "as asked for"}),
      output::Field("max_nodes", &R::max_nodes, {.unit = "count", .description = "as asked for"}),
      output::Field("center", &R::center,
                    {.description = "the op shown at the centre; empty when `op` names none (`message` says why)"}),
      output::Field("message", &R::message, {.description = "why nothing is shown, when nothing is"}),
      output::Field("module_instructions", &R::module_instructions,
                    {.unit = "count", .description = "ops in the module"}),
      output::Field("truncated", &R::truncated, {.description = "the node cap cut the neighbourhood"}),
      output::Field("timed", &R::timed,
                    {.description = "the module's kernels were joined to its ops, so ops carry device time"}),
      output::Field("candidate_count", &R::candidate_count,
                    {.unit = "count", .description = "ops whose name contains `op` when it names none exactly"}),
      output::Field("candidates", &R::candidates, {.description = "the first 50 of them"}),
      output::TableField("nodes", &R::nodes, "Ops", {.description = "by hops, then name"}),
      output::TableField("edges", &R::edges, "Edges (producer -> consumer)"),
      output::Field("diagnostics", &R::diagnostics, {.description = "the cap, when it cut"}));
}

std::string FormatResultText(const GraphViewerResult& result, const ToolOptions& options);

std::unique_ptr<Tool> MakeGraphViewerTool();

}  // namespace stepscope::analysis
