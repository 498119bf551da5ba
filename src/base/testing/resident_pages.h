// Test support: how much of a range of this process's memory is resident.
#pragma once

#include <cstddef>

namespace stepscope::base {

// Pages of [begin, begin + bytes) in memory (mincore), the pages the range's ends fall in
// included; 0 when the range is not mapped.
size_t ResidentPages(const void* begin, size_t bytes);

}  // namespace stepscope::base
