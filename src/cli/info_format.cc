#include "src/cli/info_format.h"

#include <charconv>
#include <map>
#include <optional>
#include <utility>

#include "src/analysis/output/table.h"
#include "src/analysis/output/text_table.h"
#include "src/cli/command.h"
#include "src/xspace/schema.h"

namespace stepscope::cli {
namespace {

using analysis::output::Column;
using analysis::output::ColumnType;
using analysis::output::FormatFixed;
using analysis::output::FormatKeyValues;
using analysis::output::FormatTextTable;
using analysis::output::JsonWriter;
using analysis::output::Table;

constexpr double kPsPerMs = 1e9;
// Longer stat values (serialized options, long strings) are cut in text output.
constexpr size_t kMaxStatTextChars = 60;
// Warnings and errors listed in text output; JSON lists all of them.
constexpr size_t kMaxMessagesShown = 5;

// Why `file` could not be read, without repeating its path.
std::string ProblemText(const FileInfo& file) { return ProblemWithoutSubject(file.status.message(), file.path); }

std::string Ms(double ps) { return FormatFixed(ps / kPsPerMs, 3); }

std::string Plural(int64_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i > 0 ? separator : "") + items[i];
  return out;
}

std::string StepsHeadline(const XSpaceSummary& summary) {
  if (summary.step_series.empty()) return "none found (no _r or TraceContext host events, no device Steps line)";
  const StepSeriesSummary& s = summary.step_series.front();
  std::string source = s.kind == analysis::StepMarkerKind::kDeviceStep
                           ? "device '" + s.name + "' line on " + s.plane_name
                           : std::string(analysis::StepMarkerKindName(s.kind)) + " '" + s.name +
                                 "' level " + std::to_string(s.root_level) + " on " + s.plane_name;
  std::string text = std::to_string(s.stats.count) + " (" + source + "): mean " + Ms(s.stats.mean_ps) +
                     " ms, min " + Ms(static_cast<double>(s.stats.min_ps)) + " ms, max " +
                     Ms(static_cast<double>(s.stats.max_ps)) + " ms";
  if (summary.step_series.size() > 1) text += "; " + std::to_string(summary.step_series.size() - 1) + " more series below";
  return text;
}

std::string DroppedText(const XSpaceSummary& summary) {
  std::string text = summary.dropped_events ? Plural(*summary.dropped_events, "event", "events") + " (dropped_traces)"
                                            : "none recorded";
  return text + "; " + Plural(static_cast<int64_t>(summary.warnings.size()), "warning", "warnings") + ", " +
         Plural(static_cast<int64_t>(summary.errors.size()), "error", "errors");
}

std::vector<std::pair<std::string, std::string>> HeaderRows(const FileInfo& file) {
  const XSpaceSummary& s = file.summary;
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("Size", std::to_string(file.file_bytes) + " bytes");
  rows.emplace_back("Hosts", s.hostnames.empty() ? "(none recorded)" : Join(s.hostnames, ", "));
  rows.emplace_back("Planes", std::to_string(s.planes.size()) + " (" + Plural(s.lines, "line", "lines") + ", " +
                                  Plural(s.events, "event", "events") + ")");
  // Marker durations as recorded, before the analysis's step rules (XProf's StepTime may
  // take a device span instead; incomplete steps may be dropped): not the same quantity
  // as the pages' step time, so not labelled "Steps".
  rows.emplace_back("Step markers", StepsHeadline(s));
  rows.emplace_back("Dropped", DroppedText(s));
  return rows;
}

std::string MessagesText(const XSpaceSummary& s) {
  std::string out;
  auto list = [&](const char* title, const std::vector<std::string>& messages) {
    if (messages.empty()) return;
    std::vector<std::pair<std::string, std::string>> rows;
    for (size_t i = 0; i < messages.size() && i < kMaxMessagesShown; ++i) rows.emplace_back(std::to_string(i + 1), messages[i]);
    if (messages.size() > kMaxMessagesShown) rows.emplace_back("...", std::to_string(messages.size() - kMaxMessagesShown) + " more");
    out += "\n" + FormatKeyValues(title, rows);
  };
  list("XSpace errors", s.errors);
  list("XSpace warnings", s.warnings);
  return out;
}

std::string PlanesText(const XSpaceSummary& s) {
  Table table;
  table.title = "Planes";
  table.columns = {{"name", "Plane"},
                   {"id", "Id", ColumnType::kInt},
                   {"lines", "Lines", ColumnType::kInt},
                   {"events", "Events", ColumnType::kInt},
                   {"event_metadata", "Event metadata", ColumnType::kInt},
                   {"stat_metadata", "Stat metadata", ColumnType::kInt}};
  for (const PlaneSummary& p : s.planes) {
    table.AddRow({p.name, p.id, static_cast<int64_t>(p.lines.size()), p.events, p.event_metadata, p.stat_metadata});
  }
  return FormatTextTable(table);
}

std::string LinesText(const XSpaceSummary& s) {
  Table table;
  table.title = "Lines";
  table.columns = {{"plane", "Plane"},
                   {"line", "Line", ColumnType::kString, 2, 60},
                   {"id", "Id", ColumnType::kInt},
                   {"events", "Events", ColumnType::kInt},
                   {"begin_ms", "First (ms)", ColumnType::kDouble, 3},
                   {"span_ms", "Span (ms)", ColumnType::kDouble, 3}};
  for (const PlaneSummary& p : s.planes) {
    for (const LineSummary& l : p.lines) {
      analysis::output::Cell begin, span;
      if (l.begin_ps && l.end_ps) {
        begin = static_cast<double>(*l.begin_ps) / kPsPerMs;
        // In double: the difference of two hostile int64 times can overflow.
        span = (static_cast<double>(*l.end_ps) - static_cast<double>(*l.begin_ps)) / kPsPerMs;
      }
      table.AddRow({p.name, l.name, l.id, l.events, begin, span});
    }
  }
  return FormatTextTable(table);
}

std::string StepsText(const XSpaceSummary& s) {
  if (s.step_series.empty()) return "";
  Table table;
  table.title = "Step markers";
  table.columns = {{"plane", "Plane"},
                   {"kind", "Kind"},
                   {"name", "Name", ColumnType::kString, 2, 32},
                   {"root_level", "Level", ColumnType::kInt},
                   {"count", "Count", ColumnType::kInt},
                   {"mean_ms", "Mean (ms)", ColumnType::kDouble, 3},
                   {"min_ms", "Min (ms)", ColumnType::kDouble, 3},
                   {"max_ms", "Max (ms)", ColumnType::kDouble, 3}};
  for (const StepSeriesSummary& series : s.step_series) {
    analysis::output::Cell level;
    if (series.kind != analysis::StepMarkerKind::kDeviceStep) level = series.root_level;
    table.AddRow({series.plane_name, std::string(analysis::StepMarkerKindName(series.kind)), series.name, level,
                  series.stats.count, series.stats.mean_ps / kPsPerMs,
                  static_cast<double>(series.stats.min_ps) / kPsPerMs,
                  static_cast<double>(series.stats.max_ps) / kPsPerMs});
  }
  return "\n" + FormatTextTable(table);
}

std::string StatsText(const PlaneSummary& plane) {
  std::vector<std::string> parts;
  std::optional<int64_t> start_ns, stop_ns;
  for (const StatSummary& stat : plane.stats) {
    std::string value = stat.kind == StatSummary::Kind::kBytes ? stat.text : stat.text.substr(0, kMaxStatTextChars);
    if (value.size() < stat.text.size()) value += "...";
    parts.push_back(stat.name + "=" + value);
    const bool numeric = stat.kind == StatSummary::Kind::kInt || stat.kind == StatSummary::Kind::kUint;
    int64_t ns = stat.kind == StatSummary::Kind::kInt ? stat.int_value : static_cast<int64_t>(stat.uint_value);
    if (numeric && stat.name == xspace::GetStatTypeStr(xspace::StatType::kProfileStartTime)) start_ns = ns;
    if (numeric && stat.name == xspace::GetStatTypeStr(xspace::StatType::kProfileStopTime)) stop_ns = ns;
  }
  std::string text = Join(parts, " ");
  if (start_ns && stop_ns && *stop_ns >= *start_ns) {
    const double profiled_ns = static_cast<double>(*stop_ns) - static_cast<double>(*start_ns);
    text += " (" + FormatFixed(profiled_ns / 1e6, 3) + " ms profiled)";
  }
  return text;
}

// Plane stats: run environment on host planes, capabilities on device planes, session
// times on "Task Environment". Device planes with identical stats share one row.
std::string EnvironmentText(const XSpaceSummary& s) {
  std::vector<std::pair<std::vector<std::string>, std::string>> groups;  // (plane names, stats)
  for (const PlaneSummary& p : s.planes) {
    if (p.stats.empty()) continue;
    std::string text = StatsText(p);
    if (xspace::IsDevicePlaneName(p.name) && !groups.empty() && groups.back().second == text &&
        xspace::IsDevicePlaneName(groups.back().first.back())) {
      groups.back().first.push_back(p.name);
      continue;
    }
    groups.push_back({{p.name}, text});
  }
  if (groups.empty()) return "";
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& [names, text] : groups) rows.emplace_back(CompressPlaneNames(names), text);
  return "\n" + FormatKeyValues("Environment (plane stats)", rows);
}

void WriteStepSeriesJson(const StepSeriesSummary& s, JsonWriter* json) {
  json->BeginObject();
  json->Field("kind", analysis::StepMarkerKindName(s.kind));
  json->Field("plane", s.plane_name);
  json->Field("name", s.name);
  json->Field("root_level", s.root_level);
  json->Field("count", s.stats.count);
  json->Field("mean_ms", s.stats.mean_ps / kPsPerMs);
  json->Field("min_ms", static_cast<double>(s.stats.min_ps) / kPsPerMs);
  json->Field("max_ms", static_cast<double>(s.stats.max_ps) / kPsPerMs);
  json->EndObject();
}

void WriteStatValueJson(const StatSummary& stat, JsonWriter* json) {
  switch (stat.kind) {
    case StatSummary::Kind::kInt: json->Int(stat.int_value); break;
    case StatSummary::Kind::kUint: json->Uint(stat.uint_value); break;
    case StatSummary::Kind::kDouble: json->Double(stat.double_value); break;
    case StatSummary::Kind::kString:
    case StatSummary::Kind::kBytes: json->String(stat.text); break;
  }
}

void WriteStringsJson(std::string_view key, const std::vector<std::string>& items, JsonWriter* json) {
  json->Key(key);
  json->BeginArray();
  for (const std::string& item : items) json->String(item);
  json->EndArray();
}

// The fields every host row has, in file, run and logdir output alike.
void WriteTotalsJson(const FileInfo& file, JsonWriter* json) {
  json->Field("path", file.path);
  json->Field("file_bytes", file.file_bytes);
  if (!file.status.ok()) {
    json->Field("error", file.status.message());
    return;
  }
  const XSpaceSummary& s = file.summary;
  json->Field("num_planes", static_cast<int64_t>(s.planes.size()));
  json->Field("num_lines", s.lines);
  json->Field("num_events", s.events);
  json->Key("dropped_events");
  if (s.dropped_events) json->Int(*s.dropped_events); else json->Null();
  json->Key("steps");
  if (s.step_series.empty()) json->Null(); else WriteStepSeriesJson(s.step_series.front(), json);
}

}  // namespace

std::string CompressPlaneNames(const std::vector<std::string>& names) {
  if (names.size() < 2) return names.empty() ? "" : names.front();
  std::string prefix;
  std::vector<int> ordinals;
  for (const std::string& name : names) {
    size_t colon = name.rfind(':');
    int ordinal = 0;
    auto [end, ec] = std::from_chars(name.data() + colon + 1, name.data() + name.size(), ordinal);
    std::string this_prefix = colon == std::string::npos ? "" : name.substr(0, colon + 1);
    if (colon == std::string::npos || ec != std::errc() || end != name.data() + name.size() ||
        (!prefix.empty() && this_prefix != prefix)) {
      return Join(names, ", ");
    }
    prefix = this_prefix;
    ordinals.push_back(ordinal);
  }
  std::string out = prefix;
  for (size_t i = 0; i < ordinals.size();) {
    size_t j = i;
    while (j + 1 < ordinals.size() && ordinals[j + 1] == ordinals[j] + 1) ++j;
    if (i > 0) out += ",";
    out += std::to_string(ordinals[i]);
    if (j > i) out += "-" + std::to_string(ordinals[j]);
    i = j + 1;
  }
  return out;
}

std::string FormatFileText(const FileInfo& file) {
  const XSpaceSummary& s = file.summary;
  std::string out = FormatKeyValues(file.path, HeaderRows(file));
  out += MessagesText(s);
  out += "\n" + PlanesText(s);
  if (s.lines > 0) out += "\n" + LinesText(s);
  out += StepsText(s);
  out += EnvironmentText(s);
  return out;
}

std::string FormatRunText(const std::string& path, const std::vector<FileInfo>& hosts) {
  std::string out = "Run " + path + " (" + Plural(static_cast<int64_t>(hosts.size()), "host", "hosts") + ")\n";
  for (const FileInfo& file : hosts) {
    out += "\n";
    if (!file.status.ok()) {
      out += FormatKeyValues("Host " + file.host, {{"File", file.path}, {"Error", ProblemText(file)}});
      continue;
    }
    std::vector<std::pair<std::string, std::string>> rows = HeaderRows(file);
    rows.insert(rows.begin(), {"File", file.path});
    out += FormatKeyValues("Host " + file.host, rows);
    out += MessagesText(file.summary);
    out += StepsText(file.summary);
    out += EnvironmentText(file.summary);
  }
  return out;
}

std::string FormatLogdirText(const std::string& path, const std::vector<RunInfoSummary>& runs) {
  Table table;
  table.title = "Logdir " + path + " (" + Plural(static_cast<int64_t>(runs.size()), "run", "runs") + ")";
  table.columns = {{"run", "Run"},
                   {"host", "Host"},
                   {"file_bytes", "Bytes", ColumnType::kInt},
                   {"planes", "Planes", ColumnType::kInt},
                   {"events", "Events", ColumnType::kInt},
                   {"steps", "Step markers", ColumnType::kInt},
                   {"mean_step_ms", "Mean marker (ms)", ColumnType::kDouble, 3},
                   {"dropped", "Dropped", ColumnType::kInt},
                   {"note", "Note", ColumnType::kString, 2, 60}};
  for (const RunInfoSummary& run : runs) {
    if (run.hosts.empty()) table.AddRow({run.name, "-", {}, {}, {}, {}, {}, {}, "no .xplane.pb files"});
    for (const FileInfo& file : run.hosts) {
      if (!file.status.ok()) {
        table.AddRow({run.name, file.host, static_cast<int64_t>(file.file_bytes), {}, {}, {}, {}, {},
                      "unreadable: " + ProblemText(file)});
        continue;
      }
      const XSpaceSummary& s = file.summary;
      analysis::output::Cell steps = int64_t{0}, mean;
      if (!s.step_series.empty()) {
        steps = s.step_series.front().stats.count;
        mean = s.step_series.front().stats.mean_ps / kPsPerMs;
      }
      analysis::output::Cell dropped;
      if (s.dropped_events) dropped = *s.dropped_events;
      table.AddRow({run.name, file.host, static_cast<int64_t>(file.file_bytes), static_cast<int64_t>(s.planes.size()),
                    s.events, steps, mean, dropped, ""});
    }
  }
  return FormatTextTable(table);
}

void WriteFileJson(const FileInfo& file, bool with_lines, JsonWriter* json) {
  json->BeginObject();
  if (!file.host.empty()) json->Field("host", file.host);
  WriteTotalsJson(file, json);
  if (!file.status.ok()) {
    json->EndObject();
    return;
  }
  const XSpaceSummary& s = file.summary;
  WriteStringsJson("hostnames", s.hostnames, json);
  WriteStringsJson("warnings", s.warnings, json);
  WriteStringsJson("errors", s.errors, json);
  json->Key("step_series");
  json->BeginArray();
  for (const StepSeriesSummary& series : s.step_series) WriteStepSeriesJson(series, json);
  json->EndArray();
  json->Key("planes");
  json->BeginArray();
  for (const PlaneSummary& p : s.planes) {
    json->BeginObject();
    json->Field("id", p.id);
    json->Field("name", p.name);
    json->Field("num_lines", static_cast<int64_t>(p.lines.size()));
    json->Field("num_events", p.events);
    json->Field("num_event_metadata", p.event_metadata);
    json->Field("num_stat_metadata", p.stat_metadata);
    json->Key("stats");
    json->BeginObject();
    std::map<std::string, bool> seen;  // a repeated stat name keeps its first value
    for (const StatSummary& stat : p.stats) {
      if (seen[stat.name]) continue;
      seen[stat.name] = true;
      json->Key(stat.name);
      WriteStatValueJson(stat, json);
    }
    json->EndObject();
    if (with_lines) {
      json->Key("lines");
      json->BeginArray();
      for (const LineSummary& l : p.lines) {
        json->BeginObject();
        json->Field("id", l.id);
        json->Field("name", l.name);
        json->Field("num_events", l.events);
        json->Key("begin_ps");
        if (l.begin_ps) json->Int(*l.begin_ps); else json->Null();
        json->Key("end_ps");
        if (l.end_ps) json->Int(*l.end_ps); else json->Null();
        json->EndObject();
      }
      json->EndArray();
    }
    json->EndObject();
  }
  json->EndArray();
  json->EndObject();
}

std::string FormatFileJson(const FileInfo& file) {
  std::string out;
  JsonWriter json(&out, JsonWriter::Style::kPretty);
  json.BeginObject();
  json.Field("kind", "file");
  json.Key("file");
  WriteFileJson(file, /*with_lines=*/true, &json);
  json.EndObject();
  return out + "\n";
}

std::string FormatRunJson(const std::string& path, const std::vector<FileInfo>& hosts) {
  std::string out;
  JsonWriter json(&out, JsonWriter::Style::kPretty);
  json.BeginObject();
  json.Field("kind", "run");
  json.Field("path", path);
  json.Key("hosts");
  json.BeginArray();
  for (const FileInfo& file : hosts) WriteFileJson(file, /*with_lines=*/false, &json);
  json.EndArray();
  json.EndObject();
  return out + "\n";
}

std::string FormatLogdirJson(const std::string& path, const std::vector<RunInfoSummary>& runs) {
  std::string out;
  JsonWriter json(&out, JsonWriter::Style::kPretty);
  json.BeginObject();
  json.Field("kind", "logdir");
  json.Field("path", path);
  json.Key("runs");
  json.BeginArray();
  for (const RunInfoSummary& run : runs) {
    json.BeginObject();
    json.Field("name", run.name);
    json.Field("path", run.path);
    json.Key("hosts");
    json.BeginArray();
    for (const FileInfo& file : run.hosts) {
      json.BeginObject();
      json.Field("host", file.host);
      WriteTotalsJson(file, &json);
      json.EndObject();
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return out + "\n";
}

}  // namespace stepscope::cli
