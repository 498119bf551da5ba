// Test support: what a trace file says, read independently of the importers (simdjson
// On-Demand over the whole inflated document, timestamps split by hand), and what an
// imported XSpace says, in the same shape so tests can compare them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "src/xspace/xplane.h"

namespace stepscope::importers::testing {

// The path of a file in shared/testdata/traces.
std::string TraceTestFile(const std::string& name);
// The file's bytes, inflated if gzip.
std::string ReadInflated(const std::string& path);

struct FileEvent {
  std::string ph;
  std::string cat;
  std::string name;
  std::string pid;  // as written (number or string)
  std::string tid;
  std::string id;   // flow id as written
  std::string bp;
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
  bool has_dur = false;
  std::map<std::string, std::string> args;  // raw JSON text of each arg value
};

struct FileFacts {
  std::vector<FileEvent> events;
  int64_t base_time_ns = 0;  // baseTimeNanoseconds, 0 if absent
  std::map<std::string, int> count_by_cat;  // X/i events by "cat" (empty: no cat)
  std::map<std::string, int> count_by_ph;
};

// Reads `json` (a whole trace). Timestamps are "<us>[.<up to 3 digits>]"; anything finer
// fails the calling test through the returned `error`.
FileFacts ReadFileFacts(const std::string& json, std::string* error);

struct ImportedEvent {
  std::string plane;
  std::string line;
  std::string name;          // metadata name
  std::string display_name;  // metadata display name, or the name
  int64_t wall_ns = 0;       // profile_start_time + offset (ns); offset must be whole ns
  int64_t offset_ps = 0;
  int64_t duration_ps = 0;
  std::map<std::string, std::string> stats;  // name -> value as text
};

// Every event of every plane; `sub_ns_offsets` counts offsets that are not whole ns.
std::vector<ImportedEvent> ImportedEvents(const xspace::XSpace& space, int* sub_ns_offsets = nullptr);

}  // namespace stepscope::importers::testing
