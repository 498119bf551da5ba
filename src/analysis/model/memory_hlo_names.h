// Allocations without an op name, named by the XLA buffer assignment. JAX's and XLA's
// allocators record the buffers of a running program with no op name (TensorFlow prints
// "(null)"); the program's buffer assignment says what each of its buffer allocations
// holds (a parameter, the output, a constant, the temporaries) and how large it is, and
// an allocation requested at exactly that size is that buffer.
#pragma once

#include <cstdint>

#include "src/analysis/model/profile_model.h"
#include "src/hlo/hlo_programs.h"

namespace stepscope::analysis::internal {

// At most this many buffer allocations of one size are named together ("a or b"); past
// it the size says too little, and the event stays unnamed.
inline constexpr int kMaxBufferCandidates = 3;

// Gives every memory event with no op name whose requested size equals the size of at
// most kMaxBufferCandidates buffer allocations of `programs` a name saying which (e.g.
// "XLA temporaries of jit_train_step(7), allocation 12"). Returns how many events were
// named.
int64_t NameAllocationsFromBufferAssignment(const hlo::HloPrograms& programs, MemoryEvents* memory);

}  // namespace stepscope::analysis::internal
