// A per-thread cache from an op's name pointer to the record head stepscope interned for
// it, so that recording an ATen op costs a pointer lookup and a short compare instead of
// strlen + hashing the name in the thread buffer's table (InternDynamicName).
//
// Why a pointer key works: the dispatcher hands RecordFunction a reference to the op's
// FunctionSchema, whose name lives as long as the op is registered, so every call of
// aten::mm passes the same pointer. Names RecordFunction copies into itself (autograd
// nodes, record_function scopes) have pointers that change or get reused for another name;
// an entry for such a name is therefore only used when its saved bytes still equal the
// name's, and a mismatch costs one ordinary intern and replaces the entry. An entry for a
// schema's name skips that check (the caller says which a name is when the entry is
// filled): in the real training step the check's reads of two cold strings cost about
// 20 ns per op. What that gives up: an op deregistered during a session (a
// torch.library.Library destroyed) whose name's memory then holds another name keeps the
// old name on this thread until the session ends.
//
// Heads are valid only within the session that interned them (the definition is in that
// session's buffer): entries remember the session's epoch and are ignored in later ones.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "stepscope/internal/recorder.h"

namespace stepscope::python {

class OpNameCache {
 public:
  // The kDynamicEvent head for `name` in session `epoch`, or 0 when the thread's buffer is
  // full (counted as dropped by the recorder). `is_schema_name()` (called only when the
  // entry is filled) says whether `name` is an op schema's, whose pointer names it for as
  // long as the op is registered.
  template <typename IsSchemaName>
  uint64_t Head(const char* name, uint64_t epoch, IsSchemaName&& is_schema_name) {
    Entry& entry = entries_[Slot(name)];
    if (entry.name_ptr == name && entry.epoch == epoch && (entry.schema_name || Matches(entry, name))) {
      return entry.head;
    }
    return Refill(entry, name, epoch, is_schema_name());
  }

 private:
  struct Entry {
    const char* name_ptr = nullptr;
    uint64_t epoch = 0;
    uint64_t head = 0;
    bool schema_name = false;  // the pointer is a schema's: `bytes` is not checked
    std::string bytes;  // the name when interned, to detect a reused pointer
  };
  static constexpr size_t kSlots = 256;

  static size_t Slot(const char* name) {
    // Fibonacci hashing of the address: names of one op table are close together.
    return static_cast<size_t>((reinterpret_cast<uintptr_t>(name) * 0x9E3779B97F4A7C15ull) >> 56);
  }
  static bool Matches(const Entry& entry, const char* name) {
    // strncmp, not memcmp: it stops at the end of a shorter name instead of reading past it.
    return std::strncmp(entry.bytes.c_str(), name, entry.bytes.size()) == 0 && name[entry.bytes.size()] == '\0';
  }
  static uint64_t Refill(Entry& entry, const char* name, uint64_t epoch, bool schema_name) {
    const size_t size = std::strlen(name);
    const uint64_t head = internal::InternDynamicName(name, size);
    if (head == 0) return 0;
    entry.name_ptr = name;
    entry.epoch = epoch;
    entry.head = head;
    entry.schema_name = schema_name;
    entry.bytes.assign(name, size);
    return head;
  }

  std::array<Entry, kSlots> entries_;
};

}  // namespace stepscope::python
