// gzip detection, compression (zlib) and bounded decompression (Intel ISA-L's igzip, about
// 3x zlib's speed: inflating is a third of importing a .gz trace with zlib).
//
// Decompression is bounded twice, because a few KB of hostile gzip can expand to
// gigabytes: by an absolute output limit, and by a ratio — once more than
// `ratio_floor_bytes` have come out, output may be at most `max_ratio` times the
// compressed bytes consumed. Real profiles and traces compress 4-20x; 4 GiB of zeros
// compress ~1000x. So a bomb is refused after inflating ~64 MiB, not 16 GiB.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "stepscope/status.h"

struct inflate_state;

namespace stepscope::base {

struct InflateLimits {
  uint64_t max_output_bytes = uint64_t{16} << 30;
  uint64_t max_ratio = 200;
  uint64_t ratio_floor_bytes = uint64_t{64} << 20;
};

// True when `data` starts with the gzip magic bytes 1f 8b.
bool IsGzip(std::string_view data);

// A streaming gzip (or zlib) inflater over input handed in pieces, concatenated gzip
// members included; zero bytes between or after members are padding and skipped.
// Errors name what went wrong and where (compressed byte offsets):
//   kDataLoss: the stream ends early ("truncated"), zlib finds corrupt data, or bytes that
//     are not another gzip member follow a complete member ("trailing garbage");
//   kResourceExhausted: past max_output_bytes, or past the ratio (a likely gzip bomb).
// Errors are sticky. Not thread-safe; one stream per object.
class GzipInflater {
 public:
  explicit GzipInflater(const InflateLimits& limits = {});
  ~GzipInflater();
  GzipInflater(const GzipInflater&) = delete;
  GzipInflater& operator=(const GzipInflater&) = delete;

  // Consumes from the front of `*input` and writes up to `out_size` bytes to `out`;
  // returns how many were written. `input_end`: nothing follows `*input`. When it returns
  // fewer than `out_size` bytes and !finished(), it needs more input: call again with
  // what is left of `*input` (at most one byte, the start of a gzip magic) followed by
  // the next bytes.
  StatusOr<size_t> Inflate(std::string_view* input, bool input_end, char* out, size_t out_size);

  bool finished() const { return state_ == State::kDone; }
  uint64_t total_in() const { return total_in_; }
  uint64_t total_out() const { return total_out_; }

 private:
  enum class State { kStart, kMember, kBetweenMembers, kDone };
  // Between members: skips padding and starts the next member, or ends. False when it
  // needs more input.
  bool StartNextMember(std::string_view* input, bool input_end);
  // One igzip call on the current member.
  Status InflateMember(std::string_view* input, bool input_end, char* out, size_t out_size, size_t* produced,
                       bool* needs_input);
  // At the end of a member: igzip reads a few bytes ahead into its bit buffer; they belong
  // to what follows the member, and go back in front of it (carry_).
  void ReturnReadAhead();
  Status CheckLimits();
  Status Fail(Status status);

  InflateLimits limits_;
  inflate_state* stream_ = nullptr;
  State state_ = State::kStart;
  // Bytes after a member that igzip had read ahead from an earlier piece of input: they
  // come before the rest of the input.
  std::string carry_;
  size_t carry_position_ = 0;
  uint64_t total_in_ = 0;
  uint64_t total_out_ = 0;
  Status error_;
};

// True for GzipInflater's "the stream ends early" error (as opposed to corrupt data or
// trailing garbage): readers that may keep what came before a cut (--allow_truncated)
// tell the two apart with this.
bool IsTruncatedGzipError(const Status& status);

// Inflates gzip (or zlib) data held in memory, with GzipInflater's rules.
StatusOr<std::string> GunzipWithLimit(std::string_view data, const InflateLimits& limits);
// The same with only an absolute limit changed from the defaults.
StatusOr<std::string> GunzipWithLimit(std::string_view data, uint64_t max_output_bytes);

// Compresses `data` as one gzip member.
StatusOr<std::string> Gzip(std::string_view data, int level = 6);

// Streaming gzip compression for exports (trace JSON files and downloads): what is written
// is compressed and the gzip bytes handed to `out`, in pieces of up to 256 KiB. igzip at
// level 1: on trace JSON ~3 GB/s per core against zlib level 6's ~0.16 GB/s, for files
// about a third larger (measured ratio 14.4 against 19.2); zlib made a 1.4 GB export spend
// two thirds of its time compressing.
class GzipDeflater {
 public:
  explicit GzipDeflater(std::function<bool(std::string_view)> out);
  ~GzipDeflater();
  GzipDeflater(const GzipDeflater&) = delete;
  GzipDeflater& operator=(const GzipDeflater&) = delete;

  // False once `out` refused bytes (nothing more is written then).
  bool Write(std::string_view data);
  // Ends the stream (gzip trailer); call once, after the last Write.
  bool Finish();

 private:
  bool Pump(bool end_of_stream);
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace stepscope::base
