#include "src/server/http_message.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <vector>

#include "src/base/ascii.h"

namespace stepscope::server {
namespace {

bool IsSpaceOrTab(char c) { return c == ' ' || c == '\t'; }

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsSpaceOrTab(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpaceOrTab(text.back())) text.remove_suffix(1);
  return text;
}

// The non-empty fields of `text` between `delimiter`s, each without surrounding spaces
// and tabs (so "a  b" is two fields and "a??b" splits into "a" and "b").
std::vector<std::string_view> SplitFields(std::string_view text, char delimiter) {
  std::vector<std::string_view> fields;
  size_t begin = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == delimiter) {
      std::string_view field = Trim(text.substr(begin, i - begin));
      if (!field.empty()) fields.push_back(field);
      begin = i + 1;
    }
  }
  return fields;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `count` hex digits at text[at]; -1 when there are fewer or one is not hex.
int HexAt(std::string_view text, size_t at, size_t count) {
  if (at + count > text.size()) return -1;
  int value = 0;
  for (size_t i = 0; i < count; ++i) {
    int digit = HexValue(text[at + i]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

void AppendUtf8(uint32_t code, std::string* out) {
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code >> 6)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code >= 0xD800 && code < 0xE000) {
    // a lone surrogate is no character: nothing
  } else {
    out->push_back(static_cast<char>(0xE0 | (code >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

void ParseQuery(std::string_view query, HttpParams* params) {
  std::set<std::string_view> seen;
  for (std::string_view pair : SplitFields(query, '&')) {
    if (!seen.insert(pair).second) continue;  // the same key=value again
    std::vector<std::string_view> parts = SplitFields(pair, '=');
    if (parts.empty()) continue;
    // "a=b=c" is a -> c (the last field), "a" and "a=" are a -> "".
    std::string_view value = parts.size() > 1 ? parts.back() : std::string_view();
    params->emplace(DecodeUrl(parts.front(), true), DecodeUrl(value, true));
  }
}

bool ParseRequestLine(std::string_view line, HttpRequest* request) {
  std::vector<std::string_view> fields = SplitFields(line, ' ');
  if (fields.size() != 3) return false;
  static const std::set<std::string_view> kMethods = {"GET",     "HEAD",    "POST",  "PUT",   "DELETE",
                                                      "CONNECT", "OPTIONS", "TRACE", "PATCH", "PRI"};
  if (kMethods.count(fields[0]) == 0) return false;
  if (fields[2] != "HTTP/1.1" && fields[2] != "HTTP/1.0") return false;
  request->method = std::string(fields[0]);
  request->version = std::string(fields[2]);
  std::string_view target = fields[1];
  target = target.substr(0, target.find('#'));
  request->target = std::string(target);
  std::vector<std::string_view> parts = SplitFields(target, '?');
  if (parts.size() > 2) return false;
  if (!parts.empty()) request->path = DecodeUrl(parts[0], false);
  if (parts.size() == 2) ParseQuery(parts[1], &request->params);
  return true;
}

// "Name: value" without its CRLF; false for a line that is no header (skipped).
bool ParseHeaderLine(std::string_view line, HttpHeaders* headers) {
  while (!line.empty() && IsSpaceOrTab(line.back())) line.remove_suffix(1);
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view value = Trim(line.substr(colon + 1));
  if (value.empty()) return false;
  headers->emplace(std::string(line.substr(0, colon)), std::string(value));
  return true;
}

// The body after the head at bytes[at]; false when its framing is broken (the front has
// checked it, so only for requests that did not come through it).
bool DecodeBody(std::string_view bytes, size_t at, HttpRequest* request) {
  std::string_view rest = bytes.substr(at);
  if (base::AsciiEqualsIgnoreCase(request->Header("Transfer-Encoding"), "chunked")) {
    for (;;) {
      size_t line_end = rest.find("\r\n");
      if (line_end == std::string_view::npos) return false;
      std::string size_line(rest.substr(0, line_end));
      char* end = nullptr;
      unsigned long long size = std::strtoull(size_line.c_str(), &end, 16);
      if (end == size_line.c_str() || size == ULLONG_MAX) return false;
      rest.remove_prefix(line_end + 2);
      if (size == 0) break;
      if (rest.size() < size + 2 || rest.substr(size, 2) != "\r\n") return false;
      request->body.append(rest.data(), size);
      rest.remove_prefix(size + 2);
    }
    // Trailers, then the empty line.
    for (;;) {
      size_t line_end = rest.find("\r\n");
      if (line_end == std::string_view::npos) return false;
      if (line_end == 0) return true;
      rest.remove_prefix(line_end + 2);
    }
  }
  std::string length = request->Header("Content-Length");
  if (length.empty()) return true;  // no body
  char* end = nullptr;
  unsigned long long size = std::strtoull(length.c_str(), &end, 10);
  if (*end != '\0' || size > rest.size()) return false;
  request->body.assign(rest.data(), size);
  return true;
}

}  // namespace

bool HeaderNameLess::operator()(std::string_view a, std::string_view b) const {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return base::AsciiLower(x) < base::AsciiLower(y);
  });
}

std::string HttpRequest::Header(std::string_view name) const {
  auto it = headers.find(std::string(name));
  return it == headers.end() ? std::string() : it->second;
}

std::string HttpResponse::Header(std::string_view name) const {
  auto it = headers.find(std::string(name));
  return it == headers.end() ? std::string() : it->second;
}

void HttpResponse::SetHeader(std::string_view name, std::string_view value) {
  auto has_line_break = [](std::string_view text) { return text.find_first_of("\r\n") != std::string_view::npos; };
  if (has_line_break(name) || has_line_break(value)) return;
  headers.emplace(std::string(name), std::string(value));
}

void HttpResponse::SetContent(std::string new_body, std::string_view content_type) {
  body = std::move(new_body);
  headers.erase("Content-Type");
  SetHeader("Content-Type", content_type);
}

void HttpResponse::SetStream(std::string_view content_type, std::function<bool(const HttpBodyWriter&)> writer) {
  body.clear();
  stream = std::move(writer);
  headers.erase("Content-Type");
  SetHeader("Content-Type", content_type);
}

std::string DecodeUrl(std::string_view text, bool plus_as_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%' && i + 1 < text.size()) {
      if (text[i + 1] == 'u') {
        int code = HexAt(text, i + 2, 4);
        if (code >= 0) {
          AppendUtf8(static_cast<uint32_t>(code), &out);
          i += 5;
          continue;
        }
      } else {
        int value = HexAt(text, i + 1, 2);
        if (value >= 0) {
          out.push_back(static_cast<char>(value));
          i += 2;
          continue;
        }
      }
      out.push_back(c);
    } else if (plus_as_space && c == '+') {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

bool ParseHttpRequest(std::string_view bytes, HttpRequest* request) {
  *request = HttpRequest();
  size_t line_end = bytes.find("\r\n");
  if (line_end == std::string_view::npos || !ParseRequestLine(bytes.substr(0, line_end), request)) return false;
  size_t at = line_end + 2;
  for (;;) {
    line_end = bytes.find("\r\n", at);
    if (line_end == std::string_view::npos) return false;
    std::string_view line = bytes.substr(at, line_end - at);
    at = line_end + 2;
    if (line.empty()) break;
    ParseHeaderLine(line, &request->headers);
  }
  const std::string& method = request->method;
  if (method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE" || method == "PRI") {
    return DecodeBody(bytes, at, request);
  }
  return true;  // a GET's body (if any) is not read
}

bool IsCompressibleContentType(std::string_view content_type) {
  if (content_type == "image/svg+xml" || content_type == "application/javascript" ||
      content_type == "application/json" || content_type == "application/xml" ||
      content_type == "application/protobuf" || content_type == "application/xhtml+xml") {
    return true;
  }
  return content_type.substr(0, 5) == "text/" && content_type != "text/event-stream";
}

bool AcceptsGzip(const HttpRequest& request) {
  const std::string accepted = request.Header("Accept-Encoding");
  for (std::string_view coding : SplitFields(accepted, ',')) {
    std::vector<std::string_view> parts = SplitFields(coding, ';');
    if (parts.empty() || !base::AsciiEqualsIgnoreCase(parts[0], "gzip")) continue;
    bool refused = false;  // "gzip;q=0" (or q=0.0...) refuses it
    for (size_t i = 1; i < parts.size(); ++i) {
      std::string_view q = parts[i];
      if (q.size() >= 2 && (q[0] == 'q' || q[0] == 'Q') && q[1] == '=') {
        std::string_view value = Trim(q.substr(2));
        refused = !value.empty() && value.find_first_not_of("0.") == std::string_view::npos;
      }
    }
    if (!refused) return true;
  }
  return false;
}

const char* HttpStatusText(int status) {
  switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 206: return "Partial Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 416: return "Range Not Satisfiable";
    case 417: return "Expectation Failed";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "Internal Server Error";
  }
}

}  // namespace stepscope::server
