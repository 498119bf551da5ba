#include "bench/trace_viewer_benchmark/synthetic_trace.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/common/sync_to_disk.h"

namespace stepscope::bench {
namespace {

constexpr int64_t kPsPerUs = 1'000'000;
constexpr int64_t kStepPs = 50'000 * kPsPerUs;  // 50 ms steps
constexpr int kGpus = 8;
constexpr int kKernelsPerStep = 1500;             // per GPU; launched in threes by one op
constexpr int kOpsPerStep = kKernelsPerStep / 3;
constexpr int64_t kLaunchIntervalPs = kStepPs * 6 / 10 / kKernelsPerStep;  // launches fill 60 % of a step
constexpr int kH2DPerStep = 20, kD2HPerStep = 5, kNcclPerStep = 10;
constexpr int kHostOpsPerPass = 50;   // forward and backward ops on the main thread
constexpr int kAllocationsPerStep = 20;
constexpr int kDataThreads = 4, kDataUnitsPerStep = 50;  // each unit: 6 nested Iterator events
constexpr int kKernelNames = 200, kXlaOpNames = 400, kTfOpNames = 500, kKernelDetails = 50;

// Event metadata ids (per plane).
enum : uint64_t {
  kModuleId = 1, kH2DId, kD2HId, kNcclId,
  kKernelBase = 10, kXlaOpBase = 300, kTfOpBase = 1000, kStepNameBase = 10000,
  kTrainId = 1, kGetNextId, kForwardId, kBackwardId, kAllocId, kLaunchId, kPrefetchId, kBatchId, kMapId, kRecordId,
};
// Stat metadata ids (per plane); kernel_details values are refs to ids kDetailsBase + i.
enum : uint64_t {
  kCorrelationStat = 1, kDetailsStat, kGroupStat, kStepNumStat, kRootStat, kBytesStat, kElementStat,
  kClockStat, kCoresStat, kCapMajorStat, kCapMinorStat, kBandwidthStat, kStartTimeStat, kStopTimeStat,
  kDetailsBase = 100,
};

uint64_t Mix(uint64_t x) {  // splitmix64: deterministic per (line, step) randomness
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
struct Rng {
  uint64_t state;
  uint64_t Next() { return state = Mix(state); }
  int64_t Uniform(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo)); }
};

// Counts bytes (first pass) or writes them through a buffer (second pass).
class Out {
 public:
  explicit Out(FILE* file) : file_(file) {
    if (file_ != nullptr) buffer_.reserve(kBufferBytes);
  }
  void Bytes(const char* p, size_t n) {
    count_ += n;
    if (file_ == nullptr) return;
    buffer_.append(p, n);
    if (buffer_.size() >= kBufferBytes) Flush();
  }
  void Varint(uint64_t v) {
    char b[10];
    size_t n = 0;
    while (v >= 0x80) {
      b[n++] = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    b[n++] = static_cast<char>(v);
    Bytes(b, n);
  }
  void Key(uint32_t field, uint32_t wire_type) { Varint(field << 3 | wire_type); }
  void VarintField(uint32_t field, uint64_t v) {
    Key(field, 0);
    Varint(v);
  }
  void StringField(uint32_t field, std::string_view s) {
    Key(field, 2);
    Varint(s.size());
    Bytes(s.data(), s.size());
  }
  void Flush() {
    if (file_ != nullptr && !buffer_.empty()) {
      ok_ = ok_ && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) == buffer_.size();
      buffer_.clear();
    }
  }
  uint64_t count() const { return count_; }
  bool ok() const { return ok_; }

 private:
  static constexpr size_t kBufferBytes = 1 << 20;
  FILE* file_;
  std::string buffer_;
  uint64_t count_ = 0;
  bool ok_ = true;
};

// One event, encoded into a small stack buffer and emitted as field 4 of its line.
class EventWriter {
 public:
  EventWriter(uint64_t metadata, int64_t start_ps, int64_t duration_ps) {
    Field(1, metadata);
    Field(2, static_cast<uint64_t>(start_ps));
    if (duration_ps != 0) Field(3, static_cast<uint64_t>(duration_ps));
  }
  // A stat: field 3 uint64, 4 int64, 7 ref.
  EventWriter& Stat(uint64_t metadata, uint32_t value_field, uint64_t value) {
    char stat[24];
    size_t n = Put(stat, 0, 1 << 3);
    n = Put(stat, n, metadata);
    n = Put(stat, n, value_field << 3);
    n = Put(stat, n, value);
    used_ = Put(buf_, used_, 4 << 3 | 2);
    used_ = Put(buf_, used_, n);
    std::memcpy(buf_ + used_, stat, n);
    used_ += n;
    return *this;
  }
  void EmitTo(Out& out) {
    out.Key(4, 2);
    out.Varint(used_);
    out.Bytes(buf_, used_);
  }

 private:
  static size_t Put(char* b, size_t n, uint64_t v) {
    while (v >= 0x80) {
      b[n++] = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    b[n++] = static_cast<char>(v);
    return n;
  }
  void Field(uint32_t field, uint64_t v) {
    used_ = Put(buf_, used_, field << 3);
    used_ = Put(buf_, used_, v);
  }
  char buf_[160];
  size_t used_ = 0;
};

struct Kernel {
  int64_t start, duration;
  int index;  // k within the step
};

// Kernel times of one GPU's step: launch k at base + k*L, kernels alternate between the
// two compute streams, each starting after its launch and after the previous kernel.
void SimulateKernels(int gpu, int64_t step, int64_t base, std::vector<Kernel>* kernels) {
  kernels->clear();
  Rng rng{Mix(static_cast<uint64_t>(step) * 131 + static_cast<uint64_t>(gpu) * 7 + 1)};
  int64_t cursor[2] = {base, base};
  for (int k = 0; k < kKernelsPerStep; ++k) {
    uint64_t roll = rng.Next() % 100;
    int64_t us100 = roll < 80 ? rng.Uniform(10, 150) : roll < 98 ? rng.Uniform(150, 400) : rng.Uniform(400, 3000);
    int64_t duration = us100 * kPsPerUs / 10 + rng.Uniform(0, 1000);
    int s = k % 2;
    int64_t ready = base + k * kLaunchIntervalPs + 8 * kPsPerUs;
    int64_t start = std::max(cursor[s] + rng.Uniform(500'000, 3'000'000), ready);
    cursor[s] = start + duration;
    kernels->push_back(Kernel{start, duration, k});
  }
}

uint64_t Correlation(int gpu, int64_t step, int k) {
  return (static_cast<uint64_t>(step) * kGpus + static_cast<uint64_t>(gpu)) * kKernelsPerStep + static_cast<uint64_t>(k) + 1;
}

int64_t GpuBase(int gpu, int64_t step) { return step * kStepPs + gpu * 37 * kPsPerUs; }

enum class LineKind { kSteps, kModules, kTfOps, kXlaOps, kCompute0, kCompute1, kH2D, kD2H, kNccl, kMain, kLaunch, kData };

struct LineSpec {
  int64_t id;
  std::string name;
  LineKind kind;
  int index;  // GPU or thread index
};

struct PlaneSpec {
  int64_t id;
  std::string name;
  std::vector<LineSpec> lines;
  std::vector<std::pair<uint64_t, std::string>> event_metadata, stat_metadata;
  std::vector<std::pair<uint64_t, uint64_t>> uint_stats;  // plane stats (metadata id, value)
};

void EmitEvents(const LineSpec& line, int64_t steps, Out& out) {
  std::vector<Kernel> kernels;
  for (int64_t s = 0; s < steps; ++s) {
    const int g = line.index;
    const int64_t base = GpuBase(g, s);
    Rng rng{Mix(static_cast<uint64_t>(s) * 977 + static_cast<uint64_t>(line.kind) * 31 + static_cast<uint64_t>(g))};
    switch (line.kind) {
      case LineKind::kSteps:
        EventWriter(kStepNameBase + static_cast<uint64_t>(s), base, kStepPs * 9 / 10)
            .Stat(kGroupStat, 4, static_cast<uint64_t>(s)).EmitTo(out);
        break;
      case LineKind::kModules:
        EventWriter(kModuleId, base + 1000 * kPsPerUs, 31'000 * kPsPerUs).EmitTo(out);
        break;
      case LineKind::kTfOps:
      case LineKind::kXlaOps:
      case LineKind::kCompute0:
      case LineKind::kCompute1: {
        SimulateKernels(g, s, base, &kernels);
        if (line.kind == LineKind::kTfOps) {
          for (int j = 0; j < kOpsPerStep; ++j) {
            const Kernel* k = &kernels[3 * static_cast<size_t>(j)];
            int64_t start = std::min({k[0].start, k[1].start, k[2].start});
            int64_t end = std::max({k[0].start + k[0].duration, k[1].start + k[1].duration, k[2].start + k[2].duration});
            EventWriter(kTfOpBase + static_cast<uint64_t>(j % kTfOpNames), start, end - start)
                .Stat(kGroupStat, 4, static_cast<uint64_t>(s)).EmitTo(out);
          }
        } else if (line.kind == LineKind::kXlaOps) {
          std::sort(kernels.begin(), kernels.end(), [](const Kernel& a, const Kernel& b) { return a.start < b.start; });
          for (const Kernel& k : kernels) {
            EventWriter(kXlaOpBase + static_cast<uint64_t>(k.index % kXlaOpNames), k.start, k.duration).EmitTo(out);
          }
        } else {
          int stream = line.kind == LineKind::kCompute0 ? 0 : 1;
          for (const Kernel& k : kernels) {
            if (k.index % 2 != stream) continue;
            EventWriter(kKernelBase + static_cast<uint64_t>((k.index * 7) % kKernelNames), k.start, k.duration)
                .Stat(kCorrelationStat, 3, Correlation(g, s, k.index))
                .Stat(kDetailsStat, 7, kDetailsBase + static_cast<uint64_t>(k.index % kKernelDetails))
                .Stat(kGroupStat, 4, static_cast<uint64_t>(s))
                .EmitTo(out);
          }
        }
        break;
      }
      case LineKind::kH2D:
        for (int i = 0; i < kH2DPerStep; ++i) {
          EventWriter(kH2DId, base + i * 1200 * kPsPerUs, rng.Uniform(100, 200) * kPsPerUs)
              .Stat(kGroupStat, 4, static_cast<uint64_t>(s)).EmitTo(out);
        }
        break;
      case LineKind::kD2H:
        for (int i = 0; i < kD2HPerStep; ++i) {
          EventWriter(kD2HId, base + 40'000 * kPsPerUs + i * 900 * kPsPerUs, rng.Uniform(50, 400) * kPsPerUs)
              .Stat(kGroupStat, 4, static_cast<uint64_t>(s)).EmitTo(out);
        }
        break;
      case LineKind::kNccl:
        for (int i = 0; i < kNcclPerStep; ++i) {
          EventWriter(kNcclId, base + 33'000 * kPsPerUs + i * 1500 * kPsPerUs, rng.Uniform(800, 1200) * kPsPerUs)
              .Stat(kGroupStat, 4, static_cast<uint64_t>(s)).EmitTo(out);
        }
        break;
      case LineKind::kMain: {
        const int64_t t = s * kStepPs;
        EventWriter(kTrainId, t, 48'000 * kPsPerUs)
            .Stat(kStepNumStat, 4, static_cast<uint64_t>(s)).Stat(kRootStat, 4, 1).EmitTo(out);
        EventWriter(kGetNextId, t + 100 * kPsPerUs, 500 * kPsPerUs).EmitTo(out);
        for (int pass = 0; pass < 2; ++pass) {
          int64_t scope = t + (pass == 0 ? 1000 : 17'000) * kPsPerUs;
          EventWriter(pass == 0 ? kForwardId : kBackwardId, scope, 15'000 * kPsPerUs).EmitTo(out);
          for (int j = 0; j < kHostOpsPerPass; ++j) {
            int64_t op = scope + 10 * kPsPerUs + j * 290 * kPsPerUs;
            EventWriter(kTfOpBase + static_cast<uint64_t>((j + pass * kHostOpsPerPass) % kTfOpNames), op, 280 * kPsPerUs)
                .EmitTo(out);
            if (pass == 0 && j < kAllocationsPerStep) {
              EventWriter(kAllocId, op + 5 * kPsPerUs, 0).Stat(kBytesStat, 4, 4096u * static_cast<uint64_t>(j + 1)).EmitTo(out);
            }
          }
        }
        break;
      }
      case LineKind::kLaunch:
        for (int j = 0; j < kOpsPerStep; ++j) {
          int64_t op = base + 3 * j * kLaunchIntervalPs;
          EventWriter(kTfOpBase + static_cast<uint64_t>(j % kTfOpNames), op, 3 * kLaunchIntervalPs - kPsPerUs)
              .Stat(kGroupStat, 4, static_cast<uint64_t>(s)).EmitTo(out);
          for (int k = 3 * j; k < 3 * j + 3; ++k) {
            EventWriter(kLaunchId, base + k * kLaunchIntervalPs + 2 * kPsPerUs, 5 * kPsPerUs)
                .Stat(kCorrelationStat, 3, Correlation(g, s, k)).EmitTo(out);
          }
        }
        break;
      case LineKind::kData:
        for (int u = 0; u < kDataUnitsPerStep; ++u) {
          int64_t t = s * kStepPs + line.index * 250 * kPsPerUs + u * 900 * kPsPerUs;
          EventWriter(kPrefetchId, t, 800 * kPsPerUs).Stat(kElementStat, 4, static_cast<uint64_t>(u)).EmitTo(out);
          EventWriter(kBatchId, t + 10 * kPsPerUs, 700 * kPsPerUs).EmitTo(out);
          for (int m = 0; m < 2; ++m) {
            int64_t map = t + 20 * kPsPerUs + m * 340 * kPsPerUs;
            EventWriter(kMapId, map, 330 * kPsPerUs).EmitTo(out);
            EventWriter(kRecordId, map + 5 * kPsPerUs, rng.Uniform(20, 300) * kPsPerUs).EmitTo(out);
          }
        }
        break;
    }
  }
}

void EmitLine(const LineSpec& line, int64_t steps, uint64_t body_bytes, Out& out) {
  out.Key(3, 2);
  out.Varint(body_bytes);
  out.VarintField(1, static_cast<uint64_t>(line.id));
  out.StringField(2, line.name);
  out.VarintField(3, 0);  // ns since profile start, as saved files hold them
  EmitEvents(line, steps, out);
}

void EmitMetadata(const PlaneSpec& plane, Out& out) {
  for (int map = 0; map < 2; ++map) {
    for (const auto& [id, name] : map == 0 ? plane.event_metadata : plane.stat_metadata) {
      Out sizing(nullptr);
      sizing.VarintField(1, id);
      sizing.StringField(2, name);
      Out entry(nullptr);
      entry.VarintField(1, id);
      entry.Key(2, 2);
      entry.Varint(sizing.count());
      out.Key(map == 0 ? 4 : 5, 2);
      out.Varint(entry.count() + sizing.count());
      out.VarintField(1, id);
      out.Key(2, 2);
      out.Varint(sizing.count());
      out.VarintField(1, id);
      out.StringField(2, name);
    }
  }
  for (const auto& [id, value] : plane.uint_stats) {
    Out sizing(nullptr);
    sizing.VarintField(1, id);
    sizing.VarintField(3, value);
    out.Key(6, 2);
    out.Varint(sizing.count());
    out.VarintField(1, id);
    out.VarintField(3, value);
  }
}

std::vector<PlaneSpec> MakePlanes(int64_t steps) {
  std::vector<PlaneSpec> planes;
  for (int g = 0; g < kGpus; ++g) {
    PlaneSpec gpu;
    gpu.id = g;
    gpu.name = "/device:GPU:" + std::to_string(g);
    const int64_t derived = static_cast<int32_t>(0xdeadbeef);
    gpu.lines = {{derived, "Steps", LineKind::kSteps, g},
                 {derived + 4, "XLA Modules", LineKind::kModules, g},
                 {derived + 3, "TensorFlow Ops", LineKind::kTfOps, g},
                 {derived + 5, "XLA Ops", LineKind::kXlaOps, g},
                 {13, "Stream #13(Compute)", LineKind::kCompute0, g},
                 {14, "Stream #14(Compute)", LineKind::kCompute1, g},
                 {15, "Stream #15(MemcpyH2D)", LineKind::kH2D, g},
                 {16, "Stream #16(MemcpyD2H)", LineKind::kD2H, g},
                 {17, "Stream #17(NCCL)", LineKind::kNccl, g}};
    gpu.event_metadata = {{kModuleId, "cluster_0__XlaCompiledKernel_true__XlaNumConstantArgs_0"},
                          {kH2DId, "MemcpyH2D"}, {kD2HId, "MemcpyD2H"}, {kNcclId, "ncclAllReduceRingLLKernel_sum_f32"}};
    static const char* kKernelKinds[] = {"volta_sgemm_128x64_nn", "volta_h884gemm_64x64_ldg8_nn",
                                         "void Eigen::internal::EigenMetaKernel<ReluOp>",
                                         "implicit_convolve_sgemm", "void splitKreduce_kernel<float>"};
    for (int i = 0; i < kKernelNames; ++i) {
      gpu.event_metadata.emplace_back(kKernelBase + i, std::string(kKernelKinds[i % 5]) + "_v" + std::to_string(i));
    }
    for (int i = 0; i < kXlaOpNames; ++i) gpu.event_metadata.emplace_back(kXlaOpBase + i, "fusion." + std::to_string(i));
    for (int i = 0; i < kTfOpNames; ++i) {
      gpu.event_metadata.emplace_back(kTfOpBase + i, "model/layer_" + std::to_string(i) + "/MatMul:MatMul");
    }
    for (int64_t s = 0; s < steps; ++s) gpu.event_metadata.emplace_back(kStepNameBase + s, std::to_string(s));
    gpu.stat_metadata = {{kCorrelationStat, "correlation_id"}, {kDetailsStat, "kernel_details"},
                         {kGroupStat, "group_id"}, {kClockStat, "clock_rate"}, {kCoresStat, "core_count"},
                         {kCapMajorStat, "compute_cap_major"}, {kCapMinorStat, "compute_cap_minor"},
                         {kBandwidthStat, "memory_bandwidth"}};
    for (int i = 0; i < kKernelDetails; ++i) {
      gpu.stat_metadata.emplace_back(kDetailsBase + i, "regs:" + std::to_string(32 + i % 64) +
                                                           " static_shared:0 dynamic_shared:" + std::to_string(i * 256) +
                                                           " grid:" + std::to_string(80 * (1 + i % 8)) +
                                                           ",1,1 block:256,1,1 occ_pct:50");
    }
    gpu.uint_stats = {{kClockStat, 1530000}, {kCoresStat, 80}, {kCapMajorStat, 7}, {kCapMinorStat, 0},
                      {kBandwidthStat, 898048000000ull}};
    planes.push_back(std::move(gpu));
  }
  PlaneSpec host;
  host.id = 0;
  host.name = "/host:CPU";
  host.lines.push_back({1000, "python3", LineKind::kMain, 0});
  for (int g = 0; g < kGpus; ++g) {
    host.lines.push_back({2000 + g, "tf_gpu_private_" + std::to_string(g) + "/" + std::to_string(2000 + g),
                          LineKind::kLaunch, g});
  }
  for (int d = 0; d < kDataThreads; ++d) {
    host.lines.push_back({3000 + d, "tf_data_iterator_resource/" + std::to_string(3000 + d), LineKind::kData, d});
  }
  host.event_metadata = {{kTrainId, "train"}, {kGetNextId, "IteratorGetNext"}, {kForwardId, "model/forward"},
                         {kBackwardId, "model/backward"}, {kAllocId, "MemoryAllocation"}, {kLaunchId, "cudaLaunchKernel"},
                         {kPrefetchId, "Iterator::Prefetch"}, {kBatchId, "Iterator::Prefetch::Batch"},
                         {kMapId, "Iterator::Prefetch::Batch::Map"},
                         {kRecordId, "Iterator::Prefetch::Batch::Map::TFRecord"}};
  for (int i = 0; i < kTfOpNames; ++i) {
    host.event_metadata.emplace_back(kTfOpBase + i, "model/layer_" + std::to_string(i) + "/MatMul:MatMul");
  }
  host.stat_metadata = {{kCorrelationStat, "correlation_id"}, {kGroupStat, "group_id"}, {kStepNumStat, "step_num"},
                        {kRootStat, "_r"}, {kBytesStat, "bytes_allocated"}, {kElementStat, "element_id"}};
  planes.push_back(std::move(host));
  PlaneSpec env;
  env.id = kGpus + 1;
  env.name = "Task Environment";
  env.stat_metadata = {{kStartTimeStat, "profile_start_time"}, {kStopTimeStat, "profile_stop_time"}};
  const uint64_t start_ns = 1'760'000'000'000'000'000ull;
  env.uint_stats = {{kStartTimeStat, start_ns}, {kStopTimeStat, start_ns + static_cast<uint64_t>(steps * kStepPs / 1000)}};
  planes.push_back(std::move(env));
  return planes;
}

}  // namespace

uint64_t SyntheticEventsPerStep() {
  uint64_t gpu = 1 + 1 + kOpsPerStep + 2 * kKernelsPerStep + kH2DPerStep + kD2HPerStep + kNcclPerStep;
  uint64_t main = 2 + 2 * (1 + kHostOpsPerPass) + kAllocationsPerStep;
  uint64_t launch = kOpsPerStep + kKernelsPerStep;
  uint64_t data = kDataUnitsPerStep * 6;
  return kGpus * (gpu + launch) + main + kDataThreads * data;
}

StatusOr<SyntheticTraceInfo> WriteSyntheticTrace(const std::string& path, uint64_t target_events) {
  SyntheticTraceInfo info;
  info.steps = std::max<int64_t>(1, static_cast<int64_t>(target_events / SyntheticEventsPerStep()));
  info.events = static_cast<uint64_t>(info.steps) * SyntheticEventsPerStep();
  info.duration_ps = info.steps * kStepPs;
  const std::vector<PlaneSpec> planes = MakePlanes(info.steps);
  // Pass 1: the length of every line and plane.
  std::vector<std::vector<uint64_t>> line_bytes(planes.size());
  std::vector<uint64_t> plane_bytes(planes.size());
  for (size_t p = 0; p < planes.size(); ++p) {
    Out plane(nullptr);
    plane.VarintField(1, static_cast<uint64_t>(planes[p].id));
    plane.StringField(2, planes[p].name);
    for (const LineSpec& line : planes[p].lines) {
      Out body(nullptr);
      body.VarintField(1, static_cast<uint64_t>(line.id));
      body.StringField(2, line.name);
      body.VarintField(3, 0);
      EmitEvents(line, info.steps, body);
      line_bytes[p].push_back(body.count());
      // The line's key and length prefix here, its body (already counted) added below.
      plane.Key(3, 2);
      plane.Varint(body.count());
      plane_bytes[p] += body.count();
    }
    EmitMetadata(planes[p], plane);
    plane_bytes[p] += plane.count();
  }
  // Pass 2: write.
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (file == nullptr) return InvalidArgumentError(path + ": cannot create: " + std::strerror(errno));
  Out out(file.get());
  for (size_t p = 0; p < planes.size(); ++p) {
    out.Key(1, 2);
    out.Varint(plane_bytes[p]);
    out.VarintField(1, static_cast<uint64_t>(planes[p].id));
    out.StringField(2, planes[p].name);
    for (size_t l = 0; l < planes[p].lines.size(); ++l) EmitLine(planes[p].lines[l], info.steps, line_bytes[p][l], out);
    EmitMetadata(planes[p], out);
  }
  out.StringField(4, "synthetic-trainer");  // XSpace.hostnames
  out.Flush();
  // Synced: written through before the timed index build reads it.
  if (!out.ok() || !SyncToDisk(file.get())) return InternalError(path + ": write failed: " + std::strerror(errno));
  info.file_bytes = out.count();
  return info;
}

}  // namespace stepscope::bench
