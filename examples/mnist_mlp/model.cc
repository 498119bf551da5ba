#include "examples/mnist_mlp/model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "examples/mnist_mlp/random.h"

namespace mnist_mlp {
namespace {

// Rows of the batch processed together, so one weight row loaded from cache feeds four
// output rows (4 x hidden floats stay in L1 for hidden <= 1024).
constexpr int kRowBlock = 4;

// Purpose tag for DeriveSeed: weight initialisation.
constexpr uint64_t kInitStream = 3;

void HeInit(std::vector<float>* weights, int fan_in, uint64_t seed) {
  Random random(seed);
  const float scale = std::sqrt(2.0f / static_cast<float>(fan_in));
  for (float& w : *weights) w = scale * random.Normal();
}

// out[r][j] += sum_k in[r][k] * w[k][j] for rows [0, rows); in: rows x n_in, w: n_in x n_out.
void MatMulAccumulate(const float* __restrict in, const float* __restrict w, float* __restrict out, int rows,
                      int n_in, int n_out) {
  int r = 0;
  for (; r + kRowBlock <= rows; r += kRowBlock) {
    const float* in0 = in + (r + 0) * n_in;
    const float* in1 = in + (r + 1) * n_in;
    const float* in2 = in + (r + 2) * n_in;
    const float* in3 = in + (r + 3) * n_in;
    float* __restrict out0 = out + (r + 0) * n_out;
    float* __restrict out1 = out + (r + 1) * n_out;
    float* __restrict out2 = out + (r + 2) * n_out;
    float* __restrict out3 = out + (r + 3) * n_out;
    for (int k = 0; k < n_in; ++k) {
      const float x0 = in0[k], x1 = in1[k], x2 = in2[k], x3 = in3[k];
      const float* __restrict wk = w + static_cast<size_t>(k) * n_out;
      for (int j = 0; j < n_out; ++j) {
        out0[j] += x0 * wk[j];
        out1[j] += x1 * wk[j];
        out2[j] += x2 * wk[j];
        out3[j] += x3 * wk[j];
      }
    }
  }
  for (; r < rows; ++r) {
    for (int k = 0; k < n_in; ++k) {
      const float x = in[r * n_in + k];
      const float* __restrict wk = w + static_cast<size_t>(k) * n_out;
      float* __restrict o = out + r * n_out;
      for (int j = 0; j < n_out; ++j) o[j] += x * wk[j];
    }
  }
}

// grad_w[k][j] = sum_r in[r][k] * grad_out[r][j]  (overwrites grad_w).
void WeightGradient(const float* __restrict in, const float* __restrict grad_out, float* __restrict grad_w,
                    int rows, int n_in, int n_out) {
  std::fill(grad_w, grad_w + static_cast<size_t>(n_in) * n_out, 0.0f);
  int k = 0;
  for (; k + kRowBlock <= n_in; k += kRowBlock) {
    float* __restrict g0 = grad_w + static_cast<size_t>(k + 0) * n_out;
    float* __restrict g1 = grad_w + static_cast<size_t>(k + 1) * n_out;
    float* __restrict g2 = grad_w + static_cast<size_t>(k + 2) * n_out;
    float* __restrict g3 = grad_w + static_cast<size_t>(k + 3) * n_out;
    for (int r = 0; r < rows; ++r) {
      const float* x = in + r * n_in + k;
      const float x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
      const float* __restrict go = grad_out + r * n_out;
      for (int j = 0; j < n_out; ++j) {
        g0[j] += x0 * go[j];
        g1[j] += x1 * go[j];
        g2[j] += x2 * go[j];
        g3[j] += x3 * go[j];
      }
    }
  }
  for (; k < n_in; ++k) {
    float* __restrict g = grad_w + static_cast<size_t>(k) * n_out;
    for (int r = 0; r < rows; ++r) {
      const float x = in[r * n_in + k];
      const float* __restrict go = grad_out + r * n_out;
      for (int j = 0; j < n_out; ++j) g[j] += x * go[j];
    }
  }
}

void SgdMomentum(std::vector<float>* param, std::vector<float>* velocity, const std::vector<float>& grad,
                 float learning_rate, float momentum) {
  float* __restrict p = param->data();
  float* __restrict v = velocity->data();
  const float* __restrict g = grad.data();
  for (size_t i = 0; i < param->size(); ++i) {
    v[i] = momentum * v[i] - learning_rate * g[i];
    p[i] += v[i];
  }
}

}  // namespace

Mlp::Mlp(const MlpConfig& config)
    : config_(config),
      w1_(static_cast<size_t>(config.input_units) * config.hidden_units),
      b1_(config.hidden_units, 0.0f),
      w2_(static_cast<size_t>(config.hidden_units) * config.classes),
      b2_(config.classes, 0.0f),
      grad_w1_(w1_.size()),
      grad_b1_(b1_.size()),
      grad_w2_(w2_.size()),
      grad_b2_(b2_.size()),
      velocity_w1_(w1_.size(), 0.0f),
      velocity_b1_(b1_.size(), 0.0f),
      velocity_w2_(w2_.size(), 0.0f),
      velocity_b2_(b2_.size(), 0.0f) {
  HeInit(&w1_, config.input_units, DeriveSeed(config.seed, kInitStream, 1));
  HeInit(&w2_, config.hidden_units, DeriveSeed(config.seed, kInitStream, 2));
}

ForwardResult Mlp::Forward(const float* inputs, const uint8_t* labels, int batch_size) {
  const int hidden = config_.hidden_units, classes = config_.classes;
  inputs_ = inputs;
  labels_ = labels;
  batch_size_ = batch_size;
  ReleaseActivations();  // a Forward without ApplyGradients (gradient checks) starts over
  const std::string b = std::to_string(batch_size);
  hidden_.Allocate(&arena_, static_cast<size_t>(batch_size) * hidden, "dense1/Relu",
                   "[" + b + "," + std::to_string(hidden) + "]");
  probabilities_.Allocate(&arena_, static_cast<size_t>(batch_size) * classes, "dense2/Softmax",
                          "[" + b + "," + std::to_string(classes) + "]");

  for (int r = 0; r < batch_size; ++r) std::copy(b1_.begin(), b1_.end(), hidden_.begin() + r * hidden);
  MatMulAccumulate(inputs, w1_.data(), hidden_.data(), batch_size, config_.input_units, hidden);
  for (float& h : hidden_) h = std::max(h, 0.0f);

  for (int r = 0; r < batch_size; ++r) std::copy(b2_.begin(), b2_.end(), probabilities_.begin() + r * classes);
  MatMulAccumulate(hidden_.data(), w2_.data(), probabilities_.data(), batch_size, hidden, classes);

  ForwardResult result;
  double total_loss = 0;
  for (int r = 0; r < batch_size; ++r) {
    float* p = probabilities_.data() + r * classes;
    const int predicted = static_cast<int>(std::max_element(p, p + classes) - p);
    const float max_logit = p[predicted];
    float sum = 0;
    for (int c = 0; c < classes; ++c) sum += (p[c] = std::exp(p[c] - max_logit));
    for (int c = 0; c < classes; ++c) p[c] /= sum;
    total_loss -= std::log(std::max(p[labels[r]], 1e-30f));
    result.correct += predicted == labels[r] ? 1 : 0;
  }
  result.mean_loss = static_cast<float>(total_loss / std::max(batch_size, 1));
  return result;
}

void Mlp::Backward() {
  const int hidden = config_.hidden_units, classes = config_.classes, batch = batch_size_;
  // d(mean loss)/d(logits) = (softmax - one_hot) / batch, computed in place.
  ArenaTensor& grad_logits = probabilities_;
  for (int r = 0; r < batch; ++r) {
    float* g = grad_logits.data() + r * classes;
    g[labels_[r]] -= 1.0f;
    for (int c = 0; c < classes; ++c) g[c] /= static_cast<float>(batch);
  }
  WeightGradient(hidden_.data(), grad_logits.data(), grad_w2_.data(), batch, hidden, classes);
  std::fill(grad_b2_.begin(), grad_b2_.end(), 0.0f);
  for (int r = 0; r < batch; ++r) {
    for (int c = 0; c < classes; ++c) grad_b2_[c] += grad_logits[r * classes + c];
  }

  // grad_hidden = grad_logits * w2^T, through the ReLU (zero where the unit was off).
  grad_hidden_.Allocate(&arena_, static_cast<size_t>(batch) * hidden, "dense1/ReluGrad",
                        "[" + std::to_string(batch) + "," + std::to_string(hidden) + "]");
  std::fill(grad_hidden_.begin(), grad_hidden_.end(), 0.0f);
  for (int r = 0; r < batch; ++r) {
    const float* g = grad_logits.data() + r * classes;
    float* gh = grad_hidden_.data() + r * hidden;
    const float* h = hidden_.data() + r * hidden;
    for (int j = 0; j < hidden; ++j) {
      if (h[j] <= 0.0f) continue;
      const float* w = w2_.data() + j * classes;
      float sum = 0;
      for (int c = 0; c < classes; ++c) sum += g[c] * w[c];
      gh[j] = sum;
    }
  }
  WeightGradient(inputs_, grad_hidden_.data(), grad_w1_.data(), batch, config_.input_units, hidden);
  std::fill(grad_b1_.begin(), grad_b1_.end(), 0.0f);
  for (int r = 0; r < batch; ++r) {
    for (int j = 0; j < hidden; ++j) grad_b1_[j] += grad_hidden_[r * hidden + j];
  }
}

void Mlp::ApplyGradients() {
  SgdMomentum(&w1_, &velocity_w1_, grad_w1_, config_.learning_rate, config_.momentum);
  SgdMomentum(&b1_, &velocity_b1_, grad_b1_, config_.learning_rate, config_.momentum);
  SgdMomentum(&w2_, &velocity_w2_, grad_w2_, config_.learning_rate, config_.momentum);
  SgdMomentum(&b2_, &velocity_b2_, grad_b2_, config_.learning_rate, config_.momentum);
  // The step is over: its tensors go back to the arena, as a framework frees them.
  ReleaseActivations();
}

void Mlp::ReleaseActivations() {
  grad_hidden_.Release();
  probabilities_.Release();
  hidden_.Release();
}

}  // namespace mnist_mlp
