// stepscope_reference: writes or checks the files generated from the tool declarations.
//   stepscope_reference --check --typescript ui/src/generated/tools.ts --docs docs/tools.md
//   stepscope_reference --write --typescript ui/src/generated/tools.ts --docs docs/tools.md
// --check exits 1 naming each file that differs from what the declarations give (run
// ./dev gen); --write rewrites them. Never touches a file it was not named.
#include <cstdio>
#include <cstring>
#include <string>

#include "src/analysis/tool_reference.h"
#include "src/base/file_io.h"

namespace {

using stepscope::StatusOr;

int Usage() {
  std::fprintf(stderr, "usage: stepscope_reference --check|--write [--typescript FILE] [--docs FILE]\n");
  return 2;
}

// Compares or writes one generated file; returns whether it is (now) current.
bool Handle(const std::string& path, const std::string& expected, bool write) {
  StatusOr<std::string> current = stepscope::base::ReadFile(path, 64 << 20);
  if (current.ok() && *current == expected) return true;
  if (!write) {
    std::fprintf(stderr, "%s is not what the tool declarations give%s: run ./dev gen and commit it\n", path.c_str(),
                 current.ok() ? "" : (" (" + current.status().message() + ")").c_str());
    return false;
  }
  stepscope::Status written = stepscope::base::WriteFileAtomically(path, expected);
  if (!written.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), written.ToString().c_str());
    return false;
  }
  std::printf("wrote %s\n", path.c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool write = false, mode_given = false;
  std::string typescript, docs;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--check") == 0 || std::strcmp(argv[i], "--write") == 0) {
      write = std::strcmp(argv[i], "--write") == 0;
      mode_given = true;
    } else if (std::strcmp(argv[i], "--typescript") == 0 && i + 1 < argc) {
      typescript = argv[++i];
    } else if (std::strcmp(argv[i], "--docs") == 0 && i + 1 < argc) {
      docs = argv[++i];
    } else {
      return Usage();
    }
  }
  if (!mode_given || (typescript.empty() && docs.empty())) return Usage();
  bool ok = true;
  if (!typescript.empty()) ok = Handle(typescript, stepscope::analysis::ToolsTypeScript(), write) && ok;
  if (!docs.empty()) {
    StatusOr<std::string> doc = stepscope::base::ReadFile(docs, 64 << 20);
    if (!doc.ok()) {
      std::fprintf(stderr, "%s: %s\n", docs.c_str(), doc.status().ToString().c_str());
      return 1;
    }
    StatusOr<std::string> updated = stepscope::analysis::UpdateReferenceBlocks(*doc);
    if (!updated.ok()) {
      std::fprintf(stderr, "%s: %s\n", docs.c_str(), updated.status().ToString().c_str());
      return 1;
    }
    ok = Handle(docs, *updated, write) && ok;
  }
  return ok ? 0 : 1;
}
