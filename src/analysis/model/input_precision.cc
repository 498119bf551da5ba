#include "src/analysis/model/input_precision.h"

#include "src/analysis/model/op_name.h"

namespace stepscope::analysis {
namespace {

enum class TypeKind : uint8_t { kNotFloat, k16Bit, kOtherFloat };

// One C++ type name as torch.profiler writes it (c10 types with or without "c10::").
TypeKind KindOfType(std::string_view type) {
  if (type.starts_with("c10::")) type.remove_prefix(5);
  if (type.starts_with("at::")) type.remove_prefix(4);
  if (EqualsIgnoreCase(type, "Half") || EqualsIgnoreCase(type, "BFloat16")) return TypeKind::k16Bit;
  // float, double, the 8- and 4-bit floats (Float8_e4m3fn, Float4_e2m1fn_x2, ...) and
  // complex<...> of any of them.
  if (EqualsIgnoreCase(type, "float") || EqualsIgnoreCase(type, "double") ||
      StartsWithIgnoreCase(type, "Float8_") || StartsWithIgnoreCase(type, "Float4_") ||
      StartsWithIgnoreCase(type, "complex")) {
    return TypeKind::kOtherFloat;
  }
  return TypeKind::kNotFloat;
}

}  // namespace

InputPrecision FloatInputPrecision(std::string_view input_types) {
  bool any_16bit = false;
  auto take = [&](std::string_view type) {
    switch (KindOfType(type)) {
      case TypeKind::k16Bit: any_16bit = true; return true;
      case TypeKind::kOtherFloat: return false;
      case TypeKind::kNotFloat: return true;
    }
    return true;
  };
  if (input_types.empty() || input_types.front() != '[') {  // a bare name
    return take(input_types) ? (any_16bit ? InputPrecision::k16Bit : InputPrecision::kUnknown) : InputPrecision::kOther;
  }
  // The quoted strings of the list; type names hold no quotes or escapes.
  size_t i = 0;
  while (true) {
    const size_t open = input_types.find('"', i);
    if (open == std::string_view::npos) break;
    const size_t close = input_types.find('"', open + 1);
    if (close == std::string_view::npos) return InputPrecision::kUnknown;  // cut: unreadable
    if (!take(input_types.substr(open + 1, close - open - 1))) return InputPrecision::kOther;
    i = close + 1;
  }
  return any_16bit ? InputPrecision::k16Bit : InputPrecision::kUnknown;
}

}  // namespace stepscope::analysis
