// The CUPTI tracer where no GPU is usable (this build machine and CI): a session asking for
// device tracing must still profile the host, and say once, plainly, why the GPU is
// missing. On a machine with a GPU these tests skip: tools/device/gpu_checks.sh covers it.
#include "src/gpu/cupti_tracer.h"

#include <dlfcn.h>

#include <cuda_runtime_api.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/gpu/nvml_sampler.h"
#include "src/gpu/occupancy.h"
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

// An H100 SXM's limits (cudaGetDeviceProperties on one): 2048 threads and 64 Ki registers
// per SM, 228 KiB of shared memory per SM, 227 KiB per block opted in.
cudaOccDeviceProp H100() {
  cudaOccDeviceProp p;
  p.computeMajor = 9;
  p.computeMinor = 0;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiprocessor = 2048;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.warpSize = 32;
  p.sharedMemPerBlock = 49152;
  p.sharedMemPerMultiprocessor = 233472;
  p.numSms = 132;
  p.sharedMemPerBlockOptin = 232448;
  p.reservedSharedMemPerBlock = 1024;
  return p;
}

TEST(OccupancyTest, RegistersAndSharedMemoryLimitTheWarpsPerSm) {
  // 256 threads with 32 registers: 8 blocks = 64 warps, the SM's maximum.
  EXPECT_DOUBLE_EQ(OccupancyPercent(H100(), 256, 32, 0, 0), 100.0);
  // 128 registers a thread: 32 Ki registers a block, 2 blocks = 16 of 64 warps.
  EXPECT_DOUBLE_EQ(OccupancyPercent(H100(), 256, 128, 0, 0), 25.0);
  // 100 KiB of dynamic shared memory a block: 2 blocks fit in 228 KiB (with 1 KiB reserved
  // each) = 16 of 64 warps.
  EXPECT_DOUBLE_EQ(OccupancyPercent(H100(), 256, 32, 0, 100 * 1024), 25.0);
  EXPECT_EQ(OccupancyPercent(H100(), 0, 32, 0, 0), 0.0);
  EXPECT_EQ(OccupancyPercent(H100(), 2048, 32, 0, 0), 0.0) << "over the block limit";
}

}  // namespace
}  // namespace stepscope::gpu
