// A test hook: ATen ops dispatched inside an intra-op parallel region, as an extension's
// kernel could dispatch them. No CPU kernel of torch 1.13 does (docs/python.md says what
// was tried), so python_torch_test checks the "pytorch intra-op <n>" thread lines with it.
#pragma once

#include <cstdint>

namespace stepscope::python {

// at::parallel_for(0, tasks, grain 1) running at::ones({4}).add_(1) once per task, on up
// to at::get_num_threads() threads. Compiled with OpenMP (python/CMakeLists.txt):
// at::parallel_for is a header template that runs serially in code built without it.
void RunOpsInParallelRegionForTest(int64_t tasks);

}  // namespace stepscope::python
