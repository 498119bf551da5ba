// Serving the built web UI (ui/dist) from disk.
//
// Why disk and not embedded: the UI is built by npm after the C++ targets (./dev build),
// so embedding would make every C++ build depend on node; serving a directory keeps the
// two builds independent and lets a rebuilt UI show up on reload. The directory is found
// in this order (FindUiDir): --ui_dir, $STEPSCOPE_UI_DIR, <binary>/../share/stepscope/ui
// (an installed layout), <binary>/ui, and the source tree's ui/dist this binary was built
// from. With none of them the server still answers /api and shows a page saying how to
// build the UI.
//
// Only files inside the UI directory are served: the request path must be a plain
// relative path (no "..", no NUL, no backslash), and the resolved file must still lie
// inside the directory after symlinks are followed.
#pragma once

#include <string>
#include <string_view>

#include "src/server/api_routes.h"

namespace stepscope::server {

// The UI directory to serve, or "" when none holding index.html is found.
// `explicit_dir` (the --ui_dir flag) wins and must exist.
StatusOr<std::string> FindUiDir(std::string_view explicit_dir);

class StaticFiles {
 public:
  // `root` may be empty: every request then gets the "UI not built" page.
  explicit StaticFiles(std::string root);

  // GET `path` (as decoded from the URL). "/" serves index.html.
  HttpReply Serve(std::string_view path) const;

  const std::string& root() const { return root_; }

 private:
  std::string root_;
  std::string canonical_root_;
};

// "text/html; charset=utf-8" etc. by extension; "application/octet-stream" otherwise.
std::string_view ContentTypeForPath(std::string_view path);

}  // namespace stepscope::server
