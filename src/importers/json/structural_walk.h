// Stage 2 of the trace-JSON tokenizer: reads trace events from the structural index of
// one window. Stage 1 (structural_index.h, SIMD) lists the position of every { } [ ] : ,
// and of the first byte of every string and scalar, and has checked UTF-8 and that every
// string is closed; this walk checks the grammar (keys are strings, ':' after a key, ','
// or a closing bracket after a value) and hands out the event fields as views of the
// text. It replaces simdjson On-Demand's iteration, whose generic per-value machinery
// (iterator state, depth tracking, error plumbing) cost more than stage 1 itself for what
// is here a few loads and compares per token.
//
// Values are read as On-Demand's raw tokens were, which the importers' output depends
// on: strings as their escaped content, scalars as their text up to the next structural
// without trailing whitespace, arrays and objects as their JSON text up to the next
// structural (trailing whitespace included, as On-Demand's raw_json() returns it).
// Nested values are checked as a JSON parser would, up to kMaxNesting levels.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string_view>

#include "src/importers/json/raw_trace_event.h"

namespace stepscope::importers {

class StructuralWalk {
 public:
  // Deepest nesting accepted in a value (simdjson's default limit, which the parser had).
  static constexpr uint32_t kMaxNesting = 1024;

  // `document` is what stage 1 indexed; `indexes` its structural positions (`count` of
  // them, followed by StructuralIndex's sentinels).
  StructuralWalk(const char* document, const uint32_t* indexes, uint32_t count)
      : document_(document), indexes_(indexes), count_(count) {}

  uint32_t count() const { return count_; }
  // Position in the document of structural `i` (i <= count: the sentinel is the length).
  size_t position(uint32_t i) const { return indexes_[i]; }
  // The byte at structural `i` (i < count).
  char at(uint32_t i) const { return document_[indexes_[i]]; }

  // Reads the object whose '{' is structural `i` into `event` (which must be cleared);
  // `*next` is the structural after its '}'.
  simdjson::error_code ReadEvent(uint32_t i, RawTraceEvent* event, uint32_t* next) const;
  // Reads the value that starts at structural `i`; `*next` is the structural after it.
  simdjson::error_code ReadValue(uint32_t i, JsonToken* token, uint32_t* next) const;

 private:
  // Calls on_field(key, value_index, &after) for each member of the object at `i`.
  template <typename OnField>
  simdjson::error_code ReadObject(uint32_t i, uint32_t* next, OnField on_field) const;
  // The content of the string whose opening quote is structural `i`.
  inline simdjson::error_code StringContent(uint32_t i, std::string_view* content) const;
  // ReadValue, inlined where it is called per field.
  inline simdjson::error_code ReadValueInline(uint32_t i, JsonToken* token, uint32_t* next) const;
  // ReadValue of an array or object.
  simdjson::error_code ReadNested(uint32_t i, JsonToken* token, uint32_t* next) const;
  // The structural that closes the array or object opened at `i`, which must be well formed.
  simdjson::error_code FindClose(uint32_t i, uint32_t* close) const;
  // The text from structural `i` to the next one, without trailing whitespace.
  inline std::string_view TokenText(uint32_t i) const;

  const char* document_;
  const uint32_t* indexes_;
  uint32_t count_;
};

}  // namespace stepscope::importers
