// The one place that names the generated XSpace message types in C++.
//
// The proto package must stay `tensorflow.profiler` for wire compatibility; the rest of
// stepscope says xspace::XSpace instead of repeating using-declarations per file.
#pragma once

#include "proto/stepscope/xplane.pb.h"

namespace stepscope::xspace {
using XSpace = ::tensorflow::profiler::XSpace;
using XPlane = ::tensorflow::profiler::XPlane;
using XLine = ::tensorflow::profiler::XLine;
using XEvent = ::tensorflow::profiler::XEvent;
using XStat = ::tensorflow::profiler::XStat;
using XEventMetadata = ::tensorflow::profiler::XEventMetadata;
using XStatMetadata = ::tensorflow::profiler::XStatMetadata;
}  // namespace stepscope::xspace
