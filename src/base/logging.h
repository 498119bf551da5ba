// CHECK / DCHECK for stepscope's own invariants, and a tiny stderr logger.
//
// CHECK is for bugs in stepscope, never for user input: bad files and bad arguments
// produce a Status instead.
#pragma once

#include <cstdio>
#include <cstdlib>

#define STEPSCOPE_CHECK(cond)                                                        \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "%s:%d: stepscope CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                  \
    }                                                                                \
  } while (false)

#ifdef NDEBUG
#define STEPSCOPE_DCHECK(cond) \
  do {                         \
  } while (false && (cond))
#else
#define STEPSCOPE_DCHECK(cond) STEPSCOPE_CHECK(cond)
#endif

namespace stepscope::base {
// Prints "stepscope: <message>" to stderr. For warnings the user should see, e.g. a
// profile that could not be written from the collector thread.
void LogWarning(const char* format, ...) __attribute__((format(printf, 1, 2)));
}  // namespace stepscope::base
