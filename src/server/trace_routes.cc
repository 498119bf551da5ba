#include "src/server/trace_routes.h"


#include <charconv>
#include <initializer_list>
#include <map>

#include "src/analysis/trace/event_details.h"
#include "src/analysis/trace/tile_query.h"
#include "src/analysis/trace/trace_counters.h"
#include "src/analysis/trace/trace_flows.h"
#include "src/analysis/trace/trace_json.h"
#include "src/analysis/trace/trace_search.h"
#include "src/analysis/trace/trace_summary.h"
#include "src/base/gzip.h"
#include "src/base/logging.h"
#include "src/base/status_macros.h"
#include "src/server/request_params.h"

namespace stepscope::server {
namespace {

namespace trace = analysis::trace;

template <typename T>
StatusOr<T> ParseNumber(const Params& params, std::string_view key, T min_value, T max_value) {
  std::string text = Get(params, key);
  T value{};
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
    return InvalidArgumentError(std::string(key) + " must be an integer, not '" + text + "'");
  }
  if (value < min_value || value > max_value) {
    return InvalidArgumentError(std::string(key) + " must be between " + std::to_string(min_value) + " and " +
                                std::to_string(max_value) + ", not " + text);
  }
  return value;
}

// "3,5,7" -> {3, 5, 7}.
StatusOr<std::vector<uint32_t>> ParseTrackList(std::string_view text) {
  std::vector<uint32_t> tracks;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    uint32_t id = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size()) {
      return InvalidArgumentError("tracks must be comma-separated track ids, not '" + std::string(item) + "'");
    }
    tracks.push_back(id);
    if (tracks.size() > kMaxTrackIdsPerRequest) {
      return InvalidArgumentError("more than " + std::to_string(kMaxTrackIdsPerRequest) + " tracks in one request");
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return tracks;
}

}  // namespace

TraceRoutes::TraceRoutes(ProfileStore* profiles, size_t index_cache_bytes)
    : profiles_(profiles), traces_(profiles, index_cache_bytes) {}

// The index named by run/host; every endpoint starts here.
#define STEPSCOPE_TRACE_INDEX(handle, params)                                          \
  auto run_##handle = profiles_->FindRun(Get(params, "run"));                          \
  if (!run_##handle.ok()) return ErrorReply(run_##handle.status());                    \
  auto handle = traces_.GetIndex(*run_##handle, Get(params, "host"));                  \
  if (!handle.ok()) return ErrorReply(handle.status())

HttpReply TraceRoutes::Handle(std::string_view path, const QueryParams& params) {
  if (!profiles_->LogdirExists()) {
    return ErrorReply(410, "the logdir " + profiles_->logdir() + " no longer exists (was it deleted or moved?)");
  }
  if (path == "/api/trace/tracks") return Tracks(params);
  if (path == "/api/trace/tiles") return Tiles(params);
  if (path == "/api/trace/event") return Event(params);
  if (path == "/api/trace/flows") return Flows(params);
  if (path == "/api/trace/search") return Search(params);
  if (path == "/api/trace/summary") return Summary(params);
  if (path == "/api/trace/counters") return Counters(params);
  return ErrorReply(404, "no API endpoint " + std::string(path) +
                             "; trace endpoints: /api/trace/tracks, /api/trace/tiles, /api/trace/event, "
                             "/api/trace/flows, /api/trace/search, /api/trace/summary, /api/trace/counters, "
                             "/api/trace/export");
}

HttpReply TraceRoutes::Tracks(const QueryParams& query) {
  auto params = CheckParams(query, {"run"}, {"host"});
  if (!params.ok()) return ErrorReply(params.status());
  STEPSCOPE_TRACE_INDEX(handle, *params);
  return JsonReply(trace::TracksJson(*handle->index));
}

HttpReply TraceRoutes::Tiles(const QueryParams& query) {
  auto params = CheckParams(query, {"run", "start_ps", "end_ps", "width_px"}, {"host", "tracks", "max_primitives"});
  if (!params.ok()) return ErrorReply(params.status());
  trace::TileRequest request;
  auto start = ParseNumber<int64_t>(*params, "start_ps", INT64_MIN / 2, INT64_MAX / 2);
  if (!start.ok()) return ErrorReply(start.status());
  auto end = ParseNumber<int64_t>(*params, "end_ps", INT64_MIN / 2, INT64_MAX / 2);
  if (!end.ok()) return ErrorReply(end.status());
  auto width = ParseNumber<uint32_t>(*params, "width_px", 1, trace::kMaxTileWidthPx);
  if (!width.ok()) return ErrorReply(width.status());
  request.start_ps = *start;
  request.end_ps = *end;
  request.width_px = *width;
  if (params->count("max_primitives")) {
    auto max = ParseNumber<uint64_t>(*params, "max_primitives", 1, kMaxPrimitivesLimit);
    if (!max.ok()) return ErrorReply(max.status());
    request.max_primitives = *max;
  }
  if (params->count("tracks")) {
    auto tracks = ParseTrackList(Get(*params, "tracks"));
    if (!tracks.ok()) return ErrorReply(tracks.status());
    if (tracks->empty()) return JsonReply("{\"tracks\":[],\"names\":[],\"primitives\":0}\n");
    request.tracks = std::move(tracks).value();
  }
  STEPSCOPE_TRACE_INDEX(handle, *params);
  auto result = trace::QueryTiles(*handle->index, request);
  if (!result.ok()) return ErrorReply(result.status());
  HttpReply reply = JsonReply(trace::TilesJson(*handle->index, *result));
  // Tiles are megabytes served to this machine: the server would gzip "application/json"
  // (~40 MB/s, tens of ms per tile) to save bandwidth a loopback connection does not
  // lack. It compresses that exact type only (IsCompressibleContentType), so naming the
  // charset opts out.
  reply.content_type = "application/json; charset=utf-8";
  return reply;
}

// /api/trace/event and /api/trace/flows: one event named by run/host/track/event, and
// `render` turning it into the reply's JSON.
HttpReply TraceRoutes::ForEvent(const QueryParams& query, const EventRenderer& render) {
  auto params = CheckParams(query, {"run", "track", "event"}, {"host"});
  if (!params.ok()) return ErrorReply(params.status());
  auto track = ParseNumber<uint32_t>(*params, "track", 0, UINT32_MAX);
  if (!track.ok()) return ErrorReply(track.status());
  auto event = ParseNumber<uint32_t>(*params, "event", 0, UINT32_MAX);
  if (!event.ok()) return ErrorReply(event.status());
  STEPSCOPE_TRACE_INDEX(handle, *params);
  StatusOr<std::string> json = render(*handle->index, *track, *event);
  if (!json.ok()) return ErrorReply(json.status());
  return JsonReply(std::move(*json));
}

HttpReply TraceRoutes::Event(const QueryParams& query) {
  return ForEvent(query, [](const trace::TraceIndex& index, uint32_t track, uint32_t event) -> StatusOr<std::string> {
    auto details = trace::GetEventDetails(index, track, event);
    if (!details.ok()) return details.status();
    return trace::EventDetailsJson(index, *details);
  });
}

HttpReply TraceRoutes::Flows(const QueryParams& query) {
  return ForEvent(query, [](const trace::TraceIndex& index, uint32_t track, uint32_t event) -> StatusOr<std::string> {
    auto flows = trace::FindFlows(index, track, event);
    if (!flows.ok()) return flows.status();
    return trace::FlowsJson(*flows);
  });
}

HttpReply TraceRoutes::Counters(const QueryParams& query) {
  auto params = CheckParams(query, {"run", "start_ps", "end_ps", "width_px"}, {"host"});
  if (!params.ok()) return ErrorReply(params.status());
  auto start = ParseNumber<int64_t>(*params, "start_ps", INT64_MIN / 2, INT64_MAX / 2);
  if (!start.ok()) return ErrorReply(start.status());
  auto end = ParseNumber<int64_t>(*params, "end_ps", INT64_MIN / 2, INT64_MAX / 2);
  if (!end.ok()) return ErrorReply(end.status());
  auto width = ParseNumber<uint32_t>(*params, "width_px", 1, trace::kMaxTileWidthPx);
  if (!width.ok()) return ErrorReply(width.status());
  STEPSCOPE_TRACE_INDEX(handle, *params);
  auto points = trace::QueryCounters(*handle->index, *start, *end, *width);
  if (!points.ok()) return ErrorReply(points.status());
  return JsonReply(trace::CountersJson(*handle->index, *points));
}

HttpReply TraceRoutes::Summary(const QueryParams& query) {
  auto params = CheckParams(query, {"run", "start_ps", "end_ps"}, {"host", "tracks"});
  if (!params.ok()) return ErrorReply(params.status());
  trace::SummaryRequest request;
  auto start = ParseNumber<int64_t>(*params, "start_ps", INT64_MIN / 2, INT64_MAX / 2);
  if (!start.ok()) return ErrorReply(start.status());
  auto end = ParseNumber<int64_t>(*params, "end_ps", INT64_MIN / 2, INT64_MAX / 2);
  if (!end.ok()) return ErrorReply(end.status());
  request.start_ps = *start;
  request.end_ps = *end;
  if (params->count("tracks")) {
    auto tracks = ParseTrackList(Get(*params, "tracks"));
    if (!tracks.ok()) return ErrorReply(tracks.status());
    // An explicit empty list selects nothing (not every track).
    if (tracks->empty()) return JsonReply(trace::SummaryJson({.start_ps = *start, .end_ps = *end}));
    request.tracks = std::move(tracks).value();
  }
  STEPSCOPE_TRACE_INDEX(handle, *params);
  auto summary = trace::SummarizeRange(*handle->index, request);
  if (!summary.ok()) return ErrorReply(summary.status());
  return JsonReply(trace::SummaryJson(*summary));
}

HttpReply TraceRoutes::Search(const QueryParams& query) {
  auto params = CheckParams(query, {"run", "q"}, {"host", "from_ps", "track", "event", "direction"});
  if (!params.ok()) return ErrorReply(params.status());
  std::string direction = Get(*params, "direction");
  if (!direction.empty() && direction != "next" && direction != "prev") {
    return ErrorReply(400, "direction must be next or prev, not '" + direction + "'");
  }
  trace::SearchMatch cursor;
  bool has_cursor = params->count("from_ps") > 0;
  if (has_cursor) {
    auto from = ParseNumber<int64_t>(*params, "from_ps", INT64_MIN / 2, INT64_MAX / 2);
    if (!from.ok()) return ErrorReply(from.status());
    cursor.start_ps = *from;
    if (params->count("track")) {
      auto track = ParseNumber<uint32_t>(*params, "track", 0, UINT32_MAX);
      if (!track.ok()) return ErrorReply(track.status());
      cursor.track = *track;
    }
    if (params->count("event")) {
      auto event = ParseNumber<uint32_t>(*params, "event", 0, UINT32_MAX);
      if (!event.ok()) return ErrorReply(event.status());
      cursor.event = *event;
    }
  }
  STEPSCOPE_TRACE_INDEX(handle, *params);
  auto result = traces_.Search(*handle, Get(*params, "q"));
  if (!result.ok()) return ErrorReply(result.status());
  int64_t position = (*result)->matches.empty() ? -1 : 0;
  if (has_cursor) position = trace::StepSearch(**result, cursor, direction != "prev");
  return JsonReply(trace::SearchJson(*handle->index, **result, position));
}

StatusOr<TraceRoutes::Export> TraceRoutes::PrepareExport(const QueryParams& query) {
  if (!profiles_->LogdirExists()) {
    return NotFoundError("the logdir " + profiles_->logdir() + " no longer exists (was it deleted or moved?)");
  }
  STEPSCOPE_ASSIGN_OR_RETURN(Params params, CheckParams(query, {"run"}, {"host", "format", "gzip"}));
  Export plan;
  std::string format = Get(params, "format");
  STEPSCOPE_ASSIGN_OR_RETURN(plan.format, trace::ParseExportFormat(format.empty() ? "chrome" : format));
  std::string gzip = Get(params, "gzip");
  if (gzip == "1" || gzip == "true") {
    plan.gzip = true;
  } else if (!gzip.empty() && gzip != "0" && gzip != "false") {
    return InvalidArgumentError("gzip must be 0, 1, true or false, not '" + gzip + "'");
  }
  STEPSCOPE_ASSIGN_OR_RETURN(load::RunProfiles run, profiles_->FindRun(Get(params, "run")));
  std::string host = Get(params, "host");
  STEPSCOPE_ASSIGN_OR_RETURN(TraceStore::IndexHandle handle, traces_.GetIndex(run, host));
  plan.index = handle.index;
  plan.file_name = SafeFileName(run.name + "_" + (host.empty() ? std::string(load::kAllHosts) : host) + "." +
                                (plan.format == trace::ExportFormat::kChrome ? "trace" : "perfetto")) +
                   (plan.gzip ? ".json.gz" : ".json");
  plan.content_type = plan.gzip ? "application/gzip" : "application/json";
  return plan;
}

Status TraceRoutes::WriteExport(const Export& plan, const trace::ByteSink& sink) {
  if (!plan.gzip) return trace::ExportTraceJson(*plan.index, plan.format, sink).status();
  base::GzipDeflater gzip(sink);
  STEPSCOPE_RETURN_IF_ERROR(trace::ExportTraceJson(*plan.index, plan.format, [&gzip](std::string_view piece) {
                              return gzip.Write(piece);
                            }).status());
  if (!gzip.Finish()) return UnavailableError("the export download was interrupted");
  return OkStatus();
}

void InstallTraceRoutes(HttpResponder* http, TraceRoutes* routes,
                        std::function<void(const HttpRequest&, HttpResponse&)> decorate) {
  http->Get("/api/trace/", [routes, decorate](const HttpRequest& req, HttpResponse& res) {
    decorate(req, res);
    HttpReply reply;
    if (req.path != "/api/trace/export") {
      reply = routes->Handle(req.path, req.params);
    } else {
      auto plan = routes->PrepareExport(req.params);
      if (plan.ok()) {
        res.status = 200;
        res.SetHeader("Content-Disposition", "attachment; filename=\"" + plan->file_name + "\"");
        auto shared = std::make_shared<TraceRoutes::Export>(std::move(plan).value());
        res.SetStream(shared->content_type, [shared](const HttpBodyWriter& write) {
          Status status = TraceRoutes::WriteExport(*shared, write);
          if (!status.ok()) {
            base::LogWarning("serve: trace export stopped: %s", status.message().c_str());
            return false;
          }
          return true;
        });
        return;
      }
      reply = ErrorReply(plan.status());
    }
    res.status = reply.status;
    for (const auto& [name, value] : reply.headers) res.SetHeader(name, value);
    res.SetContent(reply.body, reply.content_type);
  });
}

}  // namespace stepscope::server
