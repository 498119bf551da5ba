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

// A worker started with --profiler_repository /tmp/logs.
ProfilerServerOptions WithRoot(const std::string& root = "/tmp/logs") {
  ProfilerServerOptions limits;
  limits.repository_root = root;
  return limits;
}

TEST(CapturePlanTest, SavePathFollowsTensorFlowLayoutAndHostPrecedence) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_repository_root("/tmp/logs/plugins/profile");
  request.set_session_id("2026_01_02_03_04_05");
  request.set_host_name("10.0.0.1:6009");
  auto plan = PlanCapture(request, WithRoot(), kNowNs, "fallback");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->save_path, "/tmp/logs/plugins/profile/2026_01_02_03_04_05/10.0.0.1_6009.xplane.pb");
  ASSERT_TRUE(plan->repository.has_value());
  EXPECT_EQ(plan->repository->root, "/tmp/logs");
  EXPECT_EQ(plan->repository->directories,
            (std::vector<std::string>{"plugins", "profile", "2026_01_02_03_04_05"}));

  (*request.mutable_opts()->mutable_advanced_configuration())["override_hostname"].set_string_value("adv");
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "f")->save_path,
            "/tmp/logs/plugins/profile/2026_01_02_03_04_05/adv.xplane.pb");
  request.mutable_opts()->set_override_hostname("worker:1");
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "f")->save_path,
            "/tmp/logs/plugins/profile/2026_01_02_03_04_05/worker_1.xplane.pb");

  request.mutable_opts()->clear_override_hostname();
  request.mutable_opts()->clear_advanced_configuration();
  request.clear_host_name();
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "myhost")->save_path,
            "/tmp/logs/plugins/profile/2026_01_02_03_04_05/myhost.xplane.pb");
}

TEST(CapturePlanTest, RepositoryPathsInsideTheRootAreAccepted) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_session_id("run");
  request.set_host_name("h");
  for (const auto& [requested, expected] : std::vector<std::pair<std::string, std::string>>{
           {"/tmp/logs", "/tmp/logs/run/h.xplane.pb"},
           {"/tmp/logs/", "/tmp/logs/run/h.xplane.pb"},
           {"/tmp//logs/./a", "/tmp/logs/a/run/h.xplane.pb"},
           {"", "/tmp/logs/run/h.xplane.pb"},
           {"plugins/profile", "/tmp/logs/plugins/profile/run/h.xplane.pb"},
           {"./x", "/tmp/logs/x/run/h.xplane.pb"}}) {
    request.set_repository_root(requested);
    auto plan = PlanCapture(request, WithRoot(), kNowNs, "h");
    ASSERT_TRUE(plan.ok()) << requested << ": " << plan.status().ToString();
    EXPECT_EQ(plan->save_path, expected) << requested;
  }
  // The configured root is normalized too.
  request.set_repository_root("/tmp/logs/a");
  EXPECT_EQ(PlanCapture(request, WithRoot("/tmp/./logs/"), kNowNs, "h")->save_path, "/tmp/logs/a/run/h.xplane.pb");
}

TEST(CapturePlanTest, RepositoryPathsOutsideTheRootArePermissionDeniedNamingIt) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_session_id("run");
  for (const char* requested : {"../../etc", "/etc", "/tmp/logs2", "/tmp", "/tmp/logs/../x", "a/../../b",
                                "/tmp/logs/a/.."}) {
    request.set_repository_root(requested);
    auto plan = PlanCapture(request, WithRoot(), kNowNs, "h");
    ASSERT_FALSE(plan.ok()) << requested;
    EXPECT_EQ(plan.status().code(), StatusCode::kPermissionDenied) << requested;
    EXPECT_NE(plan.status().message().find("only below its repository root /tmp/logs"), std::string::npos)
        << plan.status().message();
  }
}

TEST(CapturePlanTest, WithoutARootOnlyEmitXSpaceIsServed) {
  tensorflow::ProfileRequest request = Request(100);
  EXPECT_TRUE(PlanCapture(request, {}, kNowNs, "h").ok());
  request.set_emit_xspace(false);
  request.set_repository_root("/tmp/x");
  request.set_session_id("run");
  auto plan = PlanCapture(request, {}, kNowNs, "h");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(plan.status().message().find("--profiler_repository DIR"), std::string::npos) << plan.status().message();
}

TEST(CapturePlanTest, SessionIdAndHostMustBeOneComponentAndRemoteRootsAreUnimplemented) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_repository_root("/tmp/logs");
  request.set_session_id("../../etc");
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "h").status().code(), StatusCode::kInvalidArgument);
  request.set_session_id("..");
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "h").status().code(), StatusCode::kInvalidArgument);
  request.set_session_id("a/b");
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "h").status().code(), StatusCode::kInvalidArgument);
  request.set_session_id(std::string("a\0b", 3));
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "h").status().code(), StatusCode::kInvalidArgument);
  request.set_session_id("run");
  request.set_host_name(std::string(300, 'h'));  // over a file name's 255 bytes
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "h").status().code(), StatusCode::kInvalidArgument);
  request.set_host_name("..");  // sanitized to "localhost", as for files the client writes
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "h")->save_path, "/tmp/logs/run/localhost.xplane.pb");
  request.clear_host_name();

  request.set_repository_root("gs://bucket/plugins/profile");
  EXPECT_EQ(PlanCapture(request, WithRoot(), kNowNs, "h").status().code(), StatusCode::kUnimplemented);
  request.set_repository_root("/tmp/logs");
  EXPECT_TRUE(PlanCapture(request, WithRoot(), kNowNs, "h").ok());
}

TEST(CapturePlanTest, MissingSessionIdBecomesATimestamp) {
  tensorflow::ProfileRequest request = Request(100);
  request.set_emit_xspace(false);
  request.set_repository_root("/tmp/r/");
  auto plan = PlanCapture(request, WithRoot("/tmp/r"), kNowNs, "h");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
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
  EXPECT_FALSE(PlanCapture(request, WithRoot("/tmp/r"), kNowNs, "h")->return_xplane_tool_data);
  ProfilerServerOptions limits = WithRoot("/tmp/r");
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
