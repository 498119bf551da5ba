#include "src/xspace/columnar/xspace_to_columnar.h"

#include <string>

#include "src/xspace/columnar/columnar_reader.h"

namespace stepscope::xspace {

StatusOr<ColumnarXSpace> ConvertXSpaceToColumnar(const XSpace& space) {
  std::string bytes;
  if (!space.SerializeToString(&bytes)) {
    return ResourceExhaustedError("in-memory XSpace cannot be serialized (over 2 GiB?)");
  }
  return ParseColumnarXSpace(bytes, "in-memory XSpace");
}

}  // namespace stepscope::xspace
