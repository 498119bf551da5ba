// The stepscope recording API in one include.
//
//   #include "stepscope/stepscope.h"
//
//   stepscope::ScopedProfile profile("/tmp/logdir");      // or ProfileStepRange(...)
//   for (int64_t n = 0; n < steps; ++n) {
//     stepscope::Step step("train", n);
//     { stepscope::ScopedGetNext get_next; batch = input.Next(); }
//     STEPSCOPE_ANNOTATE("forward");
//     ...
//   }
//
// See docs/recording.md for how recording works, what it costs and its threading rules.
#pragma once

#include "stepscope/annotation.h"
#include "stepscope/input_pipeline.h"
#include "stepscope/memory.h"
#include "stepscope/pipeline.h"
#include "stepscope/session.h"
#include "stepscope/status.h"
#include "stepscope/step.h"
