// Writes a ColumnarXSpace as an XSpace file: the protobuf wire format of xplane.proto,
// streamed into a base::OutputFile. No message is built and no serialization is held:
// each message's length is computed from the columns first, then its bytes are written.
//
// Why: `stepscope import` held a trace twice over on its way to disk, as XSpace messages
// (5-10x the file) and then as their serialization. The importers fill columns directly
// (import_output.h); writing them costs a buffer.
//
// The bytes are those protobuf's deterministic serialization gives for the same XSpace:
// fields in number order, proto3 defaults left out, oneof members written when set,
// map entries in key order with key and value. What columns do not hold is not written:
// XEventMetadata.metadata and child_id, XStatMetadata.description, placeholder metadata
// (ids used but never defined). Reading the file back (columnar_reader.h) gives the same
// columns. A plane whose memory events are held as records (ColumnarReadOptions::
// memory_event_records) cannot be written: kUnimplemented.
//
// Messages over 2 GiB are written (the wire format has no limit; stepscope's reader has
// none), though protobuf's own parsers refuse them.
#pragma once

#include <string>

#include "src/base/output_file.h"
#include "src/xspace/columnar/columnar_xspace.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

// Writes `space` into `file` (which the caller closes). kIoError when a write fails.
Status WriteColumnarXSpace(const ColumnarXSpace& space, base::OutputFile* file);

// The same bytes in memory: for tests and checks (product code streams them).
StatusOr<std::string> SerializeColumnarXSpace(const ColumnarXSpace& space);

// Writes `space` to `path` atomically (temporary file, fsync, rename), as WriteXSpaceFile
// does for a message: `path` is untouched on failure.
Status WriteColumnarXSpaceFile(const std::string& path, const ColumnarXSpace& space);

}  // namespace stepscope::xspace
