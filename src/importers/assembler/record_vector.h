// The assembler's record arrays. An import of a large trace fills hundreds of megabytes of
// them, and at 4 KiB a page the page faults cost as much as filling them: arrays of 2 MiB
// and more are mapped on their own with transparent huge pages requested, smaller ones
// come from malloc (base/mapped_buffer.h).
//
// Why not std::vector: a vector that doubles copies into a fresh buffer, so every record
// is copied about once more and the kernel zeroes about twice the final size (19 % of a
// one-thread import of a 210 MB Kineto trace was that zeroing). A mapped RecordVector
// grows by moving its pages into a larger mapping (mremap): no copy, and only the pages
// the records reach are ever touched. Unlike xspace::PodArray (the same buffers, without
// huge pages, for the many columns of a plane) it has std::vector's interface and throws.
#pragma once

#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

#include "src/base/mapped_buffer.h"

namespace stepscope::importers {

inline constexpr base::BufferPolicy kRecordBuffers{.map_threshold_bytes = base::kHugePageBytes, .huge_pages = true};

// A growable array of trivially copyable records with std::vector's interface, as far as
// the importers use it. Throws std::bad_alloc when memory is exhausted, as a vector does.
template <typename T>
class RecordVector {
  static_assert(std::is_trivially_copyable_v<T>, "RecordVector holds trivially copyable records");

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  RecordVector() = default;
  RecordVector(std::initializer_list<T> values) { insert(end(), values.begin(), values.end()); }
  RecordVector(const RecordVector& other) { insert(end(), other.begin(), other.end()); }
  RecordVector& operator=(const RecordVector& other) {
    if (this != &other) {
      clear();
      insert(end(), other.begin(), other.end());
    }
    return *this;
  }
  RecordVector(RecordVector&& other) noexcept { swap(other); }
  RecordVector& operator=(RecordVector&& other) noexcept {
    RecordVector taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~RecordVector() { base::FreeBuffer(data_, capacity_ * sizeof(T), mapped_, kRecordBuffers); }

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

  void reserve(size_t n) {
    if (n <= capacity_) return;
    bool mapped = mapped_;
    void* grown =
        base::GrowBuffer(data_, capacity_ * sizeof(T), size_ * sizeof(T), n * sizeof(T), kRecordBuffers, &mapped);
    if (grown == nullptr) throw std::bad_alloc();
    data_ = static_cast<T*>(grown);
    capacity_ = n;
    mapped_ = mapped;
  }
  // The record is copied before the array grows: `value` may be one of its own records,
  // which growing unmaps.
  void push_back(const T& value) {
    const T record = value;
    if (size_ == capacity_) Grow(size_ + 1);
    data_[size_++] = record;
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    const T record(std::forward<Args>(args)...);
    if (size_ == capacity_) Grow(size_ + 1);
    data_[size_] = record;
    return data_[size_++];
  }
  void pop_back() { --size_; }
  // Appends [first, last) at the end (the only position the importers insert at).
  T* insert(T* position, const T* first, const T* last) {
    const size_t at = static_cast<size_t>(position - data_);
    const size_t count = static_cast<size_t>(last - first);
    if (count == 0) return data_ + at;
    // A range of this array's own records moves with it when it grows.
    const bool own = data_ != nullptr && first >= data_ && first < data_ + size_;
    const size_t own_offset = own ? static_cast<size_t>(first - data_) : 0;
    if (size_ + count > capacity_) Grow(size_ + count);
    if (own) first = data_ + own_offset;
    std::memcpy(static_cast<void*>(data_ + size_), first, count * sizeof(T));
    size_ += count;
    return data_ + at;
  }
  // New records are value-initialised.
  void resize(size_t n) {
    if (n > capacity_) reserve(n);
    for (size_t i = size_; i < n; ++i) ::new (static_cast<void*>(data_ + i)) T();
    size_ = n;
  }
  void assign(size_t n, const T& value) {
    clear();
    reserve(n);
    for (size_t i = 0; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  void clear() { size_ = 0; }
  // Removes the records `remove` is true for, keeping the order of the rest (std::erase_if).
  template <typename Predicate>
  size_t EraseIf(const Predicate& remove) {
    size_t kept = 0;
    for (size_t i = 0; i < size_; ++i) {
      if (!remove(data_[i])) data_[kept++] = data_[i];
    }
    const size_t removed = size_ - kept;
    size_ = kept;
    return removed;
  }
  void swap(RecordVector& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    std::swap(mapped_, other.mapped_);
  }

  friend bool operator==(const RecordVector& a, const RecordVector& b) {
    if (a.size_ != b.size_) return false;
    for (size_t i = 0; i < a.size_; ++i) {
      if (!(a.data_[i] == b.data_[i])) return false;
    }
    return true;
  }

 private:
  // Doubles (at least to `needed`), as a vector does, so appends cost O(1) amortised.
  void Grow(size_t needed) {
    size_t capacity = capacity_ < 8 ? 8 : capacity_ * 2;
    reserve(capacity < needed ? needed : capacity);
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool mapped_ = false;
};

}  // namespace stepscope::importers
