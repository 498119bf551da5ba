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
// Not thread-safe; move-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "src/base/mapped_buffer.h"

namespace stepscope::xspace {

namespace internal {
// Buffers of 256 KiB and more are mapped (below it a malloc'ed copy is cheap and a
// page-granular mapping per small line would waste memory), without huge pages: each
// column's partly used last 2 MiB page would then be resident, which cost more peak
// memory (measured) than the faults cost time.
inline constexpr base::BufferPolicy kPodArrayBuffers{.map_threshold_bytes = 256 << 10, .huge_pages = false};
}  // namespace internal

template <typename T>
class PodArray {
  static_assert(std::is_trivially_copyable_v<T>, "PodArray holds trivially copyable values only");

 public:
  PodArray() = default;
  ~PodArray() { base::FreeBuffer(data_, capacity_ * sizeof(T), mapped_, internal::kPodArrayBuffers); }
  PodArray(PodArray&& other) noexcept { Swap(other); }
  PodArray& operator=(PodArray&& other) noexcept {
    if (this != &other) {
      PodArray tmp;
      tmp.Swap(other);
      Swap(tmp);
    }
    return *this;
  }
  PodArray(const PodArray&) = delete;
  PodArray& operator=(const PodArray&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& back() { return data_[size_ - 1]; }

  // Appends; returns false (and leaves the array unchanged) when memory is exhausted.
  [[nodiscard]] bool push_back(const T& value) {
    if (size_ == capacity_ && !Reserve(capacity_ < 16 ? 16 : capacity_ * 2)) return false;
    data_[size_++] = value;
    return true;
  }
  // Appends without a capacity check: the caller reserved room (hot loops of the reader).
  void PushBackUnchecked(const T& value) { data_[size_++] = value; }
  // Ensures capacity for `n` values; false when memory is exhausted. Reserved but unused
  // capacity of a mapped buffer is never touched, so it costs address space, not memory.
  [[nodiscard]] bool Reserve(size_t n) {
    if (n <= capacity_) return true;
    bool mapped = mapped_;
    void* grown = base::GrowBuffer(data_, capacity_ * sizeof(T), size_ * sizeof(T), n * sizeof(T),
                                   internal::kPodArrayBuffers, &mapped);
    if (grown == nullptr) return false;
    data_ = static_cast<T*>(grown);
    capacity_ = n;
    mapped_ = mapped;
    return true;
  }
  // Backs the reserved capacity of a mapped buffer now (base::PopulatePages), for a
  // writer that will fill it: from another thread, the page faults leave its path.
  void PopulateReserved() {
    if (mapped_ && capacity_ > size_) base::PopulatePages(data_ + size_, (capacity_ - size_) * sizeof(T));
  }
  // Resizes; new values are value-initialised. False when memory is exhausted.
  [[nodiscard]] bool Resize(size_t n) {
    if (!Reserve(n)) return false;
    if (n > size_) std::memset(static_cast<void*>(data_ + size_), 0, (n - size_) * sizeof(T));
    size_ = n;
    return true;
  }
  void Clear() { size_ = 0; }
  // Bytes of the values held (what is resident, give or take a page).
  size_t used_bytes() const { return size_ * sizeof(T); }

 private:
  void Swap(PodArray& other) {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    std::swap(mapped_, other.mapped_);
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool mapped_ = false;
};

}  // namespace stepscope::xspace
