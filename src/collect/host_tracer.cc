#include "src/collect/host_tracer.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "src/collect/traceme_encoding.h"
#include "src/xspace/schema.h"
#include "src/xspace/xplane_builder.h"

namespace stepscope::collect {
namespace {

using internal::Record;
using internal::RecordKind;

// One decoded event before it is written.
struct RawEvent {
  int64_t start_ns;  // relative to the session start
  int64_t end_ns;
  uint32_t name_index;
  uint32_t args_begin;  // into Decoder::int_args_
  uint32_t args_end;
  uint32_t sequence;  // order of recording (= order of ending on one thread)
};

struct IntArg {
  const xspace::XStatMetadata* metadata;
  int64_t value;  // for a double argument, its bits
  bool is_double = false;
};

// An event name as written: interned metadata plus the stats decoded from its
// "#k=v#" part (decoded once per distinct name, not per event).
struct DecodedName {
  std::string text;  // the full recorded name; decoded views point into it
  const xspace::XEventMetadata* metadata = nullptr;
  std::vector<std::pair<const xspace::XStatMetadata*, std::string>> stats;
  bool is_step = false;      // carries the root marker `_r` in its metadata
  bool is_get_next = false;  // an input fetch (IteratorGetNext...)
};

constexpr std::string_view kRootStatName = "_r";
constexpr std::string_view kGetNextPrefix = "IteratorGetNext";

class Decoder {
 public:
  Decoder(const TickConverter& converter, const SessionTimes& times, uint64_t name_generation,
          xspace::XPlaneBuilder* plane, HostConversionStats* stats)
      : converter_(converter),
        times_(times),
        name_generation_(name_generation),
        plane_(plane),
        stats_(stats) {}

  // Decodes one thread's records into `events` (unsorted).
  void DecodeThread(const DrainedThread& thread, std::vector<RawEvent>* events) {
    std::unordered_map<uint64_t, uint32_t> dynamic_names;  // per-thread id -> name index
    bool last_event_kept = false;
    for (const DrainedRecords::Span& span : thread.records.spans()) {
      const Record* record = span.begin;
      while (record < span.end) {
        const RecordKind kind = internal::RecordKindOf(record->head);
        const uint64_t payload = record->head & internal::kRecordPayloadMask;
        switch (kind) {
          case RecordKind::kStaticEvent:
            last_event_kept = AddEvent(StaticNameIndex(reinterpret_cast<const char*>(payload)),
                                       record->a, record->b, events);
            ++record;
            break;
          case RecordKind::kDynamicEvent: {
            last_event_kept = false;
            if (!IsNameIdOfGeneration(payload, name_generation_)) {
              // Interned before this session started: the scope was opened in an
              // earlier one (or its thread was preempted between interning and its
              // start tick), and the definition went out with that session's records.
              ++stats_->outside_window;
            } else if (auto it = dynamic_names.find(payload); it != dynamic_names.end()) {
              last_event_kept = AddEvent(it->second, record->a, record->b, events);
            } else {
              ++stats_->unresolved_names;  // a definition of this generation must precede it
            }
            ++record;
            break;
          }
          case RecordKind::kNameDefinition: {
            const size_t size = static_cast<size_t>(record->a);
            const size_t count = NameDefinitionRecordCount(size);
            if (size > kMaxDynamicNameBytes || record + count > span.end) {
              ++stats_->malformed_records;
              record = span.end;
              break;
            }
            std::string text(reinterpret_cast<const char*>(record + 1), size);
            dynamic_names[payload] = NameIndexForText(std::move(text));
            record += count;
            break;
          }
          case RecordKind::kInt64Arg:
          case RecordKind::kDoubleArg:
            // Arguments follow their event in the same group; attach them to it.
            if (last_event_kept && !events->empty()) {
              int_args_.push_back({StaticKeyMetadata(reinterpret_cast<const char*>(payload)),
                                   static_cast<int64_t>(record->a), kind == RecordKind::kDoubleArg});
              events->back().args_end = static_cast<uint32_t>(int_args_.size());
            }
            ++record;
            break;
          case RecordKind::kPadding:
            record = span.end;  // the rest of this block is unused
            break;
          default:
            ++stats_->malformed_records;
            record = span.end;
            break;
        }
      }
    }
  }

  void WriteEvents(std::vector<RawEvent>* events, xspace::XLineBuilder* line) {
    // Parents before children: by start, longer first. Ticks rounded to ns can give a
    // scope and its first child the same start and end; a scope is recorded when it
    // ends, after everything nested in it, so the later record is the parent.
    std::sort(events->begin(), events->end(), [](const RawEvent& a, const RawEvent& b) {
      if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
      if (a.end_ns != b.end_ns) return a.end_ns > b.end_ns;
      return a.sequence > b.sequence;
    });
    line->ReserveEvents(static_cast<int>(events->size()));
    bool line_has_steps = false;
    int64_t latest_step_end_ns = -1;  // events are in start order: a fetch is inside a
                                      // step iff some earlier-starting step ends after it
    uint64_t get_next = 0, get_next_outside = 0;
    for (const RawEvent& raw : *events) {
      const DecodedName& name = names_[raw.name_index];
      if (IsStep(raw, name)) {
        line_has_steps = true;
        latest_step_end_ns = std::max(latest_step_end_ns, raw.end_ns);
      } else if (name.is_get_next) {
        ++get_next;
        if (latest_step_end_ns < raw.end_ns) ++get_next_outside;
      }
      xspace::XEventBuilder event = line->AddEvent(*name.metadata);
      event.SetOffsetPs(raw.start_ns * 1000);
      event.SetDurationPs((raw.end_ns - raw.start_ns) * 1000);
      for (const auto& [metadata, value] : name.stats) event.ParseAndAddStatValue(*metadata, value);
      for (uint32_t i = raw.args_begin; i < raw.args_end; ++i) {
        if (int_args_[i].is_double) {
          double value;
          std::memcpy(&value, &int_args_[i].value, sizeof(value));
          event.AddStatValue(*int_args_[i].metadata, value);
        } else {
          event.AddStatValue(*int_args_[i].metadata, int_args_[i].value);
        }
      }
      ++stats_->events;
    }
    if (line_has_steps) {
      stats_->get_next_events += get_next;
      stats_->get_next_outside_step += get_next_outside;
    }
  }

 private:
  bool IsStep(const RawEvent& raw, const DecodedName& name) const {
    if (name.is_step) return true;
    for (uint32_t i = raw.args_begin; i < raw.args_end; ++i) {
      if (int_args_[i].metadata->name() == kRootStatName) return true;
    }
    return false;
  }

  // Appends the event if it lies inside the session window; returns whether it did.
  bool AddEvent(uint32_t name_index, uint64_t start_ticks, uint64_t end_ticks,
                std::vector<RawEvent>* events) {
    int64_t start_ns = converter_.ToMonotonicNs(start_ticks);
    int64_t end_ns = std::max(start_ns, converter_.ToMonotonicNs(end_ticks));
    if (start_ns < static_cast<int64_t>(times_.start_monotonic_ns) ||
        end_ns > static_cast<int64_t>(times_.stop_monotonic_ns)) {
      ++stats_->outside_window;
      return false;
    }
    const int64_t origin = static_cast<int64_t>(times_.start_monotonic_ns);
    uint32_t args = static_cast<uint32_t>(int_args_.size());
    events->push_back({start_ns - origin, end_ns - origin, name_index, args, args,
                       static_cast<uint32_t>(events->size())});
    return true;
  }

  uint32_t StaticNameIndex(const char* name) {
    auto it = static_names_.find(name);
    if (it != static_names_.end()) return it->second;
    uint32_t index = NameIndexForText(std::string(name));
    static_names_.emplace(name, index);
    return index;
  }

  uint32_t NameIndexForText(std::string text) {
    auto it = names_by_text_.find(text);
    if (it != names_by_text_.end()) return it->second;
    DecodedName decoded;
    decoded.text = text;
    DecodedTraceMeName parts = DecodeTraceMeName(decoded.text);
    decoded.metadata = plane_->GetOrCreateEventMetadata(parts.name);
    decoded.is_get_next = parts.name.substr(0, kGetNextPrefix.size()) == kGetNextPrefix;
    for (const TraceMeArg& arg : parts.args) {
      decoded.stats.emplace_back(plane_->GetOrCreateStatMetadata(arg.key), std::string(arg.value));
      decoded.is_step = decoded.is_step || arg.key == kRootStatName;
    }
    uint32_t index = static_cast<uint32_t>(names_.size());
    names_.push_back(std::move(decoded));
    names_by_text_.emplace(std::move(text), index);
    return index;
  }

  const xspace::XStatMetadata* StaticKeyMetadata(const char* key) {
    auto it = static_keys_.find(key);
    if (it != static_keys_.end()) return it->second;
    const xspace::XStatMetadata* metadata = plane_->GetOrCreateStatMetadata(std::string_view(key));
    static_keys_.emplace(key, metadata);
    return metadata;
  }

  const TickConverter& converter_;
  const SessionTimes& times_;
  const uint64_t name_generation_;
  xspace::XPlaneBuilder* plane_;
  HostConversionStats* stats_;
  std::vector<DecodedName> names_;
  std::unordered_map<std::string, uint32_t> names_by_text_;
  std::unordered_map<const char*, uint32_t> static_names_;
  std::unordered_map<const char*, const xspace::XStatMetadata*> static_keys_;
  std::vector<IntArg> int_args_;
};

struct LineInput {
  std::string name;
  std::vector<const DrainedThread*> threads;  // several when an OS tid was reused
};

}  // namespace

HostConversionStats ConvertThreadsToHostPlane(const std::vector<DrainedThread>& threads,
                                              const TickConverter& converter,
                                              const SessionTimes& times, uint64_t name_generation,
                                              xspace::XPlane* plane) {
  HostConversionStats stats;
  xspace::XPlaneBuilder builder(plane);
  Decoder decoder(converter, times, name_generation, &builder, &stats);

  std::map<uint32_t, LineInput> by_tid;
  for (const DrainedThread& thread : threads) {
    stats.dropped_events += thread.dropped_events;
    LineInput& input = by_tid[thread.tid];
    if (!thread.name.empty()) input.name = thread.name;
    input.threads.push_back(&thread);
  }
  // TensorFlow's post-processing sorts host lines by name; ties by thread id.
  std::vector<std::pair<uint32_t, LineInput*>> order;
  for (auto& [tid, input] : by_tid) {
    if (input.name.empty()) input.name = "thread " + std::to_string(tid);
    order.emplace_back(tid, &input);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second->name < b.second->name; });

  std::vector<RawEvent> events;
  for (const auto& [tid, input] : order) {
    events.clear();
    for (const DrainedThread* thread : input->threads) decoder.DecodeThread(*thread, &events);
    if (events.empty()) continue;
    xspace::XLineBuilder line = builder.GetOrCreateLine(tid);
    line.SetName(input->name);
    line.SetTimestampNs(0);
    decoder.WriteEvents(&events, &line);
  }
  return stats;
}

HostTracer::HostTracer(const ProfileOptions& options) : options_(options) {}

Status HostTracer::Start() {
  ThreadRegistry& registry = ThreadRegistry::Get();
  registry.SetMaxBytesPerThread(options_.per_thread_buffer_bytes);
  // Records left from before this session (ends of scopes open at the last stop) must
  // not leak in; the window rule would drop them anyway, but they cost memory.
  registry.DiscardAll();
  // After the discard (see AdvanceGeneration): every name interned under this
  // generation has its definition in the records Stop() drains.
  name_generation_ = registry.AdvanceGeneration();
  return OkStatus();
}

Status HostTracer::Stop() {
  if (stopped_) return FailedPreconditionError("host tracer already stopped");
  stopped_ = true;
  stop_sample_ = SampleTicks();
  drained_ = ThreadRegistry::Get().DrainAll();
  for (const DrainedThread& thread : drained_) dropped_events_ += thread.dropped_events;
  return OkStatus();
}

Status HostTracer::CollectData(const SessionTimes& times, xspace::XSpace* space) {
  if (!stopped_) return FailedPreconditionError("host tracer collected before it was stopped");
  TickConverter converter(FirstTickSample(), stop_sample_, TicksAreTsc());
  xspace::XPlane* plane = xspace::FindOrAddMutablePlaneWithName(space, xspace::kHostThreadsPlaneName);
  HostConversionStats stats =
      ConvertThreadsToHostPlane(drained_, converter, times, name_generation_, plane);
  drained_.clear();  // frees the blocks
  if (stats.dropped_events > 0) {
    space->add_warnings(std::to_string(stats.dropped_events) +
                        " host events were dropped because a thread's buffer was full "
                        "(per_thread_buffer_bytes=" +
                        std::to_string(options_.per_thread_buffer_bytes) +
                        "); record a shorter window or raise the limit");
  }
  if (stats.unresolved_names > 0 || stats.malformed_records > 0) {
    space->add_warnings("host tracer: " + std::to_string(stats.unresolved_names) +
                        " events with unknown names and " +
                        std::to_string(stats.malformed_records) +
                        " malformed records were skipped (a stepscope bug; please report)");
  }
  if (stats.get_next_outside_step > 0) {
    space->add_warnings(std::to_string(stats.get_next_outside_step) + " of " +
                        std::to_string(stats.get_next_events) +
                        " input fetches (IteratorGetNext) happened outside a step marker: "
                        "fetch the batch inside stepscope::Step so the time spent waiting "
                        "for input counts toward the step");
  }
  xspace::XPlaneBuilder builder(plane);
  builder.AddStatValue(xspace::StatType::kDroppedTraces, static_cast<int64_t>(stats.dropped_events));
  return OkStatus();
}

}  // namespace stepscope::collect
