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
// Extracted from the host event trees: by BuildProfileModel when it drops the trees
// (ModelOptions::keep_event_tree false) and by CombineHostModels, into
// ProfileModel::pipeline_events (one entry per host); otherwise on demand
// (ForEachHostPipelineEvents). Nothing is done when no event name of the host plane starts
// with "Iterator::", and threads without pipeline events cost one table lookup per event.
#pragma once

#include <cstdint>
#include <functional>
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

// Calls `visit(host_index, events)` for every host of `model`: the events kept in
// ProfileModel::pipeline_events, or, for a model that kept its event trees instead,
// extracted from them now.
void ForEachHostPipelineEvents(const ProfileModel& model,
                               const std::function<void(int host_index, const PipelineEvents& events)>& visit);

// Fills `model->pipeline_events` from its event trees when it has trees and no events yet
// (before the trees are dropped, e.g. when hosts are combined).
void KeepPipelineEvents(ProfileModel* model);

}  // namespace stepscope::analysis
