// Stage 1 of the trace-JSON tokenizer: the structural index of one window, by our own code
// over 64-byte blocks (the method published with simdjson: Langdale & Lemire, "Parsing
// Gigabytes of JSON per Second", 2019), with simdjson's public validate_utf8 for UTF-8
// (called only for a document that has a byte over 0x7f: ASCII is valid UTF-8).
//
// For each 64-byte block, bit masks of its bytes' classes ({ } [ ] : , whitespace, quote,
// backslash, control bytes, bytes over 0x7f) come from AVX-512 or AVX2 (nibble table
// lookups) where the CPU has them, else SSE2 compares (every x86-64 has SSE2; other
// machines classify byte by byte). Then, with bit arithmetic only:
//   - escaped bytes: those after an odd run of backslashes (carried into the next block);
//   - the string mask: prefix XOR of the unescaped quotes (carried as all-ones / zero);
//   - structurals: { } [ ] : , outside strings, and the first byte of every string (its
//     opening quote) and of every scalar (a byte that is neither whitespace nor { } [ ] : ,
//     and does not follow a non-quote scalar byte).
// The positions of the structurals are written in order (16 at a time with AVX-512's
// compress, else bit by bit), followed by three sentinels:
// the document's length twice, then 0 (StructuralWalk reads one past the last).
//
// Errors, in the order they are reported (the reader depends on it: an unclosed string
// makes it close the window with a quote and try again, invalid UTF-8 makes it sanitize
// once and try again):
//   UNCLOSED_STRING   the document ends inside a string;
//   UNESCAPED_CHARS   a byte below 0x20 inside a string;
//   UTF8_ERROR        the document is not valid UTF-8.
// The grammar is not checked here (StructuralWalk does).
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace stepscope::importers {

class StructuralIndex {
 public:
  // Room for documents of up to `length` bytes without reallocating.
  void Reserve(size_t length);

  // Indexes document[0, length) (length < 4 GiB; no padding needed after it).
  simdjson::error_code Build(const char* document, size_t length);

  // Tests: the best code this CPU runs (kBest), or at most AVX2, or the baseline (SSE2 on
  // x86-64; the portable code elsewhere).
  enum class Code { kBest, kAvx2, kBaseline };
  static void UseCodeForTesting(Code code);

  const uint32_t* indexes() const { return indexes_.get(); }
  uint32_t count() const { return count_; }

 private:
  std::unique_ptr<uint32_t[]> indexes_;
  size_t capacity_ = 0;  // documents of up to this many bytes fit
  uint32_t count_ = 0;
};

}  // namespace stepscope::importers
