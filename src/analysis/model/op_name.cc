#include "src/analysis/model/op_name.h"

#include <array>

#include "src/base/ascii.h"

namespace stepscope::analysis {
namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlnum(char c) { return IsUpper(c) || IsLower(c) || IsDigit(c); }

// TF op type: [A-Z_][a-zA-Z0-9_]*
bool IsTfOpType(std::string_view s) {
  // Internal types are "_" + CamelCase (_Send, _HostCast, _FusedMatMul); "_all_gather_base"
  // (PyTorch's "nccl:_all_gather_base") is not a type.
  if (s.empty() || !(IsUpper(s[0]) || (s[0] == '_' && s.size() > 1 && IsUpper(s[1])))) return false;
  for (char c : s) {
    if (!(IsAlnum(c) || c == '_')) return false;
  }
  return true;
}

// TF op name: [A-Za-z0-9._][A-Za-z0-9_.\/>-]* (TF's pattern also admits the leading '_'
// of internal nodes such as _SOURCE or _send_*, which real files contain).
bool IsTfOpName(std::string_view s) {
  if (s.empty() || !(IsAlnum(s[0]) || s[0] == '.' || s[0] == '_')) return false;
  for (char c : s) {
    if (!(IsAlnum(c) || c == '_' || c == '.' || c == '\\' || c == '/' || c == '>' || c == '-')) return false;
  }
  return true;
}

// A JAX op name is a scope path of transformations ("jit(train_step)/jit(main)/dot_general"):
// it has a '/' or a '('. A bare word before a ':' is another framework's naming, not a
// JAX op: PyTorch's "nccl:all_to_all", "gloo:broadcast" keep their whole name.
bool IsJaxOpName(std::string_view s) {
  return !s.empty() && (s.find('/') != std::string_view::npos || s.find('(') != std::string_view::npos);
}

// JAX op type: [a-z_][a-z0-9_]* optionally followed by [...]
bool IsJaxOpType(std::string_view s) {
  if (s.empty() || !(IsLower(s[0]) || s[0] == '_')) return false;
  size_t i = 0;
  while (i < s.size() && (IsLower(s[i]) || IsDigit(s[i]) || s[i] == '_')) ++i;
  if (i == s.size()) return true;
  return s[i] == '[' && s.back() == ']';
}

}  // namespace

bool ContainsIgnoreCase(std::string_view text, std::string_view needle) {
  return base::AsciiContainsIgnoreCase(text, needle);
}

bool ContainsAnyIgnoreCase(std::string_view text, std::span<const std::string_view> lowercase_patterns) {
  const std::string lower = base::AsciiLowerCopy(text);
  for (std::string_view pattern : lowercase_patterns) {
    if (lower.find(pattern) != std::string::npos) return true;
  }
  return false;
}

bool StartsWithIgnoreCase(std::string_view text, std::string_view prefix) {
  return base::AsciiStartsWithIgnoreCase(text, prefix);
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) { return base::AsciiEqualsIgnoreCase(a, b); }

MemcpyDirection MemcpyDirectionFromName(std::string_view name) {
  // Both spellings occur: XProf's op names (MemcpyHToD) and CUPTI/ROCm event names (MemcpyH2D).
  struct Prefix {
    std::string_view prefix;
    MemcpyDirection direction;
  };
  static constexpr std::array<Prefix, 11> kPrefixes = {{
      {"MemcpyHToD", MemcpyDirection::kHostToDevice},
      {"MemcpyH2D", MemcpyDirection::kHostToDevice},
      {"MemcpyDToH", MemcpyDirection::kDeviceToHost},
      {"MemcpyD2H", MemcpyDirection::kDeviceToHost},
      {"MemcpyDToD", MemcpyDirection::kDeviceToDevice},
      {"MemcpyD2D", MemcpyDirection::kDeviceToDevice},
      {"MemcpyP2P", MemcpyDirection::kDeviceToDevice},
      {"MemcpyPtoP", MemcpyDirection::kDeviceToDevice},  // CUPTI's peer copies, as Kineto names them
      {"MemcpyHToH", MemcpyDirection::kHostToHost},
      {"MemcpyH2H", MemcpyDirection::kHostToHost},
      {"Memset", MemcpyDirection::kMemset},
  }};
  for (const Prefix& p : kPrefixes) {
    if (StartsWithIgnoreCase(name, p.prefix)) return p.direction;
  }
  return MemcpyDirection::kUnknown;
}

ParsedOpName ParseOpName(std::string_view full_name) {
  ParsedOpName op{OpCategory::kOther, full_name, full_name};
  if (full_name.starts_with("Iterator::")) return {OpCategory::kTfData, full_name, "Iterator"};
  switch (MemcpyDirectionFromName(full_name)) {
    case MemcpyDirection::kHostToDevice: return {OpCategory::kMemcpyHToD, full_name, "MemcpyHToD"};
    case MemcpyDirection::kDeviceToHost: return {OpCategory::kMemcpyDToH, full_name, "MemcpyDToH"};
    case MemcpyDirection::kDeviceToDevice: return {OpCategory::kMemcpyDToD, full_name, "MemcpyDToD"};
    case MemcpyDirection::kHostToHost: return {OpCategory::kMemcpyHToH, full_name, "MemcpyHToH"};
    default: break;
  }
  if (IsPyTorchOpName(full_name)) return {OpCategory::kPyTorch, full_name, full_name};
  // The DataLoader keeps its name (it is what PyTorch's profiler shows) and is input, as
  // tf.data's iterators are.
  if (IsDataLoaderNextName(full_name)) return {OpCategory::kDataLoader, full_name, "DataLoader"};
  size_t colon = full_name.find(':');
  if (colon == std::string_view::npos) return op;
  std::string_view name = full_name.substr(0, colon);
  std::string_view type = full_name.substr(colon + 1);
  if (IsTfOpName(name) && IsTfOpType(type)) {
    OpCategory category = type.starts_with("InfeedEnqueue") ? OpCategory::kInfeed : OpCategory::kTensorFlow;
    return {category, name, type};
  }
  if (IsJaxOpName(name) && IsJaxOpType(type)) return {OpCategory::kJax, name, type};
  return op;
}

bool IsCpuOpLikeName(std::string_view name) {
  size_t colons = name.find("::");
  if (colons == 0 || colons == std::string_view::npos || IsDigit(name[0])) return false;
  for (size_t i = 0; i < colons; ++i) {
    if (!(IsAlnum(name[i]) || name[i] == '_')) return false;
  }
  for (char c : name) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return false;
  }
  return colons + 2 < name.size();
}

bool IsExplicitStepMarkerName(std::string_view name) {
  return (name.starts_with("train") || name.starts_with("test") || name.starts_with("TraceContext")) &&
         name.find('/') == std::string_view::npos;
}

bool IsIteratorGetNextName(std::string_view name) {
  return StartsWithIgnoreCase(name, "IteratorGetNext") || IsDataLoaderNextName(name);
}

bool IsDataLoaderNextName(std::string_view name) { return name.starts_with("enumerate(DataLoader)#"); }

bool IsPyTorchOpName(std::string_view name) {
  size_t colons = name.find("::");
  if (colons == 0 || colons == std::string_view::npos || colons + 2 == name.size()) return false;
  if (!(IsLower(name[0]) || name[0] == '_')) return false;
  for (size_t i = 0; i < colons; ++i) {
    if (!(IsLower(name[i]) || IsDigit(name[i]) || name[i] == '_')) return false;
  }
  for (size_t i = colons + 2; i < name.size(); ++i) {
    const char c = name[i];
    if (!(IsAlnum(c) || c == '_' || c == '.' || c == ':')) return false;
  }
  return name.back() != ':';
}

bool IsNotRealComputeName(std::string_view name) {
  return name.starts_with("EagerExecute") || name == "EagerLocalExecute" || name == "EagerKernelExecute" ||
         name == "FunctionRun";
}

bool IsExecutorProcessName(std::string_view name) { return StartsWithIgnoreCase(name, "ExecutorState::Process"); }

bool IsPythonFrameName(std::string_view name) {
  if (name.starts_with("<built-in ") || name.starts_with("nn.Module: ")) return true;
  // TensorFlow's and JAX's Python tracer: "$<file>:<line> <function>" for Python code,
  // "$<module> <function>" for built-ins ("$builtins len", "$<unknown> append").
  if (name.starts_with('$')) {
    const size_t space = name.find(' ');
    return space != std::string_view::npos && space > 1 && space + 1 < name.size();
  }
  // "<file>(<digits>): <function>": the file part non-empty, at least one digit.
  const size_t close = name.find("): ");
  if (close == std::string_view::npos || close + 3 >= name.size()) return false;
  size_t open = close;
  while (open > 0 && name[open - 1] >= '0' && name[open - 1] <= '9') --open;
  return open < close && open >= 2 && name[open - 1] == '(';
}

bool IsMemoryEventName(std::string_view name) { return name == "MemoryAllocation" || name == "MemoryDeallocation"; }

bool IsCompileName(std::string_view name) {
  return name.starts_with("XlaCompile") || name.starts_with("BackendCompile") || name.starts_with("PjRtCompile") ||
         name.starts_with("PjitCompile") || name == "Compile";
}

bool IsHostSyncCallName(std::string_view name) {
  if (name.find("Synchronize") != std::string_view::npos) return true;
  return name == "cudaMemcpy" || name == "cudaMemcpy2D" || name == "hipMemcpy" || name == "hipMemcpy2D" ||
         name == "cuMemcpyDtoH" || name == "cuMemcpyDtoH_v2" || name == "hipMemcpyDtoH";
}

bool IsTfLoopOpName(std::string_view name) {
  return name == "WhileOp-EvalCond" || name == "WhileOp-StartBody" || name == "ForOp" || name == "ParallelForOp" ||
         name == "ForeverOp";
}

namespace {

// XProf's classes for a tf.data op: a file source is read on demand, unless a stage
// that reads ahead (prefetch, interleave, parallel map, in-memory cache) is above it.
InputOpCategory ClassifyTfDataOp(std::string_view name) {
  static constexpr std::array<std::string_view, 6> kFileSources = {
      "::TFRecord", "::TextLine", "::FixedLengthRecord", "::SSTable", "::RecordIO", "::ArrayRecord"};
  static constexpr std::array<std::string_view, 5> kAdvancedReaders = {
      "::MemoryReader", "::MemoryWriter", "::Interleave", "::Prefetch", "::ParallelMap"};
  for (std::string_view source : kFileSources) {
    if (name.ends_with(source)) {
      for (std::string_view reader : kAdvancedReaders) {
        if (name.find(reader) != std::string_view::npos) return InputOpCategory::kAdvancedFileRead;
      }
      return InputOpCategory::kDemandedFileRead;
    }
  }
  return InputOpCategory::kPreprocessing;
}

}  // namespace

bool IsPinMemoryName(std::string_view name) { return name == "aten::pin_memory" || name == "aten::_pin_memory"; }

bool IsHostToDeviceTransferName(std::string_view name) {
  const auto contains = [&](std::string_view part) { return name.find(part) != std::string_view::npos; };
  return name.starts_with("DevicePut") || contains("CopyToDevice") || contains("TransferToDevice") ||
         name.starts_with("BufferFromPyval");
}

std::optional<InputOpCategory> HostInputOpCategory(OpCategory category, std::string_view name) {
  switch (category) {
    case OpCategory::kTfData: return ClassifyTfDataOp(name);
    case OpCategory::kMemcpyHToD:
    case OpCategory::kInfeed: return InputOpCategory::kEnqueue;
    default: break;
  }
  if (IsPinMemoryName(name)) return InputOpCategory::kPinMemory;
  if (IsDataLoaderNextName(name)) return InputOpCategory::kDataLoader;
  if (IsHostToDeviceTransferName(name)) return InputOpCategory::kEnqueue;
  return std::nullopt;
}

bool IsCollectiveOpName(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kPatterns = {
      "nccl",          "rccl",         "all-reduce",  "allreduce", "all-gather",          "allgather",
      "reduce-scatter", "reducescatter", "all-to-all", "alltoall",  "collective-permute", "collectivereduce"};
  return ContainsAnyIgnoreCase(name, kPatterns);
}

}  // namespace stepscope::analysis
