#include "bench/analysis_benchmark/synthetic_xspace.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/sync_to_disk.h"

namespace stepscope::bench {
namespace {

constexpr int64_t kPsPerUs = 1'000'000;
constexpr int64_t kStepPs = 20'000 * kPsPerUs;  // 20 ms steps
constexpr int kOpsPerStep = 300;                // framework ops launched by the training thread
constexpr int kDataEventsPerThread = 100;       // tf.data iterator calls per step per thread
constexpr int kExecutorOpsPerThread = 150;      // ops per step on each executor thread

void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
void PutKey(std::string* out, uint32_t field, uint32_t wire_type) { PutVarint(out, field << 3 | wire_type); }
void PutVarintField(std::string* out, uint32_t field, uint64_t v) {
  PutKey(out, field, 0);
  PutVarint(out, v);
}
void PutBytesField(std::string* out, uint32_t field, const std::string& bytes) {
  PutKey(out, field, 2);
  PutVarint(out, bytes.size());
  out->append(bytes);
}

// One plane being written: interned metadata and the serialized lines.
class PlaneWriter {
 public:
  explicit PlaneWriter(std::string name) : name_(std::move(name)) {}

  uint64_t EventId(const std::string& name) { return Intern(&event_ids_, name); }
  uint64_t StatId(const std::string& name) { return Intern(&stat_ids_, name); }
  void AddPlaneStat(const std::string& name, uint64_t value) {
    std::string stat;
    PutVarintField(&stat, 1, StatId(name));
    PutVarintField(&stat, 3, value);
    PutBytesField(&plane_stats_, 6, stat);
  }

  // Events of one line, appended in begin order.
  struct Stat {
    uint64_t metadata;
    uint32_t field;  // 2 double (bit pattern), 3 uint64, 4 int64, 7 ref
    uint64_t value;
  };
  void BeginLine(int64_t id, const std::string& name) {
    line_.clear();
    PutVarintField(&line_, 1, static_cast<uint64_t>(id));
    PutBytesField(&line_, 2, name);
    PutVarintField(&line_, 3, 0);  // normalized: ps since profile start
  }
  void AddEvent(uint64_t metadata, int64_t offset_ps, int64_t duration_ps, std::initializer_list<Stat> stats) {
    event_.clear();
    PutVarintField(&event_, 1, metadata);
    PutVarintField(&event_, 2, static_cast<uint64_t>(offset_ps));
    PutVarintField(&event_, 3, static_cast<uint64_t>(duration_ps));
    for (const Stat& s : stats) {
      stat_.clear();
      PutVarintField(&stat_, 1, s.metadata);
      if (s.field == 2) {  // double: fixed64, the value holds the bit pattern
        PutKey(&stat_, 2, 1);
        for (int b = 0; b < 8; ++b) stat_.push_back(static_cast<char>(s.value >> (8 * b)));
      } else {
        PutVarintField(&stat_, s.field, s.value);
      }
      PutBytesField(&event_, 4, stat_);
    }
    PutBytesField(&line_, 4, event_);
    ++events_;
  }
  void EndLine() { PutBytesField(&lines_, 3, line_); }

  std::string Serialize() const {
    std::string plane;
    PutVarintField(&plane, 1, 0);
    PutBytesField(&plane, 2, name_);
    plane.append(lines_);
    for (const auto& [name, id] : event_ids_) {
      std::string md, entry;
      PutVarintField(&md, 1, id);
      PutBytesField(&md, 2, name);
      PutVarintField(&entry, 1, id);
      PutBytesField(&entry, 2, md);
      PutBytesField(&plane, 4, entry);
    }
    for (const auto& [name, id] : stat_ids_) {
      std::string md, entry;
      PutVarintField(&md, 1, id);
      PutBytesField(&md, 2, name);
      PutVarintField(&entry, 1, id);
      PutBytesField(&entry, 2, md);
      PutBytesField(&plane, 5, entry);
    }
    plane.append(plane_stats_);
    return plane;
  }
  uint64_t events() const { return events_; }

 private:
  static uint64_t Intern(std::map<std::string, uint64_t>* ids, const std::string& name) {
    auto [it, inserted] = ids->try_emplace(name, ids->size() + 1);
    return it->second;
  }

  std::string name_;
  std::map<std::string, uint64_t> event_ids_, stat_ids_;
  std::string lines_, line_, event_, stat_, plane_stats_;
  uint64_t events_ = 0;
};

int64_t EventsPerStep() {
  int64_t main = 2 + 2 * kOpsPerStep + 2;
  int64_t data = 2 * 2 * kDataEventsPerThread;
  int64_t executors = 2 * 2 * kExecutorOpsPerThread;
  int64_t gpu = kOpsPerStep + 2;
  return main + data + executors + gpu;
}

// Writes the planes and a hostname as one XSpace file; returns its size.
StatusOr<uint64_t> WritePlanes(const std::string& path, const std::vector<PlaneWriter*>& planes,
                               const std::string& host_name = "synthetic-host") {
  std::string head;
  PutBytesField(&head, 4, host_name);
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return InvalidArgumentError(path + ": cannot create");
  uint64_t bytes = 0;
  auto write = [&](const std::string& data) {
    bytes += data.size();
    return std::fwrite(data.data(), 1, data.size(), file) == data.size();
  };
  bool ok = true;
  for (PlaneWriter* plane : planes) {
    std::string framed;
    std::string body = plane->Serialize();
    PutKey(&framed, 1, 2);
    PutVarint(&framed, body.size());
    ok = ok && write(framed) && write(body);
  }
  ok = ok && write(head) && SyncToDisk(file);  // written through before the timed reads
  ok = (std::fclose(file) == 0) && ok;
  if (!ok) return InvalidArgumentError(path + ": write failed");
  return bytes;
}

// Kernels on two compute streams and copies on a copy stream, for the launches of
// WriteSyntheticXSpace's training thread (correlation ids from `corr_base`).
void WriteGpuPlane(PlaneWriter& gpu, int64_t steps, uint64_t corr_base);

// The launches of GPU `g` > 0: a thread of its own whose cudaLaunchKernel / cudaMemcpyAsync
// events carry the correlation ids its kernels do, at the training thread's times.
void WriteLaunchThread(PlaneWriter& host, int g, int64_t steps, uint64_t corr_base) {
  const uint64_t host_corr = host.StatId("correlation_id");
  const uint64_t launch = host.EventId("cudaLaunchKernel"), memcpy_launch = host.EventId("cudaMemcpyAsync");
  host.BeginLine(4000 + g, "launch/" + std::to_string(g));
  for (int64_t s = 0; s < steps; ++s) {
    const int64_t base = s * kStepPs;
    const uint64_t corr = corr_base + static_cast<uint64_t>(s) * (kOpsPerStep + 2);
    host.AddEvent(memcpy_launch, base + 3002 * kPsPerUs, 20 * kPsPerUs, {{host_corr, 3, corr}});
    int64_t t = base + 3100 * kPsPerUs;
    for (int k = 0; k < kOpsPerStep; ++k) {
      host.AddEvent(launch, t + 5 * kPsPerUs, 8 * kPsPerUs, {{host_corr, 3, corr + 1 + k}});
      t += 45 * kPsPerUs;
    }
    host.AddEvent(memcpy_launch, t, 20 * kPsPerUs, {{host_corr, 3, corr + 1 + kOpsPerStep}});
  }
  host.EndLine();
}

}  // namespace

StatusOr<SyntheticProfile> WriteSyntheticXSpace(const std::string& path, uint64_t target_events,
                                                const SyntheticShape& shape) {
  const int gpus = std::max(1, shape.gpus);
  // Events per step grow with the GPUs (their kernels and their launch threads).
  const int64_t per_step = EventsPerStep() + (gpus - 1) * (2 * (kOpsPerStep + 2));
  const int64_t steps = std::max<int64_t>(1, static_cast<int64_t>(target_events) / per_step);
  const int64_t input_wait_us = 3000 + 50 * (shape.host_index % 7);
  PlaneWriter host("/host:CPU");
  host.AddPlaneStat("logical_cores", 16);
  host.AddPlaneStat("process_id", 4242);

  const uint64_t step_num = host.StatId("step_num"), root = host.StatId("_r"), eager = host.StatId("is_eager");
  const uint64_t host_corr = host.StatId("correlation_id");
  const uint64_t train = host.EventId("train"), get_next = host.EventId("IteratorGetNext");
  const uint64_t launch = host.EventId("cudaLaunchKernel"), memcpy_launch = host.EventId("cudaMemcpyAsync");
  std::vector<uint64_t> ops;
  for (int k = 0; k < kOpsPerStep; ++k) {
    static const char* kTypes[] = {"MatMul", "BiasAdd", "Relu", "Conv2D", "Mul"};
    ops.push_back(host.EventId("model/layer_" + std::to_string(k) + "/" + kTypes[k % 5] + ":" + kTypes[k % 5]));
  }
  // Training thread.
  host.BeginLine(1000, "python3");
  for (int64_t s = 0; s < steps; ++s) {
    const int64_t base = s * kStepPs;
    const uint64_t corr = static_cast<uint64_t>(s) * (kOpsPerStep + 2);
    host.AddEvent(train, base, kStepPs - 100 * kPsPerUs, {{step_num, 4, static_cast<uint64_t>(s)}, {root, 4, 1}});
    host.AddEvent(get_next, base + kPsPerUs, input_wait_us * kPsPerUs, {});
    host.AddEvent(memcpy_launch, base + 3002 * kPsPerUs, 20 * kPsPerUs, {{host_corr, 3, corr}});
    int64_t t = base + 3100 * kPsPerUs;
    for (int k = 0; k < kOpsPerStep; ++k) {
      host.AddEvent(ops[k], t, 40 * kPsPerUs, {{eager, 4, 0}});
      host.AddEvent(launch, t + 5 * kPsPerUs, 8 * kPsPerUs, {{host_corr, 3, corr + 1 + k}});
      t += 45 * kPsPerUs;
    }
    host.AddEvent(memcpy_launch, t, 20 * kPsPerUs, {{host_corr, 3, corr + 1 + kOpsPerStep}});
  }
  host.EndLine();
  // tf.data threads: Iterator::...::Map calling the TFRecord source.
  const uint64_t map = host.EventId("Iterator::Prefetch::Batch::Map");
  const uint64_t source = host.EventId("Iterator::Prefetch::Batch::Map::TFRecord");
  for (int thread = 0; thread < 2; ++thread) {
    host.BeginLine(2000 + thread, "tf_data_iterator_resource/" + std::to_string(thread));
    for (int64_t s = 0; s < steps; ++s) {
      int64_t t = s * kStepPs + thread * 50 * kPsPerUs;
      for (int k = 0; k < kDataEventsPerThread; ++k) {
        host.AddEvent(map, t, 150 * kPsPerUs, {});
        host.AddEvent(source, t + 10 * kPsPerUs, 60 * kPsPerUs, {});
        t += 190 * kPsPerUs;
      }
    }
    host.EndLine();
  }
  // Executor threads: nested ops.
  const uint64_t process = host.EventId("ExecutorState::Process");
  for (int thread = 0; thread < 2; ++thread) {
    host.BeginLine(3000 + thread, "tf_Compute/" + std::to_string(thread));
    for (int64_t s = 0; s < steps; ++s) {
      int64_t t = s * kStepPs + 3100 * kPsPerUs + thread * 7 * kPsPerUs;
      for (int k = 0; k < kExecutorOpsPerThread; ++k) {
        host.AddEvent(process, t, 80 * kPsPerUs, {});
        host.AddEvent(ops[(k * 2 + thread) % kOpsPerStep], t + 10 * kPsPerUs, 50 * kPsPerUs, {{eager, 4, 0}});
        t += 95 * kPsPerUs;
      }
    }
    host.EndLine();
  }

  // GPU 0 runs the training thread's launches; each further GPU those of its launch thread.
  std::vector<std::unique_ptr<PlaneWriter>> gpu_planes;
  uint64_t events = 0;
  for (int g = 0; g < gpus; ++g) {
    const uint64_t corr_base = static_cast<uint64_t>(g) * 1'000'000'000ull;
    if (g > 0) WriteLaunchThread(host, g, steps, corr_base);
    auto gpu = std::make_unique<PlaneWriter>("/device:GPU:" + std::to_string(g));
    WriteGpuPlane(*gpu, steps, corr_base);
    events += gpu->events();
    gpu_planes.push_back(std::move(gpu));
  }
  std::vector<PlaneWriter*> planes = {&host};
  for (auto& gpu : gpu_planes) planes.push_back(gpu.get());
  StatusOr<uint64_t> bytes =
      WritePlanes(path, planes, shape.host_index == 0 ? "synthetic-host" : "host" + std::to_string(shape.host_index));
  if (!bytes.ok()) return bytes.status();
  return SyntheticProfile{host.events() + events, *bytes, steps};
}

namespace {

void WriteGpuPlane(PlaneWriter& gpu, int64_t steps, uint64_t corr_base) {
  gpu.AddPlaneStat("clock_rate", 1530000);
  gpu.AddPlaneStat("core_count", 80);
  gpu.AddPlaneStat("memory_bandwidth", 898048000000ull);
  gpu.AddPlaneStat("compute_cap_major", 7);
  const uint64_t corr_stat = gpu.StatId("correlation_id"), details = gpu.StatId("kernel_details");
  const uint64_t tf_op = gpu.StatId("tf_op"), memcpy_details = gpu.StatId("memcpy_details");
  std::vector<uint64_t> kernels, kernel_ops, kernel_details;
  for (int k = 0; k < kOpsPerStep; ++k) {
    static const char* kKernels[] = {"volta_sgemm_128x64_nn", "volta_h884gemm_64x64_nn",
                                     "void Eigen::internal::EigenMetaKernel<Relu>", "implicit_convolve_sgemm",
                                     "void Eigen::internal::EigenMetaKernel<Mul>"};
    static const char* kTypes[] = {"MatMul", "BiasAdd", "Relu", "Conv2D", "Mul"};
    kernels.push_back(gpu.EventId(kKernels[k % 5]));
    kernel_ops.push_back(gpu.StatId("model/layer_" + std::to_string(k) + "/" + kTypes[k % 5] + ":" + kTypes[k % 5]));
    kernel_details.push_back(gpu.StatId("regs:" + std::to_string(32 + k % 4 * 16) +
                                        " static_shared:0 dynamic_shared:" + std::to_string(k % 3 * 1024) +
                                        " grid:" + std::to_string(80 + k % 7) + ",1,1 block:256,1,1 occ_pct:50"));
  }
  const uint64_t h2d = gpu.EventId("MemcpyH2D"), d2h = gpu.EventId("MemcpyD2H");
  const uint64_t h2d_details = gpu.StatId("kind_src:pinned kind_dst:device size:4194304 dest:0 async:1");
  const uint64_t d2h_details = gpu.StatId("kind_src:device kind_dst:pinned size:4096 dest:0 async:1");
  for (int stream = 0; stream < 2; ++stream) {
    gpu.BeginLine(7 + stream, "Stream #" + std::to_string(7 + stream) + "(Compute)");
    for (int64_t s = 0; s < steps; ++s) {
      const uint64_t corr = corr_base + static_cast<uint64_t>(s) * (kOpsPerStep + 2);
      int64_t t = s * kStepPs + 3150 * kPsPerUs;
      for (int k = stream; k < kOpsPerStep; k += 2) {
        gpu.AddEvent(kernels[k], t + k * 45 * kPsPerUs, 35 * kPsPerUs,
                     {{corr_stat, 3, corr + 1 + k}, {details, 7, kernel_details[k]}, {tf_op, 7, kernel_ops[k]}});
      }
    }
    gpu.EndLine();
  }
  gpu.BeginLine(9, "Stream #9(MemcpyH2D,MemcpyD2H)");
  for (int64_t s = 0; s < steps; ++s) {
    const uint64_t corr = corr_base + static_cast<uint64_t>(s) * (kOpsPerStep + 2);
    gpu.AddEvent(h2d, s * kStepPs + 3030 * kPsPerUs, 60 * kPsPerUs, {{corr_stat, 3, corr}, {memcpy_details, 7, h2d_details}});
    gpu.AddEvent(d2h, s * kStepPs + (3150 + 45 * kOpsPerStep) * kPsPerUs, 10 * kPsPerUs,
                 {{corr_stat, 3, corr + 1 + kOpsPerStep}, {memcpy_details, 7, d2h_details}});
  }
  gpu.EndLine();
}

}  // namespace

StatusOr<SyntheticProfile> WriteSyntheticMemoryXSpace(const std::string& path, uint64_t target_events) {
  PlaneWriter host("/host:CPU");
  const uint64_t alloc_event = host.EventId("MemoryAllocation"), free_event = host.EventId("MemoryDeallocation");
  const uint64_t allocator_stat = host.StatId("allocator_name"), reserved = host.StatId("bytes_reserved"),
                 allocated = host.StatId("bytes_allocated"), available = host.StatId("bytes_available"),
                 fragmentation = host.StatId("fragmentation"), peak_stat = host.StatId("peak_bytes_in_use"),
                 requested = host.StatId("requested_bytes"), allocation = host.StatId("allocation_bytes"),
                 addr = host.StatId("addr"), tf_op = host.StatId("tf_op"), group = host.StatId("group_id"),
                 region = host.StatId("region_type"), data_type = host.StatId("data_type"), shape = host.StatId("shape");
  std::vector<uint64_t> ops, shapes;
  for (int k = 0; k < 200; ++k) {
    ops.push_back(host.StatId("model/layer_" + std::to_string(k) + "/MatMul"));
    shapes.push_back(host.StatId("[" + std::to_string(32 + k) + ",1024]"));
  }
  const uint64_t output = host.StatId("output"), temp = host.StatId("temp");
  constexpr int64_t kCapacity = int64_t{16} << 30, kStack = int64_t{64} << 20;
  constexpr int kLiveMax = 512;  // tensors one step holds before it frees them
  uint64_t written = 0;
  int64_t step_count = 0;
  for (int a = 0; a < 2; ++a) {
    const uint64_t allocator = host.StatId("GPU_" + std::to_string(a) + "_bfc");
    host.BeginLine(2000 + a, "tf_Compute");
    int64_t heap = 0, peak = 0, t = 0, step = 0;
    std::vector<std::pair<uint64_t, int64_t>> live;  // (address, bytes)
    uint64_t next_address = uint64_t{1} << 40;
    uint64_t rng = 88172645463325252ull + static_cast<uint64_t>(a);
    auto random = [&] {
      rng ^= rng << 13;
      rng ^= rng >> 7;
      rng ^= rng << 17;
      return rng;
    };
    auto emit = [&](bool is_alloc, uint64_t address, int64_t bytes, uint32_t k) {
      double frag = static_cast<double>(random() % 1000) / 1000.0;
      uint64_t frag_bits;
      std::memcpy(&frag_bits, &frag, sizeof(frag_bits));
      host.AddEvent(is_alloc ? alloc_event : free_event, t, 0,
                    {{allocator_stat, 7, allocator},
                     {reserved, 4, static_cast<uint64_t>(kStack)},
                     {allocated, 4, static_cast<uint64_t>(heap)},
                     {available, 4, static_cast<uint64_t>(kCapacity - kStack - heap)},
                     {fragmentation, 2, frag_bits},
                     {peak_stat, 4, static_cast<uint64_t>(peak)},
                     {requested, 4, static_cast<uint64_t>(bytes - static_cast<int64_t>(k % 64))},
                     {allocation, 4, static_cast<uint64_t>(bytes)},
                     {addr, 3, address},
                     {tf_op, 7, ops[k % ops.size()]},
                     {group, 4, static_cast<uint64_t>(step)},
                     {region, 7, k % 3 == 0 ? temp : output},
                     {data_type, 4, k % 2 == 0 ? 1u : 19u},
                     {shape, 7, shapes[k % shapes.size()]}});
      t += kPsPerUs;  // 1 us apart
      ++written;
    };
    while (written < target_events / 2 * (a + 1)) {
      // A step allocates up to kLiveMax tensors, then frees them all.
      const int n = 1 + static_cast<int>(random() % kLiveMax);
      for (int i = 0; i < n; ++i) {
        const uint32_t k = static_cast<uint32_t>(random());
        const int64_t bytes = 256 * static_cast<int64_t>(1 + random() % 4096);
        heap += bytes;
        peak = std::max(peak, heap);
        live.push_back({next_address, bytes});
        emit(true, next_address, bytes, k);
        next_address += static_cast<uint64_t>(bytes);
      }
      while (!live.empty()) {
        auto [address, bytes] = live.back();
        live.pop_back();
        heap -= bytes;
        emit(false, address, bytes, 0);
      }
      next_address = uint64_t{1} << 40;  // the next step reuses the addresses
      ++step;
    }
    step_count += step;
    host.EndLine();
  }
  StatusOr<uint64_t> bytes = WritePlanes(path, {&host});
  if (!bytes.ok()) return bytes.status();
  return SyntheticProfile{host.events(), *bytes, step_count};
}

}  // namespace stepscope::bench
