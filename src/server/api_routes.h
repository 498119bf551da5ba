// The JSON API of `stepscope serve`, independent of the HTTP library so it can be tested
// by calling it directly.
//
//   GET /api/info                               server, version, logdir, every tool
//   GET /api/runs                               runs (re-listed: new runs appear)
//   GET /api/tools?run=R[&host=H]               tools, with whether each applies to R
//   GET /api/hosts?run=R&tool=T                 hosts to choose from ("all" when several)
//   GET /api/data?run=R&tool=T[&host=H][&include_idle=1][&step=N]
//                                               the tool's JSON, byte for byte what
//                                               `stepscope analyze --format json` prints
//   GET /api/tables?run=R&tool=T[&host=H]       the result's tables: name, title, column
//                                               ids, labels and types, row count
//   GET /api/csv?run=R&tool=T&table=NAME[&host=H][&include_idle=1][&step=N]
//                                               one table as CSV (a download)
//   GET /api/compare?run_a=A&run_b=B[&host_a=H][&host_b=H]
//                                               run A (before) against run B (after):
//                                               byte for byte `stepscope diff --format json`
//   GET /api/compare/tables?run_a=A&run_b=B[...] the comparison's tables, as /api/tables
//   GET /api/compare/csv?run_a=A&run_b=B&table=NAME[...]
//                                               one comparison table as CSV
//
// Errors are JSON {"error": "..."} with a 4xx status: 400 for malformed or suspicious
// parameters (traversal attempts, unknown or repeated parameters), 404 for unknown runs,
// hosts, tools and tables, 410 once the logdir has been deleted, 422 for a profile that
// cannot be read, 5xx only for failures of the server itself. docs/server.md lists them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/server/profile_store.h"
#include "src/server/request_params.h"
#include "stepscope/status.h"

namespace stepscope::server {

struct HttpReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers
};

// The HTTP status for a failed Status (400, 404, 410, 413, 422, 500, 501, 503).
int HttpStatusFor(const Status& status);
// {"error": message} with HttpStatusFor(status).
HttpReply ErrorReply(const Status& status);
HttpReply ErrorReply(int http_status, std::string_view message);
// A 200 reply with a JSON body.
HttpReply JsonReply(std::string body);
// `name` with every character but [A-Za-z0-9.-] replaced by '_': safe in a
// Content-Disposition header and as a file name on any file system.
std::string SafeFileName(std::string_view name);

class ApiRoutes {
 public:
  // `store` must outlive the routes.
  explicit ApiRoutes(ProfileStore* store) : store_(store) {}

  // Handles GET `path` (which starts with "/api/"). Safe to call from many threads.
  HttpReply Handle(std::string_view path, const QueryParams& params);

 private:
  HttpReply Info();
  HttpReply Runs();
  HttpReply Tools(const QueryParams& params);
  HttpReply Hosts(const QueryParams& params);
  HttpReply Data(const QueryParams& params);
  HttpReply Tables(const QueryParams& params);
  HttpReply Csv(const QueryParams& params);
  HttpReply Compare(std::string_view what, const QueryParams& params);

  ProfileStore* store_;
};

}  // namespace stepscope::server
