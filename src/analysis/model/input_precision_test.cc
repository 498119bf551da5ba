#include "src/analysis/model/input_precision.h"

#include <gtest/gtest.h>

namespace stepscope::analysis {
namespace {

TEST(InputPrecisionTest, SixteenBitWhenEveryFloatingInputIsHalfOrBFloat16) {
  // Inductor's launch scope of a Triton kernel: its tensors, then a size.
  EXPECT_EQ(FloatInputPrecision(R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar"])"),
            InputPrecision::k16Bit);
  EXPECT_EQ(FloatInputPrecision(R"(["c10::Half", "long int", "", "bool"])"), InputPrecision::k16Bit);
  EXPECT_EQ(FloatInputPrecision(R"(["BFloat16","half"])"), InputPrecision::k16Bit);
  EXPECT_EQ(FloatInputPrecision("c10::BFloat16"), InputPrecision::k16Bit);  // a bare name
}

TEST(InputPrecisionTest, AnyOtherFloatingInputMakesItNotSixteenBit) {
  EXPECT_EQ(FloatInputPrecision(R"(["c10::BFloat16", "float"])"), InputPrecision::kOther);  // mixed
  EXPECT_EQ(FloatInputPrecision(R"(["float", "float"])"), InputPrecision::kOther);
  EXPECT_EQ(FloatInputPrecision(R"(["double"])"), InputPrecision::kOther);
  EXPECT_EQ(FloatInputPrecision(R"(["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "c10::BFloat16"])"),
            InputPrecision::kOther);  // 8-bit GEMM inputs: not 16-bit compute
  EXPECT_EQ(FloatInputPrecision(R"(["c10::complex<c10::Half>"])"), InputPrecision::kOther);
  EXPECT_EQ(FloatInputPrecision("float"), InputPrecision::kOther);
}

TEST(InputPrecisionTest, NoFloatingInputOrUnreadableSaysNothing) {
  EXPECT_EQ(FloatInputPrecision(R"(["long int", "bool", "", "Scalar", "TensorList", "GenericList"])"),
            InputPrecision::kUnknown);
  EXPECT_EQ(FloatInputPrecision("[]"), InputPrecision::kUnknown);
  EXPECT_EQ(FloatInputPrecision(""), InputPrecision::kUnknown);
  EXPECT_EQ(FloatInputPrecision(R"(["c10::BFloat16", "c10::Bfl)"), InputPrecision::kUnknown);  // cut off
  EXPECT_EQ(FloatInputPrecision(R"(["unsigned char", "signed char", "int", "short int"])"), InputPrecision::kUnknown);
}

}  // namespace
}  // namespace stepscope::analysis
