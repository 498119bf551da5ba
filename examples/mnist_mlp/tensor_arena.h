// TensorArena: the memory the model's per-step tensors (activations, their gradients) come
// from. One block reserved up front, handed out in 256-byte-aligned pieces first fit, freed
// pieces merged with their free neighbours, as a device allocator (TensorFlow's BFC) does.
// Its statistics are what an allocator reports to the profiler: bytes in use, the peak,
// free bytes and fragmentation = (free - largest free piece) / free.
//
// An ArenaObserver hears every allocation and free with the state after it; the training
// loop installs one that reports them to stepscope (trainer.h), so this file records
// nothing itself (mnist_mlp_data does not link the recorder).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace mnist_mlp {

struct ArenaState {
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = 0;
  int64_t bytes_free = 0;  // capacity - in use
  double fragmentation = 0;
};

struct ArenaEvent {
  bool allocation = true;
  uintptr_t address = 0;
  int64_t requested_bytes = 0;
  int64_t allocation_bytes = 0;
  std::string_view op;     // allocations only
  std::string_view shape;  // allocations only, e.g. "[64,320]"
};

class ArenaObserver {
 public:
  virtual ~ArenaObserver() = default;
  virtual void OnEvent(std::string_view arena_name, const ArenaEvent& event, const ArenaState& state) = 0;
};

class TensorArena {
 public:
  static constexpr int64_t kAlignment = 256;

  TensorArena(std::string name, int64_t capacity_bytes);
  TensorArena(const TensorArena&) = delete;
  TensorArena& operator=(const TensorArena&) = delete;

  // `count` floats for `op` (shape text for the profile); throws std::bad_alloc when no
  // free piece is large enough.
  float* AllocateFloats(size_t count, std::string_view op, std::string_view shape);
  void Free(float* pointer);

  ArenaState state() const;
  const std::string& name() const { return name_; }
  void set_observer(ArenaObserver* observer) { observer_ = observer; }

 private:
  int64_t LargestFreePiece() const;

  std::string name_;
  int64_t capacity_;
  std::unique_ptr<std::byte[]> block_;
  std::byte* base_ = nullptr;           // block_ aligned to kAlignment
  std::map<int64_t, int64_t> free_;     // offset -> size, merged with neighbours
  std::map<int64_t, int64_t> used_;     // offset -> size
  int64_t in_use_ = 0;
  int64_t peak_ = 0;
  ArenaObserver* observer_ = nullptr;
};

// A run of floats from an arena, freed when it goes (or when Release is called).
class ArenaTensor {
 public:
  ArenaTensor() = default;
  ~ArenaTensor() { Release(); }
  ArenaTensor(const ArenaTensor&) = delete;
  ArenaTensor& operator=(const ArenaTensor&) = delete;

  void Allocate(TensorArena* arena, size_t count, std::string_view op, std::string_view shape) {
    Release();
    data_ = arena->AllocateFloats(count, op, shape);
    arena_ = arena;
    size_ = count;
  }
  void Release() {
    if (arena_ != nullptr) arena_->Free(data_);
    arena_ = nullptr;
    data_ = nullptr;
    size_ = 0;
  }
  float* data() { return data_; }
  const float* data() const { return data_; }
  size_t size() const { return size_; }
  float* begin() { return data_; }
  float* end() { return data_ + size_; }
  float& operator[](size_t i) { return data_[i]; }
  float operator[](size_t i) const { return data_[i]; }

 private:
  TensorArena* arena_ = nullptr;
  float* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace mnist_mlp
