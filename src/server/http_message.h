// HTTP/1.x requests and responses of `stepscope serve`, parsed and written by our own code.
//
// The connection front (connection_front.h) has framed each request (request_framing.h)
// before it is parsed here, so ParseHttpRequest sees exactly one complete request: CRLF
// line ends, lines and head within their caps, a body whose framing is unambiguous. What
// it decides on top of that is what cpp-httplib 0.11 (which answered requests before)
// decided, so clients see the same answers:
//   - the request line is three fields separated by spaces; the method is one of GET
//     HEAD POST PUT DELETE CONNECT OPTIONS TRACE PATCH PRI and the version HTTP/1.0 or
//     HTTP/1.1 (400 otherwise);
//   - the target loses a '#' fragment, and splits at '?' into the path (percent-decoded
//     once, '+' kept) and the query (key=value pairs separated by '&', each
//     percent-decoded with '+' as space; a pair repeated exactly is taken once); a
//     target with a second '?' is a 400;
//   - header names are case-insensitive; a header's value has its surrounding spaces and
//     tabs removed, and a header with an empty value is dropped. Header values are not
//     percent-decoded (httplib decoded them, so `Host: %31...` reached the Host check as
//     `1...`; now it is refused as written).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace stepscope::server {

// Case-insensitive (ASCII) ordering of header names.
struct HeaderNameLess {
  bool operator()(std::string_view a, std::string_view b) const;
};
// Header name -> value; a name may repeat (kept in the order set). Responses write their
// headers in this order (by name, case-insensitively).
using HttpHeaders = std::multimap<std::string, std::string, HeaderNameLess>;
// Query parameters as decoded; a key may repeat (request_params.h checks them).
using HttpParams = std::multimap<std::string, std::string>;

struct HttpRequest {
  std::string method;   // "GET"
  std::string target;   // "/api/data?run=a" as sent, without a fragment
  std::string version;  // "HTTP/1.1"
  std::string path;     // the target's path, percent-decoded
  HttpParams params;
  HttpHeaders headers;
  std::string body;     // decoded (chunked or Content-Length); only for POST, PUT, PATCH, DELETE, PRI

  // The first value of header `name`, or "" when absent.
  std::string Header(std::string_view name) const;
  bool HasHeader(std::string_view name) const { return headers.find(std::string(name)) != headers.end(); }
};

// Parses exactly one complete request. False: not a request this server accepts (400).
bool ParseHttpRequest(std::string_view bytes, HttpRequest* request);

// `text` with %XX (and %uXXXX, as UTF-8) decoded once; '+' becomes ' ' when
// `plus_as_space` (query strings). Malformed escapes are kept as they are.
std::string DecodeUrl(std::string_view text, bool plus_as_space);

// The reason phrase for an HTTP status ("Not Found"); "Internal Server Error" for codes
// it does not know.
const char* HttpStatusText(int status);

// Writes a streamed body piece by piece: false when the connection failed (stop).
using HttpBodyWriter = std::function<bool(std::string_view piece)>;

struct HttpResponse {
  int status = -1;  // -1: not set (200 once a route handled the request)
  HttpHeaders headers;
  std::string body;
  // A body of unknown length, sent chunked (gzip-compressed when the client accepts it
  // and the type allows): writes every piece through the writer; false when it failed
  // (the connection is then closed mid-body). Runs after the head is sent; not for HEAD.
  std::function<bool(const HttpBodyWriter&)> stream;

  // Adds a header (a name may repeat); a name or value holding CR or LF is dropped.
  void SetHeader(std::string_view name, std::string_view value);
  // The body and its Content-Type (replacing any Content-Type set before).
  void SetContent(std::string body, std::string_view content_type);
  // A streamed body and its Content-Type.
  void SetStream(std::string_view content_type, std::function<bool(const HttpBodyWriter&)> writer);
  bool HasHeader(std::string_view name) const { return headers.find(std::string(name)) != headers.end(); }
  std::string Header(std::string_view name) const;
};

// Whether a response of `content_type` is worth compressing: text/* but
// text/event-stream, and JSON, JavaScript, XML, XHTML, SVG and protobuf by their exact
// type (so "application/json; charset=utf-8" opts a response out).
bool IsCompressibleContentType(std::string_view content_type);

// Whether the client accepts gzip (Accept-Encoding names it).
bool AcceptsGzip(const HttpRequest& request);

}  // namespace stepscope::server
