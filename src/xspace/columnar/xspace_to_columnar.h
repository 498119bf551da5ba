// Message XSpace -> ColumnarXSpace, so tests built with XPlaneBuilder and small in-memory
// captures take exactly the path real files take (serialize, then the streaming reader).
#pragma once

#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/xplane.h"
#include "stepscope/status.h"

namespace stepscope::xspace {

StatusOr<ColumnarXSpace> ConvertXSpaceToColumnar(const XSpace& space);

}  // namespace stepscope::xspace
