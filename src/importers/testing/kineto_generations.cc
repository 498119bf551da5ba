#include "src/importers/testing/kineto_generations.h"

#include <cstdlib>

namespace stepscope::importers::testing {
namespace {

// PyTorch 1.8-1.9 (Kineto's first ChromeTraceLogger): categories Operator / Runtime /
// Kernel / Memcpy / Memset / User; host X events and thread_name carry the tid as a
// string ("1348") while the launch flow's "s" carries it as a number; device events and
// the "f" use pid = device and tid "stream 7"; flows "async"/"launch" with "bp": "e" on
// the "f"; runtime args correlation / external id / external ts; GPU user annotations on
// "stream 7 user"; peer copies (CUPTI's memcpy2 record) with fromDevice/inDevice/toDevice
// instead of "device". The backward pass runs on the autograd thread (1360), which has
// no step marker.
constexpr std::string_view kPyTorch19 = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "Tesla V100-SXM2-16GB", "totalGlobalMem": 16945512448, "computeMajor": 7, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
     "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
     "sharedMemPerMultiprocessor": 98304, "numSms": 80, "sharedMemPerBlockOptin": 98304}
  ],
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 90, "pid": 1348, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 90, "pid": 1348, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_name", "ph": "M", "ts": 90, "pid": 0, "tid": 0, "args": {"name": "GPU 0"}},
  {"name": "process_labels", "ph": "M", "ts": 90, "pid": 0, "tid": 0, "args": {"labels": "Tesla V100-SXM2-16GB"}},
  {"name": "thread_name", "ph": "M", "ts": 90, "pid": 1348, "tid": "1348", "args": {"name": "thread 1348 (python)"}},
  {"name": "thread_name", "ph": "M", "ts": 90, "pid": 1348, "tid": "1360", "args": {"name": "thread 1360 (pt_autograd_0)"}},
  {"ph": "X", "cat": "Operator", "name": "ProfilerStep#5", "pid": 1348, "tid": "1348", "ts": 100, "dur": 200,
   "args": {"Device": 1348, "External id": 1, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "Operator", "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
   "pid": 1348, "tid": "1348", "ts": 101, "dur": 30,
   "args": {"Device": 1348, "External id": 2, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "Operator", "name": "aten::to", "pid": 1348, "tid": "1348", "ts": 135, "dur": 15,
   "args": {"Device": 1348, "External id": 3, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "Operator", "name": "aten::copy_", "pid": 1348, "tid": "1348", "ts": 136, "dur": 13,
   "args": {"Device": 1348, "External id": 4, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "Runtime", "name": "cudaMemcpyAsync", "pid": 1348, "tid": "1348", "ts": 137, "dur": 10,
   "args": {"cbid": 41, "correlation": 301, "external id": 4, "external ts": 136}},
  {"ph": "s", "id": 301, "pid": 1348, "tid": 1348, "ts": 137, "cat": "async", "name": "launch"},
  {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": "stream 7",
   "ts": 140, "dur": 6,
   "args": {"device": 0, "context": 1, "stream": 7, "correlation": 301, "external id": 4, "bytes": 602112,
            "memory bandwidth (GB/s)": 100.352}},
  {"ph": "f", "id": 301, "pid": 0, "tid": "stream 7", "ts": 140, "cat": "async", "name": "launch", "bp": "e"},
  {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 1348, "tid": "1348", "ts": 155, "dur": 20,
   "args": {"Device": 1348, "External id": 5, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 1348, "tid": "1348", "ts": 160, "dur": 8,
   "args": {"cbid": 211, "correlation": 302, "external id": 5, "external ts": 155}},
  {"ph": "s", "id": 302, "pid": 1348, "tid": 1348, "ts": 160, "cat": "async", "name": "launch"},
  {"ph": "X", "cat": "Kernel", "name": "implicit_convolve_sgemm", "pid": 0, "tid": "stream 7", "ts": 170, "dur": 40,
   "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 302, "external id": 5,
            "registers per thread": 64, "shared memory": 4096, "blocks per SM": 1.5, "warps per SM": 12.0,
            "grid": [120, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 25}},
  {"ph": "f", "id": 302, "pid": 0, "tid": "stream 7", "ts": 170, "cat": "async", "name": "launch", "bp": "e"},
  {"ph": "X", "cat": "User", "name": "conv_block", "pid": 0, "tid": "stream 7 user", "ts": 169, "dur": 42,
   "args": {"External id": 5}},
  {"ph": "X", "cat": "Operator", "name": "aten::add_", "pid": 1348, "tid": "1348", "ts": 180, "dur": 10,
   "args": {"Device": 1348, "External id": 6, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 1348, "tid": "1348", "ts": 182, "dur": 5,
   "args": {"cbid": 211, "correlation": 303, "external id": 6, "external ts": 180}},
  {"ph": "s", "id": 303, "pid": 1348, "tid": 1348, "ts": 182, "cat": "async", "name": "launch"},
  {"ph": "X", "cat": "Kernel", "name": "vectorized_elementwise_kernel", "pid": 0, "tid": "stream 7", "ts": 210, "dur": 0,
   "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 303, "external id": 6,
            "registers per thread": 16, "shared memory": 0, "blocks per SM": 0.05, "warps per SM": 0.2,
            "grid": [4, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 3}},
  {"ph": "f", "id": 303, "pid": 0, "tid": "stream 7", "ts": 210, "cat": "async", "name": "launch", "bp": "e"},
  {"ph": "X", "cat": "Runtime", "name": "cudaMemsetAsync", "pid": 1348, "tid": "1348", "ts": 192, "dur": 3,
   "args": {"cbid": 51, "correlation": 304, "external id": 1, "external ts": 100}},
  {"ph": "s", "id": 304, "pid": 1348, "tid": 1348, "ts": 192, "cat": "async", "name": "launch"},
  {"ph": "X", "cat": "Memset", "name": "Memset (Device)", "pid": 0, "tid": "stream 7", "ts": 211, "dur": 1,
   "args": {"device": 0, "context": 1, "stream": 7, "correlation": 304, "external id": 1, "bytes": 64,
            "memory bandwidth (GB/s)": 0.064}},
  {"ph": "f", "id": 304, "pid": 0, "tid": "stream 7", "ts": 211, "cat": "async", "name": "launch", "bp": "e"},
  {"ph": "X", "cat": "Operator", "name": "autograd::engine::evaluate_function: ConvolutionBackward0",
   "pid": 1348, "tid": "1360", "ts": 220, "dur": 30,
   "args": {"Device": 1348, "External id": 7, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "Operator", "name": "aten::convolution_backward", "pid": 1348, "tid": "1360", "ts": 222, "dur": 25,
   "args": {"Device": 1348, "External id": 8, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 1348, "tid": "1360", "ts": 225, "dur": 6,
   "args": {"cbid": 211, "correlation": 305, "external id": 8, "external ts": 222}},
  {"ph": "s", "id": 305, "pid": 1348, "tid": 1360, "ts": 225, "cat": "async", "name": "launch"},
  {"ph": "X", "cat": "Kernel", "name": "wgrad_alg0_engine", "pid": 0, "tid": "stream 7", "ts": 240, "dur": 28,
   "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 305, "external id": 8,
            "registers per thread": 80, "shared memory": 8192, "blocks per SM": 2.0, "warps per SM": 16.0,
            "grid": [160, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 40}},
  {"ph": "f", "id": 305, "pid": 0, "tid": "stream 7", "ts": 240, "cat": "async", "name": "launch", "bp": "e"},
  {"ph": "X", "cat": "Runtime", "name": "cudaMemcpyPeerAsync", "pid": 1348, "tid": "1348", "ts": 260, "dur": 4,
   "args": {"cbid": 49, "correlation": 306, "external id": 1, "external ts": 100}},
  {"ph": "s", "id": 306, "pid": 1348, "tid": 1348, "ts": 260, "cat": "async", "name": "launch"},
  {"ph": "X", "cat": "Memcpy", "name": "Memcpy PtoP (Device -> Device)", "pid": 1, "tid": "stream 9", "ts": 270, "dur": 5,
   "args": {"fromDevice": 0, "inDevice": 1, "toDevice": 1, "fromContext": 1, "inContext": 2, "toContext": 2,
            "stream": 9, "correlation": 306, "external id": 1, "bytes": 1048576, "memory bandwidth (GB/s)": 209.7152}},
  {"ph": "f", "id": 306, "pid": 1, "tid": "stream 9", "ts": 270, "cat": "async", "name": "launch", "bp": "e"},
  {"ph": "X", "cat": "Trace", "ts": 90, "dur": 230, "pid": "Traces", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 90},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 330}
]})json";

// PyTorch 1.10: host categories from ActivityType names (cpu_op, user_annotation,
// cuda_runtime, gpu_user_annotation), GPU records still "Kernel" / "Memcpy" / "Memset";
// every pid and tid a number (device events: pid = device, tid = stream); launch flows
// "async_cpu_to_gpu" / "async_gpu" and forward-backward flows "forward_backward" /
// "fwd_bwd", both ends with "bp": "e"; sort-index metadata; the Trace span on "Spans".
constexpr std::string_view kPyTorch110 = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "Tesla V100-SXM2-32GB", "totalGlobalMem": 34089730048, "computeMajor": 7, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
     "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
     "sharedMemPerMultiprocessor": 98304, "numSms": 80, "sharedMemPerBlockOptin": 98304}
  ],
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 10, "pid": 2200, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 10, "pid": 2200, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_sort_index", "ph": "M", "ts": 10, "pid": 2200, "tid": 0, "args": {"sort_index": 2200}},
  {"name": "process_name", "ph": "M", "ts": 10, "pid": 0, "tid": 0, "args": {"name": "GPU 0"}},
  {"name": "process_labels", "ph": "M", "ts": 10, "pid": 0, "tid": 0, "args": {"labels": "Tesla V100-SXM2-32GB"}},
  {"name": "process_sort_index", "ph": "M", "ts": 10, "pid": 0, "tid": 0, "args": {"sort_index": 16777216}},
  {"name": "thread_name", "ph": "M", "ts": 10, "pid": 2200, "tid": 2200, "args": {"name": "thread 2200 (python)"}},
  {"name": "thread_sort_index", "ph": "M", "ts": 10, "pid": 2200, "tid": 2200, "args": {"sort_index": 2200}},
  {"name": "thread_name", "ph": "M", "ts": 10, "pid": 2200, "tid": 2210, "args": {"name": "thread 2210 (pt_autograd_0)"}},
  {"name": "thread_sort_index", "ph": "M", "ts": 10, "pid": 2200, "tid": 2210, "args": {"sort_index": 2210}},
  {"name": "thread_name", "ph": "M", "ts": 10, "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
  {"ph": "X", "cat": "Trace", "ts": 20, "dur": 200, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "process_sort_index", "ph": "M", "ts": 20, "pid": "Spans", "tid": 0, "args": {"sort_index": 536870912}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 20},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 2200, "tid": 2200, "ts": 30, "dur": 150,
   "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 2200, "tid": 2200, "ts": 40, "dur": 40,
   "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 2,
            "Input dims": [[32, 64], [128, 64], [128]], "Input type": ["float", "float", "float"],
            "Fwd thread id": 0, "Sequence number": 10}},
  {"ph": "s", "id": 10, "pid": 2200, "tid": 2200, "ts": 40, "cat": "forward_backward", "name": "fwd_bwd", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 2200, "tid": 2200, "ts": 50, "dur": 6,
   "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 40, "cbid": 211, "correlation": 40}},
  {"ph": "s", "id": 40, "pid": 2200, "tid": 2200, "ts": 50, "cat": "async_cpu_to_gpu", "name": "async_gpu", "bp": "e"},
  {"ph": "X", "cat": "Kernel", "name": "volta_sgemm_128x64_tn", "pid": 0, "tid": 7, "ts": 60, "dur": 15,
   "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 40, "registers per thread": 126,
            "shared memory": 16384, "blocks per SM": 0.1, "warps per SM": 0.8, "grid": [2, 4, 1],
            "block": [256, 1, 1], "est. achieved occupancy %": 12}},
  {"ph": "f", "id": 40, "pid": 0, "tid": 7, "ts": 60, "cat": "async_cpu_to_gpu", "name": "async_gpu", "bp": "e"},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "linear_block", "pid": 0, "tid": 7, "ts": 59, "dur": 17,
   "args": {"External id": 2}},
  {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: AddmmBackward", "pid": 2200, "tid": 2210,
   "ts": 100, "dur": 50,
   "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 5, "Fwd thread id": 1,
            "Sequence number": 10}},
  {"ph": "f", "id": 10, "pid": 2200, "tid": 2210, "ts": 100, "cat": "forward_backward", "name": "fwd_bwd", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 2200, "tid": 2210, "ts": 105, "dur": 30,
   "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 6}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 2200, "tid": 2210, "ts": 110, "dur": 5,
   "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 41, "cbid": 211, "correlation": 41}},
  {"ph": "s", "id": 41, "pid": 2200, "tid": 2210, "ts": 110, "cat": "async_cpu_to_gpu", "name": "async_gpu", "bp": "e"},
  {"ph": "X", "cat": "Kernel", "name": "volta_sgemm_64x64_nn", "pid": 0, "tid": 7, "ts": 120, "dur": 0,
   "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 41, "registers per thread": 90,
            "shared memory": 8192, "blocks per SM": 0.05, "warps per SM": 0.2, "grid": [1, 4, 1],
            "block": [64, 1, 1], "est. achieved occupancy %": 3}},
  {"ph": "f", "id": 41, "pid": 0, "tid": 7, "ts": 120, "cat": "async_cpu_to_gpu", "name": "async_gpu", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 2200, "tid": 2200, "ts": 160, "dur": 8,
   "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 42, "cbid": 41, "correlation": 42}},
  {"ph": "s", "id": 42, "pid": 2200, "tid": 2200, "ts": 160, "cat": "async_cpu_to_gpu", "name": "async_gpu", "bp": "e"},
  {"ph": "X", "cat": "Memcpy", "name": "Memcpy DtoH (Device -> Pageable)", "pid": 0, "tid": 7, "ts": 169, "dur": 3,
   "args": {"device": 0, "context": 1, "stream": 7, "correlation": 42, "bytes": 4, "memory bandwidth (GB/s)": 0.00133}},
  {"ph": "f", "id": 42, "pid": 0, "tid": 7, "ts": 169, "cat": "async_cpu_to_gpu", "name": "async_gpu", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "pid": 2200, "tid": 2200, "ts": 170, "dur": 2,
   "args": {"Trace name": "PyTorch Profiler", "Trace iteration": 0, "External id": 43, "cbid": 51, "correlation": 43}},
  {"ph": "s", "id": 43, "pid": 2200, "tid": 2200, "ts": 170, "cat": "async_cpu_to_gpu", "name": "async_gpu", "bp": "e"},
  {"ph": "X", "cat": "Memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 173, "dur": 1,
   "args": {"device": 0, "context": 1, "stream": 7, "correlation": 43, "bytes": 128, "memory bandwidth (GB/s)": 0.128}},
  {"ph": "f", "id": 43, "pid": 0, "tid": 7, "ts": 173, "cat": "async_cpu_to_gpu", "name": "async_gpu", "bp": "e"},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 230}
  ],
  "traceName": "/tmp/libkineto_activities_2200.json"
})json";

// PyTorch 1.11-1.13: every category lower case (cpu_op, user_annotation, cuda_runtime,
// kernel, gpu_memcpy, gpu_memset, gpu_user_annotation); launch flows "ac2g" (the "s"
// without "bp") and "fwdbwd"; distributedInfo; [memory] instants without a "cat" (as
// 1.11-1.12 wrote them; 1.13 added cpu_instant_event).
constexpr std::string_view kPyTorch112 = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA A100-SXM4-40GB", "totalGlobalMem": 42505273344, "computeMajor": 8, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
     "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
     "sharedMemPerMultiprocessor": 167936, "numSms": 108, "sharedMemPerBlockOptin": 166912}
  ],
  "distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 4},
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 990, "pid": 3100, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 990, "pid": 3100, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_sort_index", "ph": "M", "ts": 990, "pid": 3100, "tid": 0, "args": {"sort_index": 3100}},
  {"name": "process_name", "ph": "M", "ts": 990, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 990, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
  {"name": "process_sort_index", "ph": "M", "ts": 990, "pid": 0, "tid": 0, "args": {"sort_index": 16777216}},
  {"name": "thread_name", "ph": "M", "ts": 990, "pid": 3100, "tid": 3100, "args": {"name": "thread 3100 (python)"}},
  {"name": "thread_sort_index", "ph": "M", "ts": 990, "pid": 3100, "tid": 3100, "args": {"sort_index": 3100}},
  {"name": "thread_name", "ph": "M", "ts": 990, "pid": 3100, "tid": 3110, "args": {"name": "thread 3110 (pt_autograd_0)"}},
  {"name": "thread_sort_index", "ph": "M", "ts": 990, "pid": 3100, "tid": 3110, "args": {"sort_index": 3110}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#8", "pid": 3100, "tid": 3100, "ts": 1000, "dur": 300,
   "args": {"External id": 1, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 3100, "tid": 3100, "ts": 1010, "dur": 40,
   "args": {"External id": 2, "Trace name": "PyTorch Profiler", "Trace iteration": 0, "Sequence number": 4,
            "Fwd thread id": 0}},
  {"ph": "s", "id": 4, "pid": 3100, "tid": 3100, "ts": 1010, "cat": "fwdbwd", "name": "fwdbwd"},
  {"ph": "i", "s": "t", "name": "[memory]", "pid": 3100, "tid": 3100, "ts": 1012,
   "args": {"Device Type": 1, "Device Id": 0, "Addr": 139830000000000, "Bytes": 8192, "Total Allocated": 8192,
            "Total Reserved": 2097152}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 3100, "tid": 3100, "ts": 1020, "dur": 7,
   "args": {"External id": 2, "cbid": 211, "correlation": 900}},
  {"ph": "s", "id": 900, "pid": 3100, "tid": 3100, "ts": 1020, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_64x32_sliced1x4_tn", "pid": 0, "tid": 7, "ts": 1030, "dur": 12,
   "args": {"External id": 2, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 900,
            "registers per thread": 110, "shared memory": 16384, "blocks per SM": 0.296296,
            "warps per SM": 1.185185, "grid": [4, 8, 1], "block": [128, 1, 1], "est. achieved occupancy %": 6}},
  {"ph": "f", "id": 900, "pid": 0, "tid": 7, "ts": 1030, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "linear_block", "pid": 0, "tid": 7, "ts": 1029, "dur": 14,
   "args": {"External id": 2}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 3100, "tid": 3100, "ts": 1050, "dur": 10,
   "args": {"External id": 3, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 3100, "tid": 3100, "ts": 1052, "dur": 5,
   "args": {"External id": 3, "cbid": 41, "correlation": 901}},
  {"ph": "s", "id": 901, "pid": 3100, "tid": 3100, "ts": 1052, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 7, "ts": 1060, "dur": 2,
   "args": {"External id": 3, "device": 0, "context": 1, "stream": 7, "correlation": 901, "bytes": 8192,
            "memory bandwidth (GB/s)": 4.096}},
  {"ph": "f", "id": 901, "pid": 0, "tid": 7, "ts": 1060, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "pid": 3100, "tid": 3100, "ts": 1065, "dur": 2,
   "args": {"External id": 1, "cbid": 51, "correlation": 902}},
  {"ph": "s", "id": 902, "pid": 3100, "tid": 3100, "ts": 1065, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 1068, "dur": 1,
   "args": {"External id": 1, "device": 0, "context": 1, "stream": 7, "correlation": 902, "bytes": 256,
            "memory bandwidth (GB/s)": 0.256}},
  {"ph": "f", "id": 902, "pid": 0, "tid": 7, "ts": 1068, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: AddmmBackward0", "pid": 3100, "tid": 3110,
   "ts": 1100, "dur": 60,
   "args": {"External id": 5, "Trace name": "PyTorch Profiler", "Trace iteration": 0, "Sequence number": 4,
            "Fwd thread id": 1}},
  {"ph": "f", "id": 4, "pid": 3100, "tid": 3110, "ts": 1100, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 3100, "tid": 3110, "ts": 1105, "dur": 40,
   "args": {"External id": 6, "Trace name": "PyTorch Profiler", "Trace iteration": 0}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 3100, "tid": 3110, "ts": 1110, "dur": 5,
   "args": {"External id": 6, "cbid": 211, "correlation": 903}},
  {"ph": "s", "id": 903, "pid": 3100, "tid": 3110, "ts": 1110, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "ampere_sgemm_32x32_sliced1x4_nn", "pid": 0, "tid": 7, "ts": 1140, "dur": 0,
   "args": {"External id": 6, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 903,
            "registers per thread": 96, "shared memory": 8192, "blocks per SM": 0.01, "warps per SM": 0.04,
            "grid": [1, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 1}},
  {"ph": "f", "id": 903, "pid": 0, "tid": 7, "ts": 1140, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "Trace", "ts": 990, "dur": 320, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "process_sort_index", "ph": "M", "ts": 990, "pid": "Spans", "tid": 0, "args": {"sort_index": 536870912}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 990},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 1320}
  ],
  "traceName": "/tmp/libkineto_activities_3100.json"
})json";

// PyTorch 2.x: timestamps relative to baseTimeNanoseconds with ns fractions ("ts":
// 4203669600130.125), displayTimeUnit "ms", python_function stacks, cuda_driver launches
// (Triton kernels via cuLaunchKernel), cpu_instant_event [memory], gpu_user_annotation, a
// second stream (NCCL), a runtime call without device work (cudaStreamSynchronize: no
// flow), distributedInfo with the process-group config, the Trace span on "Spans".
constexpr std::string_view kPyTorch2 = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 84929216512, "computeMajor": 9, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
     "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 132, "regsPerMultiprocessor": 65536,
     "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}
  ],
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8, "pg_count": 1,
                      "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl",
                                     "pg_size": 8, "ranks": [0, 1, 2, 3, 4, 5, 6, 7]}],
                      "nccl_version": "2.20.5"},
  "record_shapes": 1,
  "with_stack": 1,
  "trace_id": "5D2F3C7A9B1E4F60A8C1D2E3F4A5B6C7",
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1727000000000000000,
  "traceEvents": [
  {"ph": "X", "cat": "python_function", "name": "train.py(40): <module>", "pid": 4100, "tid": 4100,
   "ts": 4203669600000.000, "dur": 900.000, "args": {"Python id": 1, "Python thread": 0, "Ev Idx": 0}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#101", "pid": 4100, "tid": 4100,
   "ts": 4203669600010.250, "dur": 800.500, "args": {"External id": 1, "Record function id": 0, "Ev Idx": 1}},
  {"ph": "X", "cat": "python_function", "name": "train.py(12): train_step", "pid": 4100, "tid": 4100,
   "ts": 4203669600011.000, "dur": 789.000,
   "args": {"Python parent id": 1, "Python id": 2, "Python thread": 0, "Ev Idx": 2}},
  {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
   "pid": 4100, "tid": 4100, "ts": 4203669600012.100, "dur": 98.000,
   "args": {"External id": 2, "Record function id": 0, "Ev Idx": 3}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::conv2d", "pid": 4100, "tid": 4100, "ts": 4203669600120.500, "dur": 80.000,
   "args": {"External id": 3, "Record function id": 0, "Sequence number": 7, "Fwd thread id": 0,
            "Input Dims": [[32, 3, 224, 224], [64, 3, 7, 7]], "Input type": ["float", "float"], "Ev Idx": 4}},
  {"ph": "s", "id": 7, "pid": 4100, "tid": 4100, "ts": 4203669600120.500, "cat": "fwdbwd", "name": "fwdbwd"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4100, "tid": 4100,
   "ts": 4203669600130.125, "dur": 5.250, "args": {"External id": 3, "cbid": 211, "correlation": 5000}},
  {"ph": "s", "id": 5000, "pid": 4100, "tid": 4100, "ts": 4203669600130.125, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "void cudnn::cnn::conv2d_grouped_direct_kernel<float, float, float, float, float, float, true, false, 0, 0, 0>(cudnnTensorStruct, float const*, cudnnFilterStruct, float const*, cudnnConvolutionStruct, cudnnTensorStruct, float*, float, float, cudnn::reduced_divisor, cudnn::reduced_divisor, cudnn::reduced_divisor, cudnn::reduced_divisor, cudnn::reduced_divisor, int, float const*, float const*, cudnnActivationStruct)",
   "pid": 0, "tid": 7, "ts": 4203669600140.001, "dur": 40.998,
   "args": {"External id": 3, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 5000,
            "registers per thread": 72, "shared memory": 0, "blocks per SM": 3.2, "warps per SM": 25.6,
            "grid": [256, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 50}},
  {"ph": "f", "id": 5000, "pid": 0, "tid": 7, "ts": 4203669600140.001, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "conv_block", "pid": 0, "tid": 7, "ts": 4203669600140.000,
   "dur": 41.000, "args": {"External id": 3}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 4100, "tid": 4100,
   "ts": 4203669600150.250,
   "args": {"Total Reserved": 4194304, "Total Allocated": 1048576, "Bytes": 524288, "Addr": 140000000000,
            "Device Id": 0, "Device Type": 1, "Ev Idx": 5}},
  {"ph": "X", "cat": "user_annotation", "name": "CompiledFunction", "pid": 4100, "tid": 4100,
   "ts": 4203669600205.000, "dur": 15.000, "args": {"External id": 4, "Record function id": 0, "Ev Idx": 6}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 4100, "tid": 4100, "ts": 4203669600210.300,
   "dur": 4.400, "args": {"External id": 4, "cbid": 307, "correlation": 5001}},
  {"ph": "s", "id": 5001, "pid": 4100, "tid": 4100, "ts": 4203669600210.300, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_relu_0", "pid": 0, "tid": 7, "ts": 4203669600215.000,
   "dur": 10.500,
   "args": {"External id": 4, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 5001,
            "registers per thread": 20, "shared memory": 0, "blocks per SM": 12.4, "warps per SM": 49.6,
            "grid": [1637, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 100}},
  {"ph": "f", "id": 5001, "pid": 0, "tid": 7, "ts": 4203669600215.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::item", "pid": 4100, "tid": 4100, "ts": 4203669600299.500, "dur": 11.500,
   "args": {"External id": 5, "Record function id": 0, "Ev Idx": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 4100, "tid": 4100, "ts": 4203669600300.000,
   "dur": 10.000, "args": {"External id": 5, "cbid": 41, "correlation": 5002}},
  {"ph": "s", "id": 5002, "pid": 4100, "tid": 4100, "ts": 4203669600300.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7,
   "ts": 4203669600312.000, "dur": 1.500,
   "args": {"External id": 5, "device": 0, "context": 1, "stream": 7, "correlation": 5002, "bytes": 4,
            "memory bandwidth (GB/s)": 0.0027}},
  {"ph": "f", "id": 5002, "pid": 0, "tid": 7, "ts": 4203669600312.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "pid": 4100, "tid": 4100, "ts": 4203669600320.000,
   "dur": 2.000, "args": {"External id": 1, "cbid": 51, "correlation": 5003}},
  {"ph": "s", "id": 5003, "pid": 4100, "tid": 4100, "ts": 4203669600320.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 4203669600323.000,
   "dur": 0.000,
   "args": {"External id": 1, "device": 0, "context": 1, "stream": 7, "correlation": 5003, "bytes": 16,
            "memory bandwidth (GB/s)": "N/A"}},
  {"ph": "f", "id": 5003, "pid": 0, "tid": 7, "ts": 4203669600323.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 4100, "tid": 4100,
   "ts": 4203669600330.000, "dur": 50.000, "args": {"External id": 1, "cbid": 131, "correlation": 5004}},
  {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 4100, "tid": 4100, "ts": 4203669600700.000,
   "dur": 20.000, "args": {"External id": 12, "Record function id": 0, "Ev Idx": 8}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4100, "tid": 4100, "ts": 4203669600705.000,
   "dur": 5.000, "args": {"External id": 12, "cbid": 211, "correlation": 5006}},
  {"ph": "s", "id": 5006, "pid": 4100, "tid": 4100, "ts": 4203669600705.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
   "pid": 0, "tid": 13, "ts": 4203669600712.000, "dur": 78.000,
   "args": {"External id": 12, "queued": 0, "device": 0, "context": 1, "stream": 13, "correlation": 5006,
            "registers per thread": 96, "shared memory": 0, "blocks per SM": 0.0, "warps per SM": 0.0,
            "grid": [2, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 0}},
  {"ph": "f", "id": 5006, "pid": 0, "tid": 13, "ts": 4203669600712.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "autograd::engine::evaluate_function: ConvolutionBackward0", "pid": 4100,
   "tid": 4133, "ts": 4203669600400.000, "dur": 200.000,
   "args": {"External id": 10, "Record function id": 0, "Sequence number": 7, "Fwd thread id": 1, "Ev Idx": 9}},
  {"ph": "f", "id": 7, "pid": 4100, "tid": 4133, "ts": 4203669600400.000, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::convolution_backward", "pid": 4100, "tid": 4133,
   "ts": 4203669600401.000, "dur": 189.000, "args": {"External id": 11, "Record function id": 0, "Ev Idx": 10}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4100, "tid": 4133, "ts": 4203669600410.000,
   "dur": 5.000, "args": {"External id": 11, "cbid": 211, "correlation": 5005}},
  {"ph": "s", "id": 5005, "pid": 4100, "tid": 4133, "ts": 4203669600410.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "void cudnn::detail::wgrad_alg0_engine<float, 128, 6, 7, 3, 3, 5, false, 512>(int, int, int, float const*, int, float*, float const*, kernel_grad_params, unsigned long long, int, float, int, int, int, int)",
   "pid": 0, "tid": 7, "ts": 4203669600450.000, "dur": 110.000,
   "args": {"External id": 11, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 5005,
            "registers per thread": 80, "shared memory": 8192, "blocks per SM": 2.0, "warps per SM": 16.0,
            "grid": [264, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 40}},
  {"ph": "f", "id": 5005, "pid": 0, "tid": 7, "ts": 4203669600450.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"name": "process_name", "ph": "M", "ts": 4203669600000.000, "pid": 4100, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 4203669600000.000, "pid": 4100, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_sort_index", "ph": "M", "ts": 4203669600000.000, "pid": 4100, "tid": 0, "args": {"sort_index": 4100}},
  {"name": "process_name", "ph": "M", "ts": 4203669600000.000, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 4203669600000.000, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
  {"name": "process_sort_index", "ph": "M", "ts": 4203669600000.000, "pid": 0, "tid": 0, "args": {"sort_index": 16777216}},
  {"name": "thread_name", "ph": "M", "ts": 4203669600000.000, "pid": 4100, "tid": 4100, "args": {"name": "thread 4100 (python)"}},
  {"name": "thread_sort_index", "ph": "M", "ts": 4203669600000.000, "pid": 4100, "tid": 4100, "args": {"sort_index": 4100}},
  {"name": "thread_name", "ph": "M", "ts": 4203669600000.000, "pid": 4100, "tid": 4133, "args": {"name": "thread 4133 (pt_autograd_0)"}},
  {"name": "thread_sort_index", "ph": "M", "ts": 4203669600000.000, "pid": 4100, "tid": 4133, "args": {"sort_index": 4133}},
  {"name": "thread_name", "ph": "M", "ts": 4203669600000.000, "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
  {"name": "thread_sort_index", "ph": "M", "ts": 4203669600000.000, "pid": 0, "tid": 7, "args": {"sort_index": 7}},
  {"name": "thread_name", "ph": "M", "ts": 4203669600000.000, "pid": 0, "tid": 13, "args": {"name": "stream 13 "}},
  {"name": "thread_sort_index", "ph": "M", "ts": 4203669600000.000, "pid": 0, "tid": 13, "args": {"sort_index": 13}},
  {"ph": "X", "cat": "Trace", "ts": 4203669599990.000, "dur": 920.000, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "process_sort_index", "ph": "M", "ts": 4203669599990.000, "pid": "Spans", "tid": 0, "args": {"sort_index": 536870912}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler",
   "ts": 4203669599990.000},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 4203669600915.000}
  ],
  "traceName": "/tmp/rank3.pt.trace.json"
})json";

// PyTorch 2.x on ROCm (roctracer): HIP runtime calls under the cuda_runtime category
// (hipLaunchKernel, hipExtModuleLaunchKernel, hipMemcpyWithStream, hipMemsetAsync) with
// the launch parameters (grid, block, shared memory, kernel) on the runtime call, not the
// kernel; "stream": "0x0" strings; devices named "AMD Instinct"; an "f" on the host for
// a runtime call that started no device work (Kineto writes one; it binds to the call).
constexpr std::string_view kRocm = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 2, "name": "AMD Instinct MI250X", "totalGlobalMem": 68702699520, "computeMajor": 9, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 64,
     "sharedMemPerBlock": 65536, "numSms": 110, "maxSharedMemoryPerMultiProcessor": 65536}
  ],
  "record_shapes": 0,
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1727000000000000000,
  "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 5100, "tid": 5100, "ts": 1000.000, "dur": 1000.000,
   "args": {"External id": 1, "Record function id": 1, "Ev Idx": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 5100, "tid": 5100, "ts": 1010.000, "dur": 90.000,
   "args": {"External id": 8, "Record function id": 0, "Ev Idx": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipMemcpyWithStream", "pid": 5100, "tid": 5100, "ts": 1020.000, "dur": 60.204,
   "args": {"External id": 8, "stream": "0x0", "cid": 153, "correlation": 117, "src": "0x55674ecd4180",
            "dst": "0x7fda0e810200", "size": "2560", "kind": "1"}},
  {"ph": "s", "id": 117, "pid": 5100, "tid": 5100, "ts": 1020.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Host -> Device)", "pid": 2, "tid": 0, "ts": 1030.000, "dur": 22.441,
   "args": {"External id": 8, "device": 2, "stream": 0, "correlation": 117, "kind": "HtoD"}},
  {"ph": "f", "id": 117, "pid": 2, "tid": 0, "ts": 1030.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 5100, "tid": 5100, "ts": 1200.000, "dur": 100.000,
   "args": {"External id": 13, "Record function id": 0, "Ev Idx": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipGetDevicePropertiesR0600", "pid": 5100, "tid": 5100, "ts": 1205.000,
   "dur": 0.962, "args": {"External id": 13, "cid": 370, "correlation": 119}},
  {"ph": "f", "id": 119, "pid": 5100, "tid": 5100, "ts": 1205.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipExtModuleLaunchKernel", "pid": 5100, "tid": 5100, "ts": 1210.000,
   "dur": 5.180,
   "args": {"External id": 13, "kernel": "Cijk_Alik_Bljk_SB_MT64x16x32_MI16x16x1", "cid": 339, "correlation": 121,
            "stream": "0x0", "grid": [256, 1, 1], "block": [256, 1, 1], "shared memory": 0}},
  {"ph": "s", "id": 121, "pid": 5100, "tid": 5100, "ts": 1210.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "Cijk_Alik_Bljk_SB_MT64x16x32_MI16x16x1", "pid": 2, "tid": 0, "ts": 1220.000,
   "dur": 40.000, "args": {"External id": 13, "device": 2, "stream": 0, "correlation": 121, "kind": "Dispatch Kernel"}},
  {"ph": "f", "id": 121, "pid": 2, "tid": 0, "ts": 1220.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 5100, "tid": 5100, "ts": 1300.000, "dur": 50.000,
   "args": {"External id": 17, "Record function id": 0, "Ev Idx": 3}},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 5100, "tid": 5100, "ts": 1310.000, "dur": 5.570,
   "args": {"External id": 17, "kernel": "void at::native::vectorized_elementwise_kernel<4, at::native::clamp_min_scalar_kernel>(int)",
            "cid": 107, "correlation": 122, "stream": "0x0", "grid": [1, 1, 1], "block": [256, 1, 1],
            "shared memory": 0}},
  {"ph": "s", "id": 122, "pid": 5100, "tid": 5100, "ts": 1310.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4, at::native::clamp_min_scalar_kernel>(int)",
   "pid": 2, "tid": 0, "ts": 1320.000, "dur": 0.000,
   "args": {"External id": 17, "device": 2, "stream": 0, "correlation": 122, "kind": "Dispatch Kernel"}},
  {"ph": "f", "id": 122, "pid": 2, "tid": 0, "ts": 1320.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "hipMemsetAsync", "pid": 5100, "tid": 5100, "ts": 1400.000, "dur": 2.000,
   "args": {"External id": 1, "cid": 84, "correlation": 123, "stream": "0x0"}},
  {"ph": "s", "id": 123, "pid": 5100, "tid": 5100, "ts": 1400.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 2, "tid": 0, "ts": 1410.000, "dur": 1.000,
   "args": {"External id": 1, "device": 2, "stream": 0, "correlation": 123, "bytes": 64}},
  {"ph": "f", "id": 123, "pid": 2, "tid": 0, "ts": 1410.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"name": "process_name", "ph": "M", "ts": 990.000, "pid": 5100, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_labels", "ph": "M", "ts": 990.000, "pid": 5100, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_name", "ph": "M", "ts": 990.000, "pid": 2, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_labels", "ph": "M", "ts": 990.000, "pid": 2, "tid": 0, "args": {"labels": "GPU 2"}},
  {"name": "thread_name", "ph": "M", "ts": 990.000, "pid": 5100, "tid": 5100, "args": {"name": "thread 5100 (python3)"}},
  {"ph": "X", "cat": "Trace", "ts": 990.000, "dur": 1020.000, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "process_sort_index", "ph": "M", "ts": 990.000, "pid": "Spans", "tid": 0, "args": {"sort_index": 536870912}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 990.000}
  ],
  "traceName": "/tmp/rocm_trace.json"
})json";

// The legacy autograd profiler (torch.autograd.profiler.profile(use_cuda=True)
// .export_chrome_trace, before Kineto): a bare array, "pid": "CPU functions" with the
// thread as tid, kernels on "pid": "CUDA functions" with the device as tid, flows
// "cpu_to_cuda" numbered per kernel whose "f" has no "bp" (it binds to the next slice:
// the kernel written after it), float microseconds, empty args, no correlation ids.
// The ops on thread 1 are the nesting cases key_averages() is defined on: equal starts
// (aten::conv2d / aten::convolution), a child ending exactly at its parent's end
// (aten::_convolution), an op starting at its predecessor's end (aten::add_, not a
// child), a child written before its parent (aten::clamp_min before aten::relu).
constexpr std::string_view kLegacyAutograd = R"json([
{"name": "aten::conv2d", "ph": "X", "ts": 100.000, "dur": 50.000, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::convolution", "ph": "X", "ts": 100.000, "dur": 49.500, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::_convolution", "ph": "X", "ts": 101.000, "dur": 48.500, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::cudnn_convolution", "ph": "X", "ts": 102.000, "dur": 38.000, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::cudnn_convolution", "ph": "s", "ts": 102.000, "tid": 1, "pid": "CPU functions", "id": 0, "cat": "cpu_to_cuda", "args": {}},
{"name": "implicit_convolve_sgemm", "ph": "f", "ts": 160.000, "tid": 0, "pid": "CUDA functions", "id": 0, "cat": "cpu_to_cuda", "args": {}},
{"name": "implicit_convolve_sgemm", "ph": "X", "ts": 160.000, "dur": 20.000, "tid": 0, "pid": "CUDA functions", "args": {}},
{"name": "aten::add_", "ph": "X", "ts": 150.000, "dur": 5.000, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::add_", "ph": "s", "ts": 150.000, "tid": 1, "pid": "CPU functions", "id": 1, "cat": "cpu_to_cuda", "args": {}},
{"name": "add_kernel", "ph": "f", "ts": 181.000, "tid": 0, "pid": "CUDA functions", "id": 1, "cat": "cpu_to_cuda", "args": {}},
{"name": "add_kernel", "ph": "X", "ts": 181.000, "dur": 0.000, "tid": 0, "pid": "CUDA functions", "args": {}},
{"name": "aten::clamp_min", "ph": "X", "ts": 161.000, "dur": 8.000, "tid": 1, "pid": "CPU functions", "args": {}},
{"name": "aten::clamp_min", "ph": "s", "ts": 161.000, "tid": 1, "pid": "CPU functions", "id": 2, "cat": "cpu_to_cuda", "args": {}},
{"name": "clamp_min_kernel", "ph": "f", "ts": 185.000, "tid": 0, "pid": "CUDA functions", "id": 2, "cat": "cpu_to_cuda", "args": {}},
{"name": "clamp_min_kernel", "ph": "X", "ts": 185.000, "dur": 5.000, "tid": 0, "pid": "CUDA functions", "args": {}},
{"name": "aten::relu", "ph": "X", "ts": 160.000, "dur": 10.000, "tid": 1, "pid": "CPU functions", "args": {}}
])json";

// CUDA graphs (PyTorch 2.x): one cudaGraphLaunch starts every node of the graph; CUPTI
// gives each node's kernel or copy the launch's correlation id, so one "s" and several
// "f" share an id. A kernel launched the ordinary way follows.
constexpr std::string_view kCudaGraph = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85031714816, "computeMajor": 8, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
     "sharedMemPerBlock": 49152, "numSms": 108, "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 166912,
     "sharedMemPerMultiprocessor": 167936}
  ],
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1727000000000000000,
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 0.000, "pid": 6100, "tid": 0, "args": {"name": "python"}},
  {"name": "thread_name", "ph": "M", "ts": 0.000, "pid": 6100, "tid": 6100, "args": {"name": "thread 6100 (python)"}},
  {"name": "process_name", "ph": "M", "ts": 0.000, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#20", "pid": 6100, "tid": 6100, "ts": 5.000, "dur": 100.000,
   "args": {"External id": 1, "Record function id": 0, "Ev Idx": 0}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 6100, "tid": 6100, "ts": 10.000, "dur": 15.000,
   "args": {"External id": 1, "cbid": 311, "correlation": 8000}},
  {"ph": "s", "id": 8000, "pid": 6100, "tid": 6100, "ts": 10.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel",
   "pid": 0, "tid": 7, "ts": 30.000, "dur": 10.000,
   "args": {"External id": 1, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 8000,
            "registers per thread": 168, "shared memory": 81920, "blocks per SM": 1.0, "warps per SM": 4.0,
            "grid": [108, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 6}},
  {"ph": "f", "id": 8000, "pid": 0, "tid": 7, "ts": 30.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "kernel", "name": "triton_per_fused_native_layer_norm_0", "pid": 0, "tid": 7, "ts": 40.000,
   "dur": 15.000,
   "args": {"External id": 1, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 8000,
            "registers per thread": 40, "shared memory": 0, "blocks per SM": 4.0, "warps per SM": 32.0,
            "grid": [432, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %": 50}},
  {"ph": "f", "id": 8000, "pid": 0, "tid": 7, "ts": 40.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_gelu_1", "pid": 0, "tid": 7, "ts": 56.000, "dur": 4.000,
   "args": {"External id": 1, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 8000,
            "registers per thread": 24, "shared memory": 0, "blocks per SM": 8.0, "warps per SM": 32.0,
            "grid": [864, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 60}},
  {"ph": "f", "id": 8000, "pid": 0, "tid": 7, "ts": 56.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 7, "ts": 61.000,
   "dur": 1.000,
   "args": {"External id": 1, "device": 0, "context": 1, "stream": 7, "correlation": 8000, "bytes": 65536,
            "memory bandwidth (GB/s)": 65.536}},
  {"ph": "f", "id": 8000, "pid": 0, "tid": 7, "ts": 61.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add_", "pid": 6100, "tid": 6100, "ts": 70.000, "dur": 10.000,
   "args": {"External id": 2, "Record function id": 0, "Ev Idx": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 6100, "tid": 6100, "ts": 72.000, "dur": 4.000,
   "args": {"External id": 2, "cbid": 211, "correlation": 8001}},
  {"ph": "s", "id": 8001, "pid": 6100, "tid": 6100, "ts": 72.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, at::detail::Array<char*, 3>)",
   "pid": 0, "tid": 7, "ts": 80.000, "dur": 2.000,
   "args": {"External id": 2, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 8001,
            "registers per thread": 16, "shared memory": 0, "blocks per SM": 2.0, "warps per SM": 8.0,
            "grid": [216, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 12}},
  {"ph": "f", "id": 8001, "pid": 0, "tid": 7, "ts": 80.000, "cat": "ac2g", "name": "ac2g", "bp": "e"}
  ]
})json";

// Kineto built with DISPLAY_TRACE_IN_NS (HTA's "ns resolution" traces): "displayTimeUnit":
// "ns" but ts and dur still in microseconds, as Unix-epoch floats with ns fractions
// (1712195495505583.124); sub-microsecond and zero durations.
constexpr std::string_view kDisplayNs = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "Tesla V100-SXM2-32GB", "totalGlobalMem": 34089730048, "computeMajor": 7, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
     "sharedMemPerBlock": 49152, "numSms": 80, "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 98304,
     "sharedMemPerMultiprocessor": 98304}
  ],
  "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#101", "pid": 1102, "tid": 1102, "ts": 1712195495505500.250,
   "dur": 200.500, "args": {"External id": 1, "Ev Idx": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1102, "tid": 1102, "ts": 1712195495505540.100, "dur": 50.013,
   "args": {"External id": 112, "Ev Idx": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1102, "tid": 1102, "ts": 1712195495505543.233,
   "dur": 41.768, "args": {"External id": 112, "cbid": 211, "correlation": 135071}},
  {"ph": "s", "id": 135071, "pid": 1102, "tid": 1102, "ts": 1712195495505543.233, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)",
   "pid": 0, "tid": 7, "ts": 1712195495505583.124, "dur": 0.896,
   "args": {"External id": 112, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 135071,
            "registers per thread": 16, "shared memory": 0, "blocks per SM": 0.1, "warps per SM": 0.4,
            "grid": [8, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 3}},
  {"ph": "f", "id": 135071, "pid": 0, "tid": 7, "ts": 1712195495505583.124, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "pid": 1102, "tid": 1102, "ts": 1712195495505600.001,
   "dur": 3.999, "args": {"External id": 1, "cbid": 51, "correlation": 135072}},
  {"ph": "s", "id": 135072, "pid": 1102, "tid": 1102, "ts": 1712195495505600.001, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 1712195495505605.999, "dur": 0,
   "args": {"External id": 1, "device": 0, "context": 1, "stream": 7, "correlation": 135072, "bytes": 4,
            "memory bandwidth (GB/s)": "N/A"}},
  {"ph": "f", "id": 135072, "pid": 0, "tid": 7, "ts": 1712195495505605.999, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"name": "process_name", "ph": "M", "ts": 1712195495501688.523, "pid": 1102, "tid": 0, "args": {"name": "python"}},
  {"name": "thread_name", "ph": "M", "ts": 1712195495501688.523, "pid": 1102, "tid": 1102, "args": {"name": "thread 1102 (python)"}},
  {"name": "process_name", "ph": "M", "ts": 1712195495501688.523, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"name": "thread_name", "ph": "M", "ts": 1712195495501688.523, "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
  {"ph": "X", "cat": "Trace", "ts": 1712195495501688.523, "dur": 300.000, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler",
   "ts": 1712195495501688.523}
  ],
  "traceName": "/tmp/libkineto_activities_1102.json",
  "displayTimeUnit": "ns"
})json";

// Kineto's own CUDA records beside the kernels (PyTorch 2.x): cuda_sync (CUPTI's
// synchronization records, written on the device's pid: a Stream Sync on its stream's
// row of its own, tid stream + 1000000, with its ac2g "f" there; an Event Sync on the
// stream's row, whose "f" finds no slice there; a Context Sync, stream -1, on tid 1),
// cuda_event (a cudaEventRecord on the device, 1 ns), CUPTI's overhead records on pid -1
// (named "CUPTI Overhead"), and a cuda_profiler_range record (the removed range profiler:
// metrics per kernel over an evenly split window). The device's deviceProperties name is
// one of Meta's A100 parts.
constexpr std::string_view kCudaSync = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "A100-PG509-200", "totalGlobalMem": 85031714816, "computeMajor": 8, "computeMinor": 0,
     "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
     "sharedMemPerBlock": 49152, "numSms": 108, "regsPerMultiprocessor": 65536, "sharedMemPerBlockOptin": 166912,
     "sharedMemPerMultiprocessor": 167936}
  ],
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1727000000000000000,
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 0.000, "pid": 6200, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 0.000, "pid": 6200, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_name", "ph": "M", "ts": 0.000, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 0.000, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
  {"name": "process_name", "ph": "M", "ts": 0.000, "pid": -1, "tid": 0, "args": {"name": "CUPTI Overhead"}},
  {"name": "process_sort_index", "ph": "M", "ts": 0.000, "pid": -1, "tid": 0, "args": {"sort_index": 1048576}},
  {"name": "thread_name", "ph": "M", "ts": 0.000, "pid": 6200, "tid": 6200, "args": {"name": "thread 6200 (python)"}},
  {"name": "thread_name", "ph": "M", "ts": 0.000, "pid": 0, "tid": 1000007, "args": {"name": "stream 7 (sync)"}},
  {"name": "thread_sort_index", "ph": "M", "ts": 0.000, "pid": 0, "tid": 1000007, "args": {"sort_index": 7}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#30", "pid": 6200, "tid": 6200, "ts": 0.000, "dur": 300.000,
   "args": {"External id": 1, "Record function id": 0, "Ev Idx": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 6200, "tid": 6200, "ts": 10.000, "dur": 30.000,
   "args": {"External id": 2, "Record function id": 0, "Ev Idx": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 6200, "tid": 6200, "ts": 12.000, "dur": 8.000,
   "args": {"External id": 2, "cbid": 211, "correlation": 1000}},
  {"ph": "s", "id": 1000, "pid": 6200, "tid": 6200, "ts": 12.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "mul_kernel", "pid": 0, "tid": 7, "ts": 30.000, "dur": 50.000,
   "args": {"External id": 2, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 1000,
            "registers per thread": 16, "shared memory": 0, "blocks per SM": 1.0, "warps per SM": 4.0,
            "grid": [108, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %": 6}},
  {"ph": "f", "id": 1000, "pid": 0, "tid": 7, "ts": 30.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 6200, "tid": 6200, "ts": 45.000, "dur": 3.000,
   "args": {"cbid": 135, "correlation": 1001}},
  {"ph": "X", "cat": "cuda_event", "name": "cudaEvent", "pid": 0, "tid": 7, "ts": 80.000, "dur": 0.001,
   "args": {"event_id": 1, "stream": 7, "correlation": 1001, "device": 0, "context": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 6200, "tid": 6200, "ts": 100.000,
   "dur": 120.000, "args": {"cbid": 131, "correlation": 1002}},
  {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 1000007, "ts": 101.000, "dur": 118.000,
   "args": {"cuda_sync_kind": "Stream Sync", "stream": 7, "correlation": 1002, "device": 0, "context": 1}},
  {"ph": "f", "id": 1002, "pid": 0, "tid": 1000007, "ts": 101.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventSynchronize", "pid": 6200, "tid": 6200, "ts": 230.000,
   "dur": 22.000, "args": {"cbid": 133, "correlation": 1003}},
  {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": 7, "ts": 231.000, "dur": 20.000,
   "args": {"cuda_sync_kind": "Event Sync", "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 1001,
            "wait_on_cuda_event_id": 1, "stream": 7, "correlation": 1003, "device": 0, "context": 1}},
  {"ph": "f", "id": 1003, "pid": 0, "tid": 7, "ts": 231.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 6200, "tid": 6200, "ts": 258.000,
   "dur": 14.000, "args": {"cbid": 165, "correlation": 1004}},
  {"ph": "X", "cat": "cuda_sync", "name": "Context Sync", "pid": 0, "tid": 1, "ts": 259.000, "dur": 12.000,
   "args": {"cuda_sync_kind": "Context Sync", "stream": -1, "correlation": 1004, "device": 0, "context": 1}},
  {"ph": "X", "cat": "overhead", "name": "Buffer Flush", "pid": -1, "tid": 0, "ts": 280.000, "dur": 6.000},
  {"ph": "X", "cat": "cuda_profiler_range", "name": "mul_kernel", "pid": 0, "tid": 0, "ts": 0.000, "dur": 150.000,
   "args": {"correlation": 1000, "sm__throughput.avg.pct_of_peak_sustained_elapsed": 42.5}},
  {"ph": "X", "cat": "Trace", "ts": 0.000, "dur": 310.000, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler",
   "ts": 0.000},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 310.000}
  ]
})json";

// Meta's MTIA (Kineto's MTIA plugin): host launches under mtia_runtime, joined by ac2g
// flows to the device's mtia_ccp_events (pid = device, tid = its queue, args device and
// correlation), on two devices; deviceProperties from the plugin. The device names and
// the runtime calls' names stand for what a real trace has (the MTIA runtime is not
// public); the shape is Kineto's (output_json.cpp writes every activity the same way).
constexpr std::string_view kMtia = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "MTIA v2", "totalGlobalMem": 137438953472},
    {"id": 1, "name": "MTIA v2", "totalGlobalMem": 137438953472}
  ],
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1730000000000000000,
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 90.000, "pid": 7100, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 90.000, "pid": 7100, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_name", "ph": "M", "ts": 90.000, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 90.000, "pid": 0, "tid": 0, "args": {"labels": "MTIA 0"}},
  {"name": "process_name", "ph": "M", "ts": 90.000, "pid": 1, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 90.000, "pid": 1, "tid": 0, "args": {"labels": "MTIA 1"}},
  {"name": "thread_name", "ph": "M", "ts": 90.000, "pid": 7100, "tid": 7100, "args": {"name": "thread 7100 (python)"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#12", "pid": 7100, "tid": 7100, "ts": 100.000,
   "dur": 400.000, "args": {"External id": 1, "Record function id": 0, "Ev Idx": 0}},
  {"ph": "X", "cat": "user_annotation", "name": "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
   "pid": 7100, "tid": 7100, "ts": 101.000, "dur": 49.000, "args": {"External id": 2, "Ev Idx": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 7100, "tid": 7100, "ts": 160.000, "dur": 60.000,
   "args": {"External id": 3, "Ev Idx": 2}},
  {"ph": "X", "cat": "mtia_runtime", "name": "mtiaLaunchKernel", "pid": 7100, "tid": 7100, "ts": 170.000,
   "dur": 20.000, "args": {"External id": 3, "correlation": 600}},
  {"ph": "s", "id": 600, "pid": 7100, "tid": 7100, "ts": 170.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "mtia_ccp_events", "name": "fused_linear_bf16", "pid": 0, "tid": 1, "ts": 200.000, "dur": 80.000,
   "args": {"External id": 3, "device": 0, "correlation": 600}},
  {"ph": "f", "id": 600, "pid": 0, "tid": 1, "ts": 200.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 7100, "tid": 7100, "ts": 230.000, "dur": 30.000,
   "args": {"External id": 4, "Ev Idx": 3}},
  {"ph": "X", "cat": "mtia_runtime", "name": "mtiaLaunchKernel", "pid": 7100, "tid": 7100, "ts": 235.000,
   "dur": 10.000, "args": {"External id": 4, "correlation": 601}},
  {"ph": "s", "id": 601, "pid": 7100, "tid": 7100, "ts": 235.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "mtia_ccp_events", "name": "relu_bf16", "pid": 0, "tid": 1, "ts": 290.000, "dur": 0.000,
   "args": {"External id": 4, "device": 0, "correlation": 601}},
  {"ph": "f", "id": 601, "pid": 0, "tid": 1, "ts": 290.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 7100, "tid": 7100, "ts": 300.000, "dur": 40.000,
   "args": {"External id": 5, "Ev Idx": 4}},
  {"ph": "X", "cat": "mtia_runtime", "name": "mtiaMemcpyAsync", "pid": 7100, "tid": 7100, "ts": 305.000,
   "dur": 10.000, "args": {"External id": 5, "correlation": 602}},
  {"ph": "s", "id": 602, "pid": 7100, "tid": 7100, "ts": 305.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "mtia_ccp_events", "name": "dma_copy_d2d", "pid": 1, "tid": 2, "ts": 320.000, "dur": 30.000,
   "args": {"External id": 5, "device": 1, "correlation": 602}},
  {"ph": "f", "id": 602, "pid": 1, "tid": 2, "ts": 320.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "Trace", "ts": 90.000, "dur": 420.000, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler",
   "ts": 90.000},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 510.000}
  ]
})json";

// Intel XPU (Kineto's XPUPTI plugin): xpu_runtime launches (the ac2g "s") with the
// xpu_driver call inside sharing their correlation id (no flow of its own); kernels and
// copies under the usual kernel / gpu_memcpy on pid = device, tid = SYCL queue, args
// "sycl queue" (no "stream"), "l0 queue", "appended", ...; xpu_sync on pid -1 with the
// calling thread's tid; overhead on pid -1; collective_comm (oneCCL) on the host thread;
// deviceProperties with SYCL's device info; xpupti_version.
constexpr std::string_view kXpu = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "Intel(R) Data Center GPU Max 1550", "totalGlobalMem": 68719476736, "maxComputeUnits": 448,
     "maxWorkGroupSize": 1024, "maxClockFrequency": 1600, "maxMemAllocSize": 68719476736, "localMemSize": 131072,
     "vendor": "Intel(R) Corporation", "driverVersion": "1.3.29735"}
  ],
  "xpupti_version": "0.10.0",
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1731000000000000000,
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 0.000, "pid": 8100, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 0.000, "pid": 8100, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_name", "ph": "M", "ts": 0.000, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 0.000, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
  {"name": "thread_name", "ph": "M", "ts": 0.000, "pid": 8100, "tid": 8100, "args": {"name": "thread 8100 (python)"}},
  {"name": "thread_name", "ph": "M", "ts": 0.000, "pid": 0, "tid": 1, "args": {"name": "Stream 1"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 8100, "tid": 8100, "ts": 10.000, "dur": 300.000,
   "args": {"External id": 1, "Record function id": 0, "Ev Idx": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 8100, "tid": 8100, "ts": 20.000, "dur": 60.000,
   "args": {"External id": 2, "Record function id": 0, "Ev Idx": 1}},
  {"ph": "X", "cat": "xpu_runtime", "name": "urEnqueueKernelLaunch", "pid": 8100, "tid": 8100, "ts": 25.000,
   "dur": 30.000, "args": {"External id": 2, "correlation": 700}},
  {"ph": "s", "id": 700, "pid": 8100, "tid": 8100, "ts": 25.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "xpu_driver", "name": "zeCommandListAppendLaunchKernel", "pid": 8100, "tid": 8100, "ts": 30.000,
   "dur": 15.000, "args": {"External id": 2, "correlation": 700}},
  {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 1, "ts": 60.000, "dur": 50.000,
   "args": {"External id": 2, "appended": "59.800", "appended_rel_to_start": "-0.200", "submitted": "59.900",
            "submitted_rel_to_start": "-0.100", "device": 0, "context": "0x00005612d8f0a1b0", "sycl queue": 1,
            "l0 queue": "0x00005612d9012340", "kernel_id": 5, "sycl_node_id": 0, "sycl_invocation_id": 0,
            "correlation": 700}},
  {"ph": "f", "id": 700, "pid": 0, "tid": 1, "ts": 60.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 8100, "tid": 8100, "ts": 120.000, "dur": 40.000,
   "args": {"External id": 3, "Record function id": 0, "Ev Idx": 2}},
  {"ph": "X", "cat": "xpu_runtime", "name": "urEnqueueUSMMemcpy", "pid": 8100, "tid": 8100, "ts": 125.000,
   "dur": 20.000, "args": {"External id": 3, "correlation": 701}},
  {"ph": "s", "id": 701, "pid": 8100, "tid": 8100, "ts": 125.000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy H2D (Host -> Device)", "pid": 0, "tid": 1, "ts": 150.000,
   "dur": 10.000,
   "args": {"External id": 3, "l0 call": "zeCommandListAppendMemoryCopy", "device": 0, "sycl queue": 1,
            "memory opration id": 9, "bytes": 4194304, "memory bandwidth (GB/s)": 419.4304, "correlation": 701}},
  {"ph": "f", "id": 701, "pid": 0, "tid": 1, "ts": 150.000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "collective_comm", "name": "xccl::allreduce", "pid": 8100, "tid": 8100, "ts": 170.000,
   "dur": 30.000, "args": {"Communicator_id": 3}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::_local_scalar_dense", "pid": 8100, "tid": 8100, "ts": 210.000,
   "dur": 50.000, "args": {"External id": 4, "Record function id": 0, "Ev Idx": 3}},
  {"ph": "X", "cat": "xpu_sync", "name": "zeEventHostSynchronize", "pid": -1, "tid": 8100, "ts": 220.000, "dur": 35.000,
   "args": {"correlation": 702, "Type": "HOST_EVENT", "Context_handle": "0x00005612d8f0a1b0",
            "Queue_handle": "0x0000000000000000", "Event_handle": "0x00005612d9abc000", "Number_wait_events": 0,
            "Return_code": 0}},
  {"ph": "X", "cat": "overhead", "name": "Buffer Flush", "pid": -1, "tid": 8105, "ts": 280.000, "dur": 5.000,
   "args": {"overhead cost": 4000, "overhead occupancy": "80%", "overhead count": 2}},
  {"ph": "X", "cat": "Trace", "ts": 0.000, "dur": 320.000, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler",
   "ts": 0.000},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 320.000}
  ]
})json";

// Intel Gaudi (the HPU plugin): hpu_op on both sides, the host's calls into the Synapse
// runtime on the process's pid and the device's ops on pid = device, tid = engine lane
// (args "HW event name"), joined by correlation and ac2g flows; deviceProperties naming
// the part.
constexpr std::string_view kGaudi = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "GAUDI2", "totalGlobalMem": 103079215104}
  ],
  "displayTimeUnit": "ms",
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 990, "pid": 9100, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 990, "pid": 9100, "tid": 0, "args": {"labels": "CPU"}},
  {"name": "process_name", "ph": "M", "ts": 990, "pid": 0, "tid": 0, "args": {"name": "python"}},
  {"name": "process_labels", "ph": "M", "ts": 990, "pid": 0, "tid": 0, "args": {"labels": "HPU 0"}},
  {"name": "thread_name", "ph": "M", "ts": 990, "pid": 9100, "tid": 9100, "args": {"name": "thread 9100 (python)"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 9100, "tid": 9100, "ts": 1000, "dur": 500,
   "args": {"External id": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::matmul", "pid": 9100, "tid": 9100, "ts": 1010, "dur": 100,
   "args": {"External id": 2}},
  {"ph": "X", "cat": "hpu_op", "name": "synLaunch", "pid": 9100, "tid": 9100, "ts": 1020, "dur": 40,
   "args": {"External id": 2, "correlation": 800}},
  {"ph": "s", "id": 800, "pid": 9100, "tid": 9100, "ts": 1020, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "hpu_op", "name": "matmul_fwd_bf16", "pid": 0, "tid": 3, "ts": 1100, "dur": 120,
   "args": {"External id": 2, "correlation": 800, "HW event name": "MME0"}},
  {"ph": "f", "id": 800, "pid": 0, "tid": 3, "ts": 1100, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 9100, "tid": 9100, "ts": 1200, "dur": 50,
   "args": {"External id": 3}},
  {"ph": "X", "cat": "hpu_op", "name": "synLaunch", "pid": 9100, "tid": 9100, "ts": 1205, "dur": 20,
   "args": {"External id": 3, "correlation": 801}},
  {"ph": "s", "id": 801, "pid": 9100, "tid": 9100, "ts": 1205, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "hpu_op", "name": "add_fwd_bf16", "pid": 0, "tid": 4, "ts": 1260, "dur": 20,
   "args": {"External id": 3, "correlation": 801, "HW event name": "TPC1"}},
  {"ph": "f", "id": 801, "pid": 0, "tid": 4, "ts": 1260, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "Trace", "ts": 990, "dur": 600, "pid": "Spans", "tid": "PyTorch Profiler",
   "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
  {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 1590}
  ]
})json";

// A PrivateUse1 backend (an out-of-tree device registered with PyTorch, profiled by its
// Kineto plugin): launches under privateuse1_runtime and privateuse1_driver, device work
// under the usual kernel / gpu_memcpy / gpu_user_annotation; deviceProperties with the
// backend's own name and vendor.
constexpr std::string_view kPrivateUse1 = R"json({
  "schemaVersion": 1,
  "deviceProperties": [
    {"id": 0, "name": "Example NPU X1", "totalGlobalMem": 34359738368, "vendor": "Example Corp"}
  ],
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 0, "pid": 9500, "tid": 0, "args": {"name": "python"}},
  {"name": "thread_name", "ph": "M", "ts": 0, "pid": 9500, "tid": 9500, "args": {"name": "thread 9500 (python)"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 9500, "tid": 9500, "ts": 0, "dur": 200,
   "args": {"External id": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 9500, "tid": 9500, "ts": 10, "dur": 40,
   "args": {"External id": 2}},
  {"ph": "X", "cat": "privateuse1_runtime", "name": "npuLaunchKernel", "pid": 9500, "tid": 9500, "ts": 15, "dur": 20,
   "args": {"External id": 2, "correlation": 50}},
  {"ph": "s", "id": 50, "pid": 9500, "tid": 9500, "ts": 15, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 5, "ts": 60, "dur": 30,
   "args": {"External id": 2, "device": 0, "stream": 5, "correlation": 50}},
  {"ph": "f", "id": 50, "pid": 0, "tid": 5, "ts": 60, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "add_block", "pid": 0, "tid": 5, "ts": 59, "dur": 32,
   "args": {"External id": 2}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::to", "pid": 9500, "tid": 9500, "ts": 100, "dur": 40,
   "args": {"External id": 3}},
  {"ph": "X", "cat": "privateuse1_driver", "name": "npuMemcpyAsync", "pid": 9500, "tid": 9500, "ts": 105, "dur": 15,
   "args": {"External id": 3, "correlation": 51}},
  {"ph": "s", "id": 51, "pid": 9500, "tid": 9500, "ts": 105, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 5, "ts": 130, "dur": 8,
   "args": {"External id": 3, "device": 0, "stream": 5, "correlation": 51, "bytes": 1024}},
  {"ph": "f", "id": 51, "pid": 0, "tid": 5, "ts": 130, "cat": "ac2g", "name": "ac2g", "bp": "e"}
  ]
})json";

}  // namespace

const std::vector<KinetoGeneration>& KinetoGenerations() {
  static const std::vector<KinetoGeneration> generations = {
      {"pytorch_1_9", "PyTorch 1.8-1.9: Operator/Runtime/Kernel, string host tids, \"stream 7\", async/launch flows",
       kPyTorch19},
      {"pytorch_1_10", "PyTorch 1.10: cpu_op/cuda_runtime with Kernel/Memcpy/Memset, numeric tids, async_cpu_to_gpu flows",
       kPyTorch110},
      {"pytorch_1_12", "PyTorch 1.11-1.13: lower-case categories, ac2g/fwdbwd flows, distributedInfo, cat-less [memory]",
       kPyTorch112},
      {"pytorch_2", "PyTorch 2.x: ns-fraction ts, baseTimeNanoseconds, cuda_driver, python_function, NCCL stream",
       kPyTorch2},
      {"rocm", "PyTorch 2.x on ROCm: hip* runtime calls, launch parameters on the call", kRocm},
      {"legacy_autograd", "legacy autograd exporter: CPU functions / CUDA functions, cpu_to_cuda flows",
       kLegacyAutograd},
      {"cuda_graph", "CUDA graph: one cudaGraphLaunch, several kernels with its correlation", kCudaGraph},
      {"display_ns", "displayTimeUnit ns: epoch-us floats with ns fractions", kDisplayNs},
      {"cuda_sync", "PyTorch 2.x CUDA records: cuda_sync, cuda_event, overhead, cuda_profiler_range", kCudaSync},
      {"mtia", "Meta MTIA: mtia_runtime launches, mtia_ccp_events on two devices", kMtia},
      {"xpu", "Intel XPU: xpu_runtime/xpu_driver launches, SYCL queues, xpu_sync, collective_comm", kXpu},
      {"gaudi", "Intel Gaudi: hpu_op on the host (Synapse calls) and on the device", kGaudi},
      {"privateuse1", "PrivateUse1 backend: privateuse1_runtime/_driver launches, kernel/gpu_memcpy", kPrivateUse1},
  };
  return generations;
}

const KinetoGeneration& KinetoGenerationNamed(std::string_view name) {
  for (const KinetoGeneration& generation : KinetoGenerations()) {
    if (generation.name == name) return generation;
  }
  std::abort();  // a test asked for a trace that does not exist
}

}  // namespace stepscope::importers::testing
