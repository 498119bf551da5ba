#include "src/remote/capture_plan.h"

#include <gtest/gtest.h>

#include "src/xspace/xplane.h"

namespace stepscope::remote {
namespace {

constexpr uint64_t kNowNs = 1700000000ull * 1000000000ull;

tensorflow::ProfileRequest Request(uint64_t duration_ms) {
  tensorflow::ProfileRequest request;
  request.mutable_opts()->set_version(1);
  request.mutable_opts()->set_duration_ms(duration_ms);
  request.mutable_opts()->set_host_tracer_level(2);
  request.mutable_opts()->set_device_tracer_level(1);
  request.set_emit_xspace(true);
  return request;
}

TEST(CapturePlanTest, DurationFromOptsOrLegacyField) {
  ProfilerServerOptions limits;
  auto plan = PlanCapture(Request(1500), limits, kNowNs, "h");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->duration_ms, 1500u);

  tensorflow::ProfileRequest legacy = Request(0);
  legacy.set_duration_ms(700);  // old clients set only ProfileRequest.duration_ms
  plan = PlanCapture(legacy, limits, kNowNs, "h");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->duration_ms, 700u);
}

TEST(CapturePlanTest, ZeroAndAbsurdDurationsAreRejectedWithTheLimit) {
  ProfilerServerOptions limits;
  limits.max_duration_ms = 60000;
  auto plan = PlanCapture(Request(0), limits, kNowNs, "h");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(plan.status().message().find("duration_ms is 0"), std::string::npos);

  plan = PlanCapture(Request(UINT64_MAX), limits, kNowNs, "h");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(plan.status().message().find("60000"), std::string::npos) << plan.status().message();

  EXPECT_TRUE(PlanCapture(Request(60000), limits, kNowNs, "h").ok());
}

TEST(CapturePlanTest, VersionZeroUsesTensorFlowDefaultLevels) {
  tensorflow::ProfileRequest request = Request(100);
  request.mutable_opts()->set_version(0);
  request.mutable_opts()->set_host_tracer_level(0);
  request.mutable_opts()->set_device_tracer_level(0);
  auto plan = PlanCapture(request, {}, kNowNs, "h");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->options.host_tracer_level, 2);
  EXPECT_EQ(plan->options.device_tracer_level, 1);
  EXPECT_EQ(plan->options.python_tracer_level, 0);
}

TEST(CapturePlanTest, VersionOneLevelsAreTakenLiterallyAndClamped) {
  tensorflow::ProfileRequest request = Request(100);
  request.mutable_opts()->set_host_tracer_level(1);
  request.mutable_opts()->set_device_tracer_level(0);
  request.mutable_opts()->set_python_tracer_level(1);
  auto plan = PlanCapture(request, {}, kNowNs, "h");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->options.host_tracer_level, 1);
  EXPECT_EQ(plan->options.device_tracer_level, 0);
  EXPECT_EQ(plan->options.python_tracer_level, 1);

  request.mutable_opts()->set_host_tracer_level(4000000000u);
  plan = PlanCapture(request, {}, kNowNs, "h");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->options.host_tracer_level, 3);
}

TEST(CapturePlanTest, DelayedStartIsKeptAndFarFutureRejected) {
  tensorflow::ProfileRequest request = Request(100);
  request.mutable_opts()->set_start_timestamp_ns(kNowNs + 250 * 1000000ull);
  auto plan = PlanCapture(request, {}, kNowNs, "h");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->start_wall_ns, kNowNs + 250 * 1000000ull);

  request.mutable_opts()->set_start_timestamp_ns(kNowNs - 1000);  // late: start at once
  plan = PlanCapture(request, {}, kNowNs, "h");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->start_wall_ns, 0u);

  request.mutable_opts()->set_start_timestamp_ns(kNowNs + 24 * 3600 * 1000000000ull);
  plan = PlanCapture(request, {}, kNowNs, "h");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
}

TEST(CapturePlanTest, SavePathFollowsTensorFlowLayoutAndHostPrecedence) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_repository_root("/tmp/logs/plugins/profile");
  request.set_session_id("2026_01_02_03_04_05");
  request.set_host_name("10.0.0.1:6009");
  auto plan = PlanCapture(request, {}, kNowNs, "fallback");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->save_path, "/tmp/logs/plugins/profile/2026_01_02_03_04_05/10.0.0.1_6009.xplane.pb");

  (*request.mutable_opts()->mutable_advanced_configuration())["override_hostname"].set_string_value("adv");
  EXPECT_EQ(PlanCapture(request, {}, kNowNs, "f")->save_path,
            "/tmp/logs/plugins/profile/2026_01_02_03_04_05/adv.xplane.pb");
  request.mutable_opts()->set_override_hostname("worker:1");
  EXPECT_EQ(PlanCapture(request, {}, kNowNs, "f")->save_path,
            "/tmp/logs/plugins/profile/2026_01_02_03_04_05/worker_1.xplane.pb");

  request.mutable_opts()->clear_override_hostname();
  request.mutable_opts()->clear_advanced_configuration();
  request.clear_host_name();
  EXPECT_EQ(PlanCapture(request, {}, kNowNs, "myhost")->save_path,
            "/tmp/logs/plugins/profile/2026_01_02_03_04_05/myhost.xplane.pb");
}

TEST(CapturePlanTest, RepositoryRequestsThatCouldEscapeOrCannotBeServedAreRejected) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_repository_root("/tmp/r");
  request.set_session_id("../../etc");
  EXPECT_EQ(PlanCapture(request, {}, kNowNs, "h").status().code(), StatusCode::kInvalidArgument);
  request.set_session_id("..");
  EXPECT_EQ(PlanCapture(request, {}, kNowNs, "h").status().code(), StatusCode::kInvalidArgument);

  request.set_session_id("run");
  request.set_repository_root("gs://bucket/plugins/profile");
  EXPECT_EQ(PlanCapture(request, {}, kNowNs, "h").status().code(), StatusCode::kUnimplemented);

  request.set_repository_root("");
  EXPECT_EQ(PlanCapture(request, {}, kNowNs, "h").status().code(), StatusCode::kInvalidArgument);

  request.set_repository_root("/tmp/r");
  ProfilerServerOptions no_writes;
  no_writes.allow_repository_writes = false;
  EXPECT_EQ(PlanCapture(request, no_writes, kNowNs, "h").status().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(PlanCapture(request, {}, kNowNs, "h").ok());
}

TEST(CapturePlanTest, MissingSessionIdBecomesATimestamp) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_repository_root("/tmp/r/");
  auto plan = PlanCapture(request, {}, kNowNs, "h");
  ASSERT_TRUE(plan.ok());
  // "/tmp/r/YYYY_MM_DD_HH_MM_SS/h.xplane.pb"
  EXPECT_EQ(plan->save_path.size(), std::string("/tmp/r/2023_11_14_22_13_20/h.xplane.pb").size());
  EXPECT_EQ(plan->save_path.rfind("/tmp/r/20", 0), 0u);
}

TEST(CapturePlanTest, XplaneToolDataOnlyWhenEnabledAndRequested) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_repository_root("/tmp/r");
  request.add_tools("trace_viewer");
  request.add_tools("xplane.pb");
  EXPECT_FALSE(PlanCapture(request, {}, kNowNs, "h")->return_xplane_tool_data);
  ProfilerServerOptions limits;
  limits.return_xplane_tool_data = true;
  EXPECT_TRUE(PlanCapture(request, limits, kNowNs, "h")->return_xplane_tool_data);
  request.clear_tools();
  EXPECT_FALSE(PlanCapture(request, limits, kNowNs, "h")->return_xplane_tool_data);
}

TEST(CapturePlanTest, EmptinessLooksAtEventsNotPlanes) {
  xspace::XSpace space;
  xspace::XPlane* plane = space.add_planes();
  plane->set_name("/host:CPU");
  plane->add_lines()->set_id(1);
  EXPECT_TRUE(XSpaceHasNoEvents(space));
  plane->mutable_lines(0)->add_events()->set_metadata_id(1);
  EXPECT_FALSE(XSpaceHasNoEvents(space));
}

}  // namespace
}  // namespace stepscope::remote
