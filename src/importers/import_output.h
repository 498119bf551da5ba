// Where an import writes its result: an XSpace message, or analysis columns directly.
//
// `stepscope import` and `convert` need the message (they write it out); everything that
// analyzes a trace needs only the columns (src/xspace/columnar), and building the
// messages first cost a sixth of `stepscope analyze` on a 15 MB Kineto trace (11.6 MB of
// arena to write, fault in and walk). Both targets receive the same content: the columns
// written directly equal the streaming reader's columns of the message
// (src/load/trace_import_test.cc).
#pragma once

#include "src/xspace/columnar/columnar_xspace.h"
#include "src/xspace/xplane.h"

namespace stepscope::importers {

struct ImportOutput {
  xspace::XSpace* space = nullptr;              // exactly one of the two is set
  xspace::ColumnarXSpace* columnar = nullptr;
};

}  // namespace stepscope::importers
