// What the CUPTI tracer writes, read by the analysis: a real stepscope session records
// steps and annotations on this thread, a synthesised GPU capture (as the tracer would
// copy it from CUPTI: launches on this thread inside those annotations, kernels and
// copies on two streams) is converted into the same XSpace, and the profile model must
// find every kernel with its launch parameters, the copies with their bytes, the device's
// busy time, and device time inside the steps. Expected figures are computed here from the
// capture itself. Needs no GPU and no CUDA.
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/analysis/model/build_profile_model.h"
#include "src/collect/tracer.h"
#include "src/base/clock.h"
#include "src/gpu/activity_to_xspace.h"
#include "stepscope/annotation.h"
#include "stepscope/session.h"
#include "stepscope/step.h"

namespace stepscope {
namespace {

using gpu::ActivityCapture;
using gpu::ActivityKind;
using gpu::ActivityRecord;
using gpu::ApiCallRecord;
using gpu::CopyKind;

void SpinFor(uint64_t ns) {
  const uint64_t end = base::MonotonicNowNs() + ns;
  while (base::MonotonicNowNs() < end) {
  }
}

// Union of [begin, end) spans, in ns.
uint64_t UnionNs(std::vector<std::pair<uint64_t, uint64_t>> spans) {
  std::sort(spans.begin(), spans.end());
  uint64_t total = 0, cur_begin = 0, cur_end = 0;
  bool open = false;
  for (auto [b, e] : spans) {
    if (!open || b > cur_end) {
      if (open) total += cur_end - cur_begin;
      cur_begin = b;
      cur_end = e;
      open = true;
    } else {
      cur_end = std::max(cur_end, e);
    }
  }
  return open ? total + cur_end - cur_begin : total;
}

// The CUPTI tracer without CUPTI: hands the session what the test recorded, through the
// same conversion CuptiTracer::CollectData uses.
ActivityCapture g_capture;

class ReplayTracer : public collect::Tracer {
 public:
  const char* name() const override { return "replay"; }
  collect::TracerKind kind() const override { return collect::TracerKind::kDevice; }
  Status Start() override { return OkStatus(); }
  Status Stop() override { return OkStatus(); }
  Status CollectData(const collect::SessionTimes& times, xspace::XSpace* space) override {
    gpu::AddCaptureToXSpace(g_capture, times.start_monotonic_ns, times.stop_monotonic_ns, space);
    return OkStatus();
  }
};

void RecordCopy(int64_t tid, uint32_t correlation) {
  STEPSCOPE_ANNOTATE("copy_batch");
  ApiCallRecord call{"cudaMemcpyAsync", base::MonotonicNowNs(), 0, tid, correlation, 0};
  SpinFor(20'000);
  call.end_ns = base::MonotonicNowNs();
  g_capture.api_calls.push_back(call);
  ActivityRecord copy;
  copy.kind = ActivityKind::kMemcpy;
  copy.copy_kind = CopyKind::kHostToDevice;
  copy.src_kind = "pinned";
  copy.dst_kind = "device";
  copy.bytes = 1 << 20;
  copy.stream_id = 14;
  copy.correlation_id = correlation;
  copy.start_ns = call.end_ns + 5'000;
  copy.end_ns = copy.start_ns + 100'000;
  g_capture.activities.push_back(copy);
}

void RecordLaunch(int64_t tid, uint32_t correlation) {
  STEPSCOPE_ANNOTATE("dense1");
  ApiCallRecord call{"cudaLaunchKernel", base::MonotonicNowNs(), 0, tid, correlation, 0};
  SpinFor(10'000);
  call.end_ns = base::MonotonicNowNs();
  g_capture.api_calls.push_back(call);
  ActivityRecord kernel;
  kernel.kind = ActivityKind::kKernel;
  kernel.name = "sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64";
  kernel.stream_id = 7;
  kernel.correlation_id = correlation;
  kernel.grid = {64, 4, 1};
  kernel.block = {128, 1, 1};
  kernel.registers_per_thread = 168;
  kernel.dynamic_shared_bytes = 65536;
  kernel.start_ns = call.end_ns + 30'000;  // overlaps the copy on the other stream
  kernel.end_ns = kernel.start_ns + 300'000;
  g_capture.activities.push_back(kernel);
}

TEST(GpuCaptureAnalysisTest, KernelsCopiesAndDeviceTimeReachTheProfileModel) {
  collect::RegisterTracerFactory([](const ProfileOptions& o) -> std::unique_ptr<collect::Tracer> {
    return o.device_tracer_level > 0 ? std::make_unique<ReplayTracer>() : nullptr;
  });
  const int64_t tid = static_cast<int64_t>(syscall(SYS_gettid));
  gpu::DeviceInfo device;
  device.name = "synthetic GPU";
  device.core_count = 132;
  device.clock_rate_khz = 1'980'000;
  g_capture.devices.push_back(device);

  ProfileOptions options;
  options.device_tracer_level = 1;
  StatusOr<std::unique_ptr<Session>> session = Session::Start(options);
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  constexpr int kSteps = 3;
  uint32_t correlation = 0;
  for (int64_t n = 0; n < kSteps; ++n) {
    Step step("train", n);
    RecordCopy(tid, ++correlation);
    RecordLaunch(tid, ++correlation);
    SpinFor(600'000);  // the step waits for the GPU
  }
  ASSERT_TRUE((*session)->Stop().ok());
  xspace::XSpace space;
  ASSERT_TRUE((*session)->CollectXSpace(&space).ok());
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();

  // Expected figures, from the capture.
  int64_t kernel_ps = 0, copy_bytes = 0, copy_count = 0;
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const ActivityRecord& r : g_capture.activities) {
    spans.push_back({r.start_ns, r.end_ns});
    if (r.kind == ActivityKind::kKernel) kernel_ps += static_cast<int64_t>(r.end_ns - r.start_ns) * 1000;
    if (r.kind == ActivityKind::kMemcpy) {
      copy_bytes += static_cast<int64_t>(r.bytes);
      ++copy_count;
    }
  }
  ASSERT_EQ(model->devices.size(), 1u);
  const analysis::DeviceActivity& gpu0 = model->devices[0];
  EXPECT_EQ(gpu0.plane_name, "/device:GPU:0");
  EXPECT_EQ(gpu0.capabilities.core_count, 132);
  EXPECT_EQ(gpu0.capabilities.device_name, "synthetic GPU");
  EXPECT_EQ(gpu0.kernel_count, kSteps);
  EXPECT_EQ(gpu0.kernel_time_ps, kernel_ps);
  EXPECT_EQ(gpu0.busy_ps, static_cast<int64_t>(UnionNs(spans)) * 1000);
  const analysis::MemcpyStats& h2d = gpu0.memcpy[static_cast<int>(analysis::MemcpyDirection::kHostToDevice)];
  EXPECT_EQ(h2d.count, copy_count);
  EXPECT_EQ(h2d.bytes, copy_bytes);
  ASSERT_EQ(gpu0.streams.size(), 2u);
  EXPECT_EQ(gpu0.streams[0].name, "Stream #7(Compute)");
  EXPECT_EQ(gpu0.streams[1].name, "Stream #14(MemcpyH2D)");

  ASSERT_EQ(model->kernels.size(), 1u);
  const analysis::KernelStats& gemm = model->kernels[0];
  EXPECT_EQ(gemm.occurrences, kSteps);
  EXPECT_EQ(gemm.total_duration_ps, kernel_ps);
  EXPECT_EQ(gemm.params.registers_per_thread, 168);
  EXPECT_EQ(gemm.params.dynamic_shared_memory_bytes, 65536);
  EXPECT_EQ(gemm.params.grid, (std::array<int64_t, 3>{64, 4, 1}));
  EXPECT_EQ(gemm.params.block, (std::array<int64_t, 3>{128, 1, 1}));
  EXPECT_TRUE(gemm.is_kernel_using_tensor_core) << "xmma gemm kernels use Tensor Cores";
  EXPECT_EQ(gemm.op_name, "dense1") << "the annotation around the launch names the kernel's op";

  // The steps found on the host hold the device work launched inside them.
  ASSERT_EQ(model->steps.size(), static_cast<size_t>(kSteps));
  for (const analysis::StepInfo& step : model->steps) {
    const auto& ps = step.breakdown.type_ps;
    const int64_t device = ps[static_cast<int>(analysis::EventType::kDeviceCompute32)] +
                           ps[static_cast<int>(analysis::EventType::kDeviceCompute16)];
    EXPECT_GT(device, 0) << "step " << step.step_number << ": the kernel it launched counts as its device compute";
    EXPECT_GT(ps[static_cast<int>(analysis::EventType::kHostToDevice)], 0) << "step " << step.step_number;
  }
}

// NVML samples as the tracer records them (every 100 ms per device; here chosen by hand),
// replayed through the conversion: the model summarises each counter of each device.
// SM utilisation 40, 90, 85, 20 at 0, 100, 200, 300 ms: mean 58.75, at or above 80 % for
// the two 100 ms intervals that start at 90 and 85, 200 of the 300 ms sampled.
TEST(GpuCaptureAnalysisTest, NvmlCountersAreSummarisedPerDevice) {
  constexpr uint64_t kT0 = 5'000'000'000;
  constexpr uint64_t kMsNs = 1'000'000;
  ActivityCapture capture;
  gpu::DeviceInfo device;
  device.ordinal = 0;
  device.name = "NVIDIA H100 80GB HBM3";
  device.memory_size_bytes = 80'000'000'000;
  capture.devices.push_back(device);
  ActivityRecord kernel;
  kernel.kind = ActivityKind::kKernel;
  kernel.name = "k";
  kernel.start_ns = kT0 + 10 * kMsNs;
  kernel.end_ns = kT0 + 20 * kMsNs;
  kernel.stream_id = 7;
  capture.activities = {kernel};
  const double sm[] = {40, 90, 85, 20};
  const double used[] = {10e9, 75e9, 73e9, 71e9};  // 90 % of 80 GB is 72 GB
  for (int i = 3; i >= 0; --i) {  // delivered out of order
    capture.counters.push_back({0, "sm_utilization_pct", kT0 + i * 100 * kMsNs, sm[i]});
    capture.counters.push_back({0, "memory_used_bytes", kT0 + i * 100 * kMsNs, used[i]});
    capture.counters.push_back({0, "power_watts", kT0 + i * 100 * kMsNs, 300.0 + i});
  }
  xspace::XSpace space;
  gpu::AddCaptureToXSpace(capture, kT0, kT0 + 400 * kMsNs, &space);
  StatusOr<analysis::ProfileModel> model = analysis::BuildProfileModelFromXSpace(space);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_EQ(model->devices.size(), 1u);
  const std::vector<analysis::DeviceCounterSummary>& counters = model->devices[0].counters;
  ASSERT_EQ(counters.size(), 3u);
  // Sorted by name.
  EXPECT_EQ(counters[0].name, "memory_used_bytes");
  EXPECT_EQ(counters[1].name, "power_watts");
  EXPECT_EQ(counters[2].name, "sm_utilization_pct");
  const analysis::DeviceCounterSummary& s = counters[2];
  EXPECT_EQ(s.samples, 4);
  EXPECT_DOUBLE_EQ(s.mean, (40 + 90 + 85 + 20) / 4.0);
  EXPECT_DOUBLE_EQ(s.min, 20);
  EXPECT_DOUBLE_EQ(s.max, 90);
  EXPECT_DOUBLE_EQ(s.last, 20);
  EXPECT_DOUBLE_EQ(s.threshold, 80);
  EXPECT_NEAR(s.time_at_or_above_threshold_percent, 100.0 * 200 / 300, 1e-9);
  const analysis::DeviceCounterSummary& m = counters[0];
  EXPECT_DOUBLE_EQ(m.threshold, 0.9 * 80e9);
  EXPECT_NEAR(m.time_at_or_above_threshold_percent, 100.0 * 200 / 300, 1e-9) << "75 and 73 GB hold 200 ms";
  EXPECT_EQ(counters[1].time_at_or_above_threshold_percent, -1) << "power has no threshold";
  EXPECT_DOUBLE_EQ(counters[1].max, 303);
}

}  // namespace
}  // namespace stepscope
