#include "bench/common/measure_child.h"

#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace stepscope::bench {

void PinToOneCpu() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      sched_setaffinity(0, sizeof(one), &one);
      return;
    }
  }
}

Figures RunMeasuringChild(std::vector<std::string> args, const std::string& out_path) {
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  args.insert(args.begin(), self);
  args.push_back(out_path);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return {};
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return {};
  std::ifstream in(out_path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseFigureLines(text.str());
}

}  // namespace stepscope::bench
