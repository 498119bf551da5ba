// Numbers as text, for every layer that words a number (the model's statements and
// diagnostics, the output layer's tables).
#pragma once

#include <string>

namespace stepscope::base {

// `value` with `decimals` digits after the point ("12.30"); "-" for NaN/Inf; never "-0.00".
std::string FormatFixed(double value, int decimals);

}  // namespace stepscope::base
