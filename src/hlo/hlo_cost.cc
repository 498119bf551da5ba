#include "src/hlo/hlo_cost.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace stepscope::hlo {
namespace {

// One operation per output element (XLA's HloCostAnalysis counts these the same way;
// transcendental ones are not weighted more, as the roofline's compute roof is one
// number).
constexpr std::string_view kElementwiseOpcodes[] = {
    "abs",      "add",       "and",       "atan2",     "cbrt",       "ceil",       "clamp",
    "clz",      "compare",   "complex",   "cosine",    "divide",     "erf",        "exponential",
    "exponential-minus-one", "floor",     "imag",      "is-finite",  "log",        "log-plus-one",
    "logistic", "maximum",   "minimum",   "multiply",  "negate",     "not",        "or",
    "popcnt",   "power",     "real",      "reduce-precision",        "remainder",  "round-nearest-afz",
    "round-nearest-even",    "rsqrt",     "select",    "shift-left", "shift-right-arithmetic",
    "shift-right-logical",   "sign",      "sine",      "sqrt",       "subtract",   "tan",
    "tanh",     "xor",
};

// The output that counts: library custom calls return (result, workspace) tuples, and
// the workspace is scratch, not an output; every other op's shape as it is (a
// multi-output fusion's tuple included).
const Shape& ResultShape(const Instruction& instruction) {
  const bool library_call = IsGemmCustomCall(instruction) || IsConvolutionCustomCall(instruction);
  if (library_call && instruction.shape.is_tuple() && !instruction.shape.tuple_shapes.empty()) {
    return instruction.shape.tuple_shapes[0];
  }
  return instruction.shape;
}

double Elements(const Shape& shape) { return static_cast<double>(shape.element_count); }

double DotFlops(const Shape& lhs, const Shape& output, const DotDimensionNumbers& dims) {
  double contracted = 1;
  for (int64_t d : dims.lhs_contracting) contracted *= static_cast<double>(lhs.dim(d));
  return 2.0 * Elements(output) * contracted;
}

double ConvolutionFlops(const Shape& kernel, const Shape& output, const Instruction& instruction) {
  double per_output = static_cast<double>(kernel.dim(instruction.convolution.kernel_input_feature));
  if (!instruction.convolution.kernel_spatial.empty()) {
    for (int64_t d : instruction.convolution.kernel_spatial) per_output *= static_cast<double>(kernel.dim(d));
  } else {
    for (const WindowDimension& w : instruction.window) per_output *= static_cast<double>(std::max<int64_t>(w.size, 0));
  }
  return 2.0 * Elements(output) * per_output;
}

// Reads ["1","2"] (quoted or bare integers) after `"key":` inside `text`.
bool ParseIntList(std::string_view text, std::string_view key, std::vector<int64_t>* out) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  size_t at = text.find(quoted);
  if (at == std::string_view::npos) return false;
  size_t open = text.find('[', at + quoted.size());
  size_t close = text.find(']', at + quoted.size());
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return false;
  std::string_view list = text.substr(open + 1, close - open - 1);
  out->clear();
  size_t i = 0;
  while (i < list.size()) {
    if ((list[i] >= '0' && list[i] <= '9') || list[i] == '-') {
      int64_t value = 0;
      auto [end, error] = std::from_chars(list.data() + i, list.data() + list.size(), value);
      if (error != std::errc()) return false;
      out->push_back(value);
      i = static_cast<size_t>(end - list.data());
    } else {
      ++i;
    }
  }
  return true;
}

}  // namespace

bool IsElementwiseOpcode(std::string_view opcode) {
  return std::find(std::begin(kElementwiseOpcodes), std::end(kElementwiseOpcodes), opcode) !=
         std::end(kElementwiseOpcodes);
}

bool IsGemmCustomCall(const Instruction& instruction) {
  const std::string& target = instruction.custom_call_target;
  return instruction.opcode == "custom-call" &&
         (target.find("gemm") != std::string::npos || target.find("matmul") != std::string::npos ||
          target.find("blas") != std::string::npos);
}

bool IsConvolutionCustomCall(const Instruction& instruction) {
  return instruction.opcode == "custom-call" && !instruction.window.empty() &&
         instruction.custom_call_target.find("conv") != std::string::npos;
}

bool ParseGemmDotDimensions(std::string_view backend_config, DotDimensionNumbers* out) {
  size_t at = backend_config.find("\"dot_dimension_numbers\"");
  if (at == std::string_view::npos) return false;
  std::string_view rest = backend_config.substr(at);
  size_t end = rest.find('}');
  if (end != std::string_view::npos) rest = rest.substr(0, end);
  DotDimensionNumbers dims;
  if (!ParseIntList(rest, "lhs_contracting_dimensions", &dims.lhs_contracting)) return false;
  ParseIntList(rest, "rhs_contracting_dimensions", &dims.rhs_contracting);
  ParseIntList(rest, "lhs_batch_dimensions", &dims.lhs_batch);
  ParseIntList(rest, "rhs_batch_dimensions", &dims.rhs_batch);
  *out = std::move(dims);
  return true;
}

HloCostModel::HloCostModel(const HloModule& module)
    : costs_(module.instructions.size()),
      computation_flops_(module.computations.size(), 0.0),
      computation_known_(module.computations.size(), true) {
  auto operand_shape = [&](const Instruction& instruction, size_t i) -> const Shape* {
    if (i >= instruction.operands.size()) return nullptr;
    return &module.instructions[static_cast<size_t>(instruction.operands[i])].shape;
  };
  // Operations of everything an instruction calls (computation_order puts callees first).
  auto called_flops = [&](const Instruction& instruction) {
    double flops = 0;
    for (int32_t c : instruction.called_computations) flops += computation_flops_[static_cast<size_t>(c)];
    return flops;
  };
  auto called_known = [&](const Instruction& instruction) {
    for (int32_t c : instruction.called_computations) {
      if (!computation_known_[static_cast<size_t>(c)]) return false;
    }
    return true;
  };
  for (int32_t c : module.computation_order) {
    const Computation& computation = module.computations[static_cast<size_t>(c)];
    double total = 0;
    bool known = true;
    for (int32_t index : computation.instructions) {
      const Instruction& instruction = module.instructions[static_cast<size_t>(index)];
      OpCost& cost = costs_[static_cast<size_t>(index)];
      const std::string& opcode = instruction.opcode;
      const Shape& result = ResultShape(instruction);
      double operand_bytes = 0;
      for (int32_t operand : instruction.operands) {
        operand_bytes += static_cast<double>(module.instructions[static_cast<size_t>(operand)].shape.byte_size);
      }
      cost.bytes_accessed = operand_bytes + static_cast<double>(result.byte_size);

      if (opcode == "dot") {
        if (const Shape* lhs = operand_shape(instruction, 0)) cost.flops = DotFlops(*lhs, result, instruction.dot);
      } else if (IsGemmCustomCall(instruction)) {
        DotDimensionNumbers dims;
        const Shape* lhs = operand_shape(instruction, 0);
        if (lhs != nullptr && ParseGemmDotDimensions(instruction.backend_config, &dims)) {
          cost.flops = DotFlops(*lhs, result, dims);
        }
      } else if (opcode == "convolution" || IsConvolutionCustomCall(instruction)) {
        if (const Shape* kernel = operand_shape(instruction, 1)) cost.flops = ConvolutionFlops(*kernel, result, instruction);
      } else if (IsElementwiseOpcode(opcode)) {
        cost.flops = Elements(result);
      } else if (opcode == "reduce" || opcode == "all-reduce" || opcode == "reduce-scatter") {
        const double per_element = std::max(1.0, called_flops(instruction));
        if (opcode == "reduce") {
          const Shape* input = operand_shape(instruction, 0);
          const double folded = input ? Elements(*input) - Elements(result) : 0;
          cost.flops = std::max(0.0, folded) * per_element;
        } else {
          cost.flops = Elements(result) * per_element;
        }
      } else if (opcode == "reduce-window") {
        double window = 1;
        for (const WindowDimension& w : instruction.window) window *= static_cast<double>(std::max<int64_t>(w.size, 0));
        cost.flops = Elements(result) * window * std::max(1.0, called_flops(instruction));
      } else if (opcode == "fusion" || opcode == "call" || opcode == "while" || opcode == "conditional" ||
                 opcode == "async-start") {
        cost.flops = called_flops(instruction);
        cost.flops_known = called_known(instruction);
      } else if (opcode == "custom-call") {
        cost.flops_known = false;  // a library or user kernel the model cannot see into
      }
      // Bytes of ops that only name memory (no kernel reads or writes it).
      if (opcode == "parameter" || opcode == "constant" || opcode == "tuple" || opcode == "get-tuple-element" ||
          opcode == "bitcast") {
        cost.bytes_accessed = 0;
      }
      total += cost.flops;
      known = known && cost.flops_known;
    }
    computation_flops_[static_cast<size_t>(c)] = total;
    computation_known_[static_cast<size_t>(c)] = known;
  }
}

const OpCost& HloCostModel::cost(int32_t index) const {
  static const OpCost kNone;
  return index >= 0 && static_cast<size_t>(index) < costs_.size() ? costs_[static_cast<size_t>(index)] : kNone;
}

double HloCostModel::computation_flops(int32_t computation) const {
  return computation >= 0 && static_cast<size_t>(computation) < computation_flops_.size()
             ? computation_flops_[static_cast<size_t>(computation)]
             : 0;
}

}  // namespace stepscope::hlo
