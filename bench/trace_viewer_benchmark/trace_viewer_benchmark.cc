// trace_viewer_benchmark: the trace viewer on a synthetic 100 M-event profile.
//
//   1. writes the profile (synthetic_trace.h) to a fresh temp directory, after checking
//      the disk has room (else scales down and says so);
//   2. in a separate process (this binary re-executed with --measure, so the generator's
//      memory does not count): reads the file with the streaming columnar reader and
//      builds the TraceIndex (events/s, peak RSS = VmHWM over the file size), then plays
//      200 scripted pans and zooms as the UI issues them (tile query + JSON encoding, on
//      the tracks a 1000-pixel-high viewport shows, scrolling through the sections) and
//      one search;
//   3. deletes the profile and writes $STEPSCOPE_BENCH_OUT/trace_viewer.json.
//
// Flags: --events N (default 100 M), --keep (keep the profile), --dir D (where to put it).
// Budgets (DESIGN.md): peak RSS <= 2x the file, query p95 <= 100 ms, <= 100 k primitives.
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench/common/bench_figures.h"
#include "bench/trace_viewer_benchmark/synthetic_trace.h"
#include "src/analysis/trace/tile_query.h"
#include "src/analysis/trace/trace_index.h"
#include "src/analysis/trace/trace_json.h"
#include "src/analysis/trace/trace_search.h"
#include "src/xspace/columnar/columnar_reader.h"

namespace stepscope::bench {
namespace {

namespace trace = analysis::trace;
using Clock = std::chrono::steady_clock;

constexpr uint64_t kDefaultEvents = 100'000'000;
constexpr int kScriptedSteps = 200;
constexpr uint32_t kViewportWidthPx = 1600;  // a maximised window on a 1080p screen
constexpr uint32_t kViewportRows = 50;       // rows of 18 px in a ~900 px high timeline
// Bytes per event the generator writes at most (kernels with three stats ~36 B), plus the
// slack a filesystem needs.
constexpr double kDiskBytesPerEvent = 40.0;

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t k = static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(k, values.size() - 1)];
}

// The tracks whose rows fill a viewport that starts at row `first_row` of the layout.
std::vector<uint32_t> VisibleTracks(const trace::TraceIndex& index, uint32_t first_row) {
  std::vector<uint32_t> all;
  for (const auto& section : index.sections()) all.insert(all.end(), section.tracks.begin(), section.tracks.end());
  std::vector<uint32_t> visible;
  uint32_t row = 0, shown = 0;
  for (uint32_t t : all) {
    uint32_t rows = index.tracks()[t].num_rows();
    if (row + rows > first_row && shown < kViewportRows) {
      visible.push_back(t);
      shown += rows;
    }
    row += rows;
  }
  return visible;
}

// Child: index + queries; prints one JSON object on stdout.
int Measure(const std::string& path, uint64_t file_bytes, uint64_t expected_events) {
  auto start = Clock::now();
  auto space = xspace::ReadColumnarXSpaceFile(path);
  if (!space.ok()) {
    std::fprintf(stderr, "trace_viewer_benchmark: %s\n", space.status().ToString().c_str());
    return 1;
  }
  const double read_s = Seconds(start);
  std::vector<trace::TraceSourceInput> sources;
  sources.push_back(
      trace::TraceSourceInput{"synthetic", std::make_shared<const xspace::ColumnarXSpace>(std::move(space).value())});
  auto index_or = trace::TraceIndex::Build(std::move(sources));
  if (!index_or.ok()) {
    std::fprintf(stderr, "trace_viewer_benchmark: %s\n", index_or.status().ToString().c_str());
    return 1;
  }
  const trace::TraceIndex& index = *index_or;
  const double build_s = Seconds(start);
  if (index.num_events() != expected_events) {
    std::fprintf(stderr, "trace_viewer_benchmark: the index holds %" PRIu64 " events, the generator wrote %" PRIu64 "\n",
                 index.num_events(), expected_events);
    return 1;
  }
  const uint64_t rss_after_build = static_cast<uint64_t>(bench::PeakRssBytes());
  uint32_t total_rows = 0;
  for (const auto& track : index.tracks()) total_rows += track.num_rows();

  // 200 pans and zooms: a random walk from the whole trace, zooming in by 2-8x around a
  // point of interest or out by 2-4x, panning by up to a screen, and scrolling the
  // viewport down through the sections every few steps.
  std::mt19937_64 rng(2024);
  const int64_t trace_ps = index.end_ps() + 1;
  int64_t view_start = 0, view_span = trace_ps;
  uint32_t first_row = 0;
  std::vector<double> latencies_ms, query_only_ms;
  uint64_t max_primitives = 0, total_primitives = 0;
  double json_mb_max = 0;
  for (int step = 0; step < kScriptedSteps; ++step) {
    uint64_t action = rng() % 10;
    if (action < 4 && view_span > 20'000'000) {  // zoom in (to ~20 us at most)
      int64_t factor = 2 + static_cast<int64_t>(rng() % 7);
      int64_t center = view_start + static_cast<int64_t>(rng() % static_cast<uint64_t>(view_span));
      view_span = std::max<int64_t>(view_span / factor, 20'000'000);
      view_start = center - view_span / 2;
    } else if (action < 6) {  // zoom out
      int64_t factor = 2 + static_cast<int64_t>(rng() % 3);
      int64_t center = view_start + view_span / 2;
      view_span = std::min(trace_ps, view_span * factor);
      view_start = center - view_span / 2;
    } else {  // pan
      int64_t shift = static_cast<int64_t>(rng() % static_cast<uint64_t>(view_span)) - view_span / 2;
      view_start += shift;
    }
    view_start = std::clamp<int64_t>(view_start, 0, std::max<int64_t>(0, trace_ps - view_span));
    if (step % 5 == 4) first_row = (first_row + 37) % std::max<uint32_t>(1, total_rows);
    trace::TileRequest request;
    request.start_ps = view_start;
    request.end_ps = view_start + view_span;
    request.width_px = kViewportWidthPx;
    request.tracks = VisibleTracks(index, first_row);
    auto t0 = Clock::now();
    auto result = trace::QueryTiles(index, request);
    double query_ms = Seconds(t0) * 1e3;
    if (!result.ok()) {
      std::fprintf(stderr, "trace_viewer_benchmark: %s\n", result.status().ToString().c_str());
      return 1;
    }
    std::string json = trace::TilesJson(index, *result);
    latencies_ms.push_back(Seconds(t0) * 1e3);
    query_only_ms.push_back(query_ms);
    max_primitives = std::max(max_primitives, result->num_primitives);
    total_primitives += result->num_primitives;
    json_mb_max = std::max(json_mb_max, static_cast<double>(json.size()) / 1e6);
  }
  // One search over the whole trace (a rare kernel name) and stepping to a match.
  auto t0 = Clock::now();
  auto search = trace::SearchEvents(index, "volta_h884gemm_64x64_ldg8_nn_v1");
  const double search_ms = Seconds(t0) * 1e3;
  const uint64_t search_matches = search.ok() ? search->total : 0;
  const uint64_t peak_rss = static_cast<uint64_t>(bench::PeakRssBytes());
  std::printf("%s", bench::FigureLines({
                        {"events", static_cast<double>(index.num_events())},
                        {"file_bytes", static_cast<double>(file_bytes)},
                        {"tracks", static_cast<double>(index.tracks().size())},
                        {"rows", static_cast<double>(total_rows)},
                        {"read_s", read_s},
                        {"index_build_s", build_s},
                        {"index_events_per_s", static_cast<double>(index.num_events()) / build_s},
                        {"index_bytes", static_cast<double>(index.MemoryBytes())},
                        {"peak_rss_bytes", static_cast<double>(peak_rss)},
                        {"peak_rss_after_build_bytes", static_cast<double>(rss_after_build)},
                        {"peak_rss_over_file_size", static_cast<double>(peak_rss) / static_cast<double>(file_bytes)},
                        {"query_p50_ms", Percentile(latencies_ms, 0.5)},
                        {"query_p95_ms", Percentile(latencies_ms, 0.95)},
                        {"query_max_ms", Percentile(latencies_ms, 1.0)},
                        {"query_only_p95_ms", Percentile(query_only_ms, 0.95)},
                        {"max_primitives_per_response", static_cast<double>(max_primitives)},
                        {"mean_primitives_per_response", static_cast<double>(total_primitives) / kScriptedSteps},
                        {"max_response_mb", json_mb_max},
                        {"search_ms", search_ms},
                        {"search_matches", static_cast<double>(search_matches)},
                    })
                        .c_str());
  return 0;
}

int Run(int argc, char** argv) {
  uint64_t events = kDefaultEvents;
  bool keep = false;
  std::string dir = std::filesystem::temp_directory_path().string();
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--measure" && i + 3 < argc) {
      return Measure(argv[i + 1], std::strtoull(argv[i + 2], nullptr, 10), std::strtoull(argv[i + 3], nullptr, 10));
    }
    if (arg == "--events" && i + 1 < argc) {
      events = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--keep") {
      keep = true;
    } else if (arg == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else {
      std::fprintf(stderr, "usage: trace_viewer_benchmark [--events N] [--keep] [--dir D]\n");
      return 2;
    }
  }
  if (const char* env = std::getenv("STEPSCOPE_TRACE_BENCH_EVENTS")) events = std::strtoull(env, nullptr, 10);
  const uint64_t requested_events = events;
  struct statvfs fs;
  if (statvfs(dir.c_str(), &fs) == 0) {
    const double free_bytes = static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
    // Keep half the free space for everyone else.
    const uint64_t fits = static_cast<uint64_t>(free_bytes / 2 / kDiskBytesPerEvent);
    if (fits < events) {
      std::fprintf(stderr, "trace_viewer_benchmark: scaled down from %" PRIu64 " events: %.1f GB free in %s\n", events,
                   free_bytes / 1e9, dir.c_str());
      events = fits;
    }
  }
  std::string tmp = dir + "/stepscope_trace_bench_XXXXXX";
  if (mkdtemp(tmp.data()) == nullptr) {
    std::fprintf(stderr, "trace_viewer_benchmark: cannot create a directory in %s\n", dir.c_str());
    return 1;
  }
  const std::string path = tmp + "/synthetic.xplane.pb";
  std::fprintf(stderr, "trace_viewer_benchmark: writing %" PRIu64 " events to %s ...\n", events, path.c_str());
  auto start = Clock::now();
  auto info = WriteSyntheticTrace(path, events);
  if (!info.ok()) {
    std::fprintf(stderr, "trace_viewer_benchmark: %s\n", info.status().ToString().c_str());
    std::filesystem::remove_all(tmp);
    return 1;
  }
  const double generate_s = Seconds(start);
  std::fprintf(stderr, "trace_viewer_benchmark: %" PRIu64 " events, %.2f GB in %.1f s; indexing...\n", info->events,
               static_cast<double>(info->file_bytes) / 1e9, generate_s);
  // Measure in a fresh process: its peak RSS is the reader's and the index's alone.
  std::string command = "'/proc/" + std::to_string(getpid()) + "/exe' --measure '" + path + "' " +
                        std::to_string(info->file_bytes) + " " + std::to_string(info->events);
  std::string output;
  FILE* child = popen(command.c_str(), "r");
  if (child != nullptr) {
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), child)) > 0) output.append(buffer, n);
  }
  int status = child != nullptr ? pclose(child) : -1;
  if (!keep) std::filesystem::remove_all(tmp);
  bench::Figures figures = bench::ParseFigureLines(output);
  if (status != 0 || figures.empty()) {
    std::fprintf(stderr, "trace_viewer_benchmark: the measuring process failed (status %d)\n", status);
    return 1;
  }
  figures["steps"] = static_cast<double>(info->steps);
  figures["trace_seconds"] = static_cast<double>(info->duration_ps) / 1e12;
  figures["generate_s"] = generate_s;
  // Below 100 M when the disk could not hold the profile (said on stderr above).
  figures["requested_events"] = static_cast<double>(requested_events);
  return bench::WriteFigures("trace_viewer", figures);
}

}  // namespace
}  // namespace stepscope::bench

int main(int argc, char** argv) { return stepscope::bench::Run(argc, argv); }
