#include "src/analysis/tools/graph_viewer.h"

#include <algorithm>
#include <deque>
#include <set>
#include <tuple>
#include <unordered_map>

#include "src/analysis/model/units.h"
#include "src/analysis/output/text_table.h"
#include "src/analysis/output/tool_output.h"
#include "src/base/ascii.h"

namespace stepscope::analysis {
namespace {

using hlo::HloModule;
using hlo::Instruction;

struct Neighbour {
  int32_t instruction;
  bool is_fusion_link;  // fusion <-> root of its body, not an operand
};

// Whether computation `c` is a fusion body (called by a fusion instruction).
bool IsFusionBody(const HloModule& m, int32_t c) { return c >= 0 && m.computations[c].is_fusion; }

// Every instruction one hop from `i`: operands, users, and across fusion boundaries.
std::vector<Neighbour> Neighbours(const HloModule& m, int32_t i) {
  const Instruction& instruction = m.instructions[i];
  std::vector<Neighbour> out;
  for (int32_t operand : instruction.operands) out.push_back({operand, false});
  for (int32_t user : instruction.users) out.push_back({user, false});
  for (int32_t called : instruction.called_computations) {
    if (IsFusionBody(m, called) && m.computations[called].root >= 0) out.push_back({m.computations[called].root, true});
  }
  const int32_t c = instruction.computation;
  if (IsFusionBody(m, c) && m.computations[c].root == i) {
    for (int32_t caller : m.computations[c].callers) out.push_back({caller, true});
  }
  return out;
}

// The instruction to centre on: `op` exactly, the only op containing it, or none (with
// the candidates listed in `r`).
int32_t FindCenter(const HloModule& m, const std::string& op, GraphViewerResult* r) {
  if (op.empty()) {
    if (m.entry >= 0 && m.computations[m.entry].root >= 0) return m.computations[m.entry].root;
    return m.instructions.empty() ? -1 : 0;
  }
  const int32_t exact = m.FindInstruction(op);
  if (exact >= 0) return exact;
  int32_t only = -1;
  for (size_t i = 0; i < m.instructions.size(); ++i) {
    if (!base::AsciiContainsIgnoreCase(m.instructions[i].name, op)) continue;
    ++r->candidate_count;
    only = static_cast<int32_t>(i);
    if (r->candidates.size() < kGraphMaxCandidates) r->candidates.push_back(m.instructions[i].name);
  }
  if (r->candidate_count == 1) {
    r->candidates.clear();
    r->candidate_count = 0;
    return only;
  }
  return -1;
}

GraphNode MakeNode(const HloModule& m, int32_t i, int hops) {
  const Instruction& instruction = m.instructions[i];
  GraphNode node;
  node.name = instruction.name;
  node.opcode = instruction.opcode;
  node.shape = instruction.shape.ToString();
  node.fusion_kind = instruction.fusion_kind;
  node.op_name = instruction.metadata.op_name;
  node.hops = hops;
  if (instruction.computation >= 0) {
    const hlo::Computation& c = m.computations[instruction.computation];
    node.computation = c.name;
    if (c.is_fusion && !c.callers.empty()) node.fusion = m.instructions[c.callers.front()].name;
  }
  for (int32_t called : instruction.called_computations) {
    if (IsFusionBody(m, called)) continue;
    node.calls += (node.calls.empty() ? "" : ", ") + m.computations[called].name;
  }
  return node;
}

}  // namespace

GraphViewerResult ComputeGraphViewer(const HloModule& m, const std::string& op, int hops, int max_nodes,
                                     const std::unordered_map<int32_t, GraphOpTime>& times) {
  GraphViewerResult r;
  r.module = m.DisplayName();
  r.op = op;
  r.hops = hops;
  r.max_nodes = max_nodes;
  r.module_instructions = static_cast<int64_t>(m.instructions.size());
  r.timed = !times.empty();
  const int32_t center = FindCenter(m, op, &r);
  if (center < 0) {
    if (m.instructions.empty()) {
      r.message = "Module " + r.module + " has no instructions.";
    } else if (r.candidate_count == 0) {
      r.message = "No op of module " + r.module + " is named '" + op + "' or contains it.";
    } else {
      r.message = std::to_string(r.candidate_count) + " ops of module " + r.module + " contain '" + op + "'; choose one.";
    }
    return r;
  }
  r.center = m.instructions[center].name;

  // Breadth first from the centre: every node at hop d is in before any at d + 1, so
  // the cap keeps the nearest ones.
  std::unordered_map<int32_t, int> distance{{center, 0}};
  std::vector<int32_t> order{center};
  std::deque<int32_t> queue{center};
  while (!queue.empty()) {
    const int32_t i = queue.front();
    queue.pop_front();
    const int d = distance[i];
    if (d >= hops) continue;
    for (const Neighbour& n : Neighbours(m, i)) {
      if (distance.count(n.instruction)) continue;
      if (static_cast<int>(order.size()) >= max_nodes) {
        r.truncated = true;
        break;
      }
      distance.emplace(n.instruction, d + 1);
      order.push_back(n.instruction);
      queue.push_back(n.instruction);
    }
  }

  std::set<std::tuple<int32_t, int32_t, bool>> edges;  // (from, to, fusion link)
  for (int32_t i : order) {
    GraphNode node = MakeNode(m, i, distance[i]);
    node.center = i == center;
    if (auto t = times.find(i); t != times.end()) {
      node.time_ms = PsToMs(t->second.total_time_ps);
      node.occurrences = t->second.occurrences;
    }
    for (const Neighbour& n : Neighbours(m, i)) {
      if (!distance.count(n.instruction)) node.more = true;
    }
    // Each edge once, from the value's producer to its consumer: operands into i, and the
    // root of a fusion body into the fusion.
    const Instruction& instruction = m.instructions[i];
    for (int32_t operand : instruction.operands) {
      if (distance.count(operand)) edges.emplace(operand, i, false);
    }
    for (int32_t called : instruction.called_computations) {
      const int32_t root = IsFusionBody(m, called) ? m.computations[called].root : -1;
      if (root >= 0 && distance.count(root)) edges.emplace(root, i, true);
    }
    r.nodes.push_back(std::move(node));
  }
  std::stable_sort(r.nodes.begin(), r.nodes.end(), [](const GraphNode& a, const GraphNode& b) {
    return a.hops != b.hops ? a.hops < b.hops : a.name < b.name;
  });
  for (const auto& [from, to, fusion] : edges) {
    r.edges.push_back({m.instructions[from].name, m.instructions[to].name, fusion ? "fusion" : "operand"});
  }
  if (r.truncated) {
    r.diagnostics.push_back("the neighbourhood has more than " + std::to_string(max_nodes) +
                            " ops; the nearest are shown (raise max_nodes, or lower hops)");
  }
  return r;
}

std::string FormatResultText(const GraphViewerResult& r, const ToolOptions& options) {
  if (r.center.empty()) {
    std::string out = "Graph viewer: " + r.message + "\n";
    for (const std::string& c : r.candidates) out += "  " + c + "\n";
    return out;
  }
  std::string out = output::FormatKeyValues(
      "Graph viewer", {{"Module", r.module},
                       {"Centre", r.center},
                       {"Shown", std::to_string(r.nodes.size()) + " ops, " + std::to_string(r.edges.size()) +
                                     " edges within " + std::to_string(r.hops) + " hops" +
                                     (r.truncated ? " (capped at " + std::to_string(r.max_nodes) + ")" : "")}});
  std::vector<output::Table> tables = output::RecordTables(r);
  std::erase_if(tables, [](const output::Table& t) { return t.name != "nodes"; });
  return out + output::FormatResultTextEnd(tables, r.diagnostics, options.text_max_rows);
}

namespace {

class GraphViewerTool final : public DeclaredTool<GraphViewerResult> {
 public:
  std::string_view id() const override { return "graph_viewer"; }
  std::string_view description() const override {
    return "The HLO graph of an XLA module around one op (operands, users, fused ops), n hops out.";
  }
  bool IsAvailable(const ProfileModel& model) const override { return HasHloModules(model); }
  std::string WhyUnavailable(const ProfileModel& model) const override { return HloUnreadableReason(model); }
  std::string_view requirement() const override { return kHloRequirement; }
  std::vector<std::string_view> option_names() const override { return {"module", "op", "hops", "max_nodes"}; }
  StatusOr<std::unique_ptr<ToolResult>> Compute(const ProfileModel& model, const ToolOptions& options) const override {
    if (!IsAvailable(model)) {
      GraphViewerResult empty;
      empty.message = std::string(kNoHloModulesMessage);
      return MakeToolResult(std::move(empty));
    }
    if (options.hops < 0 || options.hops > kGraphMaxHops) {
      return InvalidArgumentError("hops must be 0 to " + std::to_string(kGraphMaxHops) + ", not " +
                                  std::to_string(options.hops));
    }
    if (options.max_nodes < 1 || options.max_nodes > kGraphMaxNodesLimit) {
      return InvalidArgumentError("max_nodes must be 1 to " + std::to_string(kGraphMaxNodesLimit) + ", not " +
                                  std::to_string(options.max_nodes));
    }
    StatusOr<int32_t> chosen = ChooseProfileHloModule(model, options.module, /*prefer_buffer_assignment=*/false);
    if (!chosen.ok()) return chosen.status();
    std::unordered_map<int32_t, GraphOpTime> times;
    for (const HloOpTime& t : model.hlo_ops) {
      if (t.module != *chosen || t.instruction < 0) continue;
      GraphOpTime& time = times[t.instruction];
      time.total_time_ps += t.total_time_ps;
      time.occurrences += t.occurrences;
    }
    GraphViewerResult result =
        ComputeGraphViewer(model.hlo->modules[*chosen], options.op, options.hops, options.max_nodes, times);
    result.modules = ListHloModules(*model.hlo);
    return MakeToolResult(std::move(result));
  }
};

}  // namespace

std::unique_ptr<Tool> MakeGraphViewerTool() { return std::make_unique<GraphViewerTool>(); }

}  // namespace stepscope::analysis
