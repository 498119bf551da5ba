#include "src/importers/json/structural_index.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

#if (defined(__x86_64__) || defined(_M_X64)) && !defined(STEPSCOPE_STRUCTURAL_INDEX_PORTABLE)
#include <immintrin.h>
#define STEPSCOPE_STRUCTURAL_INDEX_X86 1
#endif

namespace stepscope::importers {
namespace {

constexpr size_t kBlockBytes = 64;
constexpr uint64_t kEvenBits = 0x5555555555555555ULL;
constexpr uint64_t kOddBits = ~kEvenBits;
// Entries written past the last structural by Flatten's unconditional stores, plus the
// three sentinels.
constexpr size_t kSlackEntries = 2 * kBlockBytes;

// One bit per byte of a 64-byte block, bit i for byte i.
struct BlockClasses {
  uint64_t op = 0;          // { } [ ] : ,
  uint64_t whitespace = 0;  // space, tab, LF, CR
  uint64_t quote = 0;       // "
  uint64_t backslash = 0;   // '\'
  uint64_t control = 0;     // bytes 0x00-0x1f
  uint64_t non_ascii = 0;   // bytes 0x80-0xff
};

#ifdef STEPSCOPE_STRUCTURAL_INDEX_X86
inline uint64_t Bits16(__m128i mask, int at) {
  return static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(mask))) << at;
}

// SSE2, which every x86-64 has. '[' and '{' (0x5b, 0x7b) and ']' and '}' (0x5d, 0x7d)
// differ only in bit 5, so two compares of (byte | 0x20) find all four.
struct ClassifySse2 {
__attribute__((always_inline)) inline BlockClasses operator()(const char* block) const {
  BlockClasses c;
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  const __m128i colon = _mm_set1_epi8(':');
  const __m128i comma = _mm_set1_epi8(',');
  const __m128i bit5 = _mm_set1_epi8(0x20);
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i lf = _mm_set1_epi8('\n');
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i max_control = _mm_set1_epi8(0x1f);
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * k));
    const __m128i folded = _mm_or_si128(v, bit5);
    const __m128i op = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)),
                                    _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, comma)));
    const __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)),
                                    _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
    const int at = 16 * k;
    c.op |= Bits16(op, at);
    c.whitespace |= Bits16(ws, at);
    c.quote |= Bits16(_mm_cmpeq_epi8(v, quote), at);
    c.backslash |= Bits16(_mm_cmpeq_epi8(v, backslash), at);
    c.control |= Bits16(_mm_cmpeq_epi8(_mm_min_epu8(v, max_control), v), at);
    c.non_ascii |= Bits16(v, at);
  }
  return c;
}
};

// The same with AVX2, { } [ ] : , and whitespace by two table lookups (VPSHUFB) on each
// byte's nibbles: a byte is in a class when its low-nibble entry and its high-nibble
// entry share a bit. Bits 0-2: [ ] { } (high 5 or 7, low b or d), ':' (3, a), ',' (2, c);
// bits 3-4: space (2, 0), tab, LF, CR (0; 9, a, d). No other byte pairs two set bits.
__attribute__((target("avx2"))) inline uint64_t Bits32(__m256i mask, int at) {
  return static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(mask))) << at;
}

struct ClassifyAvx2 {
__attribute__((always_inline, target("avx2"))) inline BlockClasses operator()(const char* block) const {
  BlockClasses c;
  const __m256i low_table = _mm256_setr_epi8(8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 18, 1, 4, 17, 0, 0,  //
                                             8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 18, 1, 4, 17, 0, 0);
  const __m256i high_table = _mm256_setr_epi8(16, 0, 12, 2, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,  //
                                              16, 0, 12, 2, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const __m256i op_bits = _mm256_set1_epi8(7);
  const __m256i ws_bits = _mm256_set1_epi8(0x18);
  const __m256i zero = _mm256_setzero_si256();
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i max_control = _mm256_set1_epi8(0x1f);
  for (int k = 0; k < 2; ++k) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32 * k));
    const __m256i low = _mm256_shuffle_epi8(low_table, _mm256_and_si256(v, nibble));
    const __m256i high = _mm256_shuffle_epi8(high_table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    const __m256i classes = _mm256_and_si256(low, high);
    const int at = 32 * k;
    c.op |= Bits32(_mm256_cmpgt_epi8(_mm256_and_si256(classes, op_bits), zero), at);
    c.whitespace |= Bits32(_mm256_cmpgt_epi8(_mm256_and_si256(classes, ws_bits), zero), at);
    c.quote |= Bits32(_mm256_cmpeq_epi8(v, quote), at);
    c.backslash |= Bits32(_mm256_cmpeq_epi8(v, backslash), at);
    c.control |= Bits32(_mm256_cmpeq_epi8(_mm256_min_epu8(v, max_control), v), at);
    c.non_ascii |= Bits32(v, at);
  }
  return c;
}
};
// ClassifyAvx2's nibble tables, once per 16-byte lane of a 64-byte vector.
alignas(64) constexpr uint8_t kLowNibbleClasses[64] = {
    8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 18, 1, 4, 17, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 18, 1, 4, 17, 0, 0,
    8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 18, 1, 4, 17, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 18, 1, 4, 17, 0, 0};
alignas(64) constexpr uint8_t kHighNibbleClasses[64] = {
    16, 0, 12, 2, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 12, 2, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
    16, 0, 12, 2, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 12, 2, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};

// The same with AVX-512 (F and BW): one 64-byte vector, compares straight to bit masks.
struct ClassifyAvx512 {
__attribute__((always_inline, target("avx512f,avx512bw"))) inline BlockClasses operator()(const char* block) const {
  BlockClasses c;
  const __m512i low_table = _mm512_loadu_si512(kLowNibbleClasses);
  const __m512i high_table = _mm512_loadu_si512(kHighNibbleClasses);
  const __m512i nibble = _mm512_set1_epi8(0x0f);
  const __m512i v = _mm512_loadu_si512(block);
  const __m512i low = _mm512_shuffle_epi8(low_table, _mm512_and_si512(v, nibble));
  const __m512i high = _mm512_shuffle_epi8(high_table, _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble));
  const __m512i classes = _mm512_and_si512(low, high);
  c.op = _mm512_test_epi8_mask(classes, _mm512_set1_epi8(7));
  c.whitespace = _mm512_test_epi8_mask(classes, _mm512_set1_epi8(0x18));
  c.quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
  c.backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
  c.control = _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1f));
  c.non_ascii = _mm512_movepi8_mask(v);
  return c;
}
};

// Flatten with AVX-512's compress: the positions of 16 bits at a time, packed and stored
// in one go (up to 16 entries past the last position are written: the slack).
__attribute__((always_inline, target("avx512f,popcnt"))) inline uint32_t* FlattenAvx512(uint32_t* out, uint32_t base,
                                                                                          uint64_t bits) {
  const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (int k = 0; k < 4; ++k) {
    const auto mask = static_cast<__mmask16>(bits >> (16 * k));
    const __m512i positions = _mm512_add_epi32(iota, _mm512_set1_epi32(static_cast<int>(base + 16 * k)));
    _mm512_storeu_si512(out, _mm512_maskz_compress_epi32(mask, positions));
    out += __builtin_popcount(mask);
  }
  return out;
}
#else
struct ClassifyBytes {
inline BlockClasses operator()(const char* block) const {
  BlockClasses c;
  for (int i = 0; i < 64; ++i) {
    const auto byte = static_cast<unsigned char>(block[i]);
    const uint64_t bit = uint64_t{1} << i;
    switch (byte) {
      case '{': case '}': case '[': case ']': case ':': case ',': c.op |= bit; break;
      case ' ': case '\t': case '\n': case '\r': c.whitespace |= bit; break;
      case '"': c.quote |= bit; break;
      case '\\': c.backslash |= bit; break;
      default: break;
    }
    if (byte < 0x20) c.control |= bit;
    if (byte >= 0x80) c.non_ascii |= bit;
  }
  return c;
}
};
#endif

// Bit i of the result is the XOR of bits 0..i of x: 1 from an opening quote up to (not
// including) its closing quote.
__attribute__((always_inline)) inline uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// The state carried from one block to the next.
class BlockScanner {
 public:
  // The structurals of the next block.
  __attribute__((always_inline)) inline uint64_t Next(const BlockClasses& c) {
    const uint64_t quote = c.quote & ~Escaped(c.backslash);
    const uint64_t in_string = PrefixXor(quote) ^ in_string_;  // opening quote .. before the closing one
    in_string_ = static_cast<uint64_t>(static_cast<int64_t>(in_string) >> 63);
    const uint64_t string_tail = in_string ^ quote;  // after the opening quote .. the closing one
    const uint64_t scalar = ~(c.op | c.whitespace);
    const uint64_t nonquote_scalar = scalar & ~quote;
    const uint64_t follows_scalar = (nonquote_scalar << 1) | after_scalar_;
    after_scalar_ = nonquote_scalar >> 63;
    unescaped_ |= c.control & in_string;
    non_ascii_ |= c.non_ascii;
    return (c.op | (scalar & ~follows_scalar)) & ~string_tail;
  }

  bool in_string() const { return in_string_ != 0; }
  bool unescaped_control() const { return unescaped_ != 0; }
  bool non_ascii() const { return non_ascii_ != 0; }

 private:
  // The bytes escaped by a backslash: within a run of backslashes every second one, and
  // the byte after a run of odd length. A run that starts on an even bit has its escaped
  // bytes on odd bits and the other way round; adding a run's first bit to the run clears
  // the run and sets the bit after it, which tells the runs (and their ends) apart by the
  // parity of their start.
  __attribute__((always_inline)) inline uint64_t Escaped(uint64_t backslash) {
    const uint64_t carried = escape_next_;
    if (backslash == 0) {
      escape_next_ = 0;
      return carried;
    }
    backslash &= ~carried;  // an escaped backslash escapes nothing
    const uint64_t starts = backslash & ~(backslash << 1);
    const uint64_t even_sum = backslash + (starts & kEvenBits);
    uint64_t odd_sum = 0;
    // A run that started on an odd bit and reaches the block's end has odd length.
    escape_next_ = __builtin_add_overflow(backslash, starts & kOddBits, &odd_sum) ? 1 : 0;
    // backslash ^ sum: the bits of the runs whose starts were added (cleared by the carry)
    // and the bit after each of them (set by it); the other runs are unchanged.
    const uint64_t even_runs_and_ends = backslash ^ even_sum;
    const uint64_t odd_runs_and_ends = backslash ^ odd_sum;
    return (even_runs_and_ends & kOddBits) | (odd_runs_and_ends & kEvenBits) | carried;
  }

  uint64_t escape_next_ = 0;   // 1: the next block's first byte is escaped
  uint64_t in_string_ = 0;     // all ones: the next block starts inside a string
  uint64_t after_scalar_ = 0;  // 1: the last byte was part of a scalar (not a quote)
  uint64_t unescaped_ = 0;     // control bytes seen inside strings
  uint64_t non_ascii_ = 0;     // bytes 0x80-0xff seen
};

// The index of the lowest set bit; 63 for 0 (bit 63 is or-ed in, which changes nothing
// for any other value): no branch for the zero the unconditional stores below meet.
__attribute__((always_inline)) inline uint32_t LowestBit(uint64_t bits) {
  return static_cast<uint32_t>(__builtin_ctzll(bits | (uint64_t{1} << 63)));
}

// Appends the positions of the set bits of `bits` (block at `base`). Writes 16 entries
// unconditionally (trace JSON has ~15 structurals per 64 bytes), so the common block
// costs no branch per structural; the extra entries are overwritten by the next block or
// lie in the slack.
__attribute__((always_inline)) inline uint32_t* Flatten(uint32_t* out, uint32_t base, uint64_t bits) {
  const int count = std::popcount(bits);
#pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) {
    out[k] = base + LowestBit(bits);
    bits &= bits - 1;
  }
  if (count > 16) {
    for (int k = 16; k < count; ++k) {
      out[k] = base + LowestBit(bits);
      bits &= bits - 1;
    }
  }
  return out + count;
}

// What indexing the blocks found besides the structurals.
struct BlocksResult {
  uint32_t* end = nullptr;  // past the last structural written
  bool in_string = false;   // the document ends inside a string
  bool unescaped_control = false;
  bool non_ascii = false;  // UTF-8 needs checking (ASCII is valid UTF-8)
};

// The loop over the blocks, with `Classify` (a class above) for each and a scanner of its
// own (local, so its state stays in registers). A macro, not a function template: the
// AVX2 classifier can only be inlined into a function compiled for AVX2, and a template
// of default target is not one.
#define STEPSCOPE_INDEX_BLOCKS(Classify, Flatten, document, length, out)                       \
  do {                                                                                          \
    const Classify classify;                                                                    \
    BlockScanner scanner;                                                                       \
    size_t at = 0;                                                                              \
    for (; at + kBlockBytes <= length; at += kBlockBytes) {                                     \
      out = Flatten(out, static_cast<uint32_t>(at), scanner.Next(classify(document + at)));     \
    }                                                                                           \
    if (at < length) {                                                                          \
      /* The last partial block, padded with spaces (whitespace: no structural, no string). */  \
      char block[kBlockBytes];                                                                  \
      std::memset(block, ' ', sizeof(block));                                                   \
      std::memcpy(block, document + at, length - at);                                           \
      out = Flatten(out, static_cast<uint32_t>(at), scanner.Next(classify(block)));             \
    }                                                                                           \
    return BlocksResult{out, scanner.in_string(), scanner.unescaped_control(), scanner.non_ascii()}; \
  } while (false)

#ifdef STEPSCOPE_STRUCTURAL_INDEX_X86
// Compiled three times: for AVX-512 machines (F and BW), for AVX2 machines (with BMI and
// POPCNT for the bit work) and for any x86-64 (SSE2); Build picks one at run time.
__attribute__((target("avx2,bmi,bmi2,popcnt"))) BlocksResult IndexAvx2(const char* document, size_t length,
                                                                              uint32_t* out) {
  STEPSCOPE_INDEX_BLOCKS(ClassifyAvx2, Flatten, document, length, out);
}

__attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt"))) BlocksResult IndexAvx512(const char* document,
                                                                                    size_t length, uint32_t* out) {
  STEPSCOPE_INDEX_BLOCKS(ClassifyAvx512, FlattenAvx512, document, length, out);
}

BlocksResult IndexSse2(const char* document, size_t length, uint32_t* out) {
  STEPSCOPE_INDEX_BLOCKS(ClassifySse2, Flatten, document, length, out);
}

std::atomic<StructuralIndex::Code> code_for_testing{StructuralIndex::Code::kBest};

bool HasAvx512() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
                          __builtin_cpu_supports("popcnt");
  return has;
}

bool HasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                          __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  return has;
}
#else
BlocksResult IndexBytes(const char* document, size_t length, uint32_t* out) {
  STEPSCOPE_INDEX_BLOCKS(ClassifyBytes, Flatten, document, length, out);
}
#endif

}  // namespace

void StructuralIndex::UseCodeForTesting(Code code) {
#ifdef STEPSCOPE_STRUCTURAL_INDEX_X86
  code_for_testing = code;
#else
  (void)code;
#endif
}

void StructuralIndex::Reserve(size_t length) {
  if (indexes_ != nullptr && capacity_ >= length) return;
  // Uninitialized: every entry read is written first.
  indexes_.reset(new uint32_t[length + kSlackEntries]);
  capacity_ = length;
}

simdjson::error_code StructuralIndex::Build(const char* document, size_t length) {
  Reserve(length);
  count_ = 0;
  uint32_t* const first = indexes_.get();
#ifdef STEPSCOPE_STRUCTURAL_INDEX_X86
  const Code code = code_for_testing.load(std::memory_order_relaxed);
  const BlocksResult blocks = code == Code::kBest && HasAvx512()     ? IndexAvx512(document, length, first)
                              : code != Code::kBaseline && HasAvx2() ? IndexAvx2(document, length, first)
                                                                     : IndexSse2(document, length, first);
#else
  const BlocksResult blocks = IndexBytes(document, length, first);
#endif
  if (blocks.in_string) return simdjson::UNCLOSED_STRING;
  if (blocks.unescaped_control) return simdjson::UNESCAPED_CHARS;
  count_ = static_cast<uint32_t>(blocks.end - first);
  if (count_ == 0) return simdjson::EMPTY;
  first[count_] = static_cast<uint32_t>(length);
  first[count_ + 1] = static_cast<uint32_t>(length);
  first[count_ + 2] = 0;
  if (blocks.non_ascii && !simdjson::validate_utf8(document, length)) return simdjson::UTF8_ERROR;
  return simdjson::SUCCESS;
}

}  // namespace stepscope::importers
