// The one reader interface every importer implements (STYLE.md "importers": one
// interface, sniff-and-dispatch, counted data loss). importer_registry.h holds the only
// table of importers and picks one by sniffing the first bytes of a file.
//
// Phases: Sniff() looks at the head of the (inflated) input and says how sure it is the
// format is its own; Import() reads the whole input once, streaming, and fills an XSpace
// laid out like stepscope's own recordings (src/xspace/schema.h names), so every analysis
// works on it. Importers are stateless and may be used from several threads at once.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "src/base/cores.h"
#include "src/importers/byte_source.h"
#include "src/importers/import_output.h"
#include "src/importers/import_stats.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::importers {

struct ImportOptions {
  // Host name for the XSpace; empty: from the trace (Kineto distributedInfo.rank gives
  // "rank<N>", else its host_name), else `fallback_host_name`.
  std::string host_name;
  // Used when neither `host_name` nor the trace names the host (the CLI passes the file
  // name's stem).
  std::string fallback_host_name = "localhost";
  // Import the events before a cut instead of failing on a truncated file.
  bool allow_truncated = false;
  // Inflation limit for .gz input: a few KB of hostile gzip could expand to terabytes.
  uint64_t max_inflated_bytes = uint64_t{64} << 30;
  // Tokenizer window; tests make it tiny to exercise every cut. 256 KiB: the windows
  // alive at once (the tokenizer runs ahead of the parser) and simdjson's index of one
  // (4 bytes per byte) are new memory the kernel must zero, while a window's fixed cost
  // is microseconds. Analyzing a 15 MB Kineto trace: 4 MiB -> 1 MiB saved 6 % of the
  // time, 1 MiB -> 256 KiB another ~3 % (peak RSS 30.1 -> 27.2 MB); a 210 MB import on
  // one thread took the same time with either (within the VM's noise).
  size_t window_bytes = 256 << 10;
  // Threads an import may use: 0 = one per core; 1 = the caller's thread only. With more,
  // the trace is tokenized (and, from kReadAheadMinThreads, inflated) and assembled on
  // threads of their own, then its lines sorted and nested and its planes written in
  // parallel; the result is the same.
  int threads = 0;
};

// Threads from which a .gz is inflated on a read-ahead thread of its own.
inline constexpr int kReadAheadMinThreads = 3;

// ImportOptions::threads with 0 resolved to the cores this process may use.
inline int ImportThreads(const ImportOptions& options) {
  if (options.threads > 0) return options.threads;
  return base::UsableCores();
}

// Whether a sniffed head holds `text`. glibc's memmem, not string_view::find: find looks
// for the first byte with memchr and compares from each hit, and the patterns sniffers
// look for start with '"', a byte of every few in JSON (four absent patterns over a 64 KiB
// head: 145 us with find, 34 us with memmem; every import runs every sniffer).
inline bool HeadContains(std::string_view head, std::string_view text) {
  return ::memmem(head.data(), head.size(), text.data(), text.size()) != nullptr;
}

// Confidence scale of Sniff(): 0 = not mine, 100 = certainly mine.
inline constexpr int kSniffNo = 0;
inline constexpr int kSniffGeneric = 50;  // a Chrome trace of no particular dialect
inline constexpr int kSniffLikely = 90;
inline constexpr int kSniffCertain = 100;

class TraceImporter {
 public:
  virtual ~TraceImporter() = default;

  // Stable id shown to users and in ImportStats::format ("kineto_json").
  virtual std::string_view name() const = 0;
  // One line for `stepscope import --help`.
  virtual std::string_view description() const = 0;

  // Phase 1: how sure the importer is that `head` (the first bytes of the inflated input,
  // possibly cut anywhere) starts a file of its format.
  virtual int Sniff(std::string_view head) const = 0;

  // Phase 2: reads `source` to the end into the output's XSpace or columns (expected
  // empty). `stats` receives the accounting even when the import fails part-way. Errors:
  // kInvalidArgument (not this format), kDataLoss (truncated or corrupt),
  // kResourceExhausted (limits).
  virtual Status Import(ByteSource& source, const ImportOptions& options, const ImportOutput& output,
                        ImportStats* stats) const = 0;
};

}  // namespace stepscope::importers
