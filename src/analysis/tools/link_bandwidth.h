// Moved to the model (the multi-GPU analysis reads it): src/analysis/model/link_bandwidth.h.
#pragma once

#include "src/analysis/model/link_bandwidth.h"
