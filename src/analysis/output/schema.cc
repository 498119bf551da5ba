#include "src/analysis/output/schema.h"

namespace stepscope::analysis::output::schema_internal {

std::recursive_mutex& DescribeMutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

}  // namespace stepscope::analysis::output::schema_internal
