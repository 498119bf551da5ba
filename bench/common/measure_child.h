// Runs this benchmark's own executable again as a measuring child (a fresh process: its
// peak RSS and page faults are the measured work's alone) and reads back the figures it
// wrote with FigureLines.
#pragma once

#include <string>
#include <vector>

#include "bench/common/bench_figures.h"

namespace stepscope::bench {

// Spawns /proc/self/exe with `args` then `out_path` appended, waits, and parses the figure
// lines the child wrote to `out_path`. Empty when the child could not run or failed.
Figures RunMeasuringChild(std::vector<std::string> args, const std::string& out_path);

// Pins the calling process to the first CPU it may run on: a measuring child's per-core
// figures are then one core's, whatever else the machine runs.
void PinToOneCpu();

}  // namespace stepscope::bench
