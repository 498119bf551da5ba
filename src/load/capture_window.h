// When a host's profile was recorded, on the wall clock: what tells that runs written to
// separate run directories by the workers of one job (each names its directory after its
// own start time) are one profiling session (run_sessions.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "src/load/profile_loader.h"

namespace stepscope::load {

enum class WindowSource {
  kTaskEnvironment,  // the XSpace's "Task Environment" plane: profile_start_time / stop_time
  kRunNameAndMtime,  // start: the run directory's name (YYYY_MM_DD_HH_MM_SS, local time);
                     // stop: the file's last write (profilers write the file at stop)
  kMtime,            // the file's last write alone: a point
};

struct CaptureWindow {
  int64_t start_ns = 0;  // Unix ns
  int64_t stop_ns = 0;
  WindowSource source = WindowSource::kMtime;
};

// The exact window when the file is an uncompressed XSpace with a Task Environment plane
// (stepscope's and recent TensorFlow's): found by reading each plane's first bytes, and that
// plane alone whole, so a gigabyte file costs a few small reads. Otherwise the run
// directory's name and the file's mtime, or the mtime alone.
CaptureWindow ReadCaptureWindow(const HostProfileFile& file, std::string_view run_dir_name);

// The start time a run directory's name says (YYYY_MM_DD_HH_MM_SS[anything], read as local
// time, as TensorFlow and stepscope write it); nullopt for other names.
std::optional<int64_t> RunNameStartNs(std::string_view run_dir_name);

}  // namespace stepscope::load
