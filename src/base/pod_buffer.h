// PodBuffer<T, kPolicy>: the storage behind the arrays of plain records that grow to
// hundreds of megabytes (the importers' RecordVector, xspace's PodArray): a buffer from
// GrowBuffer (malloc below the policy's threshold, a mapping grown with mremap above it),
// its size and capacity, element access, and growth that reports exhausted memory instead
// of throwing. The arrays built on it add their own appending interface and error style.
//
// Move-only; not thread-safe.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "src/base/mapped_buffer.h"

namespace stepscope::base {

template <typename T, BufferPolicy kPolicy>
class PodBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "PodBuffer holds trivially copyable values only");

 public:
  PodBuffer() = default;
  ~PodBuffer() { FreeBuffer(data_, capacity_ * sizeof(T), mapped_, kPolicy); }
  PodBuffer(PodBuffer&& other) noexcept { swap(other); }
  PodBuffer& operator=(PodBuffer&& other) noexcept {
    PodBuffer taken(std::move(other));
    swap(taken);
    return *this;
  }
  PodBuffer(const PodBuffer&) = delete;
  PodBuffer& operator=(const PodBuffer&) = delete;

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
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  // Ensures capacity for `n` values; false (and the buffer unchanged) when memory is
  // exhausted. Reserved but unused capacity of a mapped buffer is never touched, so it
  // costs address space, not memory.
  [[nodiscard]] bool Reserve(size_t n) {
    if (n <= capacity_) return true;
    bool mapped = mapped_;
    void* grown = GrowBuffer(data_, capacity_ * sizeof(T), size_ * sizeof(T), n * sizeof(T), kPolicy, &mapped);
    if (grown == nullptr) return false;
    data_ = static_cast<T*>(grown);
    capacity_ = n;
    mapped_ = mapped;
    return true;
  }
  // Backs the reserved capacity of a mapped buffer now (PopulatePages), for a writer that
  // will fill it: from another thread, the page faults leave its path.
  void PopulateReserved() {
    if (mapped_ && capacity_ > size_) PopulatePages(data_ + size_, (capacity_ - size_) * sizeof(T));
  }
  // Hands back the pages of a mapped buffer past its size (ReleaseUnusedPages): for an
  // array that is done growing. Capacity stays; what is appended later is backed again.
  void ReleaseUnusedPages() {
    base::ReleaseUnusedPages(data_, size_ * sizeof(T), capacity_ * sizeof(T), mapped_, kPolicy);
  }
  void swap(PodBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    std::swap(mapped_, other.mapped_);
  }

 protected:
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool mapped_ = false;
};

}  // namespace stepscope::base
