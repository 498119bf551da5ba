// Synthetic profiles with known answers, written with the XSpace builder, for the golden
// tests. Each scenario documents the numbers a correct analysis must report, so the
// checked-in expected JSON can be reviewed against this comment (and targeted
// assertions in golden_test.cc check the key ones).
#pragma once

#include "src/xspace/xplane.h"

namespace stepscope::golden {

// cpu_input_bound: a CPU-only training loop, 6 steps.
//   main thread (tid 1): step k = "train" [11k, 11k+10) ms (step_num k, _r 1), inside it
//     IteratorGetNext [0, 6), forward [6, 8), backward [8, 9.5); 0.5 ms unexplained; 1 ms
//     between steps.
//   input thread (tid 2, "tf_data_worker"): Iterator::Prefetch::Map [0.5, 5.5) with a
//     child Iterator::Prefetch::Map::TFRecord [0.5, 1.5) per step.
// Expected: 6 steps of 10 ms; input 60 % -> "highly"; host breakdown per profile:
//   preprocessing 6 x 4 ms = 24 ms, advanced file read 6 x 1 ms = 6 ms.
xspace::XSpace CpuInputBoundSpace();

// gpu_host_device: one host thread launching work on /device:GPU:0 (V100-like caps),
// 4 steps of 10 ms at [10k, 10k+10):
//   host: IteratorGetNext [0, 1); "model/dense/MatMul:MatMul" [1, 3) holding
//     cudaLaunchKernel [1, 1.5) (corr 1) and [1.5, 2) (corr 2), cudaMemcpyAsync [2, 2.5)
//     (corr 3, H2D) and [2.5, 3) (corr 4, D2H).
//   device: Stream #8(MemcpyH2D) MemcpyH2D [3, 3.5) 1 MiB (corr 3);
//     Stream #7(Compute): volta_h884gemm (corr 1) [3.5, 6.5) on half shapes and
//     volta_sgemm (corr 2) [6.5, 8.5) on float shapes, both for model/dense/MatMul;
//     Stream #9(MemcpyD2H) MemcpyD2H [8.5, 9.5) 4 KiB (corr 4).
// Expected per step: wait input 1, kernel launch 2 (the launches beat the MatMul host
//   op), H2D 0.5, device compute 16-bit 3 and 32-bit 2, D2H 1, unknown 0.5.
//   -> input (1 + 0.5) / 10 = 15 % ("moderately"), kernel launch 20 %, output 10 %,
//   16-bit share 3 / 5 = 60 %; sgemm is Tensor-Core eligible (".../MatMul") without
//   using them: 2 of 5 ms = 40 % of kernel time.
xspace::XSpace GpuHostDeviceSpace();

// multi_thread: steps on the main thread, nested framework ops on two worker threads.
//   main (tid 1): "train" steps k = 0..2 at [20k, 20k+20) holding IteratorGetNext
//     [0, 0.5) and forward [0.5, 19.5) (the main thread waits while workers compute).
//   tf_Compute/11: "model/conv/Conv2D:Conv2D" [1, 9) holding "model/conv/BiasAdd:BiasAdd"
//     [2, 4) and "model/conv/Relu:Relu" [5, 6).
//   tf_Compute/12: "model/dense/MatMul:MatMul" [3, 15) holding
//     "model/dense/MatMul/ReadVariableOp:ReadVariableOp" [3, 4).
// Expected host op self times over 3 steps: forward 57 ms, Conv2D 3 x 5 = 15 ms, MatMul
//   3 x 11 = 33 ms, BiasAdd 6 ms, Relu 3 ms, ReadVariableOp 3 ms, IteratorGetNext 1.5 ms.
//   Worker-thread ops carry no link to the step (no group_id), so as in the TF Profiler
//   the step breakdown sees only the main thread: input 2.5 % ("not"), host compute
//   95 %, unexplained 2.5 % (< 3 %: not even "potentially"); the advisor stays silent.
xspace::XSpace MultiThreadSpace();

}  // namespace stepscope::golden
