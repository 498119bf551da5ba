// A synthetic training profile of a chosen size, written straight in the XSpace wire
// format (building 10 M generated messages first would need gigabytes).
//
// Shape, per 20 ms step: a training thread with a `train` step marker (step_num, _r),
// IteratorGetNext, framework ops ("model/layer_k/MatMul:MatMul", is_eager) each with a
// cudaLaunchKernel child (correlation_id) and two copy launches; two tf.data threads with
// nested Iterator:: events; two executor threads with nested ops; a GPU plane with device
// capabilities, kernels on two streams (correlation_id, kernel_details and tf_op as refs)
// and H2D / D2H copies (memcpy_details). Line events are sorted by begin, as TF saves them.
#pragma once

#include <cstdint>
#include <string>

#include "stepscope/status.h"

namespace stepscope::bench {

struct SyntheticProfile {
  uint64_t events = 0;
  uint64_t file_bytes = 0;
  int64_t steps = 0;
};

// Variations for a pod of synthetic hosts (the pod benchmark).
struct SyntheticShape {
  // GPU planes: /device:GPU:0 as above; each further GPU runs the same kernels, launched
  // from a thread of its own ("launch/<g>", no step markers: PyTorch's autograd-thread shape).
  int gpus = 1;
  // Varies the input wait per host (IteratorGetNext: +50 us per host_index % 7), so the
  // hosts of a pod differ; names the host ("synthetic-host" for 0, "host<index>" else).
  int host_index = 0;
};

StatusOr<SyntheticProfile> WriteSyntheticXSpace(const std::string& path, uint64_t target_events,
                                                const SyntheticShape& shape = {});

// Allocator activity only: two BFC-like allocators (GPU_0_bfc, GPU_1_bfc), each step
// allocating up to 512 tensors and freeing them all, every event with TF's 14 memory stats
// (allocator_name, bytes_reserved/allocated/available, fragmentation, peak_bytes_in_use,
// requested/allocation bytes, addr, tf_op, group_id, region_type, data_type, shape).
StatusOr<SyntheticProfile> WriteSyntheticMemoryXSpace(const std::string& path, uint64_t target_events);

}  // namespace stepscope::bench
