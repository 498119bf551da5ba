#include "python/src/torch_parallel_test_hook.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#ifndef _OPENMP
#error "torch_parallel_test_hook.cc must be compiled with OpenMP, as ATen's kernels are"
#endif

namespace stepscope::python {

void RunOpsInParallelRegionForTest(int64_t tasks) {
  at::parallel_for(0, tasks, 1, [](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) at::ones({4}).add_(1);
  });
}

}  // namespace stepscope::python
