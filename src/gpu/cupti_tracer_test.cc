// The CUPTI tracer where no GPU is usable (this build machine and CI): a session asking for
// device tracing must still profile the host, and say once, plainly, why the GPU is
// missing. On a machine with a GPU these tests skip: tools/device/gpu_checks.sh covers it.
#include "src/gpu/cupti_tracer.h"

#include <dlfcn.h>

#include <cuda_runtime_api.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/gpu/nvml_sampler.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"
#include "stepscope/annotation.h"
#include "stepscope/session.h"

namespace stepscope::gpu {
namespace {

bool GpuUsable() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

TEST(CuptiTracerTest, NotMadeWhenDeviceTracingIsOff) {
  ProfileOptions options;
  options.device_tracer_level = 0;
  EXPECT_EQ(MakeCuptiTracer(options), nullptr);
  options.device_tracer_level = 1;
  std::unique_ptr<collect::Tracer> tracer = MakeCuptiTracer(options);
  ASSERT_NE(tracer, nullptr);
  EXPECT_EQ(tracer->kind(), collect::TracerKind::kDevice);
  EXPECT_STREQ(tracer->name(), "cupti");
}

TEST(CuptiTracerTest, WithoutAGpuTheHostIsProfiledAndTheProfileSaysWhy) {
  if (GpuUsable()) GTEST_SKIP() << "a GPU is usable here: tools/device/gpu_checks.sh checks the real thing";
  // Linking stepscope::gpu registered the tracer (register_cupti_tracer.cc).
  ProfileOptions options;
  options.device_tracer_level = 1;
  StatusOr<std::unique_ptr<Session>> session = Session::Start(options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  { STEPSCOPE_ANNOTATE("host_work"); }
  ASSERT_TRUE((*session)->Stop().ok());
  xspace::XSpace space;
  ASSERT_TRUE((*session)->CollectXSpace(&space).ok());
  std::vector<std::string> warnings(space.warnings().begin(), space.warnings().end());
  EXPECT_THAT(warnings, testing::Contains(testing::AllOf(testing::HasSubstr("cupti tracer did not start"),
                                                         testing::HasSubstr("no GPU to trace"),
                                                         testing::HasSubstr("profiling the host only"))));
  EXPECT_THAT(warnings, testing::Not(testing::Contains(testing::HasSubstr("no device tracer is built"))))
      << "the tracer exists; the warning must say why it did not run, not that it is missing";
  const xspace::XPlane* host = xspace::FindPlaneWithName(space, xspace::kHostThreadsPlaneName);
  ASSERT_NE(host, nullptr);
  bool found = false;
  for (const auto& [id, metadata] : host->event_metadata()) found |= metadata.name() == "host_work";
  EXPECT_TRUE(found) << "host profiling continues without the GPU";
  for (const xspace::XPlane& plane : space.planes()) EXPECT_FALSE(xspace::IsGpuPlaneName(plane.name())) << plane.name();
}

TEST(NvmlSamplerTest, WithoutTheDriversLibraryItSaysWhyAndSamplesNothing) {
  if (void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(nvml);
    GTEST_SKIP() << "NVML is installed here";
  }
  NvmlSampler sampler;
  std::string why;
  EXPECT_FALSE(sampler.Start({"0000:00:00.0"}, &why));
  EXPECT_THAT(why, testing::HasSubstr("libnvidia-ml.so.1"));
  EXPECT_TRUE(sampler.Stop().empty());
}

}  // namespace
}  // namespace stepscope::gpu
