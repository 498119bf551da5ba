// Early-return helpers for Status / StatusOr (internal; not part of the public API).
//
//   STEPSCOPE_RETURN_IF_ERROR(WriteFile(path, data));
//   STEPSCOPE_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path, limits));
#pragma once

#include "stepscope/status.h"

#define STEPSCOPE_RETURN_IF_ERROR(expr)                 \
  do {                                                  \
    ::stepscope::Status stepscope_status_ = (expr);     \
    if (!stepscope_status_.ok()) return stepscope_status_; \
  } while (false)

#define STEPSCOPE_STATUS_CONCAT_INNER(a, b) a##b
#define STEPSCOPE_STATUS_CONCAT(a, b) STEPSCOPE_STATUS_CONCAT_INNER(a, b)

#define STEPSCOPE_ASSIGN_OR_RETURN(lhs, expr) \
  STEPSCOPE_ASSIGN_OR_RETURN_IMPL(STEPSCOPE_STATUS_CONCAT(stepscope_statusor_, __LINE__), lhs, expr)

#define STEPSCOPE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                    \
  if (!tmp.ok()) return tmp.status();                   \
  lhs = std::move(tmp).value()
