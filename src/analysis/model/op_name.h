// Classifying events by name: framework op names, step markers, input-pipeline ops.
//
// The rules are the TF Profiler's (XProf tf_op_utils / xplane_to_step_events /
// op_stats_to_input_pipeline_analysis; summarised in reference/xspace.md §2, §3, §6),
// re-expressed here; docs/model.md lists them with their sources.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "src/analysis/model/profile_model.h"

namespace stepscope::analysis {

// An op name split into name and type with its category ("a/b/MatMul:MatMul" ->
// {kTensorFlow, "a/b/MatMul", "MatMul"}; "aten::addmm" -> {kPyTorch, "aten::addmm",
// "aten::addmm"}: a PyTorch operator's name is its type, see IsPyTorchOpName). Views into
// the input.
struct ParsedOpName {
  OpCategory category = OpCategory::kOther;
  std::string_view name;
  std::string_view type;
};
ParsedOpName ParseOpName(std::string_view full_name);

// "train", "test..." or "TraceContext..." without '/': TF's explicit step markers.
bool IsExplicitStepMarkerName(std::string_view name);
// The step waiting for input: TensorFlow's IteratorGetNext* (case-insensitive) or a
// PyTorch DataLoader iterator's __next__ (IsDataLoaderNextName). Both count as
// HOST_WAIT_INPUT in the step breakdown and as input fetches on the input-pipeline page.
bool IsIteratorGetNextName(std::string_view name);
// "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__" and the other names
// torch.utils.data.DataLoader's iterators record ("enumerate(DataLoader)#<iterator
// class>.__next__"): the training loop fetching the next batch.
bool IsDataLoaderNextName(std::string_view name);
// A PyTorch operator name as the profiler records it (cpu_op): a lower-case C++ namespace,
// "::" and an identifier path with no spaces, templates or arguments ("aten::conv2d",
// "aten::add_", "c10d::allreduce_", "torch::autograd::AccumulateGrad"). Narrower than
// IsCpuOpLikeName so that host runtime names ("ExecutorState::Process") and kernel names
// ("cutlass::Kernel<...>") stay what they are.
bool IsPyTorchOpName(std::string_view name);
// Events XProf does not count as real host compute (EagerExecute*, EagerLocalExecute,
// EagerKernelExecute, FunctionRun).
bool IsNotRealComputeName(std::string_view name);
// ExecutorState::Process* (case-insensitive): counts as kernel launch when a device exists.
bool IsExecutorProcessName(std::string_view name);
// MemoryAllocation / MemoryDeallocation instants (memory profile data, not ops).
bool IsMemoryEventName(std::string_view name);
// A Python frame as torch.profiler's with_stack / with_modules and stepscope's Python
// tracer name it: "<file>(<first line>): <function>", "<built-in method NAME ...>" /
// "<built-in function NAME>", "nn.Module: <class>_<n>"; or as TensorFlow's and JAX's
// Python tracer does: "$<file>:<line> <function>", "$<module> <function>". A call stack,
// not an op: host op tables leave frames out, and the ops under a frame are children of
// the op around it (what PyTorch's key_averages() and XProf count).
bool IsPythonFrameName(std::string_view name);
// Host-side compilation (XLA / PjRt compile events): stepscope's source of kHostCompile.
bool IsCompileName(std::string_view name);
// A runtime call in which the host waits for the device: a device, stream or event
// synchronisation of any backend (cudaStreamSynchronize, hipDeviceSynchronize,
// cuCtxSynchronize, ...), or a synchronous copy (cudaMemcpy, hipMemcpy, cuMemcpyDtoH).
bool IsHostSyncCallName(std::string_view name);
// TF loop ops whose presence makes TF skip grouping (CheckLoopOp).
bool IsTfLoopOpName(std::string_view name);

// A PyTorch cpu_op-like name: a C++ namespace, "::", no whitespace ("aten::addmm",
// "torch::autograd::AccumulateGrad", "fbgemm::jagged_to_padded_dense"); not a user
// annotation ("Optimizer.step#SGD.step") nor an autograd wrapper ("autograd::engine::
// evaluate_function: MmBackward0"). Used to prefer ops over annotations when attributing
// kernels to the scope that launched them.
bool IsCpuOpLikeName(std::string_view name);

// Memcpy direction implied by a name ("MemcpyHToD", "MemcpyH2D", "MemcpyP2P", "Memset..."),
// kUnknown when the name says nothing.
MemcpyDirection MemcpyDirectionFromName(std::string_view name);

// The input class of a host op (`category` and `name` as ParseOpName gives them), or
// nullopt when the op is not input work:
//   - tf.data ops ("Iterator::...") by XProf's rules: file sources read on demand or
//     ahead, everything else preprocessing;
//   - MemcpyHToD / InfeedEnqueue and JAX/PjRt host-to-device transfers
//     (IsHostToDeviceTransferName): enqueue;
//   - PyTorch: pinned-memory copies (IsPinMemoryName), then DataLoader iteration
//     (IsDataLoaderNextName; its own time includes the Python frames below it: frames are
//     not ops, IsPythonFrameName).
std::optional<InputOpCategory> HostInputOpCategory(OpCategory category, std::string_view name);
// PyTorch copying a batch into page-locked memory: aten::pin_memory / aten::_pin_memory,
// on the training thread or the DataLoader's pin-memory thread.
bool IsPinMemoryName(std::string_view name);
// JAX / PjRt putting host data on a device: DevicePut* (jax.device_put),
// *CopyToDevice* and *TransferToDevice* (PjRt buffers), BufferFromPyval.
bool IsHostToDeviceTransferName(std::string_view name);

// Case-insensitive prefix / substring tests.
bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix);
bool ContainsIgnoreCase(std::string_view text, std::string_view needle);
// Whether `text` contains any of `lowercase_patterns` (which must be lowercase), ignoring
// ASCII case: `text` is folded once and each pattern found with find, instead of one
// case-folding scan per pattern (kernel names run to hundreds of bytes).
bool ContainsAnyIgnoreCase(std::string_view text, std::span<const std::string_view> lowercase_patterns);
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

// Collective communication by name, any case: NCCL/RCCL kernels ("ncclDevKernel_...",
// "ncclKernel_..."), XLA's HLO ops and GPU kernels ("all-reduce", "all-gather",
// "reduce-scatter", "all-to-all", "collective-permute") and TF's ("NcclAllReduce",
// "CollectiveReduceV2", "AllReduce").
bool IsCollectiveOpName(std::string_view name);

}  // namespace stepscope::analysis
