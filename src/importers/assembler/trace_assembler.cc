#include "src/importers/assembler/trace_assembler.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "src/base/for_each_index.h"
#include "src/base/sort_runs.h"
#include "src/base/status_macros.h"
#include "src/base/utf8.h"
#include "src/importers/assembler/plane_writer.h"
#include "src/importers/assembler/line_nesting.h"
#include "src/importers/json/json_text.h"
#include "src/xspace/schema.h"

namespace stepscope::importers {
namespace {

// Overflow lines for events that overlap step markers on both sides. After this many
// levels the remaining conflicts are trimmed like any other (a pathological trace).
constexpr int kMaxOverflowLevels = 4;
// Overflow line k of line L gets id L + k * kOverflowLineIdStride: far above any thread
// id or stream id, so it cannot collide with a real line.
constexpr int64_t kOverflowLineIdStride = int64_t{1} << 40;
constexpr uint16_t kMaxInlineStats = std::numeric_limits<uint16_t>::max();

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Sort key for planes: host planes, then device planes (by kind, then ordinal), then the
// rest, by name.
struct PlaneOrder {
  int rank;
  std::string prefix;
  int64_t ordinal;
  std::string name;
  bool operator<(const PlaneOrder& o) const {
    return std::tie(rank, prefix, ordinal, name) < std::tie(o.rank, o.prefix, o.ordinal, o.name);
  }
};

PlaneOrder OrderOf(const std::string& name) {
  if (name.rfind("/host:", 0) == 0) return {0, "", 0, name};
  if (name.rfind("/device:", 0) == 0) {
    std::optional<int64_t> ordinal = TrailingInteger(name);
    if (ordinal) {
      std::string prefix = name.substr(0, name.size() - std::to_string(*ordinal).size());
      return {1, prefix, *ordinal, name};
    }
    return {1, name, 0, name};
  }
  return {2, "", 0, name};
}

}  // namespace

uint32_t TraceAssembler::GetOrCreatePlane(std::string_view name, int64_t id) {
  auto [it, inserted] = plane_index_.try_emplace(std::string(name), 0);
  if (inserted) {
    it->second = static_cast<uint32_t>(planes_.size());
    Plane& plane = planes_.emplace_back();
    plane.name = std::string(name);
    plane.id = id;
  }
  return it->second;
}

std::optional<uint32_t> TraceAssembler::FindPlane(std::string_view name) const {
  auto it = plane_index_.find(std::string(name));
  if (it == plane_index_.end()) return std::nullopt;
  return it->second;
}

LineRef TraceAssembler::GetOrCreateLine(uint32_t plane_index, int64_t line_id) {
  Plane& plane = planes_[plane_index];
  auto [it, inserted] = plane.line_index.try_emplace(line_id, 0);
  if (inserted) {
    it->second = static_cast<uint32_t>(plane.lines.size());
    plane.lines.emplace_back().id = line_id;
  }
  return {plane_index, it->second};
}

void TraceAssembler::SetLineName(LineRef line, std::string_view name) {
  planes_[line.plane].lines[line.line].name_id = Intern(name);
}

void TraceAssembler::SetLineDisplayName(LineRef line, std::string_view name) {
  planes_[line.plane].lines[line.line].display_name_id = Intern(name);
}

void TraceAssembler::SetLineNests(LineRef line, bool nests) { planes_[line.plane].lines[line.line].nest = nests; }

bool TraceAssembler::LineHasName(LineRef line) const { return planes_[line.plane].lines[line.line].name_id != 0; }

LineRef TraceAssembler::MoveLine(LineRef from, uint32_t plane, int64_t line_id) {
  LineRef to = GetOrCreateLine(plane, line_id);
  PendingLine& source = planes_[from.plane].lines[from.line];
  PendingLine& target = planes_[to.plane].lines[to.line];
  if (&source == &target) return to;
  if (target.name_id == 0) target.name_id = source.name_id;
  if (target.display_name_id == 0) target.display_name_id = source.display_name_id;
  target.nest = target.nest && source.nest;
  uint32_t event_offset = static_cast<uint32_t>(target.events.size());
  uint32_t stat_offset = static_cast<uint32_t>(target.stats.size());
  if (event_offset == 0 && target.late_stats.empty() && target.flows.empty()) {
    target.events = std::move(source.events);
    target.stats = std::move(source.stats);
    target.late_stats = std::move(source.late_stats);
    target.flows = std::move(source.flows);
  } else {
    for (PendingEvent event : source.events) {
      event.stats_begin += stat_offset;
      event.seq += event_offset;
      target.events.push_back(event);
    }
    target.stats.insert(target.stats.end(), source.stats.begin(), source.stats.end());
    for (LateStat late : source.late_stats) {
      late.seq += event_offset;
      target.late_stats.push_back(late);
    }
    target.flows.insert(target.flows.end(), source.flows.begin(), source.flows.end());
  }
  source = PendingLine{};
  source.id = -1;
  return to;
}

EventRef TraceAssembler::AddEvent(LineRef line_ref, uint32_t name_id, int64_t timestamp_ps, int64_t duration_ps,
                                  uint8_t flags) {
  PendingLine& line = planes_[line_ref.plane].lines[line_ref.line];
  PendingEvent& event = line.events.emplace_back();
  event.timestamp_ps = timestamp_ps;
  event.duration_ps = duration_ps;
  event.name_id = name_id;
  event.stats_begin = static_cast<uint32_t>(line.stats.size());
  event.flags = flags;
  event.seq = static_cast<uint32_t>(line.events.size() - 1);
  return {line_ref.plane, line_ref.line, event.seq};
}

void TraceAssembler::AddStat(EventRef ref, uint32_t key_id, StatKind kind, uint64_t bits) {
  PendingLine& line = planes_[ref.plane].lines[ref.line];
  PendingEvent& event = line.events[ref.index];
  if (ref.index + 1 == line.events.size() && event.stats_begin + event.stats_count == line.stats.size() &&
      event.stats_count < kMaxInlineStats) {
    line.stats.push_back({key_id, kind, bits});
    ++event.stats_count;
  } else {
    line.late_stats.push_back({event.seq, {key_id, kind, bits}});
  }
}

void TraceAssembler::AddDouble(EventRef ref, uint32_t key_id, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  AddStat(ref, key_id, StatKind::kDouble, bits);
}

void TraceAssembler::AddPlaneStat(uint32_t plane, uint32_t key_id, StatKind kind, uint64_t bits) {
  std::vector<PendingStat>& stats = planes_[plane].stats;
  for (PendingStat& stat : stats) {
    if (stat.key_id == key_id) {  // one stat per name on a plane: the last one wins
      stat = {key_id, kind, bits};
      return;
    }
  }
  stats.push_back({key_id, kind, bits});
}

void TraceAssembler::AddPlaneInt(uint32_t plane, std::string_view key, int64_t value) {
  AddPlaneStat(plane, Intern(key), StatKind::kInt64, static_cast<uint64_t>(value));
}
void TraceAssembler::AddPlaneUint(uint32_t plane, std::string_view key, uint64_t value) {
  AddPlaneStat(plane, Intern(key), StatKind::kUint64, value);
}
void TraceAssembler::AddPlaneDouble(uint32_t plane, std::string_view key, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  AddPlaneStat(plane, Intern(key), StatKind::kDouble, bits);
}
void TraceAssembler::AddPlaneStr(uint32_t plane, std::string_view key, std::string_view value) {
  AddPlaneStat(plane, Intern(key), StatKind::kStr, Intern(value));
}

std::vector<PendingEvents> TraceAssembler::PrepareLine(PendingLine& line, uint32_t flow_key, ImportStats* stats) {
  line.events.EraseIf([](const PendingEvent& e) { return (e.flags & kEventDropped) != 0; });
  NestingResult nesting;
  if (line.nest) {
    NestLineEvents(&line.events, /*allow_overflow=*/true, &nesting);
  } else {
    base::SortRuns(line.events.begin(), line.events.end(),
                   [](const PendingEvent& a, const PendingEvent& b) { return a.timestamp_ps < b.timestamp_ps; });
  }
  std::vector<int32_t> targets = BindFlowPoints(line.events, nesting.parents, line.nest, line.flows);
  for (size_t i = 0; i < line.flows.size(); ++i) {
    const PendingFlowPoint& point = line.flows[i];
    const int32_t target = targets[i];
    if (target < 0) {
      --stats->flow_events;
      stats->Drop("flow point with no slice to bind to on its thread");
      continue;
    }
    uint64_t packed = (static_cast<uint64_t>(point.category & 0x3F) << 58) |
                      ((point.flow_id & ((uint64_t{1} << 56) - 1)) << 2) | static_cast<uint64_t>(point.direction);
    line.late_stats.push_back({line.events[target].seq, {flow_key, StatKind::kUint64, packed}});
  }
  PendingFlowPoints().swap(line.flows);
  CountNestingFixes(nesting, stats);
  std::vector<PendingEvents> levels;
  PendingEvents overflow = std::move(nesting.overflow);
  for (int level = 1; !overflow.empty(); ++level) {
    NestingResult next;
    NestLineEvents(&overflow, level < kMaxOverflowLevels, &next);
    stats->Fix("slices overlapping step markers on both sides moved to an overflow line", overflow.size());
    CountNestingFixes(next, stats);
    levels.push_back(std::move(overflow));
    overflow = std::move(next.overflow);
  }
  return levels;
}

template <typename Writer>
Status TraceAssembler::WritePlane(Plane& plane, std::vector<std::vector<PendingEvents>>& overflow, int64_t origin_ps,
                                  Writer& writer, ImportStats* stats) const {
  writer.WritePlaneStats(plane.stats);

  std::vector<uint32_t> order(plane.lines.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  bool by_name = plane.name == xspace::kHostThreadsPlaneName;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const PendingLine& x = plane.lines[a];
    const PendingLine& y = plane.lines[b];
    if (by_name && x.name_id != y.name_id) return strings_.Get(x.name_id) < strings_.Get(y.name_id);
    return x.id < y.id;
  });

  for (uint32_t index : order) {
    PendingLine& line = plane.lines[index];
    const LateStatIndex late(line.late_stats);
    auto write_line = [&](const PendingEvents& events, int64_t id, int level) {
      const std::string suffix = level > 0 ? " (overlapping " + std::to_string(level) + ")" : "";
      LineHeader header{.id = id, .name = std::string(strings_.Get(line.name_id)) + suffix};
      if (line.display_name_id != 0) header.display_name = std::string(strings_.Get(line.display_name_id)) + suffix;
      stats->xevents_written += writer.WriteLine(header, events, line, late, origin_ps);
    };
    write_line(line.events, line.id, 0);
    for (size_t level = 0; level < overflow[index].size(); ++level) {
      const int level_number = static_cast<int>(level) + 1;
      write_line(overflow[index][level], line.id + level_number * kOverflowLineIdStride, level_number);
      PendingEvents().swap(overflow[index][level]);
    }
    // Free this line's records before the next one is written.
    PendingEvents().swap(line.events);
    PendingStats().swap(line.stats);
    LateStats().swap(line.late_stats);
  }
  return writer.Finish();
}

void TraceAssembler::CountNestingFixes(const NestingResult& nesting, ImportStats* stats) {
  stats->Fix("partially overlapping slices on one line: the later slice was trimmed to end with the one "
             "enclosing it",
             nesting.trimmed_event);
  stats->Fix("partially overlapping slices on one line: the enclosing slices were trimmed to end where the "
             "later one starts (less time to cut, or the later one is a step marker)",
             nesting.trimmed_enclosing);
  if (__builtin_add_overflow(stats->trimmed_ps, nesting.trimmed_ps, &stats->trimmed_ps)) stats->trimmed_ps = INT64_MAX;
}

// Event and stat counts the plane's columns are reserved for: every event and stat added,
// plus one stat per flow point (an upper bound: dropped events and unbound points are not
// written).
std::pair<uint64_t, uint64_t> TraceAssembler::ColumnBounds(const Plane& plane) {
  uint64_t events = 0, stats = 0;
  for (const PendingLine& line : plane.lines) {
    events += line.events.size();
    stats += line.stats.size() + line.late_stats.size() + line.flows.size();
  }
  return {events, stats};
}

namespace {

// Runs job(i) for i in [0, count) on up to `threads` threads (this one included), each
// thread taking the next undone index. Jobs do not fail.
template <typename Job>
void RunJobs(size_t count, int threads, const Job& job) {
  base::ForEachIndex(count, threads, [&] {
    return [&](size_t i) {
      job(i);
      return true;
    };
  });
}

}  // namespace

Status TraceAssembler::WritePlanes(const std::vector<uint32_t>& planes, int64_t origin_ps, const ImportOutput& output,
                                   int threads) {
  const uint32_t flow_key = Intern(xspace::GetStatTypeStr(xspace::StatType::kFlow));
  // What each plane dropped and fixed, added to the import's stats in plane order.
  std::vector<ImportStats> plane_stats(planes.size());
  // The column reservations count the records before flow points become late stats.
  std::vector<std::pair<uint64_t, uint64_t>> bounds;
  for (uint32_t plane : planes) bounds.push_back(ColumnBounds(planes_[plane]));

  // First every line is sorted, nested and has its flow points bound: lines are
  // independent, and one plane (the host's threads) often holds most of the events, so
  // this spreads over threads by line, largest first. Each line's stats go to its own
  // ImportStats (summed per plane below) and its overflow levels beside it.
  struct LineJob {
    uint32_t job;   // index into `planes`
    uint32_t line;  // index into the plane's lines
  };
  std::vector<LineJob> line_jobs;
  std::vector<std::vector<std::vector<PendingEvents>>> overflow(planes.size());
  for (uint32_t job = 0; job < planes.size(); ++job) {
    const Plane& plane = planes_[planes[job]];
    overflow[job].resize(plane.lines.size());
    for (uint32_t l = 0; l < plane.lines.size(); ++l) line_jobs.push_back({job, l});
  }
  std::stable_sort(line_jobs.begin(), line_jobs.end(), [&](const LineJob& a, const LineJob& b) {
    return planes_[planes[a.job]].lines[a.line].events.size() > planes_[planes[b.job]].lines[b.line].events.size();
  });
  // The column planes exist, with their columns reserved, before the lines are readied:
  // behind the line jobs, threads that run out of lines back the columns' pages
  // (ColumnarPlane::PopulateReserved), which the writers would otherwise fault in one by
  // one on the write's long path (the host plane's).
  const size_t first_column = output.columnar ? output.columnar->planes.size() : 0;
  std::vector<uint32_t> populate_jobs;
  if (output.columnar) {
    output.columnar->planes.resize(first_column + planes.size());
    for (uint32_t job = 0; job < planes.size(); ++job) {
      // A failure is left to the writer, which reserves the same and says so.
      const auto [events, stats] = bounds[job];
      const bool indexable = events <= UINT32_MAX - 2 && stats <= UINT32_MAX - 2;  // else the writer refuses it
      if (threads > 1 && indexable && output.columnar->planes[first_column + job].ReserveMore(events, stats)) {
        populate_jobs.push_back(job);
      }
    }
  }
  std::vector<ImportStats> line_stats(line_jobs.size());
  RunJobs(line_jobs.size() + populate_jobs.size(), threads, [&](size_t i) {
    if (i >= line_jobs.size()) {
      output.columnar->planes[first_column + populate_jobs[i - line_jobs.size()]].PopulateReserved();
      return;
    }
    const LineJob& task = line_jobs[i];
    overflow[task.job][task.line] =
        PrepareLine(planes_[planes[task.job]].lines[task.line], flow_key, &line_stats[i]);
  });
  for (size_t i = 0; i < line_jobs.size(); ++i) plane_stats[line_jobs[i].job].Add(line_stats[i]);

  // Then the planes are written, each by one thread (a writer assigns ids in line order).
  // The outputs exist before the threads start: each job fills its own.
  std::vector<xspace::XPlane*> messages;
  for (size_t job = 0; job < planes.size(); ++job) {
    if (output.space) messages.push_back(output.space->add_planes());
  }
  std::vector<Status> results(planes.size());
  RunJobs(planes.size(), threads, [&](size_t job) {
    Plane& plane = planes_[planes[job]];
    if (output.space) {
      messages[job]->set_id(plane.id);
      messages[job]->set_name(plane.name);
      XPlaneWriter writer(strings_, messages[job]);
      results[job] = WritePlane(plane, overflow[job], origin_ps, writer, &plane_stats[job]);
    } else {
      auto [events, stats] = bounds[job];
      ColumnarPlaneWriter writer(strings_, plane.id, plane.name, events, stats,
                                 &output.columnar->planes[first_column + job]);
      results[job] = WritePlane(plane, overflow[job], origin_ps, writer, &plane_stats[job]);
      if (!results[job].ok()) results[job] = results[job].WithContext("plane '" + plane.name + "'");
    }
    plane.lines.clear();
  });
  for (const ImportStats& delta : plane_stats) stats_->Add(delta);
  for (const Status& result : results) STEPSCOPE_RETURN_IF_ERROR(result);
  return OkStatus();
}

Status TraceAssembler::WriteTaskEnvironment(std::span<const PendingStat> stats, const ImportOutput& output) {
  const std::string name(xspace::kTaskEnvPlaneName);
  if (output.space) {
    xspace::XPlane* task = output.space->add_planes();
    task->set_id(static_cast<int64_t>(output.space->planes_size() - 1));
    task->set_name(name);
    XPlaneWriter writer(strings_, task);
    writer.WritePlaneStats(stats);
    return writer.Finish();
  }
  std::vector<xspace::ColumnarPlane>& planes = output.columnar->planes;
  const int64_t id = static_cast<int64_t>(planes.size());
  ColumnarPlaneWriter writer(strings_, id, name, 0, 0, &planes.emplace_back());
  writer.WritePlaneStats(stats);
  return writer.Finish();
}

Status TraceAssembler::Finish(const ImportOutput& output, int threads) {
  int64_t min_ps = std::numeric_limits<int64_t>::max();
  int64_t max_ps = std::numeric_limits<int64_t>::min();
  for (const Plane& plane : planes_) {
    for (const PendingLine& line : plane.lines) {
      for (const PendingEvent& event : line.events) {
        if (event.flags & kEventDropped) continue;
        min_ps = std::min(min_ps, event.timestamp_ps);
        max_ps = std::max(max_ps, event.end_ps());
      }
    }
  }
  bool has_events = min_ps <= max_ps;
  int64_t origin_ps = has_events ? FloorDiv(min_ps, 1000) * 1000 : 0;

  std::vector<uint32_t> order(planes_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return OrderOf(planes_[a].name) < OrderOf(planes_[b].name); });
  std::erase_if(order, [&](uint32_t index) { return planes_[index].name.empty(); });  // the staging plane
  STEPSCOPE_RETURN_IF_ERROR(WritePlanes(order, origin_ps, output, threads));

  if (has_events && wall_clock_of_zero_ns_) {
    int64_t start_ns = *wall_clock_of_zero_ns_ + origin_ps / 1000;
    int64_t stop_ns = *wall_clock_of_zero_ns_ + FloorDiv(max_ps + 999, 1000);
    std::vector<PendingStat> env;
    env.push_back({Intern(xspace::GetStatTypeStr(xspace::StatType::kProfileStartTime)), StatKind::kUint64,
                   static_cast<uint64_t>(start_ns)});
    env.push_back({Intern(xspace::GetStatTypeStr(xspace::StatType::kProfileStopTime)), StatKind::kUint64,
                   static_cast<uint64_t>(stop_ns)});
    STEPSCOPE_RETURN_IF_ERROR(WriteTaskEnvironment(env, output));
  }
  std::vector<std::string> warnings = warnings_;
  for (const std::string& warning : stats_->Warnings()) warnings.push_back(warning);
  if (output.space) {
    for (const std::string& host : hostnames_) output.space->add_hostnames(host);
    for (const std::string& warning : warnings) output.space->add_warnings(warning);
    return OkStatus();
  }
  for (const std::vector<std::string>* texts : {&hostnames_, &warnings}) {
    for (const std::string& text : *texts) {
      if (!base::IsValidUtf8(text)) return DataLossError("XSpace string is not valid UTF-8");
    }
  }
  output.columnar->hostnames = hostnames_;
  output.columnar->warnings = std::move(warnings);
  return OkStatus();
}

}  // namespace stepscope::importers
