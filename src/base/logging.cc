#include "src/base/logging.h"

#include <cstdarg>

namespace stepscope::base {

void LogWarning(const char* format, ...) {
  char buffer[2048];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  std::fprintf(stderr, "stepscope: %s\n", buffer);
}

}  // namespace stepscope::base
