// The contract of `./dev bench` (README): every benchmark writes its headline figures as
// one flat JSON object, figure name -> number, to $STEPSCOPE_BENCH_OUT/<name>.json
// (default <source>/build/bench). Helpers for that file and the memory figures most
// benchmarks report.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace stepscope::bench {

using Figures = std::map<std::string, double>;

// A "<key> <n> kB" field of /proc/self/status in bytes (e.g. "VmHWM:" = peak RSS,
// "VmRSS:" = current RSS), 0 when absent.
int64_t ProcStatusBytes(std::string_view key);

// Peak resident set of this process so far (VmHWM), in bytes.
inline int64_t PeakRssBytes() { return ProcStatusBytes("VmHWM:"); }

// CPU time (user + system) this process has used, in seconds: on a shared machine, the
// time a single-threaded measurement really took on its core.
double ProcessCpuSeconds();

// Writes `figures` to <dir>/<bench_name>.json and prints them. Returns 0, or 1 with a
// message on stderr when the file cannot be written.
int WriteFigures(std::string_view bench_name, const Figures& figures);

// One figure per line, "name value", for a measuring child process to hand its numbers
// to the parent through a pipe or file; ParseFigureLines reads them back.
std::string FigureLines(const Figures& figures);
Figures ParseFigureLines(std::string_view text);

}  // namespace stepscope::bench
