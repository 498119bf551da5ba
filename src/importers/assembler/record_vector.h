// The assembler's record arrays. An import of a large trace fills hundreds of megabytes of
// them, and at 4 KiB a page the page faults cost as much as filling them: arrays of 2 MiB
// and more are mapped on their own with transparent huge pages requested, smaller ones
// come from malloc (base/mapped_buffer.h).
//
// Why not std::vector: a vector that doubles copies into a fresh buffer, so every record
// is copied about once more and the kernel zeroes about twice the final size (19 % of a
// one-thread import of a 210 MB Kineto trace was that zeroing). A mapped RecordVector
// grows by moving its pages into a larger mapping (mremap): no copy, and only the pages
// the records reach are ever touched. Unlike xspace::PodArray (the same buffers, with huge
// pages only from 32 MiB, for the many columns of a plane; both are base::PodBuffer) it has
// std::vector's interface and throws.
#pragma once

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <new>
#include <utility>

#include "src/base/mapped_buffer.h"
#include "src/base/pod_buffer.h"

namespace stepscope::importers {

inline constexpr base::BufferPolicy kRecordBuffers{.map_threshold_bytes = base::kHugePageBytes,
                                                   .huge_pages_from_bytes = base::kHugePageBytes};

// A growable array of trivially copyable records with std::vector's interface, as far as
// the importers use it. Throws std::bad_alloc when memory is exhausted, as a vector does.
template <typename T>
class RecordVector : public base::PodBuffer<T, kRecordBuffers> {
  using Buffer = base::PodBuffer<T, kRecordBuffers>;

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  RecordVector() = default;
  RecordVector(std::initializer_list<T> values) { insert(this->end(), values.begin(), values.end()); }
  RecordVector(const RecordVector& other) : Buffer() { insert(this->end(), other.begin(), other.end()); }
  RecordVector& operator=(const RecordVector& other) {
    if (this != &other) {
      clear();
      insert(this->end(), other.begin(), other.end());
    }
    return *this;
  }
  RecordVector(RecordVector&&) noexcept = default;
  RecordVector& operator=(RecordVector&&) noexcept = default;

  void reserve(size_t n) {
    if (!this->Reserve(n)) throw std::bad_alloc();
  }
  // The record is copied before the array grows: `value` may be one of its own records,
  // which growing unmaps.
  void push_back(const T& value) {
    const T record = value;
    if (this->size_ == this->capacity_) Grow(this->size_ + 1);
    this->data_[this->size_++] = record;
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    const T record(std::forward<Args>(args)...);
    if (this->size_ == this->capacity_) Grow(this->size_ + 1);
    this->data_[this->size_] = record;
    return this->data_[this->size_++];
  }
  void pop_back() { --this->size_; }
  // Appends [first, last) at the end (the only position the importers insert at).
  T* insert(T* position, const T* first, const T* last) {
    const size_t at = static_cast<size_t>(position - this->data_);
    const size_t count = static_cast<size_t>(last - first);
    if (count == 0) return this->data_ + at;
    // A range of this array's own records moves with it when it grows.
    const bool own = this->data_ != nullptr && first >= this->data_ && first < this->data_ + this->size_;
    const size_t own_offset = own ? static_cast<size_t>(first - this->data_) : 0;
    if (this->size_ + count > this->capacity_) Grow(this->size_ + count);
    if (own) first = this->data_ + own_offset;
    std::memcpy(static_cast<void*>(this->data_ + this->size_), first, count * sizeof(T));
    this->size_ += count;
    return this->data_ + at;
  }
  // New records are value-initialised.
  void resize(size_t n) {
    if (n > this->capacity_) reserve(n);
    for (size_t i = this->size_; i < n; ++i) ::new (static_cast<void*>(this->data_ + i)) T();
    this->size_ = n;
  }
  void assign(size_t n, const T& value) {
    clear();
    reserve(n);
    for (size_t i = 0; i < n; ++i) this->data_[i] = value;
    this->size_ = n;
  }
  void clear() { this->size_ = 0; }
  // Removes the records `remove` is true for, keeping the order of the rest (std::erase_if).
  template <typename Predicate>
  size_t EraseIf(const Predicate& remove) {
    size_t kept = 0;
    for (size_t i = 0; i < this->size_; ++i) {
      if (!remove(this->data_[i])) this->data_[kept++] = this->data_[i];
    }
    const size_t removed = this->size_ - kept;
    this->size_ = kept;
    return removed;
  }

  friend bool operator==(const RecordVector& a, const RecordVector& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!(a[i] == b[i])) return false;
    }
    return true;
  }

 private:
  // Doubles (at least to `needed`), as a vector does, so appends cost O(1) amortised.
  void Grow(size_t needed) {
    size_t capacity = this->capacity_ < 8 ? 8 : this->capacity_ * 2;
    reserve(capacity < needed ? needed : capacity);
  }
};

}  // namespace stepscope::importers
