// Small helpers shared by the integration tests: test data paths, scratch directories.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include "src/base/testing/fresh_dir.h"

namespace stepscope::testing {

inline std::string XPlaneTestDataDir() { return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/xplane"; }

// A trace file of ../shared/testdata/traces (README.md there lists what each holds).
inline std::string TraceFile(const std::string& name) { return std::string(STEPSCOPE_SHARED_DIR) + "/testdata/traces/" + name; }

inline std::string TfDemoFile() {
  return XPlaneTestDataDir() + "/tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb";
}

// Every *.xplane.pb in the shared test data, sorted.
inline std::vector<std::string> AllXPlaneTestFiles() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(XPlaneTestDataDir(), ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 10 && name.compare(name.size() - 10, 10, ".xplane.pb") == 0) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// An empty scratch directory of this test's own (base::FreshTestDir).
inline std::string FreshDir(const std::string& name) { return base::FreshTestDir("it", name); }

inline std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline void WriteBytes(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace stepscope::testing
