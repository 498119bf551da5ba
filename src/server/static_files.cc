#include "src/server/static_files.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "src/base/file_io.h"
#include "src/server/request_params.h"

namespace stepscope::server {
namespace fs = std::filesystem;
namespace {

// The largest UI file served; the whole bundle is far smaller (docs/ui.md).
constexpr uint64_t kMaxStaticFileBytes = 32ull << 20;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool HasIndex(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "index.html", ec);
}

fs::path ExecutableDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

constexpr std::string_view kNoUiPage = R"(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>stepscope</title></head>
<body style="font-family: sans-serif; margin: 3em; color: #333">
<h1>stepscope</h1>
<p>The web UI is not built, so only the JSON API is available (try <a href="/api/runs">/api/runs</a>).</p>
<p>Build it with <code>./dev build</code> (or <code>cd ui &amp;&amp; npm ci &amp;&amp; npm run build</code>),
or point the server at a built UI with <code>--ui_dir DIR</code>.</p>
</body></html>
)";

}  // namespace

std::string_view ContentTypeForPath(std::string_view path) {
  if (EndsWith(path, ".html")) return "text/html; charset=utf-8";
  if (EndsWith(path, ".js") || EndsWith(path, ".mjs")) return "text/javascript; charset=utf-8";
  if (EndsWith(path, ".css")) return "text/css; charset=utf-8";
  if (EndsWith(path, ".json") || EndsWith(path, ".map")) return "application/json";
  if (EndsWith(path, ".svg")) return "image/svg+xml";
  if (EndsWith(path, ".png")) return "image/png";
  if (EndsWith(path, ".ico")) return "image/x-icon";
  if (EndsWith(path, ".woff2")) return "font/woff2";
  if (EndsWith(path, ".txt")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

StatusOr<std::string> FindUiDir(std::string_view explicit_dir) {
  if (!explicit_dir.empty()) {
    if (!HasIndex(fs::path(explicit_dir))) {
      return NotFoundError("--ui_dir " + std::string(explicit_dir) + " holds no index.html (build the UI first)");
    }
    return std::string(explicit_dir);
  }
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("STEPSCOPE_UI_DIR"); env != nullptr && *env != '\0') candidates.emplace_back(env);
  fs::path exe_dir = ExecutableDir();
  if (!exe_dir.empty()) {
    candidates.push_back(exe_dir / ".." / "share" / "stepscope" / "ui");
    candidates.push_back(exe_dir / "ui");
  }
#ifdef STEPSCOPE_SOURCE_UI_DIR
  candidates.emplace_back(STEPSCOPE_SOURCE_UI_DIR);
#endif
  for (const fs::path& dir : candidates) {
    if (HasIndex(dir)) return fs::weakly_canonical(dir).string();
  }
  return std::string();
}

StaticFiles::StaticFiles(std::string root) : root_(std::move(root)) {
  if (!root_.empty()) {
    std::error_code ec;
    fs::path canonical = fs::canonical(root_, ec);
    canonical_root_ = ec ? std::string() : canonical.string();
  }
}

HttpReply StaticFiles::Serve(std::string_view path) const {
  if (canonical_root_.empty()) {
    if (path == "/" || path == "/index.html") {
      HttpReply reply;
      reply.content_type = "text/html; charset=utf-8";
      reply.body = std::string(kNoUiPage);
      return reply;
    }
    return ErrorReply(404, "not found: " + std::string(path) + " (the web UI is not built)");
  }
  std::string relative = (path.empty() || path == "/") ? std::string("index.html") : std::string(path.substr(1));
  if (path.empty() || path.front() != '/') return ErrorReply(400, "bad path");
  if (Status valid = ValidateName("path", relative); !valid.ok()) return ErrorReply(valid);

  std::error_code ec;
  fs::path file = fs::weakly_canonical(fs::path(canonical_root_) / relative, ec);
  std::string file_string = file.string();
  if (ec || file_string.compare(0, canonical_root_.size(), canonical_root_) != 0 ||
      (file_string.size() > canonical_root_.size() && file_string[canonical_root_.size()] != '/')) {
    return ErrorReply(400, "path outside the UI directory");
  }
  if (!fs::is_regular_file(file, ec)) return ErrorReply(404, "not found: " + std::string(path));
  auto bytes = base::ReadFile(file_string, kMaxStaticFileBytes);
  if (!bytes.ok()) return ErrorReply(404, "not found: " + std::string(path));

  HttpReply reply;
  reply.content_type = std::string(ContentTypeForPath(relative));
  reply.body = std::move(bytes).value();
  // Vite puts a content hash in every asset name, so assets never change under a name;
  // index.html names the current ones and must be revalidated.
  bool hashed_asset = relative.rfind("assets/", 0) == 0;
  reply.headers.emplace_back("Cache-Control", hashed_asset ? "public, max-age=31536000, immutable" : "no-cache");
  return reply;
}

}  // namespace stepscope::server
