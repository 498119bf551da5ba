#include "examples/mnist_mlp/model.h"

#include <cmath>
#include <vector>

#include "examples/mnist_mlp/random.h"
#include "gtest/gtest.h"

namespace mnist_mlp {
namespace {

struct TinyProblem {
  MlpConfig config{.input_units = 6, .hidden_units = 5, .classes = 3, .learning_rate = 0.1f, .momentum = 0.0f,
                   .seed = 3};
  int batch = 7;  // not a multiple of the 4-row blocking, so the remainder loops run too
  std::vector<float> inputs;
  std::vector<uint8_t> labels;

  TinyProblem() {
    Random random(11);
    for (int i = 0; i < batch * config.input_units; ++i) inputs.push_back(random.Normal());
    for (int i = 0; i < batch; ++i) labels.push_back(static_cast<uint8_t>(i % config.classes));
  }
};

// Analytic gradients must match central differences of the loss for every weight.
TEST(MlpTest, GradientsMatchNumericDifferences) {
  TinyProblem problem;
  Mlp model(problem.config);
  model.Forward(problem.inputs.data(), problem.labels.data(), problem.batch);
  model.Backward();
  const std::vector<float> grad_w1 = model.grad_w1();
  const std::vector<float> grad_w2 = model.grad_w2();

  auto loss = [&] { return model.Forward(problem.inputs.data(), problem.labels.data(), problem.batch).mean_loss; };
  auto check = [&](std::vector<float>& weights, const std::vector<float>& grad, const char* name) {
    constexpr float kEpsilon = 1e-2f;
    for (size_t i = 0; i < weights.size(); ++i) {
      const float saved = weights[i];
      weights[i] = saved + kEpsilon;
      const double up = loss();
      weights[i] = saved - kEpsilon;
      const double down = loss();
      weights[i] = saved;
      const double numeric = (up - down) / (2 * kEpsilon);
      EXPECT_NEAR(grad[i], numeric, 2e-3 + 2e-2 * std::fabs(numeric)) << name << "[" << i << "]";
    }
  };
  check(model.w1(), grad_w1, "w1");
  check(model.w2(), grad_w2, "w2");
}

TEST(MlpTest, LossStartsNearChanceAndFallsWhenFittingOneBatch) {
  TinyProblem problem;
  problem.config.momentum = 0.9f;
  Mlp model(problem.config);
  const ForwardResult first = model.Forward(problem.inputs.data(), problem.labels.data(), problem.batch);
  // He-initialised logits are small: the loss starts within a factor of chance (ln 3).
  EXPECT_GT(first.mean_loss, 0.3 * std::log(3.0));
  EXPECT_LT(first.mean_loss, 3.0 * std::log(3.0));
  ForwardResult last = first;
  for (int step = 0; step < 200; ++step) {
    last = model.Forward(problem.inputs.data(), problem.labels.data(), problem.batch);
    model.Backward();
    model.ApplyGradients();
  }
  EXPECT_LT(last.mean_loss, 0.25 * first.mean_loss);
  EXPECT_EQ(last.correct, problem.batch);
}

TEST(MlpTest, InitialisationIsDeterministic) {
  TinyProblem problem;
  Mlp a(problem.config), b(problem.config);
  EXPECT_EQ(a.w1(), b.w1());
  problem.config.seed = 4;
  Mlp c(problem.config);
  EXPECT_NE(a.w1(), c.w1());
}

}  // namespace
}  // namespace mnist_mlp
