// A two-layer perceptron, 784 -> hidden (ReLU) -> 10 (softmax cross-entropy), trained with
// SGD + momentum. Plain C++ loops, blocked so the weight rows stay in L1 and the inner
// loops vectorise: the training step is honest CPU work whose cost scales with
// batch_size * hidden_units.
//
// Call order per step: Forward -> Backward -> ApplyGradients. Not thread-safe; one
// training thread owns the model.
#pragma once

#include <cstdint>
#include <vector>

#include "examples/mnist_mlp/tensor_arena.h"

namespace mnist_mlp {

struct MlpConfig {
  int input_units = 784;
  int hidden_units = 320;
  int classes = 10;
  float learning_rate = 0.01f;
  float momentum = 0.9f;
  uint64_t seed = 1;  // weight initialisation
};

struct ForwardResult {
  float mean_loss = 0;  // mean cross-entropy over the batch (nats)
  int correct = 0;      // examples whose arg-max class equals the label
};

class Mlp {
 public:
  explicit Mlp(const MlpConfig& config);

  const MlpConfig& config() const { return config_; }

  // inputs: batch_size x input_units floats; labels: batch_size values < classes.
  // Keeps what Backward needs; `inputs` must stay valid until Backward returns.
  ForwardResult Forward(const float* inputs, const uint8_t* labels, int batch_size);
  // Gradients of the mean loss of the last Forward.
  void Backward();
  // Momentum SGD step with the gradients of the last Backward.
  void ApplyGradients();

  // Parameter access for tests (numeric gradient checks).
  std::vector<float>& w1() { return w1_; }
  const std::vector<float>& grad_w1() const { return grad_w1_; }
  std::vector<float>& w2() { return w2_; }
  const std::vector<float>& grad_w2() const { return grad_w2_; }

  // Where the per-step tensors (activations and their gradients) live: allocated by
  // Forward / Backward, freed by ApplyGradients (or the next Forward).
  TensorArena& arena() { return arena_; }
  // Bytes reserved for them; enough for batches of thousands.
  static constexpr int64_t kArenaBytes = int64_t{64} << 20;

 private:
  MlpConfig config_;
  // w1: input_units x hidden (row k = weights from input k); w2: hidden x classes.
  std::vector<float> w1_, b1_, w2_, b2_;
  std::vector<float> grad_w1_, grad_b1_, grad_w2_, grad_b2_;
  std::vector<float> velocity_w1_, velocity_b1_, velocity_w2_, velocity_b2_;
  // Activations of the last Forward.
  const float* inputs_ = nullptr;
  const uint8_t* labels_ = nullptr;
  int batch_size_ = 0;
  TensorArena arena_{"mnist_mlp_activations", kArenaBytes};
  ArenaTensor hidden_;         // batch x hidden, after ReLU
  ArenaTensor probabilities_;  // batch x classes
  ArenaTensor grad_hidden_;    // batch x hidden
  void ReleaseActivations();
};

}  // namespace mnist_mlp
