#include "examples/mnist_mlp/arena_recording.h"

#include "stepscope/memory.h"

namespace mnist_mlp {

void ArenaRecorder::OnEvent(std::string_view arena_name, const ArenaEvent& event, const ArenaState& state) {
  const stepscope::AllocatorState after{state.bytes_in_use, state.peak_bytes_in_use, 0, state.bytes_free,
                                        state.fragmentation};
  if (event.allocation) {
    stepscope::RecordAllocation({.allocator_name = arena_name,
                                 .address = event.address,
                                 .requested_bytes = event.requested_bytes,
                                 .allocation_bytes = event.allocation_bytes,
                                 .op_name = event.op,
                                 .region_type = "activation",
                                 .data_type = 1,  // TensorFlow's DT_FLOAT
                                 .shape = event.shape},
                                after);
  } else {
    stepscope::RecordDeallocation(arena_name, event.address, event.allocation_bytes, after);
  }
}

}  // namespace mnist_mlp
