// PipelineEvents: the input-pipeline events of one host, as the tf.data bottleneck
// analysis reads them (reference/xspace.md §6, "tf.data bottleneck analysis").
//
//   iterator calls   events named "Iterator::A::B..." (tf.data's long names; stepscope's
//                    ScopedStageCall) with stats `id` (the iterator) and `parent_id` (the
//                    iterator that consumes its output);
//   produce/consume  events named "<Kind>Produce" / "<Kind>Consume" ("PrefetchProduce",
//                    "ParallelMapConsume", ...) with the stat `element_id`: they link an
//                    asynchronous stage's consumer to the worker thread that produced the
//                    element.
//
// Extracted by BuildProfileModel from the host event trees (ProfileModel::pipeline_events,
// one entry per host, so combined models keep them): nothing is done when no event name
// of the host plane starts with "Iterator::", and threads without pipeline events cost one
// table lookup per event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "src/analysis/model/profile_model.h"
#include "src/xspace/columnar/columnar_xspace.h"

namespace stepscope::analysis {

// The kind of an event name: iterator for "Iterator::..." (at least two parts),
// produce / consume for names ending so; false for anything else.
bool ClassifyPipelineEventName(std::string_view name, PipelineEventKind* kind);

// The pipeline events of `threads` (event trees of `space`'s host plane). Called by
// BuildProfileModel; nothing is read when no event name starts with "Iterator::".
PipelineEvents ExtractPipelineEvents(const xspace::ColumnarXSpace& space, const std::vector<HostThread>& threads);

// The events of every host of `model`, one entry per host (empty when none).
const std::vector<PipelineEvents>& PipelineEventsOf(const ProfileModel& model);

}  // namespace stepscope::analysis
