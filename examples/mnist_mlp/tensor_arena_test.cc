#include "examples/mnist_mlp/tensor_arena.h"

#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "examples/mnist_mlp/model.h"

namespace mnist_mlp {
namespace {

struct Seen {
  bool allocation;
  int64_t bytes;
  std::string op;
  ArenaState state;
};

class Collect final : public ArenaObserver {
 public:
  void OnEvent(std::string_view, const ArenaEvent& e, const ArenaState& s) override {
    seen.push_back({e.allocation, e.allocation_bytes, std::string(e.op), s});
  }
  std::vector<Seen> seen;
};

TEST(TensorArenaTest, FirstFitMergesFreedNeighboursAndReportsFragmentation) {
  TensorArena arena("a", 4096);
  Collect observer;
  arena.set_observer(&observer);
  float* x = arena.AllocateFloats(100, "x", "[100]");  // 400 B -> 512
  float* y = arena.AllocateFloats(64, "y", "[64]");    // 256
  float* z = arena.AllocateFloats(1, "z", "[1]");      // 256
  EXPECT_EQ(arena.state().bytes_in_use, 1024);
  arena.Free(y);
  // Free: 256 (y's hole) + 3072 (tail); the largest piece is the tail.
  EXPECT_EQ(arena.state().bytes_free, 3072 + 256);
  EXPECT_DOUBLE_EQ(arena.state().fragmentation, 256.0 / (3072 + 256));
  float* w = arena.AllocateFloats(10, "w", "[10]");  // fits y's hole: first fit
  EXPECT_EQ(w, y);
  arena.Free(x);
  arena.Free(w);
  arena.Free(z);
  // Everything merged back into one piece.
  EXPECT_EQ(arena.state().bytes_in_use, 0);
  EXPECT_DOUBLE_EQ(arena.state().fragmentation, 0.0);
  EXPECT_EQ(arena.state().peak_bytes_in_use, 1024);
  ASSERT_EQ(observer.seen.size(), 8u);
  EXPECT_EQ(observer.seen[0].op, "x");
  EXPECT_EQ(observer.seen[0].bytes, 512);
  EXPECT_FALSE(observer.seen[3].allocation);
  EXPECT_EQ(observer.seen[3].bytes, 256);
  EXPECT_THROW(arena.AllocateFloats(2000, "too big", ""), std::bad_alloc);
}

TEST(TensorArenaTest, TheModelsStepTensorsLiveFromForwardToApplyGradients) {
  MlpConfig config;
  config.input_units = 8;
  config.hidden_units = 4;
  config.classes = 3;
  Mlp model(config);
  Collect observer;
  model.arena().set_observer(&observer);
  std::vector<float> inputs(2 * 8, 0.5f);
  std::vector<uint8_t> labels = {0, 2};
  model.Forward(inputs.data(), labels.data(), 2);
  model.Backward();
  const int64_t peak = model.arena().state().bytes_in_use;
  EXPECT_EQ(peak, 3 * TensorArena::kAlignment);  // hidden, probabilities, grad_hidden
  model.ApplyGradients();
  EXPECT_EQ(model.arena().state().bytes_in_use, 0);
  ASSERT_EQ(observer.seen.size(), 6u);
  EXPECT_EQ(observer.seen[0].op, "dense1/Relu");
  EXPECT_EQ(observer.seen[1].op, "dense2/Softmax");
  EXPECT_EQ(observer.seen[2].op, "dense1/ReluGrad");
}

}  // namespace
}  // namespace mnist_mlp
