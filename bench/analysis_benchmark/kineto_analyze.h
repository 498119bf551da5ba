// The whole `stepscope analyze <profile> --tool overview_page` command, run as users run
// it (a fresh process each time): on the 15 MB Kineto trace timed and split into its
// phases in-process, so the figure says where its time goes (process start-up, the trace
// import (gunzip + JSON -> XSpace), the model, the tool with its text output); on the
// synthetic XSpace, its CPU time and peak memory.
#pragma once

#include <string>

#include "bench/common/bench_figures.h"

namespace stepscope::bench {

// Median wall time of `runs` runs of `stepscope analyze <trace> --tool overview_page`
// (stdout to /dev/null) and of `stepscope help` (start-up alone), spawning `stepscope`,
// the Release binary next to this benchmark. Figures kineto_15mb_analyze_ms and
// stepscope_startup_ms; empty when the binary or the trace is missing or a run fails.
Figures MeasureAnalyzeProcess(const std::string& stepscope, const std::string& trace, int runs);

// `stepscope analyze <profile> --tool <tool>` as a whole process, `runs` times:
// its least CPU time ("cpu_seconds") and wall time ("seconds"), its largest peak RSS
// ("peak_rss") and that of `stepscope help` ("baseline_rss", the process before any
// profile). Empty when the binary or the profile is missing or a run fails.
Figures MeasureAnalyzeCommand(const std::string& stepscope, const std::string& profile, const std::string& tool,
                               int runs);

// The same work in this process, phase by phase (median over `runs`): import, convert,
// model, tool + text, and what freeing the imported XSpace costs. kineto_15mb_*_ms.
Figures MeasureAnalyzePhases(const std::string& trace, int runs);

}  // namespace stepscope::bench
