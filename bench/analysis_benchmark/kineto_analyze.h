// The whole `stepscope analyze <15 MB Kineto trace> --tool overview_page` command, timed
// as users see it (a fresh process each run) and split into its phases in-process, so the
// figure says where its time goes: process start-up, the trace import (gunzip + JSON ->
// XSpace), XSpace -> columnar, the model, the tool with its text output.
#pragma once

#include <string>

#include "bench/common/bench_figures.h"

namespace stepscope::bench {

// Median wall time of `runs` runs of `stepscope analyze <trace> --tool overview_page`
// (stdout to /dev/null) and of `stepscope help` (start-up alone), spawning `stepscope`,
// the Release binary next to this benchmark. Figures kineto_15mb_analyze_ms and
// stepscope_startup_ms; empty when the binary or the trace is missing or a run fails.
Figures MeasureAnalyzeProcess(const std::string& stepscope, const std::string& trace, int runs);

// The same work in this process, phase by phase (median over `runs`): import, convert,
// model, tool + text, and what freeing the imported XSpace costs. kineto_15mb_*_ms.
Figures MeasureAnalyzePhases(const std::string& trace, int runs);

}  // namespace stepscope::bench
