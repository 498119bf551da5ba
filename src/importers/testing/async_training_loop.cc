#include "src/importers/testing/async_training_loop.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::importers::testing {
namespace {

constexpr int64_t kPsPerUs = 1'000'000;
constexpr int kHostPid = 4100;
constexpr int kFirstStream = 7;
constexpr int64_t kFirstStepNumber = 10;
// The device falls behind when its cadence is this much slower (per mille): the
// documented margin (docs/model.md "Steps").
constexpr int64_t kDeviceBoundPerMille = 1020;

struct Span {
  int64_t begin = 0;  // µs
  int64_t end = 0;
};

// Union of `spans` (any order) as sorted, disjoint spans.
std::vector<Span> Union(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
  std::vector<Span> out;
  for (const Span& s : spans) {
    if (!out.empty() && s.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, s.end);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

int64_t Length(const std::vector<Span>& disjoint) {
  int64_t total = 0;
  for (const Span& s : disjoint) total += s.end - s.begin;
  return total;
}

// |[begin, end) ∩ union|, `disjoint` sorted.
int64_t Covered(const std::vector<Span>& disjoint, int64_t begin, int64_t end) {
  int64_t total = 0;
  for (const Span& s : disjoint) total += std::max<int64_t>(0, std::min(end, s.end) - std::max(begin, s.begin));
  return total;
}

class TraceWriter {
 public:
  void Host(std::string_view cat, std::string_view name, int64_t ts, int64_t dur, const std::string& args) {
    Add("{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + std::string(name) + "\", \"pid\": " +
        std::to_string(kHostPid) + ", \"tid\": " + std::to_string(kHostPid) + ", \"ts\": " + std::to_string(ts) +
        ", \"dur\": " + std::to_string(dur) + ", \"args\": {" + args + "}}");
  }
  void Kernel(std::string_view name, int stream, int64_t ts, int64_t dur, int64_t correlation) {
    Add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + std::string(name) + "\", \"pid\": 0, \"tid\": " +
        std::to_string(stream) + ", \"ts\": " + std::to_string(ts) + ", \"dur\": " + std::to_string(dur) +
        ", \"args\": {\"device\": 0, \"stream\": " + std::to_string(stream) +
        ", \"correlation\": " + std::to_string(correlation) + "}}");
  }
  void Flow(char phase, int64_t id, int pid, int tid, int64_t ts) {
    Add(std::string("{\"ph\": \"") + phase + "\", \"id\": " + std::to_string(id) + ", \"pid\": " + std::to_string(pid) +
        ", \"tid\": " + std::to_string(tid) + ", \"ts\": " + std::to_string(ts) + ", \"cat\": \"ac2g\", \"name\": " +
        "\"ac2g\"" + (phase == 'f' ? ", \"bp\": \"e\"" : "") + "}");
  }
  std::string Finish() const {
    return "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", "
           "\"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}], \"displayTimeUnit\": \"ms\", "
           "\"traceEvents\": [\n" +
           events_ + "\n]}";
  }

 private:
  void Add(const std::string& event) {
    if (!events_.empty()) events_ += ",\n";
    events_ += event;
  }
  std::string events_;
};

std::string ExternalId(int64_t id) { return "\"External id\": " + std::to_string(id); }

}  // namespace

int64_t AsyncLoopTruth::total_step_ps() const {
  int64_t total = 0;
  for (const AsyncLoopStepTruth& s : steps) total += s.window_end_ps - s.window_begin_ps;
  return total;
}

int64_t AsyncLoopTruth::total_input_ps() const {
  int64_t total = 0;
  for (const AsyncLoopStepTruth& s : steps) total += s.input_ps;
  return total;
}

double AsyncLoopTruth::input_percent() const {
  const int64_t total = total_step_ps();
  return total > 0 ? 100.0 * static_cast<double>(total_input_ps()) / static_cast<double>(total) : 0;
}

AsyncLoop SimulateAsyncLoop(const AsyncLoopConfig& config) {
  AsyncLoop loop;
  loop.config = config;
  TraceWriter trace;
  const int n = config.steps;
  std::vector<int64_t> stream_free(config.streams, 0);
  std::vector<int64_t> host_begin(n), device_end(n, 0);
  std::vector<std::vector<Span>> launched(n);  // each step's kernels
  std::vector<Span> waits(n);                  // each step's DataLoader wait
  int64_t t = config.start_us;
  int64_t next_id = 1, correlation = 5000;
  std::vector<std::pair<int64_t, int64_t>> step_ids;  // external id of each ProfilerStep, written at the end

  for (int i = 0; i < n; ++i) {
    host_begin[i] = t;
    step_ids.emplace_back(next_id++, 0);
    const int64_t wait = config.data_wait_us[i % config.data_wait_us.size()];
    waits[i] = {t, t + wait};
    trace.Host("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", t, wait,
               ExternalId(next_id++));
    t += wait;
    for (int k = 0; k < config.kernels_per_step; ++k) {
      const int64_t op_id = next_id++;
      const int64_t op_begin = t;
      const int64_t launch_begin = t + config.host_gap_us;
      int64_t launch_end = launch_begin + config.launch_us;
      // A full queue: the first launch of step i waits for step i-k's device work.
      if (k == 0 && config.max_steps_ahead > 0 && i >= config.max_steps_ahead) {
        launch_end = std::max(launch_end, device_end[i - config.max_steps_ahead]);
      }
      const int stream = k % config.streams;
      const int64_t kernel_begin = std::max(launch_end, stream_free[stream]);
      const int64_t kernel_end = kernel_begin + config.kernel_us;
      stream_free[stream] = kernel_end;
      device_end[i] = std::max(device_end[i], kernel_end);
      launched[i].push_back({kernel_begin, kernel_end});
      const int64_t op_end = launch_end + config.host_gap_us;
      trace.Host("cpu_op", "aten::mm", op_begin, op_end - op_begin, ExternalId(op_id));
      ++correlation;
      trace.Host("cuda_runtime", "cudaLaunchKernel", launch_begin, launch_end - launch_begin,
                 ExternalId(op_id) + ", \"correlation\": " + std::to_string(correlation));
      trace.Flow('s', correlation, kHostPid, kHostPid, launch_begin);
      trace.Kernel("ampere_sgemm_128x64_nn", kFirstStream + stream, kernel_begin, config.kernel_us, correlation);
      trace.Flow('f', correlation, 0, kFirstStream + stream, kernel_begin);
      t = op_end;
    }
    if (config.max_steps_ahead == 0) {
      // `.item()`: a copy of one value and a wait for the stream.
      const int64_t op_id = next_id++;
      const int64_t sync_begin = t + config.host_gap_us;
      const int64_t sync_end = std::max(sync_begin + 1, device_end[i]);
      ++correlation;
      trace.Host("cpu_op", "aten::item", t, sync_end + config.host_gap_us - t, ExternalId(op_id));
      trace.Host("cuda_runtime", "cudaStreamSynchronize", sync_begin, sync_end - sync_begin,
                 ExternalId(op_id) + ", \"correlation\": " + std::to_string(correlation));
      t = sync_end + config.host_gap_us;
    } else {
      t += config.host_gap_us;  // the optimizer's host side, say
    }
  }
  const int64_t host_end_of_last = t;
  for (int i = 0; i < n; ++i) {
    const int64_t end = i + 1 < n ? host_begin[i + 1] : host_end_of_last;
    trace.Host("user_annotation", "ProfilerStep#" + std::to_string(kFirstStepNumber + i), host_begin[i],
               end - host_begin[i], ExternalId(step_ids[i].first));
  }
  loop.json = trace.Finish();

  // The truth, from the records above.
  AsyncLoopTruth& truth = loop.truth;
  // Host step ends: each is the next step's start, the last one's its own end.
  const int64_t first_host_end = n > 1 ? host_begin[1] : host_end_of_last;
  truth.host_interval_ps = n > 1 ? (host_end_of_last - first_host_end) * kPsPerUs / (n - 1) : 0;
  truth.device_interval_ps = n > 1 ? (device_end[n - 1] - device_end[0]) * kPsPerUs / (n - 1) : 0;
  truth.device_bound = n > 1 && truth.device_interval_ps * 1000 > truth.host_interval_ps * kDeviceBoundPerMille;
  std::vector<Span> all_kernels;
  for (const std::vector<Span>& k : launched) all_kernels.insert(all_kernels.end(), k.begin(), k.end());
  const std::vector<Span> device_busy = Union(all_kernels);
  // Times as the importer gives them: from the trace's first event (the first step's start).
  const int64_t origin_ps = config.start_us * kPsPerUs;
  for (int i = 0; i < n; ++i) {
    AsyncLoopStepTruth s;
    s.step_number = kFirstStepNumber + i;
    s.host_begin_ps = host_begin[i] * kPsPerUs - origin_ps;
    s.host_end_ps = (i + 1 < n ? host_begin[i + 1] : host_end_of_last) * kPsPerUs - origin_ps;
    s.device_end_ps = device_end[i] * kPsPerUs - origin_ps;
    s.device_busy_ps = Length(Union(launched[i])) * kPsPerUs;
    s.device_lag_ps = std::max<int64_t>(0, s.device_end_ps - s.host_end_ps);
    int64_t begin_us, end_us;
    if (truth.device_bound) {
      begin_us = i == 0 ? host_begin[0] : device_end[i - 1];
      end_us = i + 1 < n ? device_end[i] : std::max(device_end[i], host_end_of_last);
    } else {
      begin_us = host_begin[i];
      end_us = i + 1 < n ? host_begin[i + 1] : std::max(host_end_of_last, device_end[i]);
    }
    s.window_begin_ps = begin_us * kPsPerUs - origin_ps;
    s.window_end_ps = end_us * kPsPerUs - origin_ps;
    // Input: the DataLoader waits inside the window while no kernel ran.
    for (const Span& w : waits) {
      const int64_t a = std::max(w.begin, begin_us), b = std::min(w.end, end_us);
      if (b > a) s.input_ps += ((b - a) - Covered(device_busy, a, b)) * kPsPerUs;
    }
    s.device_busy_in_window_ps = Covered(device_busy, begin_us, end_us) * kPsPerUs;
    truth.steps.push_back(s);
  }
  return loop;
}

std::vector<AsyncLoopConfig> AsyncLoopVariants() {
  std::vector<AsyncLoopConfig> v;
  // The host waits for its device work at the end of every step (.item()).
  v.push_back({.name = "synchronous", .max_steps_ahead = 0});
  // The host runs one step ahead: step i's kernels run while the host is in step i+1.
  v.push_back({.name = "one_ahead", .kernel_us = 12, .data_wait_us = {20}, .max_steps_ahead = 1});
  // Three steps ahead, throttled by the full queue once it fills (device-bound steady state).
  v.push_back({.name = "k_ahead_throttled", .steps = 8, .kernel_us = 15, .data_wait_us = {4}, .max_steps_ahead = 3});
  // An unbounded queue on a device slower than the host: the device falls further behind
  // every step, and its cadence is the step time.
  v.push_back({.name = "device_falls_behind", .steps = 6, .kernel_us = 20, .data_wait_us = {3},
               .max_steps_ahead = 1000});
  // DataLoader-bound: long waits, one overlapping the previous step's kernels (which still
  // run when the wait starts) and one after the device went idle.
  v.push_back({.name = "data_loader_bound", .kernel_us = 10, .data_wait_us = {30, 90}, .max_steps_ahead = 2});
  // Launch-bound: launches cost more than the kernels they launch.
  v.push_back({.name = "launch_bound", .kernels_per_step = 8, .kernel_us = 2, .launch_us = 6, .data_wait_us = {2},
               .max_steps_ahead = 2});
  // Two streams: the kernels of one step overlap on the device.
  v.push_back({.name = "two_streams", .streams = 2, .kernels_per_step = 6, .kernel_us = 9, .data_wait_us = {8},
               .max_steps_ahead = 1});
  return v;
}

}  // namespace stepscope::importers::testing
