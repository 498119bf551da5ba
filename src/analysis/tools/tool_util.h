// The tools' unit conversions are the model's (src/analysis/model/units.h), so every tool
// and every derivation rounds and divides the same way.
#pragma once

#include "src/analysis/model/units.h"
