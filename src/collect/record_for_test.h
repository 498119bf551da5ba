// Test helper for the collector's tests: starts a session with `options`, runs `body`,
// stops and collects the XSpace (failures are test failures; an empty space follows).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "src/xspace/xplane.h"
#include "stepscope/session.h"

namespace stepscope::test_support {

inline xspace::XSpace RecordForTest(const std::function<void()>& body, const ProfileOptions& options = {}) {
  StatusOr<std::unique_ptr<Session>> session = Session::Start(options);
  EXPECT_TRUE(session.ok()) << session.status().ToString();
  if (!session.ok()) return {};
  body();
  EXPECT_TRUE((*session)->Stop().ok());
  xspace::XSpace space;
  Status collected = (*session)->CollectXSpace(&space);
  EXPECT_TRUE(collected.ok()) << collected.ToString();
  return space;
}

// The same at one host tracer level.
inline xspace::XSpace RecordForTest(const std::function<void()>& body, int host_tracer_level) {
  ProfileOptions options;
  options.host_tracer_level = host_tracer_level;
  return RecordForTest(body, options);
}

}  // namespace stepscope::test_support
