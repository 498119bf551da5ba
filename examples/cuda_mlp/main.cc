// cuda_mlp: a small GPU training loop for stepscope's CUPTI tracer (docs/gpu.md).
//
// Each step: a host input stage makes a batch (random features, a fixed linear target)
// in page-locked memory, copies it to the GPU (H2D on its own stream), then trains a
// two-layer MLP with cuBLAS GEMMs: fp32 (cublasSgemm) or, with --fp16, fp16 inputs with
// fp32 accumulation (cublasGemmEx, Tensor Cores), and element-wise kernels (ReLU, MSE
// gradient, SGD). The loss is read back (D2H) every --log_every steps; every step ends
// with a stream synchronisation, as a framework's loss.item() would.
//
//   cuda_mlp --steps 50 --logdir /tmp/logdir [--fp16] [--profile_steps 10,40]
//
// Without a GPU (or driver) it says so on one line and exits with 4 (unavailable).
// Output ends with: cuda_mlp: steps=N mean_step_ms=... mean_input_ms=... fp16=0|1
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "examples/cuda_mlp/kernels.h"
#include "src/cli/flags.h"
#include "stepscope/stepscope.h"

namespace cuda_mlp {
namespace {

constexpr int kExitFailure = 1;
constexpr int kExitBadFlags = 2;
constexpr int kExitUnavailable = 4;

struct Flags {
  int steps = 50;
  int batch_size = 256;
  int input_dim = 1024;
  int hidden_units = 4096;
  int output_dim = 64;
  float learning_rate = 1e-3f;
  int log_every = 10;
  int64_t seed = 1;
  bool fp16 = false;
  std::string logdir;
  int64_t profile_first_step = -1;
  int64_t profile_last_step = -1;
  int host_tracer_level = 2;
  int device_tracer_level = 1;
};

stepscope::Status ParseStepRange(const std::string& value, Flags* flags) {
  const size_t comma = value.find(',');
  int64_t first = 0, last = 0;
  if (comma == std::string::npos ||
      !stepscope::cli::ParseIntFlag("profile_steps", std::string_view(value).substr(0, comma), 0, 1 << 30, &first).ok() ||
      !stepscope::cli::ParseIntFlag("profile_steps", std::string_view(value).substr(comma + 1), 0, 1 << 30, &last).ok() ||
      first > last) {
    return stepscope::cli::BadFlagValue("profile_steps", value, "FIRST,LAST with 0 <= FIRST <= LAST (e.g. 10,40)");
  }
  flags->profile_first_step = first;
  flags->profile_last_step = last;
  return stepscope::OkStatus();
}

stepscope::StatusOr<Flags> ParseFlags(int argc, char** argv, bool* help, std::string* usage) {
  Flags flags;
  stepscope::cli::FlagSet set;
  set.StartSection("Training");
  set.AddInt("steps", &flags.steps, "training steps", 1, 100000000);
  set.AddInt("batch_size", &flags.batch_size, "examples per step", 1, 65536);
  set.AddInt("input_dim", &flags.input_dim, "features per example", 1, 65536);
  set.AddInt("hidden_units", &flags.hidden_units, "hidden layer width", 1, 65536);
  set.AddInt("output_dim", &flags.output_dim, "regression targets per example", 1, 65536);
  set.AddCustom("learning_rate", "X", "SGD learning rate", "0.001", [&flags](const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !(value > 0 && value <= 10)) {
      return stepscope::cli::BadFlagValue("learning_rate", text, "a number in (0, 10]");
    }
    flags.learning_rate = static_cast<float>(value);
    return stepscope::OkStatus();
  });
  set.AddInt("log_every", &flags.log_every, "read the loss back and print it every N steps, 0 = never", 0, 100000000);
  set.AddInt("seed", &flags.seed, "data and initialisation seed", 0, 1LL << 62);
  set.AddBool("fp16", &flags.fp16, "GEMMs on fp16 inputs with fp32 accumulation (Tensor Cores)");
  set.StartSection("Profiling");
  set.AddString("logdir", &flags.logdir, "profile into DIR/plugins/profile/<run>/<host>.xplane.pb");
  set.AddCustom("profile_steps", "A,B", "record only steps A..B (0-based, inclusive); default: every step", "",
                [&flags](const std::string& text) { return ParseStepRange(text, &flags); });
  set.AddInt("host_tracer_level", &flags.host_tracer_level, "0 off, 1 user annotations, 2 +info, 3 +verbose", 0, 3);
  set.AddInt("device_tracer_level", &flags.device_tracer_level, "0 off, 1 CUPTI kernels, copies and launches", 0, 2);
  std::vector<std::string> args(argv + 1, argv + argc), positional;
  stepscope::Status parsed = set.Parse(args, &positional);
  *usage = set.Usage();
  *help = set.help_requested();
  if (!parsed.ok()) return parsed;
  if (!positional.empty()) return stepscope::InvalidArgumentError("unexpected argument '" + positional[0] + "'");
  if (flags.profile_last_step >= flags.steps) {
    return stepscope::InvalidArgumentError("--profile_steps ends after the last step (--steps " +
                                           std::to_string(flags.steps) + ")");
  }
  if (flags.profile_first_step >= 0 && flags.logdir.empty()) {
    return stepscope::InvalidArgumentError("--profile_steps needs --logdir (where to write the profile)");
  }
  return flags;
}

#define CHECK_CUDA(call)                                                                        \
  do {                                                                                         \
    cudaError_t error_ = (call);                                                               \
    if (error_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "cuda_mlp: %s failed: %s\n", #call, cudaGetErrorString(error_));    \
      return kExitFailure;                                                                     \
    }                                                                                          \
  } while (0)
#define CHECK_CUBLAS(call)                                                                     \
  do {                                                                                         \
    cublasStatus_t status_ = (call);                                                           \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                                    \
      std::fprintf(stderr, "cuda_mlp: %s failed: cuBLAS status %d\n", #call, (int)status_);     \
      return kExitFailure;                                                                     \
    }                                                                                          \
  } while (0)

// Device buffers of the model and one batch (column-major, one column per example).
struct Buffers {
  float *x, *t, *w1, *w2, *h_pre, *h, *y, *dy, *dh, *dw1, *dw2, *loss;
  void* half_a;  // fp16 copies of a GEMM's operands (--fp16)
  void* half_b;
};

class Trainer {
 public:
  explicit Trainer(const Flags& flags) : f_(flags), rng_(static_cast<uint64_t>(flags.seed)) {}

  int Init() {
    const size_t in = f_.input_dim, hid = f_.hidden_units, out = f_.output_dim, b = f_.batch_size;
    CHECK_CUDA(cudaStreamCreateWithFlags(&compute_, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&copy_, cudaStreamNonBlocking));
    CHECK_CUDA(cudaEventCreateWithFlags(&copied_, cudaEventDisableTiming));
    CHECK_CUBLAS(cublasCreate(&cublas_));
    CHECK_CUBLAS(cublasSetStream(cublas_, compute_));
    float** floats[] = {&d_.x, &d_.t, &d_.w1, &d_.w2, &d_.h_pre, &d_.h, &d_.y, &d_.dy, &d_.dh, &d_.dw1, &d_.dw2};
    const size_t sizes[] = {in * b, out * b, hid * in, out * hid, hid * b, hid * b, out * b, out * b, hid * b,
                            hid * in, out * hid};
    for (size_t i = 0; i < std::size(sizes); ++i) CHECK_CUDA(cudaMalloc(floats[i], sizes[i] * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_.loss, sizeof(float)));
    const size_t largest = std::max({hid * in, hid * b, in * b, out * hid, out * b});
    CHECK_CUDA(cudaMalloc(&d_.half_a, largest * 2));
    CHECK_CUDA(cudaMalloc(&d_.half_b, largest * 2));
    CHECK_CUDA(cudaMallocHost(&host_x_, in * b * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&host_t_, out * b * sizeof(float)));
    CHECK_CUDA(cudaMallocHost(&host_loss_, sizeof(float)));
    // Weights: small random values; the target is a fixed random linear map of x.
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> w1(hid * in), w2(out * hid);
    for (float& w : w1) w = normal(rng_) / std::sqrt(static_cast<float>(in));
    for (float& w : w2) w = normal(rng_) / std::sqrt(static_cast<float>(hid));
    target_map_.resize(out * in);
    for (float& w : target_map_) w = normal(rng_) / std::sqrt(static_cast<float>(in));
    CHECK_CUDA(cudaMemcpy(d_.w1, w1.data(), w1.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_.w2, w2.data(), w2.size() * sizeof(float), cudaMemcpyHostToDevice));
    return 0;
  }

  // One step; returns 0 or an exit code. Sets *input_ms to the host input stage's time.
  int Step(int64_t step, double* input_ms) {
    stepscope::Step marker("train", step);
    const auto input_begin = std::chrono::steady_clock::now();
    MakeBatch();
    *input_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - input_begin).count();
    {
      STEPSCOPE_ANNOTATE("copy_batch_to_gpu");
      const size_t in = f_.input_dim, out = f_.output_dim, b = f_.batch_size;
      CHECK_CUDA(cudaMemcpyAsync(d_.x, host_x_, in * b * sizeof(float), cudaMemcpyHostToDevice, copy_));
      CHECK_CUDA(cudaMemcpyAsync(d_.t, host_t_, out * b * sizeof(float), cudaMemcpyHostToDevice, copy_));
      CHECK_CUDA(cudaEventRecord(copied_, copy_));
      CHECK_CUDA(cudaStreamWaitEvent(compute_, copied_, 0));
    }
    if (int rc = Forward(); rc != 0) return rc;
    if (int rc = Backward(); rc != 0) return rc;
    {
      STEPSCOPE_ANNOTATE("sgd_update");
      Sgd(d_.w1, d_.dw1, f_.learning_rate, f_.hidden_units * f_.input_dim, compute_);
      Sgd(d_.w2, d_.dw2, f_.learning_rate, f_.output_dim * f_.hidden_units, compute_);
    }
    if (f_.log_every > 0 && step % f_.log_every == 0) {
      STEPSCOPE_ANNOTATE("read_loss");
      CHECK_CUDA(cudaMemcpyAsync(host_loss_, d_.loss, sizeof(float), cudaMemcpyDeviceToHost, compute_));
      CHECK_CUDA(cudaStreamSynchronize(compute_));
      std::printf("step %lld loss %.5f\n", static_cast<long long>(step), *host_loss_);
    }
    STEPSCOPE_ANNOTATE("wait_for_gpu");
    CHECK_CUDA(cudaStreamSynchronize(compute_));
    return 0;
  }

 private:
  // The host input stage: features drawn on the CPU, targets computed from them. The
  // training loop waits for it, so it is marked as waiting for input (ScopedGetNext, the
  // IteratorGetNext of TensorFlow's rules): the analysis counts it as input time.
  void MakeBatch() {
    stepscope::ScopedGetNext get_next;
    const int in = f_.input_dim, out = f_.output_dim, b = f_.batch_size;
    {
      STEPSCOPE_ANNOTATE("make_features");
      std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
      for (int i = 0; i < in * b; ++i) host_x_[i] = uniform(rng_);
    }
    STEPSCOPE_ANNOTATE("make_targets");
    for (int e = 0; e < b; ++e) {
      for (int o = 0; o < out; ++o) {
        float sum = 0.0f;
        for (int i = 0; i < in; ++i) sum += target_map_[static_cast<size_t>(o) * in + i] * host_x_[static_cast<size_t>(e) * in + i];
        host_t_[static_cast<size_t>(e) * out + o] = sum;
      }
    }
  }

  // C[m x n] = op(A) op(B), column-major; fp32 or (--fp16) fp16 operands, fp32 result.
  int Gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const float* a, int lda, size_t a_size,
           const float* b, int ldb, size_t b_size, float* c, int ldc) {
    const float alpha = 1.0f, beta = 0.0f;
    if (!f_.fp16) {
      CHECK_CUBLAS(cublasSgemm(cublas_, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc));
      return 0;
    }
    ToHalf(a, d_.half_a, static_cast<int>(a_size), compute_);
    ToHalf(b, d_.half_b, static_cast<int>(b_size), compute_);
    CHECK_CUBLAS(cublasGemmEx(cublas_, ta, tb, m, n, k, &alpha, d_.half_a, CUDA_R_16F, lda, d_.half_b, CUDA_R_16F, ldb,
                              &beta, c, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return 0;
  }

  int Forward() {
    STEPSCOPE_ANNOTATE("forward");
    const int in = f_.input_dim, hid = f_.hidden_units, out = f_.output_dim, b = f_.batch_size;
    {
      STEPSCOPE_ANNOTATE("dense1");
      if (int rc = Gemm(CUBLAS_OP_N, CUBLAS_OP_N, hid, b, in, d_.w1, hid, size_t(hid) * in, d_.x, in, size_t(in) * b,
                        d_.h_pre, hid); rc != 0) return rc;
      Relu(d_.h_pre, d_.h, hid * b, compute_);
    }
    STEPSCOPE_ANNOTATE("dense2");
    if (int rc = Gemm(CUBLAS_OP_N, CUBLAS_OP_N, out, b, hid, d_.w2, out, size_t(out) * hid, d_.h, hid,
                      size_t(hid) * b, d_.y, out); rc != 0) return rc;
    MseGrad(d_.y, d_.t, d_.dy, d_.loss, out * b, b, compute_);
    return 0;
  }

  int Backward() {
    STEPSCOPE_ANNOTATE("backward");
    const int in = f_.input_dim, hid = f_.hidden_units, out = f_.output_dim, b = f_.batch_size;
    // dW2 = dY H^T, dH = W2^T dY, dH *= relu'(H_pre), dW1 = dH X^T
    if (int rc = Gemm(CUBLAS_OP_N, CUBLAS_OP_T, out, hid, b, d_.dy, out, size_t(out) * b, d_.h, hid,
                      size_t(hid) * b, d_.dw2, out); rc != 0) return rc;
    if (int rc = Gemm(CUBLAS_OP_T, CUBLAS_OP_N, hid, b, out, d_.w2, out, size_t(out) * hid, d_.dy, out,
                      size_t(out) * b, d_.dh, hid); rc != 0) return rc;
    ReluBackward(d_.h_pre, d_.dh, hid * b, compute_);
    return Gemm(CUBLAS_OP_N, CUBLAS_OP_T, hid, in, b, d_.dh, hid, size_t(hid) * b, d_.x, in, size_t(in) * b,
                d_.dw1, hid);
  }

  const Flags f_;
  std::mt19937_64 rng_;
  std::vector<float> target_map_;
  cudaStream_t compute_ = nullptr, copy_ = nullptr;
  cudaEvent_t copied_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  Buffers d_{};
  float* host_x_ = nullptr;
  float* host_t_ = nullptr;
  float* host_loss_ = nullptr;
};

int Run(int argc, char** argv) {
  bool help = false;
  std::string usage;
  stepscope::StatusOr<Flags> parsed = ParseFlags(argc, argv, &help, &usage);
  if (help) {
    std::printf("usage: cuda_mlp [flags]\n%s", usage.c_str());
    return 0;
  }
  if (!parsed.ok()) {
    std::fprintf(stderr, "cuda_mlp: %s\n", parsed.status().ToString().c_str());
    return kExitBadFlags;
  }
  const Flags& flags = *parsed;
  int devices = 0;
  cudaError_t error = cudaGetDeviceCount(&devices);
  if (error != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "cuda_mlp: no CUDA GPU available (%s): nothing to train on\n",
                 error == cudaSuccess ? "no device visible" : cudaGetErrorString(error));
    return kExitUnavailable;
  }
  Trainer trainer(flags);
  if (int rc = trainer.Init(); rc != 0) return rc;

  stepscope::ProfileOptions options;
  options.host_tracer_level = flags.host_tracer_level;
  options.device_tracer_level = flags.device_tracer_level;
  if (!flags.logdir.empty()) {
    stepscope::Status started = flags.profile_first_step >= 0
                                    ? stepscope::ProfileStepRange(flags.logdir, flags.profile_first_step,
                                                                  flags.profile_last_step, options)
                                    : stepscope::StartProfiling(flags.logdir, options);
    if (!started.ok()) std::fprintf(stderr, "cuda_mlp: profiling off: %s\n", started.ToString().c_str());
  }
  double step_ms_sum = 0, input_ms_sum = 0;
  int64_t measured = 0;
  for (int64_t step = 0; step < flags.steps; ++step) {
    const auto begin = std::chrono::steady_clock::now();
    double input_ms = 0;
    if (int rc = trainer.Step(step, &input_ms); rc != 0) return rc;
    const double step_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    const bool in_range = flags.profile_first_step < 0 ||
                          (step >= flags.profile_first_step && step <= flags.profile_last_step);
    if (in_range) {
      step_ms_sum += step_ms;
      input_ms_sum += input_ms;
      ++measured;
    }
  }
  if (stepscope::IsProfiling()) stepscope::StopProfiling().IgnoreError();
  std::vector<std::string> paths;
  stepscope::Status flushed = stepscope::FlushProfiles(&paths);
  if (!flushed.ok()) std::fprintf(stderr, "cuda_mlp: writing the profile failed: %s\n", flushed.ToString().c_str());
  for (const std::string& path : paths) std::printf("cuda_mlp: profile written to %s\n", path.c_str());
  std::printf("cuda_mlp: steps=%lld mean_step_ms=%.3f mean_input_ms=%.3f fp16=%d\n", static_cast<long long>(measured),
              measured ? step_ms_sum / measured : 0.0, measured ? input_ms_sum / measured : 0.0, flags.fp16 ? 1 : 0);
  return flushed.ok() ? 0 : kExitFailure;
}

}  // namespace
}  // namespace cuda_mlp

int main(int argc, char** argv) { return cuda_mlp::Run(argc, argv); }
