// The floating-point precision of an op's inputs, from PyTorch's "Input type" argument
// (torch.profiler with record_shapes=True): a JSON list of C++ type names, one per input,
// e.g. ["c10::BFloat16", "c10::BFloat16", "", "Scalar"].
//
// Why: XProf counts a device op as 16-bit compute by the op's data type. Kineto kernels
// carry no type, and many kernel names say none either: every kernel torch.compile
// generates ("triton_poi_fused_add_mul_0", "triton_tem_fused_mm_1") and user Triton
// kernels. Their launching op does: Inductor wraps each Triton launch in a record
// function of the kernel's name whose inputs are the kernel's tensors.
#pragma once

#include <cstdint>
#include <string_view>

namespace stepscope::analysis {

enum class InputPrecision : uint8_t {
  kUnknown = 0,  // no floating-point input (ints, bools, scalars, lists, none), or unreadable
  k16Bit,        // every floating-point input is Half or BFloat16
  kOther,        // a float, double, 8-bit float or complex input
};

// The precision of an "Input type" value (the list as JSON text; a bare type name is read
// as a list of one).
InputPrecision FloatInputPrecision(std::string_view input_types);

}  // namespace stepscope::analysis
