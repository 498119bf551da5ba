// The parser half of the Chrome trace-event importers (Perfetto's tokenizer/parser
// split): turns the tokenizer's RawTraceEvents into the assembler's tracks, events,
// stats and flow points, with the Trace Event Format's semantics:
//
//  - ph X (complete), B/E (matched per thread in time order, file order breaking ties),
//    i/I (instant; scope t = thread, p = process, g = global), C (counter: one sample per
//    numeric arg), M (process_name, thread_name, process_labels, sort indices), flows v1
//    s/t/f (s and t bind to the enclosing slice on their thread, f to the next slice
//    unless "bp":"e" makes it the enclosing one) and v2 (bind_id / flow_in / flow_out).
//    Other phases are dropped and counted by phase.
//  - ts and dur are microseconds (displayTimeUnit only changes how viewers display them;
//    Kineto writes "ns" there with microsecond timestamps). Integers and ns-fraction
//    floats are converted exactly to picoseconds, relative to the first timestamp seen.
//  - pid/tid may be numbers or strings; a string holding a decimal integer ("1348") is
//    that number, other strings ("stream 7", "CPU functions") get ids of their own.
//
// Dialects (Kineto, TF trace viewer JSON) subclass it and override the hooks: which track
// an event belongs to, what an event becomes, and where each track goes in the XSpace.
// Tracks are collected on a staging plane and placed only in Finish(), because the
// metadata that places them (process_name, process_labels) may come after the events.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/importers/assembler/flat_id_map.h"
#include "src/importers/assembler/trace_assembler.h"
#include "src/importers/import_stats.h"
#include "src/importers/importer.h"
#include "src/importers/json/raw_trace_event.h"
#include "stepscope/status.h"

namespace stepscope::importers {

enum class TrackKind : uint8_t {
  kThread,            // a host thread (pid, tid)
  kDeviceStream,      // a device queue: pid = device ordinal, tid = stream
  kDeviceAnnotation,  // annotations shown on a device stream (Kineto gpu_user_annotation)
  kDeviceInfo,        // a device line that is not its work (Kineto sync waits): pid = device
  kCounter,           // counter samples of a process
  kProcessInstants,   // process-scoped instants
  kGlobalInstants,    // global instants
};

struct TrackKey {
  TrackKind kind = TrackKind::kThread;
  int64_t pid = 0;
  int64_t tid = 0;
  bool operator==(const TrackKey& o) const { return kind == o.kind && pid == o.pid && tid == o.tid; }
};

struct TrackKeyHash {
  size_t operator()(const TrackKey& k) const {
    // Unsigned: pids and tids come from the file and may be anything (no signed overflow).
    const uint64_t mixed = static_cast<uint64_t>(k.pid) * 1000003u + static_cast<uint64_t>(k.tid);
    return std::hash<uint64_t>()(mixed) ^ (static_cast<size_t>(k.kind) << 56);
  }
};

// Where a track goes in the XSpace.
struct TrackPlacement {
  std::string plane_name;
  int64_t plane_id = 0;
  int64_t line_id = 0;
  std::string line_name;
  std::string line_display_name;
};

class ChromeTraceParser : public TraceJsonSink {
 public:
  ChromeTraceParser(TraceAssembler* assembler, ImportStats* stats, const ImportOptions& options);
  ~ChromeTraceParser() override = default;

  void OnEvent(const RawTraceEvent& event) override;
  void OnNonObjectEvent(uint64_t byte_offset) override;
  void OnTopLevelField(std::string_view key, std::string_view raw_json) override;

  // After the tokenizer is done: matches B/E, binds flow points to tracks, places tracks.
  Status Finish();

 protected:
  // What an X / B / instant event is about to become. Hooks may rename it and set flags.
  struct Slice {
    std::string_view name;          // a view of the file's text, or of `name_storage`
    std::string name_storage;       // set by hooks that rename
    std::string_view display_name;  // empty: none
    std::string display_storage;
    int64_t timestamp_ps = 0;
    int64_t duration_ps = 0;
    uint8_t flags = 0;
    TrackKey track;
  };

  // ---- hooks ----
  // A top-level member other than traceEvents. Default: ignored.
  virtual void HandleTopLevelField(std::string_view key, std::string_view raw_json) {}
  // Returns false if the event is not an event of the trace but metadata (counted as
  // such). Called for every X, B and instant event before anything else.
  virtual bool IsTraceEvent(const RawTraceEvent& event) { return true; }
  // The track of an X/B/instant event. Default: its pid/tid thread (or the instant scope).
  virtual TrackKey TrackOf(const RawTraceEvent& event);
  // Adjusts a slice before it is added (rename, flags). Default: nothing.
  virtual void PrepareSlice(const RawTraceEvent& event, Slice* slice) {}
  // Adds the event's args as stats. Default: AddArgsAsStats (every arg).
  virtual void AddSliceStats(const RawTraceEvent& event, const Slice& slice, EventRef ref);
  // Flow identity: an id (56 bits) and XFlow category. Default: a fresh id per distinct
  // (cat, id), category 0 (generic). `category_key`: the event's cat, interned.
  virtual std::pair<uint64_t, uint8_t> FlowIdentity(const RawTraceEvent& event, std::string_view id_text,
                                                    uint32_t category_key);
  // The track a flow point belongs to, resolved after all events are known: a function of
  // its arguments then (Finish reuses the last answers).
  virtual TrackKey FlowTrack(int64_t pid, int64_t tid, std::string_view category) {
    return {TrackKind::kThread, pid, tid};
  }
  // Called once all events are in, while EventRefs are still valid (before tracks move).
  virtual void ResolveEventReferences() {}
  // Where a track goes. Default: everything on /host:CPU (see chrome_trace_parser.cc).
  virtual TrackPlacement PlaceTrack(const TrackKey& track);
  // Last step: plane stats, hostnames. Default: hostname from the options.
  virtual void FinishSpace();

  // ---- helpers for dialects ----
  static const JsonArg* FindArg(const RawTraceEvent& event, std::string_view key);
  // An integer arg (a number, or a string holding one), or nullopt.
  static std::optional<int64_t> ArgInt(const RawTraceEvent& event, std::string_view key);
  // Every arg as a stat: numbers as int64/uint64/double, booleans as int64 0/1, strings,
  // arrays and objects as interned strings (ref_value). Skips keys in `skip`.
  void AddArgsAsStats(const RawTraceEvent& event, EventRef ref,
                      std::initializer_list<std::string_view> skip = {});
  // Interned stat key id for an arg key (unescaped).
  uint32_t ArgKey(const JsonArg& arg);
  std::optional<PendingStat> ArgAsStat(const JsonArg& arg);
  // pid/tid value: numbers and decimal strings as themselves, other strings mapped to
  // stable ids.
  int64_t IdOf(const JsonToken& token);
  // IdOf(pid) and IdOf(tid) of the event being handled (computed once per event).
  int64_t current_pid() const { return current_pid_; }
  int64_t current_tid() const { return current_tid_; }
  std::string_view Unescaped(const JsonToken& token);  // valid until the next call
  LineRef StagingLine(const TrackKey& track);
  // True once a slice, instant or counter sample was added on `track`.
  bool HasTrack(const TrackKey& track) const { return staging_lines_.count(track) != 0; }
  std::string_view ProcessName(int64_t pid) const;
  std::string_view ThreadName(int64_t pid, int64_t tid) const;
  std::string_view ProcessLabels(int64_t pid) const;
  // True if the pid (or tid) `id` was written as a non-numeric string in the file; its text.
  std::optional<std::string_view> PidString(int64_t id) const;
  std::string HostName() const;
  // Timestamp of a ts/dur token in ps relative to the trace's time base.
  // The event's "ts" / "dur" in ps (ts after the time base), from the digits the tokenizer
  // read when it could, else from the text.
  std::optional<int64_t> TimestampPs(const RawTraceEvent& event);
  std::optional<int64_t> DurationPs(const RawTraceEvent& event);
  const std::vector<TrackKey>& tracks() const { return track_order_; }
  // Tells the assembler the wall-clock time of the trace's time 0: the trace says what
  // its timestamp 0 is in wall ns (Kineto's baseTimeNanoseconds), or, when it says
  // nothing, timestamps that look like Unix-epoch microseconds are taken as such.
  void SetWallClock(std::optional<int64_t> wall_ns_of_zero_micros);

  TraceAssembler* assembler_;
  ImportStats* stats_;
  const ImportOptions& options_;
  std::optional<int64_t> time_base_micros_;

 private:
  struct BeginEnd {
    int64_t timestamp_ps;
    uint64_t order;            // file order, for ties
    bool begin;
    EventRef event;            // B: the open event
    std::vector<PendingStat> end_stats;  // E: its args, added to the matched event
  };
  struct RawFlowPoint {
    int64_t pid, tid;
    uint32_t category;  // interned
    PendingFlowPoint point;
  };

  void HandleMetadata(const RawTraceEvent& event);
  void HandleSlice(const RawTraceEvent& event, char phase);
  void HandleEnd(const RawTraceEvent& event);
  void HandleCounter(const RawTraceEvent& event);
  void HandleFlow(const RawTraceEvent& event, char phase);
  void HandleFlowV2(const RawTraceEvent& event, EventRef ref, const TrackKey& track, int64_t timestamp_ps);
  void MatchBeginEnd();
  void PlaceTracks();

  uint32_t staging_plane_;
  std::unordered_map<TrackKey, LineRef, TrackKeyHash> staging_lines_;
  // StagingLine's cache of the tracks used last (staging lines do not move until Finish).
  struct RecentLine {
    bool valid = false;
    TrackKey track;
    LineRef line;
  };
  static constexpr size_t kRecentLines = 4;
  RecentLine recent_lines_[kRecentLines];
  size_t next_recent_line_ = 0;
  std::vector<TrackKey> track_order_;
  std::unordered_map<TrackKey, std::vector<BeginEnd>, TrackKeyHash> begin_end_;
  uint64_t order_ = 0;
  RecordVector<RawFlowPoint> flow_points_;
  // Flow ids by (category, id text), numbered in order of first sight from
  // kAllocatedFlowIdBase. Ids that are canonical decimal numbers (what most writers emit)
  // live in a flat map per category; any other id text in flow_ids_. A trace of millions of
  // flows spent a third of its import allocating and hashing a string key per point.
  uint64_t NextFlowSequence() { return ++flow_sequence_; }
  uint64_t FlowIdOf(uint32_t category_key, std::string_view id_text);
  uint64_t flow_sequence_ = 0;
  FlatIdMap flow_category_index_;                  // interned category -> index + 1 into numeric_flow_ids_
  std::vector<FlatIdMap> numeric_flow_ids_;        // per category: decimal id -> flow sequence
  std::unordered_map<std::string, uint64_t> flow_ids_;  // "<category>\x1f<id text>" -> flow sequence
  std::unordered_map<std::string, int64_t> string_ids_;
  std::unordered_map<int64_t, std::string> string_of_id_;
  std::unordered_map<int64_t, std::string> process_names_;
  std::unordered_map<int64_t, std::string> process_labels_;
  std::unordered_map<TrackKey, std::string, TrackKeyHash> thread_names_;
  std::unordered_map<int64_t, int64_t> tid_owner_;  // tid -> first pid seen with it
  std::unordered_map<int64_t, bool> tid_shared_;    // tid used by more than one pid
  size_t thread_pids_ = 0;                          // pids that have thread tracks
  // IdOf of the last pid (tid) text: consecutive events mostly name the same ones.
  struct IdCache {
    bool valid = false;
    JsonKind kind = JsonKind::kAbsent;
    uint8_t size = 0;
    char text[22];
    int64_t id = 0;
  };
  int64_t CachedIdOf(const JsonToken& token, IdCache* cache);

  std::string scratch_;
  std::string name_scratch_;
  IdCache pid_cache_;
  IdCache tid_cache_;
  int64_t current_pid_ = 0;
  int64_t current_tid_ = 0;
  // ArgKey's cache: the key as written (raw_id) -> its unescaped, interned id.
  struct ArgKeyCacheEntry {
    uint32_t raw_id = 0;
    uint32_t id = 0;
  };
  static constexpr size_t kArgKeyCacheSize = 64;
  ArgKeyCacheEntry arg_key_cache_[kArgKeyCacheSize];
};

// Runs the tokenizer over `source` into `parser`, then the parser's and assembler's
// Finish(); fills `stats` and `space`. Shared by the Chrome-format importers.
Status RunChromeTraceImport(ByteSource& source, const ImportOptions& options, ChromeTraceParser& parser,
                            TraceAssembler& assembler, const ImportOutput& output, ImportStats* stats);

}  // namespace stepscope::importers
