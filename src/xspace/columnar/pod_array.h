// PodArray<T>: a growable array of trivially copyable values whose large buffers live in
// their own anonymous mapping and grow with mremap.
//
// Why not std::vector: a vector that doubles copies into a fresh buffer, so while it grows
// the old and the new buffer are both resident (up to 3x the data), and its unused capacity
// is touched memory after the copy. The columnar reader appends hundreds of millions of
// values without knowing the final count; with mremap the kernel moves page tables instead
// of bytes, and reserved-but-unused capacity is never touched, so resident memory stays at
// the size of the data. Small arrays use malloc so that thousands of tiny lines do not each
// cost a page.
//
// The buffer itself is base::PodBuffer's; this adds the reader's appending interface,
// which reports exhausted memory as false. Not thread-safe; move-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "src/base/mapped_buffer.h"
#include "src/base/pod_buffer.h"

namespace stepscope::xspace {

namespace internal {
// Buffers of 256 KiB and more are mapped (below it a malloc'ed copy is cheap and a
// page-granular mapping per small line would waste memory), with huge pages from 32 MiB:
// below that, each column's partly used last 2 MiB page would be resident, which cost
// more peak memory (measured) than the faults cost time; above it, that page is at most
// 6 % of the column, and 4 KiB faults over hundreds of megabytes are not.
inline constexpr base::BufferPolicy kPodArrayBuffers{.map_threshold_bytes = 256 << 10,
                                                     .huge_pages_from_bytes = 32 << 20};
}  // namespace internal

template <typename T>
class PodArray : public base::PodBuffer<T, internal::kPodArrayBuffers> {
 public:
  // Appends; returns false (and leaves the array unchanged) when memory is exhausted.
  [[nodiscard]] bool push_back(const T& value) {
    if (this->size_ == this->capacity_ && !this->Reserve(this->capacity_ < 16 ? 16 : this->capacity_ * 2)) {
      return false;
    }
    this->data_[this->size_++] = value;
    return true;
  }
  // Appends without a capacity check: the caller reserved room (hot loops of the reader).
  void PushBackUnchecked(const T& value) { this->data_[this->size_++] = value; }
  // Resizes; new values are value-initialised. False when memory is exhausted.
  [[nodiscard]] bool Resize(size_t n) {
    if (!this->Reserve(n)) return false;
    if (n > this->size_) std::memset(static_cast<void*>(this->data_ + this->size_), 0, (n - this->size_) * sizeof(T));
    this->size_ = n;
    return true;
  }
  void Clear() { this->size_ = 0; }
  // Bytes of the values held (what is resident, give or take a page).
  size_t used_bytes() const { return this->size_ * sizeof(T); }
};

}  // namespace stepscope::xspace
