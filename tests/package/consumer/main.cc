// Records three steps with the installed API and writes them to argv[1]; prints the path.
#include <cstdio>
#include <string>
#include <vector>

#include "stepscope/profiler_server.h"
#include "stepscope/stepscope.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  auto server = stepscope::StartProfilerServer(0);  // the remote layer is in the package too
  if (!server.ok()) {
    std::fprintf(stderr, "%s\n", server.status().ToString().c_str());
    return 1;
  }
  stepscope::Status started = stepscope::StartProfiling(argv[1]);
  if (!started.ok()) {
    std::fprintf(stderr, "%s\n", started.ToString().c_str());
    return 1;
  }
  for (int64_t n = 0; n < 3; ++n) {
    stepscope::Step step("train", n);
    STEPSCOPE_ANNOTATE("work");
  }
  std::vector<std::string> paths;
  stepscope::Status stopped = stepscope::StopProfiling();
  if (stopped.ok()) stopped = stepscope::FlushProfiles(&paths);
  if (!stopped.ok() || paths.size() != 1) {
    std::fprintf(stderr, "%s\n", stopped.ToString().c_str());
    return 1;
  }
  std::printf("%s\n", paths[0].c_str());
  return 0;
}
