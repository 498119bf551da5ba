// Message XSpace -> ColumnarXSpace.
//
// ConvertXSpaceToColumnar serializes and runs the streaming reader, so tests built with
// XPlaneBuilder and small in-memory captures take exactly the path real files take.
// XSpaceMessageToColumnar walks the messages instead and gives the same result (pinned by
// columnar_reader_test against the first) without writing and re-reading the wire bytes:
// the path of imported traces, whose XSpace exists only to become columns.
#pragma once

#include <string_view>

#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

StatusOr<ColumnarXSpace> ConvertXSpaceToColumnar(const XSpace& space);

// The same columns, read from the messages. Refuses what the reader refuses (no planes,
// strings that are not UTF-8, a plane whose events all name undefined metadata); errors
// start with `what`.
StatusOr<ColumnarXSpace> XSpaceMessageToColumnar(const XSpace& space, std::string_view what = "in-memory XSpace");

}  // namespace stepscope::xspace
