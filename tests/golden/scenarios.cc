#include "tests/golden/scenarios.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::golden {
namespace {

using xspace::XEventBuilder;
using xspace::XLineBuilder;
using xspace::XPlaneBuilder;

constexpr int64_t kPsPerMs = 1'000'000'000;

// Adds an event [begin_ms, end_ms) to `line` (lines start at 0) and returns its builder.
XEventBuilder AddEvent(XPlaneBuilder& plane, XLineBuilder& line, std::string_view name, double begin_ms,
                       double end_ms) {
  XEventBuilder event = line.AddEvent(*plane.GetOrCreateEventMetadata(name));
  event.SetOffsetPs(static_cast<int64_t>(begin_ms * kPsPerMs));
  event.SetDurationPs(static_cast<int64_t>((end_ms - begin_ms) * kPsPerMs));
  return event;
}

void AddStepMarker(XPlaneBuilder& plane, XLineBuilder& line, int64_t step, double begin_ms, double end_ms) {
  XEventBuilder train = AddEvent(plane, line, "train", begin_ms, end_ms);
  train.AddStatValue(*plane.GetOrCreateStatMetadata("step_num"), step);
  train.AddStatValue(*plane.GetOrCreateStatMetadata("_r"), int64_t{1});
}

void AddHostEnvironment(XPlaneBuilder& host, std::string_view name) {
  host.AddStatValue(*host.GetOrCreateStatMetadata("host_name"), name);
  host.AddStatValue(*host.GetOrCreateStatMetadata("logical_cores"), int64_t{8});
  host.AddStatValue(*host.GetOrCreateStatMetadata("process_id"), int64_t{4242});
}

}  // namespace

xspace::XSpace CpuInputBoundSpace() {
  xspace::XSpace space;
  space.add_hostnames("cpu-host");
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  AddHostEnvironment(host, "cpu-host");
  XLineBuilder main = host.GetOrCreateLine(1);
  main.SetName("main");
  XLineBuilder worker = host.GetOrCreateLine(2);
  worker.SetName("tf_data_worker");
  for (int k = 0; k < 6; ++k) {
    const double b = 11.0 * k;
    AddStepMarker(host, main, k, b, b + 10);
    AddEvent(host, main, "IteratorGetNext", b, b + 6);
    AddEvent(host, main, "forward", b + 6, b + 8);
    AddEvent(host, main, "backward", b + 8, b + 9.5);
    AddEvent(host, worker, "Iterator::Prefetch::Map", b + 0.5, b + 5.5);
    AddEvent(host, worker, "Iterator::Prefetch::Map::TFRecord", b + 0.5, b + 1.5);
  }
  return space;
}

xspace::XSpace GpuHostDeviceSpace() {
  xspace::XSpace space;
  space.add_hostnames("gpu-host");
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  AddHostEnvironment(host, "gpu-host");
  XLineBuilder main = host.GetOrCreateLine(1);
  main.SetName("main");

  XPlaneBuilder gpu(space.add_planes());
  gpu.SetName("/device:GPU:0");
  gpu.SetId(1);
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("core_count"), int64_t{80});
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("clock_rate"), int64_t{1530000});
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("compute_cap_major"), int64_t{7});
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("compute_cap_minor"), int64_t{0});
  gpu.AddStatValue(*gpu.GetOrCreateStatMetadata("device_vendor"), "Nvidia");
  XLineBuilder compute = gpu.GetOrCreateLine(7);
  compute.SetName("Stream #7(Compute)");
  XLineBuilder h2d = gpu.GetOrCreateLine(8);
  h2d.SetName("Stream #8(MemcpyH2D)");
  XLineBuilder d2h = gpu.GetOrCreateLine(9);
  d2h.SetName("Stream #9(MemcpyD2H)");

  const auto& corr_md = *host.GetOrCreateStatMetadata("correlation_id");
  const auto& dev_corr_md = *gpu.GetOrCreateStatMetadata("correlation_id");
  const auto& kernel_details = *gpu.GetOrCreateStatMetadata("kernel_details");
  const auto& memcpy_details = *gpu.GetOrCreateStatMetadata("memcpy_details");
  const auto& tf_op = *gpu.GetOrCreateStatMetadata("tf_op");
  const auto& shape = *gpu.GetOrCreateStatMetadata("shape");
  for (int k = 0; k < 4; ++k) {
    const double b = 10.0 * k;
    const uint64_t corr = 10 * k;
    AddStepMarker(host, main, k, b, b + 10);
    AddEvent(host, main, "IteratorGetNext", b, b + 1);
    AddEvent(host, main, "model/dense/MatMul:MatMul", b + 1, b + 3);
    AddEvent(host, main, "cudaLaunchKernel", b + 1, b + 1.5).AddStatValue(corr_md, corr + 1);
    AddEvent(host, main, "cudaLaunchKernel", b + 1.5, b + 2).AddStatValue(corr_md, corr + 2);
    AddEvent(host, main, "cudaMemcpyAsync", b + 2, b + 2.5).AddStatValue(corr_md, corr + 3);
    AddEvent(host, main, "cudaMemcpyAsync", b + 2.5, b + 3).AddStatValue(corr_md, corr + 4);

    XEventBuilder copy_in = AddEvent(gpu, h2d, "MemcpyH2D", b + 3, b + 3.5);
    copy_in.AddStatValue(dev_corr_md, corr + 3);
    copy_in.AddRefStatValue(memcpy_details, "kind_src:pinned kind_dst:device size:1048576 dest:0 async:1");
    XEventBuilder tc = AddEvent(gpu, compute, "volta_h884gemm_64x64_ldg8_nn", b + 3.5, b + 6.5);
    tc.AddStatValue(dev_corr_md, corr + 1);
    tc.AddRefStatValue(kernel_details, "regs:128 static_shared:0 dynamic_shared:49152 grid:80,2,1 block:256,1,1 occ_pct:25");
    tc.AddRefStatValue(tf_op, "model/dense/MatMul:MatMul");
    tc.AddRefStatValue(shape, "(half[256,1024], half[1024,1024])");
    XEventBuilder sgemm = AddEvent(gpu, compute, "volta_sgemm_128x64_nn", b + 6.5, b + 8.5);
    sgemm.AddStatValue(dev_corr_md, corr + 2);
    sgemm.AddRefStatValue(kernel_details, "regs:64 static_shared:1024 dynamic_shared:0 grid:80,1,1 block:256,1,1 occ_pct:50");
    sgemm.AddRefStatValue(tf_op, "model/dense/MatMul:MatMul");
    sgemm.AddRefStatValue(shape, "(float[256,1024], float[1024,1024])");
    XEventBuilder copy_out = AddEvent(gpu, d2h, "MemcpyD2H", b + 8.5, b + 9.5);
    copy_out.AddStatValue(dev_corr_md, corr + 4);
    copy_out.AddRefStatValue(memcpy_details, "kind_src:device kind_dst:pinned size:4096 dest:0 async:1");
  }
  return space;
}

xspace::XSpace MultiThreadSpace() {
  xspace::XSpace space;
  space.add_hostnames("mt-host");
  XPlaneBuilder host(space.add_planes());
  host.SetName(xspace::kHostThreadsPlaneName);
  AddHostEnvironment(host, "mt-host");
  XLineBuilder main = host.GetOrCreateLine(1);
  main.SetName("main");
  XLineBuilder w1 = host.GetOrCreateLine(11);
  w1.SetName("tf_Compute/11");
  XLineBuilder w2 = host.GetOrCreateLine(12);
  w2.SetName("tf_Compute/12");
  for (int k = 0; k < 3; ++k) {
    const double b = 20.0 * k;
    AddStepMarker(host, main, k, b, b + 20);
    AddEvent(host, main, "IteratorGetNext", b, b + 0.5);
    AddEvent(host, main, "forward", b + 0.5, b + 19.5);
    AddEvent(host, w1, "model/conv/Conv2D:Conv2D", b + 1, b + 9);
    AddEvent(host, w1, "model/conv/BiasAdd:BiasAdd", b + 2, b + 4);
    AddEvent(host, w1, "model/conv/Relu:Relu", b + 5, b + 6);
    AddEvent(host, w2, "model/dense/MatMul:MatMul", b + 3, b + 15);
    AddEvent(host, w2, "model/dense/MatMul/ReadVariableOp:ReadVariableOp", b + 3, b + 4);
  }
  return space;
}

}  // namespace stepscope::golden
