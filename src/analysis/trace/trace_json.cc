#include "src/analysis/trace/trace_json.h"

#include <charconv>
#include <unordered_map>

#include "src/analysis/output/json_writer.h"

namespace stepscope::analysis::trace {
namespace {

using output::JsonWriter;

constexpr uint64_t kMaxExactJsInteger = uint64_t{1} << 53;

std::string_view SectionKindName(SectionKind kind) {
  switch (kind) {
    case SectionKind::kDevice: return "device";
    case SectionKind::kHost: return "host";
    default: return "other";
  }
}

// Numeric arrays are the bulk of a tile: written with to_chars, no writer bookkeeping.
template <typename T, typename Get>
void AppendNumberArray(std::string_view key, const std::vector<TilePrimitive>& primitives, Get get,
                       std::string* out) {
  output::AppendJsonString(key, out);
  out->append(":[");
  char buf[24];
  for (size_t i = 0; i < primitives.size(); ++i) {
    if (i > 0) out->push_back(',');
    T value = get(primitives[i]);
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value);
    out->append(buf, end);
  }
  out->push_back(']');
}

void WriteFlowEnd(const FlowEnd& end, JsonWriter* w) {
  w->BeginObject();
  w->Field("track", static_cast<int64_t>(end.track));
  w->Field("event", static_cast<int64_t>(end.event));
  w->Field("start_ps", end.start_ps);
  w->Field("end_ps", end.end_ps);
  w->Field("depth", static_cast<int64_t>(end.depth));
  w->Field("name", end.name);
  w->EndObject();
}

}  // namespace

std::string TracksJson(const TraceIndex& index) {
  std::string body;
  JsonWriter w(&body);
  w.BeginObject();
  w.Field("end_ps", index.end_ps());
  w.Field("events", index.num_events());
  w.Key("hosts");
  w.BeginArray();
  for (const std::string& host : index.hosts()) w.String(host);
  w.EndArray();
  w.Key("sections");
  w.BeginArray();
  for (size_t s = 0; s < index.sections().size(); ++s) {
    const TraceSection& section = index.sections()[s];
    w.BeginObject();
    w.Field("id", static_cast<int64_t>(s));
    w.Field("name", section.name);
    w.Field("host", section.host);
    w.Field("kind", SectionKindName(section.kind));
    w.Key("tracks");
    w.BeginArray();
    for (uint32_t t : section.tracks) {
      const TraceTrack& track = index.tracks()[t];
      w.BeginObject();
      w.Field("id", static_cast<int64_t>(t));
      w.Field("name", track.name);
      w.Field("kind", TrackKindName(track.kind));
      w.Field("line_id", track.line_id);
      w.Field("rows", static_cast<int64_t>(track.num_rows()));
      w.Field("events", track.num_events);
      w.Field("start_ps", track.start_ps);
      w.Field("end_ps", track.end_ps);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  // Counter tracks (values over time: /api/trace/counters samples them for a view).
  w.Key("counters");
  w.BeginArray();
  for (size_t c = 0; c < index.counters().size(); ++c) {
    const CounterSeries& series = index.counters()[c];
    w.BeginObject();
    w.Field("id", static_cast<int64_t>(c));
    w.Field("name", series.name);
    w.Field("host", series.host);
    w.Field("unit", series.unit);
    w.Field("samples", static_cast<int64_t>(series.t_ps.size()));
    w.Field("min", series.min_value);
    w.Field("max", series.max_value);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return body;
}

std::string TilesJson(const TraceIndex& index, const TileResult& result) {
  // Names are shared by many primitives: one table per response.
  std::unordered_map<uint64_t, uint32_t> name_ids;
  std::vector<std::string_view> names;
  std::vector<std::vector<uint32_t>> name_columns(result.tracks.size());
  for (size_t k = 0; k < result.tracks.size(); ++k) {
    const TrackTile& tile = result.tracks[k];
    const TraceTrack& track = index.tracks()[tile.track];
    const auto& plane = index.plane_of(track);
    const uint64_t plane_key = (uint64_t{track.source} << 48) | (uint64_t{track.plane} << 32);
    name_columns[k].reserve(tile.primitives.size());
    for (const TilePrimitive& p : tile.primitives) {
      uint32_t metadata = plane.event_metadata_index[p.event];
      auto [it, inserted] = name_ids.try_emplace(plane_key | metadata, static_cast<uint32_t>(names.size()));
      if (inserted) names.push_back(index.EventName(tile.track, p.event));
      name_columns[k].push_back(it->second);
    }
  }
  std::string out;
  out.reserve(64 + result.num_primitives * 48);
  out.append("{\"start_ps\":");
  out.append(std::to_string(result.start_ps));
  out.append(",\"end_ps\":");
  out.append(std::to_string(result.end_ps));
  out.append(",\"width_px\":");
  out.append(std::to_string(result.width_px));
  out.append(",\"resolution_ps\":");
  out.append(std::to_string(result.resolution_ps));
  out.append(",\"coarsened\":");
  out.append(result.coarsened ? "true" : "false");
  out.append(",\"truncated\":");
  out.append(result.truncated ? "true" : "false");
  out.append(",\"primitives\":");
  out.append(std::to_string(result.num_primitives));
  out.append(",\"events\":");
  out.append(std::to_string(result.num_events));
  out.append(",\"names\":[");
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out.push_back(',');
    output::AppendJsonString(names[i], &out);
  }
  out.append("],\"tracks\":[");
  for (size_t k = 0; k < result.tracks.size(); ++k) {
    const TrackTile& tile = result.tracks[k];
    if (k > 0) out.push_back(',');
    out.append("{\"id\":");
    out.append(std::to_string(tile.track));
    out.push_back(',');
    const auto& p = tile.primitives;
    AppendNumberArray<uint32_t>("depth", p, [](const TilePrimitive& x) { return x.depth; }, &out);
    out.push_back(',');
    AppendNumberArray<int64_t>("start", p, [](const TilePrimitive& x) { return x.start_ps; }, &out);
    out.push_back(',');
    AppendNumberArray<int64_t>("dur", p, [](const TilePrimitive& x) { return x.end_ps - x.start_ps; }, &out);
    out.push_back(',');
    AppendNumberArray<uint64_t>("count", p, [](const TilePrimitive& x) { return x.summary ? x.count : 0; }, &out);
    out.push_back(',');
    AppendNumberArray<uint32_t>("event", p, [](const TilePrimitive& x) { return x.event; }, &out);
    out.append(",\"name\":[");
    char buf[16];
    for (size_t i = 0; i < name_columns[k].size(); ++i) {
      if (i > 0) out.push_back(',');
      auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), name_columns[k][i]);
      out.append(buf, end);
    }
    out.append("]}");
  }
  out.append("]}\n");
  return out;
}

std::string EventDetailsJson(const TraceIndex& index, const EventDetails& details) {
  const TraceTrack& track = index.tracks()[details.track];
  std::string body;
  JsonWriter w(&body);
  w.BeginObject();
  w.Field("track", static_cast<int64_t>(details.track));
  w.Field("event", static_cast<int64_t>(details.event));
  w.Field("name", details.name);
  w.Field("long_name", details.long_name);
  w.Field("start_ps", details.start_ps);
  w.Field("duration_ps", details.duration_ps);
  w.Field("depth", static_cast<int64_t>(details.depth));
  w.Field("track_name", track.name);
  w.Field("section", index.sections()[track.section].name);
  w.Field("host", index.sections()[track.section].host);
  w.Key("stats");
  w.BeginArray();
  for (const DetailStat& stat : details.stats) {
    w.BeginObject();
    w.Field("name", stat.name);
    w.Key("value");
    switch (stat.kind) {
      case DetailStat::Kind::kInt:
        if (static_cast<uint64_t>(stat.int_value < 0 ? -(stat.int_value + 1) : stat.int_value) < kMaxExactJsInteger) {
          w.Int(stat.int_value);
        } else {
          w.String(std::to_string(stat.int_value));
        }
        break;
      case DetailStat::Kind::kUint:
        if (stat.uint_value < kMaxExactJsInteger) {
          w.Uint(stat.uint_value);
        } else {
          w.String(std::to_string(stat.uint_value));
        }
        break;
      case DetailStat::Kind::kDouble: w.Double(stat.double_value); break;
      default: w.String(stat.string_value); break;
    }
    w.Field("metadata", stat.from_metadata);
    w.EndObject();
  }
  w.EndArray();
  w.Key("correlation_id");
  if (details.correlation_id.has_value()) {
    w.String(std::to_string(*details.correlation_id));
  } else {
    w.Null();
  }
  w.Key("flow_ids");
  w.BeginArray();
  for (uint64_t id : details.flow_ids) w.String(std::to_string(id));
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return body;
}

std::string FlowsJson(const std::vector<TraceFlow>& flows) {
  std::string body;
  JsonWriter w(&body);
  w.BeginObject();
  w.Key("flows");
  w.BeginArray();
  for (const TraceFlow& flow : flows) {
    w.BeginObject();
    w.Field("kind", flow.kind == TraceFlow::Kind::kCorrelation ? "correlation" : "flow");
    w.Field("id", std::to_string(flow.id));
    w.Key("from");
    WriteFlowEnd(flow.from, &w);
    w.Key("to");
    WriteFlowEnd(flow.to, &w);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  body.push_back('\n');
  return body;
}

std::string SearchJson(const TraceIndex& index, const SearchResult& result, int64_t position) {
  std::string body;
  JsonWriter w(&body);
  w.BeginObject();
  w.Field("query", result.query);
  w.Field("total", result.total);
  w.Field("navigable", static_cast<uint64_t>(result.matches.size()));
  w.Field("truncated", result.truncated());
  w.Field("index", position);
  w.Key("match");
  if (position < 0 || static_cast<size_t>(position) >= result.matches.size()) {
    w.Null();
  } else {
    const SearchMatch& match = result.matches[static_cast<size_t>(position)];
    std::optional<EventLocation> location = index.Locate(match.track, match.event);
    w.BeginObject();
    w.Field("track", static_cast<int64_t>(match.track));
    w.Field("event", static_cast<int64_t>(match.event));
    w.Field("start_ps", match.start_ps);
    int64_t end_ps = match.start_ps;
    int64_t depth = 0;
    if (location.has_value()) {
      end_ps = index.row_view(location->row).end(location->position);
      depth = index.rows()[location->row].depth;
    }
    w.Field("end_ps", end_ps);
    w.Field("depth", depth);
    w.Field("name", index.EventName(match.track, match.event));
    w.EndObject();
  }
  w.EndObject();
  body.push_back('\n');
  return body;
}

}  // namespace stepscope::analysis::trace
