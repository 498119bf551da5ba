// The cost model: floating-point operations and bytes accessed per HLO instruction,
// computed from shapes and opcodes alone (no compiler, no device).
//
// Rules (docs/tools.md "HLO cost model" has the table):
//   - dot: 2 x output elements x the product of the lhs contracting dimension sizes (one
//     multiply and one add per term). A cuBLAS / hipBLASLt gemm custom call counts the
//     same, with the dimension numbers read from its backend_config.
//   - convolution (and a cuDNN / MIOpen convolution custom call, which keeps the window and
//     dimension labels): 2 x output elements x kernel input features x the product of the
//     kernel's spatial sizes. Padding and dilation are not subtracted (an upper bound, as
//     the kernel still runs over the padded window on most backends).
//   - elementwise arithmetic, comparison, select, bitwise and transcendental ops: one
//     operation per output element;
//   - reduce / reduce-window / all-reduce: the reducer's operations (at least 1) once per
//     element folded in (input - output elements; output x window size);
//   - data movement (copy, transpose, broadcast, slice, concatenate, convert, gather, ...),
//     parameters, constants and tuples: no operations;
//   - fusion: the operations of its fused computation (each body instruction by these
//     rules, with its own shapes), and as bytes the fusion's operands and output only -
//     what the fused kernel reads from and writes to memory;
//   - call / while / conditional: their called computations once (trip counts are not
//     known from the program);
//   - other custom calls (fused attention, user kernels): FLOPs unknown (flops_known).
// Bytes accessed, for every instruction that is not a fusion: operand bytes + output bytes
// (for a gemm or convolution custom call returning (result, workspace): the result only).
// Costs are doubles, so no product of hostile dimensions can overflow.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "src/hlo/hlo_module.h"

namespace stepscope::hlo {

struct OpCost {
  double flops = 0;
  double bytes_accessed = 0;
  // False when the model cannot know the work: custom calls other than gemm and
  // convolution library calls (e.g. fused attention), and ops that call such a
  // computation. Bytes are still operands + output; `flops` is 0 and means "unknown".
  bool flops_known = true;
  // Operations per byte; 0 when no bytes are accessed.
  double arithmetic_intensity() const { return bytes_accessed > 0 ? flops / bytes_accessed : 0; }
};

class HloCostModel {
 public:
  // Costs every instruction of `module`, callees before callers. The module must outlive
  // nothing: the model copies what it needs.
  explicit HloCostModel(const HloModule& module);

  // Cost of instruction `index` (an index into HloModule::instructions); zero when out of
  // range.
  const OpCost& cost(int32_t index) const;
  // Sum of the operations of a computation's instructions.
  double computation_flops(int32_t computation) const;

 private:
  std::vector<OpCost> costs_;
  std::vector<double> computation_flops_;
  std::vector<bool> computation_known_;  // every instruction's FLOPs known
};

// Opcodes the model counts one operation per output element for.
bool IsElementwiseOpcode(std::string_view opcode);
// A cuBLAS / hipBLASLt / rocBLAS gemm custom call; a cuDNN / MIOpen convolution call.
bool IsGemmCustomCall(const Instruction& instruction);
bool IsConvolutionCustomCall(const Instruction& instruction);

// The dot dimension numbers a gemm custom call keeps in its JSON backend_config
// ("lhs_contracting_dimensions":["1"], ...). False when the text has none.
bool ParseGemmDotDimensions(std::string_view backend_config, DotDimensionNumbers* out);

}  // namespace stepscope::hlo
