#include "src/xspace/xspace_io.h"

#include <algorithm>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "src/base/file_io.h"
#include "src/base/gzip.h"
#include "src/base/output_file.h"
#include "src/base/status_macros.h"
#include "src/xspace/validate.h"

namespace stepscope::xspace {

StatusOr<XSpace> ParseXSpace(std::string_view bytes, std::string_view what, const ReadLimits& limits) {
  std::string inflated;
  if (base::IsGzip(bytes)) {
    base::InflateLimits inflate = limits.inflate;
    inflate.max_output_bytes = std::min(inflate.max_output_bytes, kMaxProtobufXSpaceBytes);
    auto unpacked = base::GunzipWithLimit(bytes, inflate);
    if (!unpacked.ok()) return unpacked.status().WithContext(what);
    inflated = std::move(unpacked).value();
    bytes = inflated;
  }
  if (bytes.size() > kMaxProtobufXSpaceBytes) {
    return ResourceExhaustedError(std::string(what) + ": " + std::to_string(bytes.size()) +
                                  " bytes is over protobuf's 2 GiB message limit");
  }
  XSpace space;
  google::protobuf::io::ArrayInputStream array(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream coded(&array);
  coded.SetTotalBytesLimit(static_cast<int>(std::min<uint64_t>(bytes.size() + 1, INT32_MAX)));
  coded.SetRecursionLimit(32);  // XSpace nests 5 deep; anything deeper is hostile
  if (!space.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
    return DataLossError(std::string(what) +
                         ": not a valid XSpace protobuf (truncated or corrupt)");
  }
  STEPSCOPE_RETURN_IF_ERROR(ValidateXSpace(space).WithContext(what));
  return space;
}

StatusOr<XSpace> ReadXSpaceFile(const std::string& path, const ReadLimits& limits) {
  STEPSCOPE_ASSIGN_OR_RETURN(std::string bytes,
                             base::ReadFile(path, std::min(limits.max_file_bytes, kMaxProtobufXSpaceBytes)));
  return ParseXSpace(bytes, path, limits);
}

namespace {

// Deterministic: map entries (event/stat metadata) in key order, so the same XSpace always
// gives the same bytes (reproducible files, stable caches, diffable round trips). False
// when protobuf refuses the message or a write fails.
bool SerializeDeterministically(const XSpace& space, google::protobuf::io::ZeroCopyOutputStream* stream) {
  google::protobuf::io::CodedOutputStream coded(stream);
  coded.SetSerializationDeterministic(true);
  return space.SerializeToCodedStream(&coded);
}

// Hands protobuf's output buffer to an OutputFile (and so to its compressor) as it fills.
class OutputFileStream : public google::protobuf::io::CopyingOutputStream {
 public:
  explicit OutputFileStream(base::OutputFile* file) : file_(file) {}
  bool Write(const void* buffer, int size) override {
    return file_->Write(std::string_view(static_cast<const char*>(buffer), static_cast<size_t>(size)));
  }

 private:
  base::OutputFile* file_;
};

// Serializes into `file` as SerializeXSpace does, through a 1 MiB buffer: only that is
// held, never the serialization of the whole space.
bool SerializeXSpaceTo(const XSpace& space, base::OutputFile* file) {
  OutputFileStream stream(file);
  google::protobuf::io::CopyingOutputStreamAdaptor buffered(&stream, 1 << 20);
  const bool serialized = SerializeDeterministically(space, &buffered);
  return buffered.Flush() && serialized;
}

}  // namespace

StatusOr<std::string> SerializeXSpace(const XSpace& space) {
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  if (!SerializeDeterministically(space, &stream)) {
    return ResourceExhaustedError("cannot serialize the XSpace (over protobuf's 2 GiB limit?)");
  }
  return bytes;
}

Status WriteXSpaceFile(const std::string& path, const XSpace& space, bool gzip, bool replace) {
  // Synced before the rename, as WriteFileAtomically does: a profile is not an export.
  return base::WriteOutputFile(path, {.gzip = gzip, .sync = true, .replace = replace}, [&](base::OutputFile* file) {
    return SerializeXSpaceTo(space, file)
               ? OkStatus()
               : InternalError("cannot serialize the XSpace (over protobuf's 2 GiB limit?) for " + path);
  });
}

}  // namespace stepscope::xspace
