#include "src/base/gzip.h"

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "src/base/status_macros.h"

namespace stepscope::base {
namespace {
// igzip and zlib count in 32 bits; feed them at most this much per call.
constexpr size_t kMaxChunkBytes = 1u << 30;
constexpr std::string_view kTruncatedMessage = "gzip data is truncated (the compressed stream ends early)";

std::string_view IgzipError(int code) {
  switch (code) {
    case ISAL_INVALID_BLOCK: return "invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid back-reference distance";
    case ISAL_INVALID_WRAPPER: return "invalid gzip or zlib header";
    case ISAL_UNSUPPORTED_METHOD: return "compression method is not deflate";
    case ISAL_INCORRECT_CHECKSUM: return "checksum mismatch";
    case ISAL_NEED_DICT: return "needs a preset dictionary";
    default: return "unknown error";
  }
}
}  // namespace

bool IsTruncatedGzipError(const Status& status) {
  return status.code() == StatusCode::kDataLoss && status.message().find(kTruncatedMessage) != std::string::npos;
}

bool IsGzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
         static_cast<unsigned char>(data[1]) == 0x8b;
}

// The state is zeroed, not just initialized by isal_inflate_init: a corrupt stream can
// copy from history before its first byte (igzip does not refuse every such distance),
// and that history must be zeros, not whatever the heap held, or the same bytes would
// inflate differently from one call to the next.
GzipInflater::GzipInflater(const InflateLimits& limits) : limits_(limits), stream_(new inflate_state()) {
  isal_inflate_init(stream_);
}

GzipInflater::~GzipInflater() { delete stream_; }

Status GzipInflater::Fail(Status status) {
  error_ = std::move(status);
  return error_;
}

Status GzipInflater::CheckLimits() {
  if (total_out_ > limits_.max_output_bytes) {
    return Fail(ResourceExhaustedError("gzip data expands past the limit of " +
                                       std::to_string(limits_.max_output_bytes) + " bytes"));
  }
  if (total_out_ > limits_.ratio_floor_bytes && total_out_ / std::max<uint64_t>(total_in_, 1) > limits_.max_ratio) {
    return Fail(ResourceExhaustedError(
        "gzip data expands more than " + std::to_string(limits_.max_ratio) + "x (" + std::to_string(total_in_) +
        " compressed bytes became over " + std::to_string(total_out_) +
        "); refused as a likely gzip bomb (real profiles and traces compress 4-20x)"));
  }
  return OkStatus();
}

bool GzipInflater::StartNextMember(std::string_view* input, bool input_end) {
  // What follows a member is carry_ (bytes igzip had read ahead), then the input.
  auto available = [&] { return carry_.size() - carry_position_ + input->size(); };
  auto peek = [&](size_t k) {
    const size_t carried = carry_.size() - carry_position_;
    return static_cast<unsigned char>(k < carried ? carry_[carry_position_ + k] : (*input)[k - carried]);
  };
  auto consume = [&](size_t n) {
    total_in_ += n;
    const size_t from_carry = std::min(n, carry_.size() - carry_position_);
    carry_position_ += from_carry;
    input->remove_prefix(n - from_carry);
  };
  while (available() > 0 && peek(0) == 0) consume(1);
  if (available() == 0) {
    if (input_end) state_ = State::kDone;
    return input_end;
  }
  if (available() < 2 && !input_end) return false;  // the magic may continue in the next piece
  if (available() < 2 || peek(0) != 0x1f || peek(1) != 0x8b) {
    (void)Fail(DataLossError("trailing garbage after the gzip data at byte " + std::to_string(total_in_) +
                             " (neither another gzip member nor zero padding)"));
    return true;
  }
  isal_inflate_reset(stream_);
  stream_->crc_flag = ISAL_GZIP;
  state_ = State::kMember;
  return true;
}

void GzipInflater::ReturnReadAhead() {
  // The bytes left in igzip's bit buffer after the member's trailer, first byte lowest:
  // they come before whatever is left of the carry and the input.
  const size_t unread = static_cast<size_t>(stream_->read_in_length) / 8;
  std::string bytes;
  for (size_t i = 0; i < unread; ++i) bytes.push_back(static_cast<char>((stream_->read_in >> (8 * i)) & 0xff));
  stream_->read_in = 0;
  stream_->read_in_length = 0;
  total_in_ -= unread;
  carry_ = bytes + carry_.substr(carry_position_);
  carry_position_ = 0;
}

Status GzipInflater::InflateMember(std::string_view* input, bool input_end, char* out, size_t out_size,
                                   size_t* produced, bool* needs_input) {
  // Bytes read ahead past the previous member go first.
  std::string_view carried(carry_.data() + carry_position_, carry_.size() - carry_position_);
  const bool from_carry = !carried.empty();
  std::string_view* in = from_carry ? &carried : input;
  const size_t in_chunk = std::min(kMaxChunkBytes, in->size());
  const size_t room = std::min(kMaxChunkBytes, out_size - *produced);
  stream_->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in->data()));
  stream_->avail_in = static_cast<uint32_t>(in_chunk);
  stream_->next_out = reinterpret_cast<uint8_t*>(out + *produced);
  stream_->avail_out = static_cast<uint32_t>(room);
  const int rc = isal_inflate(stream_);
  if (stream_->avail_in > in_chunk) {
    // igzip handed back bytes its bit buffer had read in an earlier call (it rewinds
    // next_in past this chunk's start). Only corrupt data gets here; those bytes are gone
    // from `input`, so stop rather than step back into them.
    return Fail(DataLossError("gzip data is corrupt at compressed byte " + std::to_string(total_in_) +
                              " (the decoder stepped back before this read)"));
  }
  const size_t consumed = in_chunk - stream_->avail_in;
  const size_t got = room - stream_->avail_out;
  if (from_carry) {
    carry_position_ += consumed;
    if (carry_position_ == carry_.size()) {
      carry_.clear();
      carry_position_ = 0;
    }
  } else {
    input->remove_prefix(consumed);
  }
  total_in_ += consumed;
  total_out_ += got;
  *produced += got;
  STEPSCOPE_RETURN_IF_ERROR(CheckLimits());
  if (rc != ISAL_DECOMP_OK) {
    return Fail(DataLossError("gzip data is corrupt at compressed byte " + std::to_string(total_in_) + " (" +
                              std::string(IgzipError(rc)) + ")"));
  }
  if (stream_->block_state == ISAL_BLOCK_FINISH) {
    ReturnReadAhead();
    state_ = State::kBetweenMembers;
    return OkStatus();
  }
  if (!from_carry && input->empty() && got < room) {
    if (input_end) return Fail(DataLossError(std::string(kTruncatedMessage)));
    *needs_input = true;
  }
  return OkStatus();
}

StatusOr<size_t> GzipInflater::Inflate(std::string_view* input, bool input_end, char* out, size_t out_size) {
  if (!error_.ok()) return error_;
  size_t produced = 0;
  while (produced < out_size && state_ != State::kDone) {
    if (state_ == State::kStart) {
      // The first member may be zlib instead of gzip (zlib's "15 + 32" accepted both).
      if (input->size() < 2 && !input_end) break;
      isal_inflate_reset(stream_);
      stream_->crc_flag = IsGzip(*input) ? ISAL_GZIP : ISAL_ZLIB;
      state_ = State::kMember;
      continue;
    }
    if (state_ == State::kBetweenMembers) {
      if (!StartNextMember(input, input_end)) break;
      if (!error_.ok()) break;  // reported below, after the bytes already produced
      continue;
    }
    bool needs_input = false;
    Status status = InflateMember(input, input_end, out, out_size, &produced, &needs_input);
    if (!status.ok()) {
      // Bytes already produced are handed out first; the error comes with the next call.
      if (produced > 0) return produced;
      return status;
    }
    if (needs_input) break;
  }
  if (!error_.ok() && produced == 0) return error_;
  return produced;
}

namespace {

// The output's size as the gzip trailer states it (ISIZE: the last member's size mod
// 2^32), or 0. A hint only: a file of several members, or over 4 GiB, or lying, is read
// all the same; it saves the doublings (fresh pages, zeroed then copied) that dominated
// reading a pod's thousands of small summaries.
uint64_t StatedSize(std::string_view data) {
  if (data.size() < 18) return 0;
  uint32_t size = 0;
  for (int i = 0; i < 4; ++i) size |= static_cast<uint32_t>(static_cast<uint8_t>(data[data.size() - 4 + i])) << (8 * i);
  // Deflate inflates at most ~1032:1: a trailer claiming more is not trusted with memory.
  return std::min<uint64_t>(size, uint64_t{data.size()} * 1032);
}

}  // namespace

StatusOr<std::string> GunzipWithLimit(std::string_view data, const InflateLimits& limits) {
  GzipInflater inflater(limits);
  std::string out;
  // One byte over the stated size, so that a truthful trailer ends the loop without a resize.
  const uint64_t guess = std::max<uint64_t>({data.size() * 4, 4096, StatedSize(data) + 1});
  out.resize(std::min<uint64_t>(guess, limits.max_output_bytes + 1));
  size_t out_pos = 0;
  while (!inflater.finished()) {
    if (out_pos == out.size()) out.resize(std::min<uint64_t>(out.size() * 2, limits.max_output_bytes + 1));
    StatusOr<size_t> got = inflater.Inflate(&data, /*input_end=*/true, out.data() + out_pos, out.size() - out_pos);
    if (!got.ok()) return got.status();
    out_pos += *got;
  }
  out.resize(out_pos);
  return out;
}

StatusOr<std::string> GunzipWithLimit(std::string_view data, uint64_t max_output_bytes) {
  InflateLimits limits;
  limits.max_output_bytes = max_output_bytes;
  return GunzipWithLimit(data, limits);
}

StatusOr<std::string> Gzip(std::string_view data, int level) {
  z_stream stream{};
  // 15 + 16: write a gzip header.
  if (deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return InternalError("deflateInit2 failed");
  }
  std::string out;
  out.resize(deflateBound(&stream, static_cast<uLong>(std::min(data.size(), kMaxChunkBytes))) + 64);
  size_t in_pos = 0;
  size_t out_pos = 0;
  int rc = Z_OK;
  do {
    if (stream.avail_in == 0 && in_pos < data.size()) {
      size_t chunk = std::min(kMaxChunkBytes, data.size() - in_pos);
      stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in_pos));
      stream.avail_in = static_cast<uInt>(chunk);
      in_pos += chunk;
    }
    if (out_pos == out.size()) out.resize(out.size() * 2);
    size_t room = std::min(kMaxChunkBytes, out.size() - out_pos);
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + out_pos);
    stream.avail_out = static_cast<uInt>(room);
    rc = deflate(&stream, in_pos == data.size() ? Z_FINISH : Z_NO_FLUSH);
    out_pos += room - stream.avail_out;
  } while (rc == Z_OK || rc == Z_BUF_ERROR);
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) return InternalError("deflate failed");
  out.resize(out_pos);
  return out;
}

struct GzipDeflater::State {
  std::function<bool(std::string_view)> out;
  isal_zstream stream{};
  std::vector<uint8_t> level_buffer = std::vector<uint8_t>(ISAL_DEF_LVL1_DEFAULT);
  std::vector<uint8_t> output = std::vector<uint8_t>(256 << 10);
  bool ok = true;
};

GzipDeflater::GzipDeflater(std::function<bool(std::string_view)> out) : state_(std::make_unique<State>()) {
  state_->out = std::move(out);
  isal_zstream& s = state_->stream;
  isal_deflate_init(&s);
  s.level = 1;
  s.level_buf = state_->level_buffer.data();
  s.level_buf_size = static_cast<uint32_t>(state_->level_buffer.size());
  s.gzip_flag = IGZIP_GZIP;
  s.flush = NO_FLUSH;
}

GzipDeflater::~GzipDeflater() = default;

// Runs the compressor until it has taken all input (and, at the end of the stream, written
// the trailer), handing each full or final output buffer on.
bool GzipDeflater::Pump(bool end_of_stream) {
  isal_zstream& s = state_->stream;
  s.end_of_stream = end_of_stream ? 1 : 0;
  while (true) {
    s.next_out = state_->output.data();
    s.avail_out = static_cast<uint32_t>(state_->output.size());
    if (isal_deflate(&s) != COMP_OK) return state_->ok = false;
    const size_t produced = state_->output.size() - s.avail_out;
    if (produced > 0 &&
        !state_->out(std::string_view(reinterpret_cast<const char*>(state_->output.data()), produced))) {
      return state_->ok = false;
    }
    const bool done = end_of_stream ? s.internal_state.state == ZSTATE_END : s.avail_in == 0 && s.avail_out != 0;
    if (done) return true;
  }
}

bool GzipDeflater::Write(std::string_view data) {
  if (!state_->ok) return false;
  while (!data.empty()) {
    const size_t chunk = std::min(data.size(), kMaxChunkBytes);
    state_->stream.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(data.data()));
    state_->stream.avail_in = static_cast<uint32_t>(chunk);
    if (!Pump(/*end_of_stream=*/false)) return false;
    data.remove_prefix(chunk);
  }
  return true;
}

bool GzipDeflater::Finish() {
  if (!state_->ok) return false;
  state_->stream.next_in = nullptr;
  state_->stream.avail_in = 0;
  return Pump(/*end_of_stream=*/true);
}

}  // namespace stepscope::base
