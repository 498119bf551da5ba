#include "src/hlo/hlo_module.h"

#include <string>

namespace stepscope::hlo {
namespace {

struct ElementTypeInfo {
  int32_t value;
  const char* name;
  int bits;
  bool floating;
};

// xla.PrimitiveType numbers, XLA's text names, storage bits (PRED is a byte; sub-byte
// integer and float types are packed).
constexpr ElementTypeInfo kElementTypes[] = {
    {1, "pred", 8, false},   {2, "s8", 8, false},      {3, "s16", 16, false},    {4, "s32", 32, false},
    {5, "s64", 64, false},   {6, "u8", 8, false},      {7, "u16", 16, false},    {8, "u32", 32, false},
    {9, "u64", 64, false},   {10, "f16", 16, true},    {11, "f32", 32, true},    {12, "f64", 64, true},
    {13, "tuple", 0, false}, {14, "opaque", 0, false}, {15, "c64", 64, true},    {16, "bf16", 16, true},
    {17, "token", 0, false}, {18, "c128", 128, true},  {19, "f8e5m2", 8, true},  {20, "f8e4m3fn", 8, true},
    {21, "s4", 4, false},    {22, "u4", 4, false},     {23, "f8e4m3b11fnuz", 8, true},
    {24, "f8e5m2fnuz", 8, true},                       {25, "f8e4m3fnuz", 8, true},
    {26, "s2", 2, false},    {27, "u2", 2, false},     {28, "f8e4m3", 8, true},  {29, "f8e3m4", 8, true},
    {30, "s1", 1, false},    {31, "u1", 1, false},     {32, "f4e2m1fn", 4, true}, {33, "f8e8m0fnu", 8, true},
    {34, "buffer", 0, false},
};

const ElementTypeInfo* FindElementType(int32_t value) {
  for (const ElementTypeInfo& info : kElementTypes) {
    if (info.value == value) return &info;
  }
  return nullptr;
}

void AppendInts(const std::vector<int64_t>& values, std::string* out) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) *out += ',';
    *out += std::to_string(values[i]);
  }
}

}  // namespace

int ElementBits(int32_t element_type) {
  const ElementTypeInfo* info = FindElementType(element_type);
  return info ? info->bits : 0;
}

std::string ElementTypeName(int32_t element_type) {
  const ElementTypeInfo* info = FindElementType(element_type);
  return info ? info->name : "type" + std::to_string(element_type);
}

bool IsFloatingPoint(int32_t element_type) {
  const ElementTypeInfo* info = FindElementType(element_type);
  return info != nullptr && info->floating;
}

std::string Shape::ToString() const {
  std::string out;
  if (is_tuple()) {
    out += '(';
    for (size_t i = 0; i < tuple_shapes.size(); ++i) {
      if (i > 0) out += ", ";
      out += tuple_shapes[i].ToString();
    }
    out += ')';
    return out;
  }
  out = ElementTypeName(element_type);
  out += '[';
  AppendInts(dimensions, &out);
  out += ']';
  if (!minor_to_major.empty()) {
    out += '{';
    AppendInts(minor_to_major, &out);
    out += '}';
  }
  return out;
}

int32_t BufferAssignment::FindLogicalBuffer(int64_t id) const {
  auto it = buffer_by_id_.find(id);
  return it == buffer_by_id_.end() ? -1 : it->second;
}

int32_t HloModule::FindInstruction(std::string_view name) const {
  auto it = instruction_by_name_.find(std::string(name));
  return it == instruction_by_name_.end() ? -1 : it->second;
}

int32_t HloModule::FindInstructionById(int64_t id) const {
  auto it = instruction_by_id_.find(id);
  return it == instruction_by_id_.end() ? -1 : it->second;
}

int32_t HloModule::FindComputation(int64_t id) const {
  auto it = computation_by_id_.find(id);
  return it == computation_by_id_.end() ? -1 : it->second;
}

std::string HloModule::DisplayName() const { return name + "(" + std::to_string(id) + ")"; }

}  // namespace stepscope::hlo
