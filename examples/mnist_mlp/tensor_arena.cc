#include "examples/mnist_mlp/tensor_arena.h"

#include <algorithm>
#include <new>
#include <utility>

namespace mnist_mlp {

TensorArena::TensorArena(std::string name, int64_t capacity_bytes)
    : name_(std::move(name)),
      capacity_(capacity_bytes / kAlignment * kAlignment),
      block_(new std::byte[static_cast<size_t>(capacity_) + kAlignment]) {
  const uintptr_t raw = reinterpret_cast<uintptr_t>(block_.get());
  base_ = block_.get() + (kAlignment - raw % kAlignment) % kAlignment;
  if (capacity_ > 0) free_[0] = capacity_;
}

float* TensorArena::AllocateFloats(size_t count, std::string_view op, std::string_view shape) {
  const int64_t requested = static_cast<int64_t>(count * sizeof(float));
  const int64_t size = std::max<int64_t>(kAlignment, (requested + kAlignment - 1) / kAlignment * kAlignment);
  auto it = std::find_if(free_.begin(), free_.end(), [&](const auto& piece) { return piece.second >= size; });
  if (it == free_.end()) throw std::bad_alloc();
  const auto [offset, piece] = *it;
  free_.erase(it);
  if (piece > size) free_[offset + size] = piece - size;
  used_[offset] = size;
  in_use_ += size;
  peak_ = std::max(peak_, in_use_);
  std::byte* pointer = base_ + offset;
  if (observer_ != nullptr) {
    observer_->OnEvent(name_, {true, reinterpret_cast<uintptr_t>(pointer), requested, size, op, shape}, state());
  }
  return reinterpret_cast<float*>(pointer);
}

void TensorArena::Free(float* pointer) {
  const int64_t offset = reinterpret_cast<std::byte*>(pointer) - base_;
  auto used = used_.find(offset);
  if (used == used_.end()) return;  // not ours: ignored
  const int64_t size = used->second;
  used_.erase(used);
  in_use_ -= size;
  // Merge with the free neighbours.
  int64_t start = offset, length = size;
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == offset + size) {
    length += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      start = previous->first;
      length += previous->second;
      free_.erase(previous);
    }
  }
  free_[start] = length;
  if (observer_ != nullptr) {
    observer_->OnEvent(name_, {false, reinterpret_cast<uintptr_t>(pointer), 0, size, {}, {}}, state());
  }
}

int64_t TensorArena::LargestFreePiece() const {
  int64_t largest = 0;
  for (const auto& [offset, size] : free_) largest = std::max(largest, size);
  return largest;
}

ArenaState TensorArena::state() const {
  ArenaState s;
  s.bytes_in_use = in_use_;
  s.peak_bytes_in_use = peak_;
  s.bytes_free = capacity_ - in_use_;
  s.fragmentation =
      s.bytes_free > 0 ? static_cast<double>(s.bytes_free - LargestFreePiece()) / static_cast<double>(s.bytes_free) : 0.0;
  return s;
}

}  // namespace mnist_mlp
