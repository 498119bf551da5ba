#include "src/importers/chrome_json/chrome_trace_parser.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <set>

#include "src/base/equal_bytes.h"
#include "src/base/status_macros.h"
#include "src/importers/json/json_text.h"
#include "src/importers/json/trace_json_reader.h"
#include "src/xspace/schema.h"

namespace stepscope::importers {
namespace {

// Ids given to pid/tid strings ("Spans", "CPU functions"): far from any real pid/tid.
constexpr int64_t kStringIdBase = -(int64_t{1} << 40);
// Flow ids allocated by the importer start here, above 32-bit ids taken from the file
// (CUDA correlation ids), so the two kinds never collide.
constexpr uint64_t kAllocatedFlowIdBase = uint64_t{1} << 55;
// Synthetic line ids for instants that belong to no thread, below any real thread id.
constexpr int64_t kProcessInstantsLineIdBase = -(int64_t{1} << 42);
constexpr int64_t kGlobalInstantsLineId = -(int64_t{1} << 43);
// Times are kept within +-2^62 ps (53 days) of the first timestamp, and durations below
// 2^62 ps, so that start + duration and every difference fits int64.
constexpr int64_t kMaxAbsTimePs = int64_t{1} << 62;
// Timestamps above this many microseconds (2001-09-09) are taken as Unix-epoch time.
constexpr int64_t kEpochMicrosThreshold = int64_t{1'000'000'000'000'000};

std::string PhaseReason(std::string_view what, std::string_view phase) {
  std::string shown(phase.substr(0, 8));
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return std::string(what) + " '" + shown + "'";
}

// The value of a string that is a plain decimal integer ("1348", "-2"), else nullopt
// ("stream 7", "0x10", "1e3", " 7").
std::optional<int64_t> DecimalString(std::string_view text) {
  const size_t digits_begin = !text.empty() && text[0] == '-' ? 1 : 0;
  if (text.size() == digits_begin || text.size() - digits_begin > 18) return std::nullopt;
  for (size_t i = digits_begin; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  }
  int64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace

ChromeTraceParser::ChromeTraceParser(TraceAssembler* assembler, ImportStats* stats, const ImportOptions& options)
    : assembler_(assembler), stats_(stats), options_(options) {
  staging_plane_ = assembler_->GetOrCreatePlane("", -1);
}

const JsonArg* ChromeTraceParser::FindArg(const RawTraceEvent& event, std::string_view key) {
  for (const JsonArg& arg : event.args) {
    if (arg.key == key) return &arg;
  }
  return nullptr;
}

std::optional<int64_t> ChromeTraceParser::ArgInt(const RawTraceEvent& event, std::string_view key) {
  const JsonArg* arg = FindArg(event, key);
  if (arg == nullptr) return std::nullopt;
  if (arg->value.kind != JsonKind::kNumber && arg->value.kind != JsonKind::kString) return std::nullopt;
  return ParseJsonInteger(arg->value.text());
}

std::string_view ChromeTraceParser::Unescaped(const JsonToken& token) {
  return UnescapeJsonStringLenient(token.text(), &scratch_);
}

int64_t ChromeTraceParser::IdOf(const JsonToken& token) {
  if (token.kind == JsonKind::kNumber) {
    if (std::optional<int64_t> value = ParseJsonInteger(token.text())) return *value;
  }
  if (!token.present()) return 0;
  // "1348" is thread 1348: Kineto 1.8-1.9 writes the tid of X events as a string and the
  // tid of flow points as a number, and trace viewers (Catapult keys threads by the
  // text of the tid, Perfetto coerces numeric strings) treat both as one thread.
  if (token.kind == JsonKind::kString) {
    if (std::optional<int64_t> value = DecimalString(token.text())) return *value;
  }
  std::string text(Unescaped(token));
  auto [it, inserted] = string_ids_.try_emplace(text, 0);
  if (inserted) {
    it->second = kStringIdBase - static_cast<int64_t>(string_ids_.size());
    string_of_id_[it->second] = text;
  }
  return it->second;
}

int64_t ChromeTraceParser::CachedIdOf(const JsonToken& token, IdCache* cache) {
  // (An absent token's text has no data pointer: compared as a view, not with memcmp.)
  if (cache->valid && token.kind == cache->kind && base::EqualBytes(token.text(), std::string_view(cache->text, cache->size))) {
    return cache->id;
  }
  int64_t id = IdOf(token);
  cache->valid = token.text().size() <= sizeof(cache->text);
  if (cache->valid) {
    cache->kind = token.kind;
    cache->size = static_cast<uint8_t>(token.text().size());
    std::copy(token.text().begin(), token.text().end(), cache->text);
    cache->id = id;
  }
  return id;
}

std::optional<std::string_view> ChromeTraceParser::PidString(int64_t id) const {
  auto it = string_of_id_.find(id);
  if (it == string_of_id_.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::optional<int64_t> ChromeTraceParser::TimestampPs(const RawTraceEvent& event) {
  const JsonToken& token = event.ts;
  if (token.kind != JsonKind::kNumber && token.kind != JsonKind::kString) return std::nullopt;
  if (token.kind == JsonKind::kString) stats_->Fix("\"ts\" written as a string");
  if (!time_base_micros_) {
    time_base_micros_ = ParseMicrosFloor(token.text());
    if (!time_base_micros_) return std::nullopt;
  }
  std::optional<int64_t> picos = event.ts_plain ? PlainMicrosToPicos(*event.ts_plain, *time_base_micros_)
                                                : ParseMicrosToPicos(token.text(), *time_base_micros_);
  if (picos && (*picos > kMaxAbsTimePs || *picos < -kMaxAbsTimePs)) return std::nullopt;
  return picos;
}

std::optional<int64_t> ChromeTraceParser::DurationPs(const RawTraceEvent& event) {
  const JsonToken& token = event.dur;
  if (token.kind != JsonKind::kNumber && token.kind != JsonKind::kString) return std::nullopt;
  std::optional<int64_t> picos =
      event.dur_plain ? PlainMicrosToPicos(*event.dur_plain, 0) : ParseMicrosToPicos(token.text(), 0);
  if (picos && *picos > kMaxAbsTimePs) return std::nullopt;
  return picos;
}

LineRef ChromeTraceParser::StagingLine(const TrackKey& track) {
  // Events come in runs on a few tracks (a thread and the streams it launches on): the
  // recently used ones answer without hashing.
  for (const RecentLine& recent : recent_lines_) {
    if (recent.valid && recent.track == track) return recent.line;
  }
  auto [it, inserted] = staging_lines_.try_emplace(track, LineRef{});
  if (inserted) {
    it->second = assembler_->GetOrCreateLine(staging_plane_, static_cast<int64_t>(track_order_.size()));
    track_order_.push_back(track);
  }
  recent_lines_[next_recent_line_] = {true, track, it->second};
  next_recent_line_ = (next_recent_line_ + 1) % kRecentLines;
  return it->second;
}

std::string_view ChromeTraceParser::ProcessName(int64_t pid) const {
  auto it = process_names_.find(pid);
  return it == process_names_.end() ? std::string_view() : std::string_view(it->second);
}

std::string_view ChromeTraceParser::ThreadName(int64_t pid, int64_t tid) const {
  auto it = thread_names_.find(TrackKey{TrackKind::kThread, pid, tid});
  return it == thread_names_.end() ? std::string_view() : std::string_view(it->second);
}

std::string_view ChromeTraceParser::ProcessLabels(int64_t pid) const {
  auto it = process_labels_.find(pid);
  return it == process_labels_.end() ? std::string_view() : std::string_view(it->second);
}

std::string ChromeTraceParser::HostName() const {
  return options_.host_name.empty() ? options_.fallback_host_name : options_.host_name;
}

void ChromeTraceParser::OnNonObjectEvent(uint64_t byte_offset) {
  ++stats_->events_read;
  stats_->Drop("element of the event array that is not an object");
}

void ChromeTraceParser::OnTopLevelField(std::string_view key, std::string_view raw_json) {
  HandleTopLevelField(key, raw_json);
}

void ChromeTraceParser::OnEvent(const RawTraceEvent& event) {
  ++stats_->events_read;
  current_pid_ = CachedIdOf(event.pid, &pid_cache_);
  current_tid_ = CachedIdOf(event.tid, &tid_cache_);
  if (!event.ph.present()) {
    bool empty = !event.name.present() && !event.ts.present() && !event.pid.present() && !event.has_args;
    stats_->Drop(empty ? "empty event object {} (a writer's trailing element)" : "event without \"ph\"");
    return;
  }
  std::string_view phase = event.ph.text();
  if (phase.size() != 1) {
    stats_->Drop(PhaseReason("unknown phase", phase));
    return;
  }
  switch (phase[0]) {
    case 'M':
      ++stats_->metadata_events;
      HandleMetadata(event);
      return;
    case 'X':
    case 'B':
    case 'i':
    case 'I':
      HandleSlice(event, phase[0]);
      return;
    case 'E':
      HandleEnd(event);
      return;
    case 'C':
      HandleCounter(event);
      return;
    case 's':
    case 't':
    case 'f':
      HandleFlow(event, phase[0]);
      return;
    default:
      stats_->Drop(PhaseReason("unsupported phase", phase));
  }
}

void ChromeTraceParser::HandleMetadata(const RawTraceEvent& event) {
  std::string_view kind = event.name.text();
  int64_t pid = current_pid_;
  if (kind == "process_name" || kind == "thread_name") {
    const JsonArg* name = FindArg(event, "name");
    if (name == nullptr) return;
    std::string value(UnescapeJsonStringLenient(name->value.text(), &scratch_));
    if (kind == "process_name") {
      process_names_[pid] = std::move(value);
    } else {
      thread_names_[TrackKey{TrackKind::kThread, pid, current_tid_}] = std::move(value);
    }
  } else if (kind == "process_labels") {
    if (const JsonArg* labels = FindArg(event, "labels")) {
      process_labels_[pid] = std::string(UnescapeJsonStringLenient(labels->value.text(), &scratch_));
    }
  }
  // process_sort_index, thread_sort_index and others: display order only.
}

TrackKey ChromeTraceParser::TrackOf(const RawTraceEvent& event) {
  if (event.ph.text() == "i" || event.ph.text() == "I") {
    if (event.scope.text() == "g") return {TrackKind::kGlobalInstants, 0, 0};
    if (event.scope.text() == "p") return {TrackKind::kProcessInstants, current_pid_, 0};
  }
  return {TrackKind::kThread, current_pid_, current_tid_};
}

void ChromeTraceParser::HandleSlice(const RawTraceEvent& event, char phase) {
  if (!IsTraceEvent(event)) {
    ++stats_->metadata_events;
    return;
  }
  std::optional<int64_t> timestamp_ps = TimestampPs(event);
  if (!timestamp_ps) {
    stats_->Drop(event.ts.present() ? "\"ts\" that is not a number or more than 53 days from the first"
                                    : "event without \"ts\"");
    return;
  }
  Slice slice;
  slice.name = UnescapeJsonStringLenient(event.name.text(), &name_scratch_);
  slice.timestamp_ps = *timestamp_ps;
  if (phase == 'X') {
    std::optional<int64_t> duration_ps = DurationPs(event);
    if (!duration_ps) {
      stats_->Fix("'X' event without a usable \"dur\": imported as an instant");
    } else if (*duration_ps < 0) {
      stats_->Fix("'X' event with a negative \"dur\": imported as an instant");
    } else {
      slice.duration_ps = *duration_ps;
    }
  }
  slice.track = TrackOf(event);
  PrepareSlice(event, &slice);
  LineRef line = StagingLine(slice.track);
  EventRef ref = assembler_->AddEvent(line, slice.name, slice.timestamp_ps, slice.duration_ps, slice.flags);
  if (!slice.display_name.empty()) assembler_->SetDisplayName(ref, slice.display_name);
  AddSliceStats(event, slice, ref);
  if (event.bind_id.present()) HandleFlowV2(event, ref, slice.track, slice.timestamp_ps);
  if (phase == 'B') {
    begin_end_[slice.track].push_back({slice.timestamp_ps, order_++, true, ref, {}});
  } else {
    ++stats_->events_imported;
  }
}

void ChromeTraceParser::HandleEnd(const RawTraceEvent& event) {
  std::optional<int64_t> timestamp_ps = TimestampPs(event);
  if (!timestamp_ps) {
    stats_->Drop(event.ts.present() ? "\"ts\" that is not a number or more than 53 days from the first"
                                    : "event without \"ts\"");
    return;
  }
  BeginEnd end{*timestamp_ps, order_++, false, {}, {}};
  for (const JsonArg& arg : event.args) {
    if (std::optional<PendingStat> stat = ArgAsStat(arg)) end.end_stats.push_back(*stat);
  }
  begin_end_[TrackKey{TrackKind::kThread, current_pid_, current_tid_}].push_back(std::move(end));
}

void ChromeTraceParser::HandleCounter(const RawTraceEvent& event) {
  std::optional<int64_t> timestamp_ps = TimestampPs(event);
  if (!timestamp_ps) {
    stats_->Drop(event.ts.present() ? "\"ts\" that is not a number or more than 53 days from the first"
                                    : "event without \"ts\"");
    return;
  }
  std::vector<std::pair<uint32_t, double>> samples;
  for (const JsonArg& arg : event.args) {
    JsonNumber number = ParseJsonNumber(arg.value.text());
    if (number.kind == JsonNumberKind::kNotANumber || arg.value.kind == JsonKind::kString) continue;
    double value = number.kind == JsonNumberKind::kInt64    ? static_cast<double>(number.int_value)
                   : number.kind == JsonNumberKind::kUint64 ? static_cast<double>(number.uint_value)
                                                            : number.double_value;
    samples.emplace_back(ArgKey(arg), value);
  }
  if (samples.empty()) {
    stats_->Drop("counter ('C') event without numeric args");
    return;
  }
  LineRef line = StagingLine({TrackKind::kCounter, current_pid_, 0});
  EventRef ref = assembler_->AddEvent(line, UnescapeJsonStringLenient(event.name.text(), &name_scratch_),
                                      *timestamp_ps, 0);
  for (const auto& [key, value] : samples) assembler_->AddDouble(ref, key, value);
  ++stats_->events_imported;
}

namespace {

// The value of a canonical unsigned decimal (no sign, no leading zero, at most 19 digits):
// such ids compare equal exactly when their texts do.
std::optional<uint64_t> CanonicalDecimal(std::string_view text) {
  if (text.empty() || text.size() > 19 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

// The category key of flow v2's bind ids: no interned string has it.
constexpr uint32_t kFlowV2Category = UINT32_MAX;

}  // namespace

uint64_t ChromeTraceParser::FlowIdOf(uint32_t category_key, std::string_view id_text) {
  // The flat maps hold 32-bit sequences: past that, new ids take the string map.
  if (const std::optional<uint64_t> number = CanonicalDecimal(id_text)) {
    uint32_t index = flow_category_index_.Find(category_key);
    if (index == 0) {
      numeric_flow_ids_.emplace_back();
      index = static_cast<uint32_t>(numeric_flow_ids_.size());
      flow_category_index_.Insert(category_key, index);
    }
    FlatIdMap& ids = numeric_flow_ids_[index - 1];
    if (const uint32_t sequence = ids.Find(*number)) return kAllocatedFlowIdBase + sequence;
    if (flow_sequence_ < UINT32_MAX - 1) {
      const auto sequence = static_cast<uint32_t>(NextFlowSequence());
      ids.Insert(*number, sequence);
      return kAllocatedFlowIdBase + sequence;
    }
  }
  std::string key = std::to_string(category_key);
  key += '\x1f';
  key += id_text;
  auto [it, inserted] = flow_ids_.try_emplace(std::move(key), 0);
  if (inserted) it->second = NextFlowSequence();
  return kAllocatedFlowIdBase + it->second;
}

std::pair<uint64_t, uint8_t> ChromeTraceParser::FlowIdentity(const RawTraceEvent& event, std::string_view id_text,
                                                              uint32_t category_key) {
  // Flow points are joined by category and id. Not by name: PyTorch's legacy export names
  // the 's' after the op and the 'f' after the kernel.
  return {FlowIdOf(category_key, id_text), 0};
}

void ChromeTraceParser::HandleFlow(const RawTraceEvent& event, char phase) {
  std::optional<int64_t> timestamp_ps = TimestampPs(event);
  if (!timestamp_ps) {
    stats_->Drop(event.ts.present() ? "\"ts\" that is not a number or more than 53 days from the first"
                                    : "event without \"ts\"");
    return;
  }
  std::string_view id_text = event.id.present() ? event.id.text() : event.id2.text();
  if (id_text.empty()) {
    stats_->Drop("flow event without \"id\"");
    return;
  }
  const uint32_t category_key = assembler_->Intern(event.cat.text());
  auto [flow_id, category] = FlowIdentity(event, id_text, category_key);
  PendingFlowPoint point;
  point.timestamp_ps = *timestamp_ps;
  point.flow_id = flow_id;
  point.category = category;
  point.direction = phase == 's' ? FlowDirection::kOut : phase == 't' ? FlowDirection::kInOut : FlowDirection::kIn;
  point.binding = (phase == 'f' && event.bp.text() != "e") ? FlowBinding::kNext : FlowBinding::kEnclosing;
  flow_points_.push_back({current_pid_, current_tid_, category_key, point});
  ++stats_->flow_events;
}

void ChromeTraceParser::HandleFlowV2(const RawTraceEvent& event, EventRef ref, const TrackKey& track,
                                     int64_t timestamp_ps) {
  bool out = event.flow_out.text() == "true";
  bool in = event.flow_in.text() == "true";
  if (!out && !in) return;
  const uint64_t flow_id = FlowIdOf(kFlowV2Category, event.bind_id.text());
  uint64_t direction = in && out ? 3 : out ? 2 : 1;
  uint64_t packed = ((flow_id & ((uint64_t{1} << 56) - 1)) << 2) | direction;
  assembler_->AddUint(ref, assembler_->Intern(xspace::GetStatTypeStr(xspace::StatType::kFlow)), packed);
}

uint32_t ChromeTraceParser::ArgKey(const JsonArg& arg) {
  // A trace has few distinct arg keys, each repeated on most events: a small direct-mapped
  // cache on (length, first and last byte) answers most lookups with one compare.
  std::string_view key = arg.key;
  size_t slot = key.empty() ? 0
                            : (key.size() * 31 + static_cast<unsigned char>(key.front()) * 7 +
                               static_cast<unsigned char>(key.back())) % kArgKeyCacheSize;
  ArgKeyCacheEntry& entry = arg_key_cache_[slot];
  if (entry.id != 0 && base::EqualBytes(assembler_->strings().Get(entry.raw_id), key)) return entry.id;
  uint32_t id = assembler_->Intern(UnescapeJsonStringLenient(key, &scratch_));
  entry.raw_id = assembler_->Intern(key);
  entry.id = id;
  return id;
}

std::optional<PendingStat> ChromeTraceParser::ArgAsStat(const JsonArg& arg) {
  PendingStat stat;
  stat.key_id = ArgKey(arg);
  switch (arg.value.kind) {
    case JsonKind::kNumber:
    case JsonKind::kOther: {
      JsonNumber number = ParseJsonNumber(arg.value.text());
      if (number.kind == JsonNumberKind::kInt64) {
        stat.kind = StatKind::kInt64;
        stat.bits = static_cast<uint64_t>(number.int_value);
        return stat;
      }
      if (number.kind == JsonNumberKind::kUint64) {
        stat.kind = StatKind::kUint64;
        stat.bits = number.uint_value;
        return stat;
      }
      if (number.kind == JsonNumberKind::kDouble) {
        stat.kind = StatKind::kDouble;
        std::memcpy(&stat.bits, &number.double_value, sizeof(stat.bits));
        return stat;
      }
      break;
    }
    case JsonKind::kBool:
      stat.kind = StatKind::kInt64;
      stat.bits = arg.value.text() == "true" ? 1 : 0;
      return stat;
    case JsonKind::kNull:
    case JsonKind::kAbsent:
      return std::nullopt;
    case JsonKind::kString:
      stat.kind = StatKind::kRef;
      stat.bits = assembler_->Intern(UnescapeJsonStringLenient(arg.value.text(), &scratch_));
      return stat;
    default:
      break;
  }
  stat.kind = StatKind::kRef;  // arrays, objects, bare words: their JSON text
  stat.bits = assembler_->Intern(arg.value.text());
  return stat;
}

void ChromeTraceParser::AddArgsAsStats(const RawTraceEvent& event, EventRef ref,
                                       std::initializer_list<std::string_view> skip) {
  for (const JsonArg& arg : event.args) {
    if (std::find(skip.begin(), skip.end(), arg.key) != skip.end()) continue;
    if (std::optional<PendingStat> stat = ArgAsStat(arg)) assembler_->AddStat(ref, stat->key_id, stat->kind, stat->bits);
  }
}

void ChromeTraceParser::AddSliceStats(const RawTraceEvent& event, const Slice& slice, EventRef ref) {
  AddArgsAsStats(event, ref);
}

void ChromeTraceParser::MatchBeginEnd() {
  for (TrackKey track : track_order_) {
    auto it = begin_end_.find(track);
    if (it == begin_end_.end()) continue;
    std::vector<BeginEnd>& records = it->second;
    std::stable_sort(records.begin(), records.end(), [](const BeginEnd& a, const BeginEnd& b) {
      return a.timestamp_ps != b.timestamp_ps ? a.timestamp_ps < b.timestamp_ps : a.order < b.order;
    });
    std::vector<const BeginEnd*> open;
    for (const BeginEnd& record : records) {
      if (record.begin) {
        open.push_back(&record);
        continue;
      }
      if (open.empty()) {
        stats_->Drop("'E' without a matching 'B'");
        continue;
      }
      const BeginEnd& begin = *open.back();
      open.pop_back();
      assembler_->event(begin.event).duration_ps = std::max<int64_t>(0, record.timestamp_ps - begin.timestamp_ps);
      for (const PendingStat& stat : record.end_stats) assembler_->AddStat(begin.event, stat.key_id, stat.kind, stat.bits);
      stats_->events_imported += 2;
    }
    for (const BeginEnd* begin : open) {
      assembler_->event(begin->event).flags |= kEventDropped;
      stats_->Drop("'B' without a matching 'E' (still open at the end of the trace)");
    }
  }
  // E records on tracks that never had events.
  for (const auto& [track, records] : begin_end_) {
    if (staging_lines_.count(track) != 0) continue;
    for (const BeginEnd& record : records) {
      if (!record.begin) stats_->Drop("'E' without a matching 'B'");
    }
  }
}

TrackPlacement ChromeTraceParser::PlaceTrack(const TrackKey& track) {
  TrackPlacement placement;
  placement.plane_name = std::string(xspace::kHostThreadsPlaneName);
  std::string process = std::string(ProcessName(track.pid));
  if (process.empty()) process = "pid " + std::to_string(track.pid);
  switch (track.kind) {
    case TrackKind::kThread: {
      bool shared = tid_shared_.count(track.tid) != 0 && tid_owner_[track.tid] != track.pid;
      // Thread ids are unique on a host; a tid seen in two processes (or string tids of
      // several processes) gets a line id made of both.
      placement.line_id = shared ? (track.pid << 24) ^ track.tid : track.tid;
      std::string name(ThreadName(track.pid, track.tid));
      if (name.empty()) name = "Thread " + std::to_string(track.tid);
      if (std::optional<std::string_view> text = PidString(track.tid)) name = std::string(*text);
      placement.line_name = name;
      if (thread_pids_ > 1) placement.line_display_name = process + " / " + name;
      break;
    }
    case TrackKind::kCounter:
      placement.line_id = xspace::kCounterEventsLineId;
      placement.line_name = std::string(xspace::kCounterEventsLineName);
      break;
    case TrackKind::kProcessInstants:
      placement.line_id = kProcessInstantsLineIdBase - (track.pid & 0xffffffff);
      placement.line_name = process + " instants";
      break;
    case TrackKind::kGlobalInstants:
      placement.line_id = kGlobalInstantsLineId;
      placement.line_name = "Global instants";
      break;
    case TrackKind::kDeviceStream:
    case TrackKind::kDeviceAnnotation:
    case TrackKind::kDeviceInfo:
      placement.plane_name = xspace::GpuPlaneName(static_cast<int>(track.pid));
      placement.plane_id = track.pid;
      placement.line_id = track.tid;
      placement.line_name = "Stream #" + std::to_string(track.tid);
      break;
  }
  return placement;
}

void ChromeTraceParser::SetWallClock(std::optional<int64_t> wall_ns_of_zero_micros) {
  if (!time_base_micros_) return;
  // A hostile or broken file can put the time base past what int64 ns hold (year 2262):
  // then there is no wall clock rather than an overflowed one.
  int64_t base_ns = 0;
  if (__builtin_mul_overflow(*time_base_micros_, int64_t{1000}, &base_ns)) return;
  if (wall_ns_of_zero_micros) {
    int64_t wall_ns = 0;
    if (__builtin_add_overflow(*wall_ns_of_zero_micros, base_ns, &wall_ns)) return;
    assembler_->SetWallClockOfTimeZeroNs(wall_ns);
  } else if (*time_base_micros_ > kEpochMicrosThreshold) {
    assembler_->SetWallClockOfTimeZeroNs(base_ns);
  }
}

void ChromeTraceParser::FinishSpace() {
  SetWallClock(std::nullopt);
  std::string host = HostName();
  assembler_->AddHostname(host);
  if (std::optional<uint32_t> plane = assembler_->FindPlane(xspace::kHostThreadsPlaneName)) {
    assembler_->AddPlaneStr(*plane, xspace::GetStatTypeStr(xspace::StatType::kHostName), host);
  }
}

void ChromeTraceParser::PlaceTracks() {
  std::set<int64_t> pids;
  for (const TrackKey& track : track_order_) {
    if (track.kind != TrackKind::kThread) continue;
    pids.insert(track.pid);
    auto [owner, inserted] = tid_owner_.try_emplace(track.tid, track.pid);
    if (!inserted && owner->second != track.pid) tid_shared_[track.tid] = true;
  }
  thread_pids_ = pids.size();
  for (const TrackKey& track : track_order_) {
    TrackPlacement placement = PlaceTrack(track);
    uint32_t plane = assembler_->GetOrCreatePlane(placement.plane_name, placement.plane_id);
    LineRef line = assembler_->MoveLine(staging_lines_[track], plane, placement.line_id);
    if (!assembler_->LineHasName(line)) assembler_->SetLineName(line, placement.line_name);
    if (!placement.line_display_name.empty()) assembler_->SetLineDisplayName(line, placement.line_display_name);
    if (track.kind == TrackKind::kCounter) assembler_->SetLineNests(line, false);
  }
}

Status ChromeTraceParser::Finish() {
  MatchBeginEnd();
  ResolveEventReferences();
  // Every event is in: a flow point's line depends only on its (pid, tid, category), and
  // points come in runs on a few of those (a thread's launches, the stream they run on),
  // so the last ones resolved answer most without FlowTrack's lookups.
  struct ResolvedFlowTrack {
    int64_t pid = 0, tid = 0;
    uint32_t category = 0;
    const LineRef* line = nullptr;  // null: the track has no slices
    bool valid = false;
  };
  ResolvedFlowTrack resolved[2];
  for (const RawFlowPoint& raw : flow_points_) {
    ResolvedFlowTrack* hit = nullptr;
    for (ResolvedFlowTrack& r : resolved) {
      if (r.valid && r.pid == raw.pid && r.tid == raw.tid && r.category == raw.category) hit = &r;
    }
    if (hit == nullptr) {
      auto it = staging_lines_.find(FlowTrack(raw.pid, raw.tid, assembler_->strings().Get(raw.category)));
      resolved[1] = resolved[0];
      resolved[0] = {raw.pid, raw.tid, raw.category, it == staging_lines_.end() ? nullptr : &it->second, true};
      hit = &resolved[0];
    }
    if (hit->line == nullptr) {
      --stats_->flow_events;
      stats_->Drop("flow point on a thread that has no slices");
      continue;
    }
    assembler_->AddFlowPoint(*hit->line, raw.point);
  }
  PlaceTracks();
  FinishSpace();
  return OkStatus();
}

Status RunChromeTraceImport(ByteSource& source, const ImportOptions& options, ChromeTraceParser& parser,
                            TraceAssembler& assembler, const ImportOutput& output, ImportStats* stats) {
  const int threads = ImportThreads(options);
  TraceJsonReadOptions read_options;
  read_options.window_bytes = options.window_bytes;
  read_options.allow_truncated = options.allow_truncated;
  read_options.tokenize_on_own_thread = threads > 1;
  TraceJsonReadResult read;
  Status status = ReadTraceJson(source, read_options, parser, &read);
  stats->json_bytes = read.json_bytes;
  stats->file_bytes = source.raw_bytes_read();
  if (!status.ok()) return status;
  stats->truncated = read.truncated;
  stats->truncation = read.truncation;
  stats->Fix("bytes that are not UTF-8 replaced with '?'", read.invalid_utf8_bytes);
  stats->Fix("trailing comma before the end of the event array", read.trailing_commas);
  if (read.unclosed_top_level) stats->Fix("the top-level object is not closed after the event array");
  if (read.skipped_top_level_values > 0) {
    assembler.AddWarning("import: skipped " + std::to_string(read.skipped_top_level_values) +
                         " top-level values larger than 16 MB (not event data)");
  }
  STEPSCOPE_RETURN_IF_ERROR(parser.Finish());
  return assembler.Finish(output, threads);
}

}  // namespace stepscope::importers
