// hlo_stats, op_profile and roofline_model on a small synthetic XLA profile whose every
// number is worked out by hand below, and on the two real JAX MI300 profiles.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "src/analysis/model/build_profile_model.h"
#include "src/analysis/tool_registry.h"
#include "src/analysis/tools/advisor.h"
#include "src/analysis/tools/hlo_stats.h"
#include "src/analysis/tools/op_profile.h"
#include "src/analysis/tools/overview_page.h"
#include "src/analysis/tools/roofline_model.h"
#include "src/hlo/hlo_programs.h"
#include "src/hlo/hlo_test_util.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::analysis {
namespace {

namespace xp = ::stepscope::xla_hlo;
using hlo::testing::AddComputation;
using hlo::testing::AddInstruction;
using hlo::testing::ArrayShape;

constexpr int64_t kPsPerUs = 1'000'000;

// jit_small(7): dot.1 = dot(p0 f32[8,16], p1 f32[16,4]) -> f32[8,4]:
//   2*8*4*16 = 1024 FLOP; bytes 512 + 256 + 128 = 896.
// fusion.2 = fusion(dot.1) { add(fp, fp) } -> f32[8,4]: 32 FLOP; bytes 128 + 128 = 256.
std::string SmallModuleBytes() {
  xp::HloProto proto;
  proto.mutable_hlo_module()->set_name("jit_small");
  proto.mutable_hlo_module()->set_id(7);
  xp::HloComputationProto* fused = AddComputation(&proto, 2, "fused_add");
  AddInstruction(fused, 20, "fp", "parameter", ArrayShape(hlo::kF32, {8, 4}));
  AddInstruction(fused, 21, "add", "add", ArrayShape(hlo::kF32, {8, 4}), {20, 20});
  xp::HloComputationProto* entry = AddComputation(&proto, 1, "main");
  AddInstruction(entry, 10, "p0", "parameter", ArrayShape(hlo::kF32, {8, 16}));
  AddInstruction(entry, 11, "p1", "parameter", ArrayShape(hlo::kF32, {16, 4}));
  xp::HloInstructionProto* dot = AddInstruction(entry, 12, "dot.1", "dot", ArrayShape(hlo::kF32, {8, 4}), {10, 11});
  dot->mutable_dot_dimension_numbers()->add_lhs_contracting_dimensions(1);
  dot->mutable_dot_dimension_numbers()->add_rhs_contracting_dimensions(0);
  dot->mutable_metadata()->set_source_file("model.py");
  dot->mutable_metadata()->set_source_line(42);
  xp::HloInstructionProto* fusion = AddInstruction(entry, 13, "fusion.2", "fusion", ArrayShape(hlo::kF32, {8, 4}), {12});
  fusion->set_fusion_kind("kLoop");
  fusion->add_called_computation_ids(2);
  proto.mutable_hlo_module()->set_entry_computation_id(1);
  std::string bytes;
  EXPECT_TRUE(proto.SerializeToString(&bytes));
  return bytes;
}

// Device: NVIDIA compute capability 9.0 (4096 FLOP/cycle/SM), 1 MHz x 1 SM = 4.096e9
// FLOP/s; 1e9 B/s: ridge 4.096 FLOP/B. Kernels: dot.1 twice, 1 us each; fusion.2 once, 10 us; one
// kernel without hlo_op (4 us). With steps: host step markers "train" 1 (0 - 12.2 us) and 2
// (12.2 - 20 us) with a cudaLaunchKernel per kernel: dot.1 and fusion.2 launched in step
// 1, the second dot.1 and the other kernel in step 2.
xspace::XSpace SmallProfile(bool with_steps = false) {
  xspace::XSpace space;
  if (with_steps) {
    xspace::XPlaneBuilder host(space.add_planes());
    host.SetName(xspace::kHostThreadsPlaneName);
    xspace::XLineBuilder main = host.GetOrCreateLine(1);
    main.SetName("main");
    auto event = [&](std::string_view name, int64_t begin_ns, int64_t end_ns) {
      xspace::XEventBuilder e = main.AddEvent(*host.GetOrCreateEventMetadata(name));
      e.SetOffsetPs(begin_ns * 1000);
      e.SetDurationPs((end_ns - begin_ns) * 1000);
      return e;
    };
    for (auto [step, begin, end] : {std::tuple<int64_t, int64_t, int64_t>{1, 0, 12200}, {2, 12200, 20000}}) {
      xspace::XEventBuilder marker = event("train", begin, end);
      marker.AddStatValue(*host.GetOrCreateStatMetadata("step_num"), step);
      marker.AddStatValue(*host.GetOrCreateStatMetadata("_r"), int64_t{1});
    }
    uint64_t correlation = 1;
    for (int64_t launch_ns : {0, 1500, 12500, 14500}) {
      event("cudaLaunchKernel", launch_ns, launch_ns + 100)
          .AddStatValue(*host.GetOrCreateStatMetadata("correlation_id"), correlation++);
    }
  }
  {
    xspace::XPlaneBuilder metadata(space.add_planes());
    metadata.SetName(xspace::kMetadataPlaneName);
    xspace::XEventMetadata* module = metadata.GetOrCreateEventMetadata("jit_small(7)");
    xspace::XStatsBuilder<xspace::XEventMetadata>(module, &metadata)
        .AddBytesStatValue(*metadata.GetOrCreateStatMetadata(hlo::kHloProtoStatName), SmallModuleBytes());
  }
  xspace::XPlaneBuilder gpu(space.add_planes());
  gpu.SetName("/device:GPU:0");
  gpu.SetId(0);
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("device_vendor"), "Nvidia");
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("compute_cap_major"), int64_t{9});
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("compute_cap_minor"), int64_t{0});
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("clock_rate"), int64_t{1000});
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("core_count"), int64_t{1});
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("memory_bandwidth"), uint64_t{1'000'000'000});
  xspace::XLineBuilder stream = gpu.GetOrCreateLine(1);
  stream.SetName("Stream #1");
  int64_t t = 0;
  uint64_t correlation = 1;
  auto kernel = [&](std::string_view name, int64_t duration_us, std::string_view op) {
    xspace::XEventBuilder event = stream.AddEvent(*gpu.GetOrCreateEventMetadata(name));
    event.SetOffsetPs(t);
    event.SetDurationPs(duration_us * kPsPerUs);
    t += (duration_us + 1) * kPsPerUs;
    if (with_steps) event.AddStatValue(*gpu.GetOrCreateStatMetadata("correlation_id"), correlation++);
    if (op.empty()) return;
    event.AddRefStatValue(*gpu.GetOrCreateStatMetadata("hlo_module"), "jit_small");
    event.AddStatValue(*gpu.GetOrCreateStatMetadata("program_id"), int64_t{7});
    event.AddRefStatValue(*gpu.GetOrCreateStatMetadata("hlo_op"), op);
  };
  kernel("gemm_kernel", 1, "dot.1");
  kernel("loop_add_kernel", 10, "fusion.2");
  kernel("gemm_kernel", 1, "dot.1");
  kernel("zero_fill_kernel", 4, "");
  return space;
}

ProfileModel SmallModel() {
  StatusOr<ProfileModel> model = BuildProfileModelFromXSpace(SmallProfile());
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  return model.ok() ? std::move(model).value() : ProfileModel{};
}

TEST(HloToolsTest, HloStatsJoinsKernelsAndComputesRatesByHand) {
  ProfileModel model = SmallModel();
  ASSERT_NE(model.hlo, nullptr);
  EXPECT_EQ(model.hlo_join.kernels, 4);
  EXPECT_EQ(model.hlo_join.kernels_with_hlo_op, 3);
  EXPECT_EQ(model.hlo_join.kernels_joined, 3);

  HloStatsResult r = ComputeHloStats(model);
  EXPECT_DOUBLE_EQ(r.summary.peaks.peak_flops_per_s, 4.096e9);
  ASSERT_EQ(r.rows.size(), 2u);
  // fusion.2 has the most time (10 us of 12).
  const HloOpMetrics& fusion = r.rows[0].op;
  EXPECT_EQ(fusion.op_name, "fusion.2");
  EXPECT_EQ(fusion.category, "loop fusion");
  EXPECT_DOUBLE_EQ(r.rows[0].time_percent, 100.0 * 10 / 12);
  // 32 FLOP in 10 us = 3.2e6 FLOP/s; 256 B in 10 us = 2.56e7 B/s.
  EXPECT_DOUBLE_EQ(fusion.flop_rate_per_s, 3.2e6);
  EXPECT_DOUBLE_EQ(fusion.bandwidth_bytes_per_s, 2.56e7);
  // Intensity 32/256 = 0.125 FLOP/B: roof 0.125 x 1e9 = 1.25e8; 3.2e6 is 2.56 % of it.
  EXPECT_DOUBLE_EQ(fusion.roof_percent, 2.56);
  EXPECT_EQ(fusion.bound_by, BoundBy::kLatency);

  const HloOpMetrics& dot = r.rows[1].op;
  EXPECT_EQ(dot.op_name, "dot.1");
  EXPECT_EQ(dot.occurrences, 2);
  EXPECT_EQ(dot.category, "matmul");
  EXPECT_EQ(dot.source, "model.py:42");
  // 2 x 1024 FLOP in 2 us = 1.024e9 FLOP/s = 25 % of 4.096e9; 2 x 896 B in 2 us = 8.96e8
  // B/s = 89.6 % of 1e9. Intensity 1024/896 = 1.143 < ridge 4.096: the roof is
  // 1.143 x 1e9, reached to 89.6 %: memory bound.
  EXPECT_DOUBLE_EQ(dot.flop_rate_per_s, 1.024e9);
  EXPECT_DOUBLE_EQ(dot.flops_utilization_percent, 25.0);
  EXPECT_NEAR(dot.bandwidth_utilization_percent, 89.6, 1e-9);
  EXPECT_NEAR(dot.roof_percent, 89.6, 1e-9);
  EXPECT_EQ(dot.bound_by, BoundBy::kMemory);
  // Wasted: 2 us x (1 - 0.896).
  EXPECT_NEAR(static_cast<double>(dot.wasted_time_ps), 2e6 * 0.104, 1);

  // Device-wide: (2048 + 32) FLOP in 12 us over 4.096e9.
  EXPECT_NEAR(r.summary.flops_utilization_percent, 100.0 * (2080.0 / 12e-6) / 4.096e9, 1e-9);
  auto tool = RunTool("hlo_stats", model, {});
  ASSERT_TRUE(tool.ok()) << tool.status().ToString();
  auto csv = (*tool)->TableCsv("hlo_ops");
  ASSERT_TRUE(csv.ok());
  EXPECT_NE(csv->find("fusion.2"), std::string::npos);
  EXPECT_NE((*tool)->ToJson(false).find("\"join_rate_percent\":75"), std::string::npos) << (*tool)->ToJson(false);
}

TEST(HloToolsTest, OpProfileNestsProgramCategoryOpAndFusedOps) {
  ProfileModel model = SmallModel();
  OpProfileResult r = ComputeOpProfile(model, {});
  ASSERT_EQ(r.root.children.size(), 1u);
  const OpProfileNode& program = r.root.children[0];
  EXPECT_EQ(program.name, "jit_small(7)");
  EXPECT_EQ(program.time_ps, 12 * kPsPerUs);
  ASSERT_EQ(program.children.size(), 2u);
  // Ordered by wasted time: the fusion wastes ~10 us, the dot 0.2 us.
  EXPECT_EQ(program.children[0].name, "loop fusion");
  EXPECT_EQ(program.children[1].name, "matmul");
  const OpProfileNode& fusion = program.children[0].children.at(0);
  EXPECT_EQ(fusion.name, "fusion.2");
  ASSERT_EQ(fusion.children.size(), 1u);
  EXPECT_EQ(fusion.children[0].name, "add");
  EXPECT_EQ(fusion.children[0].level, OpProfileLevel::kFusedOp);
  EXPECT_DOUBLE_EQ(fusion.children[0].flops_share_percent, 100.0);
  EXPECT_DOUBLE_EQ(program.time_percent, 100.0);

  // With idle time: the device span is 0 .. 19 us with 16 us busy: 3 us idle.
  ToolOptions idle;
  idle.include_idle = true;
  OpProfileResult with_idle = ComputeOpProfile(model, idle);
  ASSERT_EQ(with_idle.root.children.size(), 2u);
  EXPECT_EQ(with_idle.idle_time_ps, model.device_ops.idle_time_ps);
  EXPECT_GT(with_idle.idle_time_ps, 0);
  EXPECT_EQ(with_idle.root.time_ps, 12 * kPsPerUs + with_idle.idle_time_ps);
  double percents = 0;
  for (const OpProfileNode& child : with_idle.root.children) percents += child.time_percent;
  EXPECT_NEAR(percents, 100.0, 1e-9);
}

// The tree's JSON names a node's program, category, ... only at the levels that have them;
// its table is the tree flattened depth first, fused ops without time figures.
TEST(HloToolsTest, OpProfileJsonNestsAndItsTableFlattens) {
  auto tool = RunTool("op_profile", SmallModel(), {});
  ASSERT_TRUE(tool.ok()) << tool.status().ToString();
  const std::string json = (*tool)->ToJson(false);
  for (const char* part : {"\"root\":{\"level\":\"root\",\"name\":\"all programs\",\"occurrences\":",
                           "{\"level\":\"program\",\"name\":\"jit_small(7)\",\"occurrences\":",
                           "{\"level\":\"category\",\"name\":\"loop fusion\",\"program\":\"jit_small(7)\","
                           "\"occurrences\":",
                           "\"flops_share_percent\":100,\"children\":[]}"}) {
    EXPECT_NE(json.find(part), std::string::npos) << part << " in " << json;
  }
  EXPECT_EQ(json.find("\"program\":null"), std::string::npos) << "absent, not null";

  std::vector<output::Table> tables = (*tool)->Tables();
  ASSERT_EQ(tables.size(), 1u);
  const output::Table& t = tables[0];
  EXPECT_EQ(t.name, "op_profile");
  std::vector<std::string> ids;
  for (const output::Column& c : t.columns) ids.push_back(c.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"level", "depth", "program", "category", "name", "opcode", "occurrences",
                                           "time_us", "time_percent", "gflops", "flops_utilization_percent",
                                           "bandwidth_utilization_percent", "wasted_time_us", "bound_by"}));
  // program, category, fusion, its fused add, category, dot.
  ASSERT_EQ(t.rows.size(), 6u);
  EXPECT_EQ(std::get<std::string>(t.rows[0][0]), "program");
  EXPECT_EQ(std::get<int64_t>(t.rows[0][1]), 0);
  EXPECT_EQ(std::get<std::string>(t.rows[3][0]), "fused_op");
  EXPECT_EQ(std::get<int64_t>(t.rows[3][1]), 3);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(t.rows[3][7])) << "a fused op has no time of its own";
  EXPECT_DOUBLE_EQ(std::get<double>(t.rows[0][7]), 12.0);
}

TEST(HloToolsTest, RooflinePlacesOpsProgramsAndTheTotal) {
  ProfileModel model = SmallModel();
  RooflineResult r = ComputeRoofline(model);
  EXPECT_FALSE(r.step.has_value());
  ASSERT_EQ(r.points.size(), 4u);  // total, one program, two ops
  EXPECT_EQ(r.points[0].level, "total");
  EXPECT_EQ(r.points[1].level, "program");
  const RooflinePoint& dot = r.points[3];
  EXPECT_EQ(dot.name, "dot.1");
  EXPECT_NEAR(dot.arithmetic_intensity, 1024.0 / 896, 1e-12);
  EXPECT_NEAR(dot.attainable_gflop_rate, 1024.0 / 896, 1e-9);  // intensity x 1 GB/s
  EXPECT_DOUBLE_EQ(dot.gflop_rate, 1.024);
  // Total: 2080 FLOP over 1792 + 256 = 2048 B.
  EXPECT_NEAR(r.points[0].arithmetic_intensity, 2080.0 / 2048, 1e-12);
}

TEST(HloToolsTest, OverviewShowsFlopUtilisationAndTheAdvisorNamesTheOpFurthestBelowItsRoof) {
  ProfileModel model = SmallModel();
  OverviewPage overview = ComputeOverviewPage(model);
  ASSERT_TRUE(overview.xla.has_value());
  EXPECT_NEAR(overview.xla->flops_utilization_percent, 100.0 * (2080.0 / 12e-6) / 4.096e9, 1e-9);
  StructToolResult<OverviewPage> result(overview);
  EXPECT_NE(result.ToJson(false).find("\"xla\":{"), std::string::npos);
  EXPECT_NE(result.FormatText({}).find("FLOP utilisation"), std::string::npos);

  // fusion.2: 10 of 12 us (83 %) at 2.56 % of its roof; dot.1 at 89.6 % is not named.
  AdvisorReport advice = ComputeAdvice(model);
  const Finding* below = nullptr;
  for (const Finding& f : advice.findings) {
    if (f.id == "hlo_ops_below_roof") below = &f;
  }
  ASSERT_NE(below, nullptr);
  EXPECT_NE(below->evidence.find("fusion.2 (loop fusion, 83.3 % of HLO op time) reaches 2.6 % of its roof, latency bound"),
            std::string::npos)
      << below->evidence;
  EXPECT_EQ(below->evidence.find("dot.1"), std::string::npos);
  EXPECT_EQ(below->severity, Severity::kMedium);  // ~10 of 12 us wasted
  EXPECT_EQ(below->tool, "op_profile");

  // Not an XLA profile: no xla key, and the rule is not among the checks.
  ProfileModel plain;
  EXPECT_FALSE(ComputeOverviewPage(plain).xla.has_value());
  for (const CheckOutcome& check : ComputeAdvice(plain).checks) EXPECT_NE(check.id, "hlo_ops_below_roof");
}

TEST(HloToolsTest, RooflineOfOneStepCountsThatStepsKernelsOnly) {
  ModelOptions options;
  options.step = 2;
  StatusOr<ProfileModel> model = BuildProfileModelFromXSpace(SmallProfile(/*with_steps=*/true), options);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  RooflineResult r = ComputeRoofline(*model);
  ASSERT_TRUE(r.step.has_value());
  EXPECT_EQ(*r.step, 2);
  // Step 2 ran the second dot.1 (1 us) and the kernel without hlo_op.
  EXPECT_EQ(model->hlo_join.kernels, 2);
  EXPECT_EQ(model->hlo_join.kernels_joined, 1);
  ASSERT_EQ(r.points.size(), 3u);  // total, program, dot.1
  EXPECT_EQ(r.points[2].name, "dot.1");
  EXPECT_EQ(r.points[2].occurrences, 1);
  EXPECT_DOUBLE_EQ(r.points[2].time_us, 1.0);
  // 1024 FLOP in 1 us: 1.024 GFLOP/s, as over the whole profile.
  EXPECT_DOUBLE_EQ(r.points[2].gflop_rate, 1.024);

  StatusOr<ProfileModel> whole = BuildProfileModelFromXSpace(SmallProfile(/*with_steps=*/true));
  ASSERT_TRUE(whole.ok());
  EXPECT_FALSE(ComputeRoofline(*whole).step.has_value());
  EXPECT_EQ(whole->hlo_join.kernels, 4);
}

TEST(HloToolsTest, ToolsAreListedOnlyForXlaProfiles) {
  ProfileModel none;
  for (const char* id : {"hlo_stats", "op_profile", "roofline_model"}) {
    auto result = RunTool(id, none, {});
    ASSERT_FALSE(result.ok()) << id;
    EXPECT_NE(result.status().message().find("Hlo Proto"), std::string::npos) << result.status().message();
  }
}

// A program that is there but cannot be read: the reader's reason reaches the user, not
// "no XLA programs".
TEST(HloToolsTest, AnUnreadableProgramIsReportedWithTheReadersReason) {
  StatusOr<ProfileModel> model =
      BuildProfileModelFromXSpace(hlo::testing::ProfileWithProgram("jit_broken(3)", std::string("\x0a\xff\xff\xff", 4)));
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_NE(model->hlo, nullptr);
  ASSERT_FALSE(model->hlo->diagnostics.empty());
  const std::string reason = model->hlo->diagnostics.front();
  for (const char* id : {"memory_viewer", "graph_viewer"}) {
    auto result = RunTool(id, *model, {});
    ASSERT_FALSE(result.ok()) << id;
    EXPECT_NE(result.status().message().find("could not be read: " + reason), std::string::npos)
        << result.status().message();
  }
  auto stats = RunTool("hlo_stats", *model, {});
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_NE((*stats)->ToJson(false).find(reason), std::string::npos) << "hlo_stats says why it has no programs";
}

std::string XPlaneFile(std::string_view name) {
  return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane/" + std::string(name);
}

TEST(HloToolsTest, RealJaxFilesGiveCostedOpsAndTheDeviceRoofs) {
  for (const char* name :
       {"tracelens_jax_mi300_conv_minimal_8gpu.xplane.pb", "tracelens_jax_mi300_te_fused_attn.xplane.pb"}) {
    SCOPED_TRACE(name);
    StatusOr<ProfileModel> model = BuildProfileModelFromFile(XPlaneFile(name));
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    HloStatsResult stats = ComputeHloStats(*model);
    EXPECT_TRUE(stats.summary.peaks.known());
    ASSERT_FALSE(stats.rows.empty());
    double flops = 0;
    for (const HloStatsRow& row : stats.rows) {
      // Every joined op is costed, except custom calls the model cannot see into (fused
      // attention): their FLOPs are unknown, not zero.
      EXPECT_EQ(row.op.has_cost, row.op.opcode != "custom-call" || row.op.category == "matmul" ||
                                     row.op.category == "convolution")
          << row.op.op_name;
      EXPECT_NE(row.op.category, "unknown") << row.op.op_name;
      // Measured work never beats the device: a rate over a roof would mean the cost
      // model counts bytes or FLOPs the kernels cannot have moved or done.
      EXPECT_LE(row.op.flops_utilization_percent, 100.0) << row.op.op_name;
      EXPECT_LE(row.op.bandwidth_utilization_percent, 100.0) << row.op.op_name;
      flops += row.op.flops;
    }
    EXPECT_GT(flops, 0);
    EXPECT_GT(stats.summary.flops_utilization_percent, 0);
    EXPECT_LT(stats.summary.flops_utilization_percent, 100);
    for (const char* id : {"hlo_stats", "op_profile", "roofline_model"}) {
      auto tool = RunTool(id, *model, {});
      ASSERT_TRUE(tool.ok()) << id << ": " << tool.status().ToString();
      EXPECT_FALSE((*tool)->ToJson(false).empty());
      EXPECT_FALSE((*tool)->FormatText({}).empty());
    }
  }
}

}  // namespace
}  // namespace stepscope::analysis
