#include "bench/import_benchmark/synthetic_kineto_trace.h"

#include <zlib.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <vector>

#include "bench/common/sync_to_disk.h"

namespace stepscope::bench {
namespace {


// Kernel names of realistic length (templated C++ kernels are long).
constexpr const char* kKernels[] = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
    "volta_sgemm_128x64_nn",
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, float*, float*, float*, float, float)",
    "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 4, 64, 64>(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 64, 64>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)",
};
constexpr const char* kOps[][2] = {
    {"aten::linear", "aten::addmm"}, {"aten::conv2d", "aten::cudnn_convolution"},
    {"aten::batch_norm", "aten::cudnn_batch_norm"}, {"aten::add_", "aten::add_"}};

class Writer {
 public:
  explicit Writer(FILE* file) : file_(file) {}
  // Microsecond timestamp with a ns fraction, as Kineto writes it.
  void Ts(const char* key, int64_t ns) {
    std::fprintf(file_, "\"%s\": %" PRId64 ".%03" PRId64, key, ns / 1000, ns % 1000);
  }
  void Begin() {
    std::fputs(first_ ? "\n  {\n    " : ",\n  {\n    ", file_);
    first_ = false;
    ++events_;
  }
  void End() { std::fputs("\n  }", file_); }
  FILE* file() { return file_; }
  uint64_t events() const { return events_; }

 private:
  FILE* file_;
  bool first_ = true;
  uint64_t events_ = 0;
};

}  // namespace

StatusOr<SyntheticTraceInfo> WriteSyntheticKinetoTrace(const std::string& path, uint64_t target_bytes) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "w"), &std::fclose);
  if (!file) return InvalidArgumentError("cannot write " + path);
  FILE* f = file.get();
  std::setvbuf(f, nullptr, _IOFBF, 1 << 20);
  std::fputs(
      "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\n      \"id\": 0, \"name\": \"Tesla V100-SXM2-32GB\", "
      "\"totalGlobalMem\": 34079637504,\n      \"computeMajor\": 7, \"computeMinor\": 0,\n      \"numSms\": 80\n    }\n  ],\n"
      "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 1},\n  \"traceEvents\": [",
      f);
  Writer w(f);
  SyntheticTraceInfo info;
  int64_t t = int64_t{1712195495501688} * 1000 + 523;  // ns
  int64_t gpu_t = t;
  uint64_t correlation = 100000;
  uint64_t external = 1;
  int64_t step_length_ns = 0;
  const int kOpsPerStep = 400;
  uint64_t op = 0;
  while (static_cast<uint64_t>(std::ftell(f)) < target_bytes) {
    // One step: a ProfilerStep annotation around kOpsPerStep ops.
    int64_t step_start = t;
    // Room for every op (at most 53.9 us each) so ops never spill past their step.
    step_length_ns = kOpsPerStep * 54'000 + 10'000;
    w.Begin();
    std::fprintf(f, "\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", \"pid\": 1102, \"tid\": 1102,\n    ", info.steps + 1);
    w.Ts("ts", step_start);
    std::fprintf(f, ", \"dur\": %" PRId64 ".%03" PRId64 ",\n    \"args\": {\n      \"External id\": %" PRIu64 ", \"Ev Idx\": %" PRIu64 "\n    }",
                 step_length_ns / 1000, step_length_ns % 1000, external++, w.events());
    w.End();
    t += 5'000;
    for (int i = 0; i < kOpsPerStep; ++i, ++op) {
      const char* const* names = kOps[op % 4];
      int64_t outer_start = t, outer_dur = 48'000 + static_cast<int64_t>(op % 7) * 311;
      w.Begin();
      std::fprintf(f, "\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 1102, \"tid\": 1102,\n    ", names[0]);
      w.Ts("ts", outer_start);
      std::fprintf(f, ", \"dur\": %" PRId64 ".%03" PRId64 ",\n    \"args\": {\n      \"External id\": %" PRIu64
                      ", \"Sequence number\": %" PRIu64 ", \"Fwd thread id\": 0, \"Ev Idx\": %" PRIu64
                      ", \"Input Dims\": [[32, 1024], [1024, 1024], [1024]], \"Input type\": [\"float\", \"float\", \"float\"]\n    }",
                   outer_dur / 1000, outer_dur % 1000, external++, op, w.events());
      w.End();
      w.Begin();
      std::fprintf(f, "\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 1102, \"tid\": 1102,\n    ", names[1]);
      w.Ts("ts", outer_start + 2'113);
      std::fprintf(f, ", \"dur\": 40.%03d,\n    \"args\": {\n      \"External id\": %" PRIu64 ", \"Ev Idx\": %" PRIu64 "\n    }",
                   static_cast<int>(op % 1000), external++, w.events());
      w.End();
      // The launch, its flow start, the kernel and its flow end.
      int64_t launch = outer_start + 30'457;
      w.Begin();
      std::fputs("\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1102, \"tid\": 1102,\n    ", f);
      w.Ts("ts", launch);
      std::fprintf(f, ", \"dur\": 6.215,\n    \"args\": {\n      \"External id\": %" PRIu64 ", \"cbid\": 211, \"correlation\": %" PRIu64 "\n    }",
                   external - 1, correlation);
      w.End();
      w.Begin();
      std::fprintf(f, "\"ph\": \"s\", \"id\": %" PRIu64 ", \"pid\": 1102, \"tid\": 1102, ", correlation);
      w.Ts("ts", launch);
      std::fputs(",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"", f);
      w.End();
      gpu_t = std::max(gpu_t, launch + 4'000);
      int64_t kernel_dur = 20'000 + static_cast<int64_t>(op % 13) * 977;
      w.Begin();
      std::fprintf(f, "\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7,\n    ", kKernels[op % 4]);
      w.Ts("ts", gpu_t);
      std::fprintf(f, ", \"dur\": %" PRId64 ".%03" PRId64 ",\n    \"args\": {\n      \"External id\": %" PRIu64
                      ",\n      \"queued\": 0, \"device\": 0, \"context\": 1,\n      \"stream\": 7, \"correlation\": %" PRIu64
                      ",\n      \"registers per thread\": %d,\n      \"shared memory\": %d,\n      \"blocks per SM\": 2.5,\n"
                      "      \"warps per SM\": 20.0,\n      \"grid\": [%d, 1, 1],\n      \"block\": [256, 1, 1],\n"
                      "      \"est. achieved occupancy %%\": %d\n    }",
                   kernel_dur / 1000, kernel_dur % 1000, external - 1, correlation, 32 + static_cast<int>(op % 5) * 8,
                   static_cast<int>(op % 3) * 4096, 80 + static_cast<int>(op % 200), 25 + static_cast<int>(op % 50));
      w.End();
      w.Begin();
      std::fprintf(f, "\"ph\": \"f\", \"id\": %" PRIu64 ", \"pid\": 0, \"tid\": 7, ", correlation);
      w.Ts("ts", gpu_t);
      std::fputs(",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"", f);
      w.End();
      gpu_t += kernel_dur + 1'000;
      ++correlation;
      if (op % 50 == 0) {
        w.Begin();
        std::fputs("\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pinned -> Device)\", \"pid\": 0, \"tid\": 7,\n    ", f);
        w.Ts("ts", gpu_t);
        std::fprintf(f, ", \"dur\": 3.104,\n    \"args\": {\n      \"External id\": %" PRIu64 ",\n      \"device\": 0, \"context\": 1,\n"
                        "      \"stream\": 7, \"correlation\": %" PRIu64 ",\n      \"bytes\": 1048576, \"memory bandwidth (GB/s)\": 337.8\n    }",
                     external - 1, correlation++);
        w.End();
        gpu_t += 4'000;
      }
      if (op % 10 == 0) {
        w.Begin();
        std::fputs("\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1102, \"tid\": 1102,\n    ", f);
        w.Ts("ts", outer_start + 45'001);
        std::fprintf(f, ",\n    \"args\": {\n      \"Total Reserved\": 2097152000, \"Total Allocated\": %" PRIu64
                        ", \"Bytes\": %d, \"Addr\": 140234567812096, \"Device Id\": 0, \"Device Type\": 1, \"Ev Idx\": %" PRIu64 "\n    }",
                     uint64_t{1000000000} + op % 1000 * 4096, op % 20 == 0 ? 4096 : -4096, w.events());
        w.End();
      }
      t = outer_start + outer_dur + 4'000;
    }
    t = std::max(t, step_start + step_length_ns + 1'000);
    ++info.steps;
  }
  std::fputs("\n  ],\n  \"traceName\": \"synthetic\",\n  \"displayTimeUnit\": \"ms\"\n}\n", f);
  info.events = w.events();
  info.bytes = static_cast<uint64_t>(std::ftell(f));
  if (std::ferror(f) || !SyncToDisk(f)) return DataLossError("writing " + path + " failed (disk full?)");
  return info;
}

Status GzipFile(const std::string& from, const std::string& to) {
  std::unique_ptr<FILE, int (*)(FILE*)> in(std::fopen(from.c_str(), "rb"), &std::fclose);
  std::unique_ptr<FILE, int (*)(FILE*)> out(std::fopen(to.c_str(), "wb"), &std::fclose);
  if (!in || !out) return InvalidArgumentError("cannot gzip " + from + " to " + to);
  z_stream stream{};
  // 15 + 16: a gzip header.
  if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return InternalError("deflateInit2 failed");
  }
  std::vector<char> input(1 << 20);
  std::vector<char> output(1 << 20);
  int flush = Z_NO_FLUSH;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    if (stream.avail_in == 0 && flush == Z_NO_FLUSH) {
      size_t n = std::fread(input.data(), 1, input.size(), in.get());
      stream.next_in = reinterpret_cast<Bytef*>(input.data());
      stream.avail_in = static_cast<uInt>(n);
      if (n < input.size()) flush = Z_FINISH;
    }
    stream.next_out = reinterpret_cast<Bytef*>(output.data());
    stream.avail_out = static_cast<uInt>(output.size());
    rc = deflate(&stream, flush);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) break;
    size_t produced = output.size() - stream.avail_out;
    if (std::fwrite(output.data(), 1, produced, out.get()) != produced) rc = Z_ERRNO;
    if (rc == Z_ERRNO) break;
  }
  deflateEnd(&stream);
  if (rc == Z_STREAM_END && !SyncToDisk(out.get())) rc = Z_ERRNO;
  if (rc != Z_STREAM_END || std::ferror(in.get())) return DataLossError("gzipping " + from + " failed (disk full?)");
  return OkStatus();
}

}  // namespace stepscope::bench
