// The trace viewer's HTTP API (docs/trace_viewer.md), next to the tool API of
// api_routes.h and with the same conventions (JSON, {"error": ...} with a 4xx status):
//
//   GET /api/trace/tracks?run=R[&host=H]        sections and tracks, trace length, events
//   GET /api/trace/tiles?run=R[&host=H]&start_ps=A&end_ps=B&width_px=W[&tracks=1,2,..]
//                       [&max_primitives=N]      level-of-detail primitives for [A, B)
//   GET /api/trace/event?run=R[&host=H]&track=T&event=E    details and every stat
//   GET /api/trace/flows?run=R[&host=H]&track=T&event=E    launch -> kernel and XFlow links
//   GET /api/trace/search?run=R[&host=H]&q=TEXT[&from_ps=P&track=T&event=E]
//                       [&direction=next|prev]   the match to step to, with the total
//   GET /api/trace/export?run=R[&host=H]&format=chrome|perfetto[&gzip=1]
//                                                the whole trace as JSON, streamed
//
// The first request for a (run, host) builds its index (seconds for large profiles);
// later ones are served from it. Times are picoseconds since the trace's first event.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "src/analysis/trace/trace_export.h"
#include "src/server/api_routes.h"
#include "src/server/http_responder.h"
#include "src/server/profile_store.h"
#include "src/server/trace_store.h"

namespace stepscope::server {

// Requests naming more tracks are refused: no screen shows more rows.
inline constexpr size_t kMaxTrackIdsPerRequest = 20000;
// Upper bound a client may raise max_primitives to (the default is the LOD budget).
inline constexpr uint64_t kMaxPrimitivesLimit = 1'000'000;

class TraceRoutes {
 public:
  // `profiles` finds runs; it must outlive the routes.
  explicit TraceRoutes(ProfileStore* profiles, size_t index_cache_bytes = kDefaultTraceIndexCacheBytes);

  // Every /api/trace/* endpoint except export. Safe to call from many threads.
  HttpReply Handle(std::string_view path, const QueryParams& params);

  // /api/trace/export, split so the HTTP layer can stream: Prepare checks the request and
  // builds the index; Write produces the body into `sink` piece by piece.
  struct Export {
    std::shared_ptr<const analysis::trace::TraceIndex> index;
    analysis::trace::ExportFormat format = analysis::trace::ExportFormat::kChrome;
    bool gzip = false;
    std::string file_name;     // for Content-Disposition
    std::string content_type;  // application/json or application/gzip
  };
  StatusOr<Export> PrepareExport(const QueryParams& params);
  static Status WriteExport(const Export& plan, const analysis::trace::ByteSink& sink);

  TraceStore& store() { return traces_; }

 private:
  HttpReply Tracks(const QueryParams& params);
  HttpReply Tiles(const QueryParams& params);
  HttpReply Event(const QueryParams& params);
  HttpReply Flows(const QueryParams& params);
  using EventRenderer = std::function<StatusOr<std::string>(const analysis::trace::TraceIndex&, uint32_t track,
                                                            uint32_t event)>;
  HttpReply ForEvent(const QueryParams& params, const EventRenderer& render);
  HttpReply Search(const QueryParams& params);
  // /api/trace/summary: every event overlapping [start_ps, end_ps) on `tracks` (all when
  // absent), by name with count, total and self time - over the full index, at any zoom.
  HttpReply Summary(const QueryParams& params);
  // /api/trace/counters: every counter track sampled for [start_ps, end_ps) at width_px.
  HttpReply Counters(const QueryParams& params);

  ProfileStore* profiles_;
  TraceStore traces_;
};

// Serves GET /api/trace/* on `http` through `routes` (registered before the generic
// /api/ handler). `decorate` adds the headers every API reply carries (CORS, no-store).
void InstallTraceRoutes(HttpResponder* http, TraceRoutes* routes,
                        std::function<void(const HttpRequest&, HttpResponse&)> decorate);

}  // namespace stepscope::server
