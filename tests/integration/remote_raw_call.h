// Calling a gRPC method by path with raw message bytes, and reading protobuf wire format
// by field number, so the tests depend on nothing but the numbers in the reference.
#pragma once

#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <string>
#include <vector>

namespace stepscope::testing {

struct RawReply {
  grpc::Status status;
  std::string bytes;
};

inline RawReply CallRaw(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                        const std::string& request_bytes, std::chrono::milliseconds deadline = std::chrono::seconds(30)) {
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + deadline);
  grpc::Slice slice(request_bytes.data(), request_bytes.size());
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  std::promise<grpc::Status> done;
  stub.UnaryCall(&context, method, grpc::StubOptions(), &request, &response,
                 [&done](grpc::Status status) { done.set_value(std::move(status)); });
  RawReply reply;
  reply.status = done.get_future().get();
  std::vector<grpc::Slice> slices;
  if (reply.status.ok() && response.Dump(&slices).ok()) {
    for (const grpc::Slice& part : slices) reply.bytes.append(reinterpret_cast<const char*>(part.begin()), part.size());
  }
  return reply;
}

// --- protobuf wire format, by hand ---
inline void PutVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}
inline void PutVarintField(int field, uint64_t value, std::string* out) {
  PutVarint(static_cast<uint64_t>(field) << 3 | 0, out);
  PutVarint(value, out);
}
inline void PutBytesField(int field, const std::string& bytes, std::string* out) {
  PutVarint(static_cast<uint64_t>(field) << 3 | 2, out);
  PutVarint(bytes.size(), out);
  out->append(bytes);
}

struct WireField {
  int wire_type = 0;
  uint64_t varint = 0;
  std::string bytes;
};

// Top-level fields of a message (field number -> occurrences); false on malformed input.
inline bool ParseWire(const std::string& message, std::multimap<int, WireField>* fields) {
  size_t pos = 0;
  auto varint = [&](uint64_t* value) {
    *value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= message.size()) return false;
      uint8_t byte = static_cast<uint8_t>(message[pos++]);
      *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  };
  while (pos < message.size()) {
    uint64_t key = 0;
    if (!varint(&key)) return false;
    WireField field;
    field.wire_type = static_cast<int>(key & 7);
    if (field.wire_type == 0) {
      if (!varint(&field.varint)) return false;
    } else if (field.wire_type == 2) {
      uint64_t length = 0;
      if (!varint(&length) || length > message.size() - pos) return false;
      field.bytes = message.substr(pos, length);
      pos += length;
    } else if (field.wire_type == 1) {
      pos += 8;
    } else if (field.wire_type == 5) {
      pos += 4;
    } else {
      return false;
    }
    if (pos > message.size()) return false;
    fields->emplace(static_cast<int>(key >> 3), std::move(field));
  }
  return true;
}

}  // namespace stepscope::testing
