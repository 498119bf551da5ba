// Test support: a scratch directory of a test's own.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace stepscope::base {

// <temp>/stepscope_<test>_<pid>/<name>, emptied first: the temp dir outlives test
// processes, and a recycled process id must not find an earlier run's files.
inline std::string FreshTestDir(std::string_view test, std::string_view name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("stepscope_" + std::string(test) + "_" + std::to_string(::getpid())) /
                                    std::string(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace stepscope::base
