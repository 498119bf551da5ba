#include "src/analysis/tools/graph_viewer.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "proto/stepscope/hlo.pb.h"
#include "src/analysis/tool_registry.h"
#include "src/hlo/hlo_programs.h"
#include "src/hlo/hlo_reader.h"
#include "src/hlo/hlo_test_util.h"

namespace stepscope::analysis {
namespace {

namespace xp = ::stepscope::xla_hlo;
using hlo::testing::AddComputation;
using hlo::testing::AddInstruction;
using hlo::testing::ArrayShape;
using hlo::testing::ParseModule;

constexpr int32_t kF32 = hlo::kF32;

// A chain p0 -> n1 -> n2 -> ... -> n9 (each one op after the other), a side input
// p1 -> n5, and a fusion f (operands n9, p1) whose body is fp0, fp1 -> fadd -> fexp (root).
xp::HloProto ChainModule() {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name("jit_chain");
  proto.mutable_hlo_module()->set_id(4);
  xp::HloComputationProto* body = AddComputation(&proto, 2, "fused_computation");
  body->set_is_fusion_computation(true);
  AddInstruction(body, 100, "fp0", "parameter", ArrayShape(kF32, {8}));
  AddInstruction(body, 101, "fp1", "parameter", ArrayShape(kF32, {8}))->set_parameter_number(1);
  AddInstruction(body, 102, "fadd", "add", ArrayShape(kF32, {8}), {100, 101});
  AddInstruction(body, 103, "fexp", "exponential", ArrayShape(kF32, {8}), {102});
  xp::HloComputationProto* main = AddComputation(&proto, 1, "main");
  proto.mutable_hlo_module()->set_entry_computation_id(1);
  AddInstruction(main, 1, "p0", "parameter", ArrayShape(kF32, {8}));
  AddInstruction(main, 2, "p1", "parameter", ArrayShape(kF32, {8}))->set_parameter_number(1);
  int64_t previous = 1;
  for (int i = 1; i <= 9; ++i) {
    xp::HloInstructionProto* n = AddInstruction(main, 10 + i, "n" + std::to_string(i), "negate", ArrayShape(kF32, {8}));
    n->add_operand_ids(previous);
    if (i == 5) n->add_operand_ids(2);
    previous = 10 + i;
  }
  xp::HloInstructionProto* f = AddInstruction(main, 30, "f", "fusion", ArrayShape(kF32, {8}), {19, 2});
  f->set_fusion_kind("kLoop");
  f->add_called_computation_ids(2);
  return proto;
}

std::set<std::string> Names(const GraphViewerResult& r) {
  std::set<std::string> names;
  for (const GraphNode& n : r.nodes) names.insert(n.name);
  return names;
}

TEST(GraphViewerTest, HopsAroundAnOpFollowOperandsAndUsers) {
  const hlo::HloModule m = ParseModule(ChainModule());
  const GraphViewerResult r = ComputeGraphViewer(m, "n5", 2, 100);
  EXPECT_EQ(r.center, "n5");
  // n5's operands n4 and p1, users n6; two hops: n3, n7, and p1's other user f.
  EXPECT_EQ(Names(r), (std::set<std::string>{"n3", "n4", "n5", "n6", "n7", "p1", "f"}));
  std::map<std::string, int> hops;
  for (const GraphNode& n : r.nodes) hops[n.name] = n.hops;
  EXPECT_EQ(hops["n5"], 0);
  EXPECT_EQ(hops["p1"], 1);
  EXPECT_EQ(hops["f"], 2);
  EXPECT_TRUE(r.nodes.front().center);
  // Edges run producer -> consumer, only between shown ops.
  std::set<std::pair<std::string, std::string>> edges;
  for (const GraphEdge& e : r.edges) edges.insert({e.from, e.to});
  EXPECT_EQ(edges, (std::set<std::pair<std::string, std::string>>{
                       {"n3", "n4"}, {"n4", "n5"}, {"p1", "n5"}, {"n5", "n6"}, {"n6", "n7"}, {"p1", "f"}}));
  // Ops at the edge of the view with more beyond are marked; the centre's are all shown.
  for (const GraphNode& n : r.nodes) {
    if (n.name == "n3" || n.name == "n7" || n.name == "f") {
      EXPECT_TRUE(n.more) << n.name;
    }
    if (n.name == "n5" || n.name == "n4") {
      EXPECT_FALSE(n.more) << n.name;
    }
  }
  EXPECT_FALSE(r.truncated);
}

TEST(GraphViewerTest, FusionAndItsBodyAreOneHopApart) {
  const hlo::HloModule m = ParseModule(ChainModule());
  const GraphViewerResult r = ComputeGraphViewer(m, "f", 1, 100);
  EXPECT_EQ(Names(r), (std::set<std::string>{"f", "n9", "p1", "fexp"}));
  bool fusion_edge = false;
  for (const GraphEdge& e : r.edges) fusion_edge |= e.from == "fexp" && e.to == "f" && e.kind == "fusion";
  EXPECT_TRUE(fusion_edge);
  for (const GraphNode& n : r.nodes) {
    if (n.name == "fexp") {
      EXPECT_EQ(n.fusion, "f");
      EXPECT_EQ(n.computation, "fused_computation");
    }
    if (n.name == "f") {
      EXPECT_EQ(n.fusion_kind, "kLoop");
    }
  }
  // From inside the body, out to the fusion and on to its operands.
  const GraphViewerResult inside = ComputeGraphViewer(m, "fadd", 3, 100);
  EXPECT_EQ(Names(inside), (std::set<std::string>{"fadd", "fp0", "fp1", "fexp", "f", "n9", "p1"}));
}

TEST(GraphViewerTest, OpsWithKernelsCarryTheirDeviceTime) {
  const hlo::HloModule m = ParseModule(ChainModule());
  std::unordered_map<int32_t, GraphOpTime> times;
  times[m.FindInstruction("f")] = {2'500'000'000, 5};  // 2.5 ms over 5 runs
  const GraphViewerResult r = ComputeGraphViewer(m, "f", 1, 100, times);
  EXPECT_TRUE(r.timed);
  for (const GraphNode& n : r.nodes) {
    if (n.name == "f") {
      ASSERT_TRUE(n.time_ms.has_value());
      EXPECT_DOUBLE_EQ(*n.time_ms, 2.5);
      EXPECT_EQ(n.occurrences, 5);
    } else {
      EXPECT_FALSE(n.time_ms.has_value()) << n.name;
    }
  }
  // In the JSON and the table, an op without time has no runs either: null, not 0.
  const std::string json = StructToolResult<GraphViewerResult>(r).ToJson(false);
  EXPECT_NE(json.find(R"("time_ms":2.5,"occurrences":5,)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("time_ms":null,"occurrences":null,)"), std::string::npos) << json;
  const std::vector<output::Table> tables = output::RecordTables(r);
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].name, "nodes");
  EXPECT_EQ(tables[1].name, "edges");
}

TEST(GraphViewerTest, NodeCapKeepsTheNearestOps) {
  const hlo::HloModule m = ParseModule(ChainModule());
  const GraphViewerResult r = ComputeGraphViewer(m, "n5", 10, 4);
  EXPECT_TRUE(r.truncated);
  ASSERT_EQ(r.nodes.size(), 4u);
  for (const GraphNode& n : r.nodes) EXPECT_LE(n.hops, 1) << n.name;
  EXPECT_FALSE(r.diagnostics.empty());
}

TEST(GraphViewerTest, HugeFanOutStaysWithinTheCap) {
  // 50k users of one parameter, all feeding one tuple: a neighbourhood of the whole module.
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name("jit_wide");
  xp::HloComputationProto* main = AddComputation(&proto, 1, "main");
  proto.mutable_hlo_module()->set_entry_computation_id(1);
  AddInstruction(main, 1, "p", "parameter", ArrayShape(kF32, {4}));
  xp::HloInstructionProto* tuple = nullptr;
  for (int64_t i = 0; i < 50000; ++i) AddInstruction(main, 10 + i, "neg." + std::to_string(i), "negate", ArrayShape(kF32, {4}), {1});
  tuple = AddInstruction(main, 100000, "out", "tuple", ArrayShape(kF32, {4}));
  for (int64_t i = 0; i < 50000; ++i) tuple->add_operand_ids(10 + i);
  const hlo::HloModule m = ParseModule(proto);
  for (const char* center : {"p", "out"}) {
    const GraphViewerResult r = ComputeGraphViewer(m, center, 3, 150);
    EXPECT_EQ(r.nodes.size(), 150u) << center;
    EXPECT_TRUE(r.truncated);
    EXPECT_LE(r.edges.size(), 2 * r.nodes.size());
  }
}

TEST(GraphViewerTest, UnknownOpListsCandidatesAndDefaultIsTheEntryRoot) {
  const hlo::HloModule m = ParseModule(ChainModule());
  const GraphViewerResult r = ComputeGraphViewer(m, "N", 2, 100);  // case-insensitive substring
  EXPECT_TRUE(r.center.empty());
  EXPECT_TRUE(r.nodes.empty());
  EXPECT_EQ(r.candidate_count, 9);  // n1..n9 (not "fusion"s: names only)
  EXPECT_NE(r.message.find("9 ops"), std::string::npos) << r.message;
  const GraphViewerResult one = ComputeGraphViewer(m, "exp", 0, 100);  // only fexp contains it
  EXPECT_EQ(one.center, "fexp");
  EXPECT_EQ(one.nodes.size(), 1u);
  const GraphViewerResult none = ComputeGraphViewer(m, "zzz", 2, 100);
  EXPECT_NE(none.message.find("No op"), std::string::npos);
  const GraphViewerResult root = ComputeGraphViewer(m, "", 1, 100);
  EXPECT_EQ(root.center, "f");
}

TEST(GraphViewerTest, ToolChecksOptionsAndModule) {
  xp::HloProto proto = ChainModule();
  auto programs = std::make_shared<hlo::HloPrograms>();
  programs->modules.push_back(ParseModule(proto));
  ProfileModel model;
  model.hlo = programs;
  ToolOptions options;
  options.op = "n2";
  options.hops = 1;
  auto result = RunTool("graph_viewer", model, options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_NE((*result)->ToJson(false).find("\"center\":\"n2\""), std::string::npos);
  options.module = "jit_chain(4)";
  EXPECT_TRUE(RunTool("graph_viewer", model, options).ok());
  options.module = "4";
  EXPECT_TRUE(RunTool("graph_viewer", model, options).ok());
  options.module = "jit_other";
  auto missing = RunTool("graph_viewer", model, options);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("jit_chain(4)"), std::string::npos);
  options.module.clear();
  options.hops = 11;
  EXPECT_EQ(RunTool("graph_viewer", model, options).status().code(), StatusCode::kInvalidArgument);
  options.hops = 2;
  options.max_nodes = 0;
  EXPECT_EQ(RunTool("graph_viewer", model, options).status().code(), StatusCode::kInvalidArgument);
  // Without XLA modules neither per-module tool applies.
  ProfileModel plain;
  EXPECT_EQ(RunTool("graph_viewer", plain, {}).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(RunTool("memory_viewer", plain, {}).status().code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace stepscope::analysis
