// Reports a TensorArena's allocations and frees to stepscope (RecordAllocation /
// RecordDeallocation), so the memory profile shows the example's real activation memory.
#pragma once

#include "examples/mnist_mlp/tensor_arena.h"

namespace mnist_mlp {

class ArenaRecorder final : public ArenaObserver {
 public:
  void OnEvent(std::string_view arena_name, const ArenaEvent& event, const ArenaState& state) override;
};

}  // namespace mnist_mlp
