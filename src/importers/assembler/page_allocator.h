// The allocator of the assembler's record arrays. An import of a large trace fills hundreds
// of megabytes of them, and at 4 KiB a page the page faults cost as much as filling them:
// arrays of 2 MiB and more are mapped on their own with transparent huge pages requested
// (MADV_HUGEPAGE: one fault per 2 MiB where the kernel allows it, ordinary pages where it
// does not); smaller ones come from malloc.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace stepscope::importers {

// At least `bytes` of zeroed memory aligned to 2 MiB, or null. Freed with UnmapHugePages.
void* MapHugePages(size_t bytes);
void UnmapHugePages(void* memory, size_t bytes);

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

template <typename T>
class PageAllocator {
 public:
  using value_type = T;

  PageAllocator() = default;
  template <typename U>
  PageAllocator(const PageAllocator<U>&) {}  // NOLINT: allocators convert implicitly

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    void* memory = bytes >= kHugePageBytes ? MapHugePages(bytes) : std::malloc(bytes == 0 ? 1 : bytes);
    if (memory == nullptr) throw std::bad_alloc();
    return static_cast<T*>(memory);
  }
  void deallocate(T* memory, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes >= kHugePageBytes) {
      UnmapHugePages(memory, bytes);
    } else {
      std::free(memory);
    }
  }

  template <typename U>
  bool operator==(const PageAllocator<U>&) const {
    return true;
  }
};

// A std::vector of records on PageAllocator.
template <typename T>
using RecordVector = std::vector<T, PageAllocator<T>>;

}  // namespace stepscope::importers
