// PipelineBuilder / ScopedStageCall (include/stepscope/pipeline.h).
#include "stepscope/pipeline.h"

#include <atomic>
#include <mutex>
#include <unordered_set>

namespace stepscope {
namespace {

// Names are recorded by pointer and read when the session collects, which may be after
// the pipeline is gone; so they are interned for the life of the process. A pipeline has
// a handful of distinct names, and rebuilding the same pipeline reuses them.
const char* ImmortalName(const std::string& name) {
  static std::mutex mutex;
  static auto* const names = new std::unordered_set<std::string>;  // never freed
  std::lock_guard<std::mutex> lock(mutex);
  return names->insert(name).first->c_str();
}

// Iterator ids are unique in the process (tf.data's are iterator addresses), so stages
// of different pipelines never link by accident.
int64_t NextIteratorId() {
  static std::atomic<int64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

constexpr size_t kMaxDatasetNameBytes = 64;

Status CheckDatasetName(const std::string& name, int ref) {
  std::string problem;
  if (name.empty()) problem = "is empty";
  if (name.size() > kMaxDatasetNameBytes) problem = "is longer than 64 bytes";
  if (name.find_first_of(":#,=") != std::string::npos) problem = "contains one of ':', '#', ',', '='";
  if (problem.empty()) return OkStatus();
  return InvalidArgumentError("pipeline stage " + std::to_string(ref) + ": dataset name '" + name + "' " + problem);
}

std::string DefaultDatasetName(StageKind kind) { return std::string(StageKindName(kind)); }

}  // namespace

std::string_view StageKindName(StageKind kind) {
  switch (kind) {
    case StageKind::kSource: return "Source";
    case StageKind::kMap: return "Map";
    case StageKind::kParallelMap: return "ParallelMap";
    case StageKind::kBatch: return "Batch";
    case StageKind::kShuffle: return "Shuffle";
    case StageKind::kCache: return "Cache";
    case StageKind::kPrefetch: return "Prefetch";
    case StageKind::kCustom: return "Custom";
  }
  return "Custom";
}

std::string_view PipelineStage::dataset_name() const {
  std::string_view name(long_name_);
  size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

PipelineBuilder::StageRef PipelineBuilder::Add(Declared stage) {
  declared_.push_back(std::move(stage));
  return static_cast<StageRef>(declared_.size() - 1);
}

PipelineBuilder::StageRef PipelineBuilder::Source(std::string_view dataset_name) {
  return Add({StageKind::kSource, std::string(dataset_name), {}});
}
PipelineBuilder::StageRef PipelineBuilder::Map(StageRef input) {
  return Add({StageKind::kMap, DefaultDatasetName(StageKind::kMap), {input}});
}
PipelineBuilder::StageRef PipelineBuilder::ParallelMap(StageRef input, int num_workers) {
  return Add({StageKind::kParallelMap, DefaultDatasetName(StageKind::kParallelMap), {input}, num_workers, 0, true});
}
PipelineBuilder::StageRef PipelineBuilder::Batch(StageRef input) {
  return Add({StageKind::kBatch, DefaultDatasetName(StageKind::kBatch), {input}});
}
PipelineBuilder::StageRef PipelineBuilder::Shuffle(StageRef input) {
  return Add({StageKind::kShuffle, DefaultDatasetName(StageKind::kShuffle), {input}});
}
PipelineBuilder::StageRef PipelineBuilder::Cache(StageRef input) {
  return Add({StageKind::kCache, DefaultDatasetName(StageKind::kCache), {input}});
}
PipelineBuilder::StageRef PipelineBuilder::Prefetch(StageRef input, int buffer_size) {
  return Add({StageKind::kPrefetch, DefaultDatasetName(StageKind::kPrefetch), {input}, 0, buffer_size, true});
}
PipelineBuilder::StageRef PipelineBuilder::Custom(std::string_view dataset_name, std::initializer_list<StageRef> inputs,
                                                  bool asynchronous) {
  return Add({StageKind::kCustom, std::string(dataset_name), std::vector<StageRef>(inputs), 0, 0, asynchronous});
}

StatusOr<Pipeline> PipelineBuilder::Build() && {
  const int count = static_cast<int>(declared_.size());
  if (count == 0) return InvalidArgumentError("a pipeline needs at least one stage");
  // consumer[i]: the stage that reads stage i (-1: none yet). Inputs must be declared
  // before their reader, so following consumers always climbs to a higher index and the
  // stages form a tree under the one stage nothing reads.
  std::vector<int> consumer(count, -1);
  for (int ref = 0; ref < count; ++ref) {
    const Declared& stage = declared_[ref];
    if (Status status = CheckDatasetName(stage.dataset_name, ref); !status.ok()) return status;
    if (stage.kind != StageKind::kSource && stage.kind != StageKind::kCustom && stage.inputs.empty()) {
      return InvalidArgumentError("pipeline stage " + std::to_string(ref) + " (" + stage.dataset_name +
                                  ") needs an input stage");
    }
    for (StageRef input : stage.inputs) {
      if (input < 0 || input >= ref) {
        return InvalidArgumentError("pipeline stage " + std::to_string(ref) + " (" + stage.dataset_name +
                                    ") reads stage " + std::to_string(input) +
                                    ", which is not a stage declared before it");
      }
      if (consumer[input] != -1) {
        return InvalidArgumentError("pipeline stage " + std::to_string(input) + " (" + declared_[input].dataset_name +
                                    ") is read by two stages (" + std::to_string(consumer[input]) + " and " +
                                    std::to_string(ref) + ")");
      }
      consumer[input] = ref;
    }
  }
  int root = -1;
  for (int ref = 0; ref < count; ++ref) {
    if (consumer[ref] != -1) continue;
    if (root != -1) {
      return InvalidArgumentError("pipeline stages " + std::to_string(root) + " and " + std::to_string(ref) +
                                  " are both read by no stage; a pipeline has one root");
    }
    root = ref;
  }

  Pipeline pipeline;
  pipeline.root_ = root;
  pipeline.stages_.resize(count);
  for (PipelineStage& stage : pipeline.stages_) stage.id_ = NextIteratorId();
  std::vector<std::string> long_names(count);
  // Highest index first: a stage's consumer is named before the stage.
  for (int ref = count - 1; ref >= 0; --ref) {
    const Declared& declared = declared_[ref];
    PipelineStage& stage = pipeline.stages_[ref];
    const int parent = consumer[ref];
    long_names[ref] = (parent == -1 ? std::string("Iterator") : long_names[parent]) + "::" + declared.dataset_name;
    stage.long_name_ = ImmortalName(long_names[ref]);
    stage.kind_ = declared.kind;
    stage.parent_id_ = parent == -1 ? PipelineStage::kNoId : pipeline.stages_[parent].id_;
    for (StageRef input : declared.inputs) stage.input_ids_.push_back(pipeline.stages_[input].id_);
    stage.parallelism_ = declared.parallelism;
    stage.buffer_size_ = declared.buffer_size;
    if (declared.asynchronous) {
      stage.produce_name_ = ImmortalName(declared.dataset_name + "Produce");
      stage.consume_name_ = ImmortalName(declared.dataset_name + "Consume");
    }
  }
  return pipeline;
}

void ScopedStageCall::End() {
  const uint64_t end_ticks = internal::ReadTicks();
  internal::StaticInt64Arg args[3];
  size_t count = 0;
  args[count++] = {"id", stage_->id()};
  if (stage_->parent_id() != PipelineStage::kNoId) args[count++] = {"parent_id", stage_->parent_id()};
  // tf.data's TraceMe metadata names for the same settings.
  if (stage_->kind() == StageKind::kParallelMap) args[count++] = {"parallelism", stage_->parallelism()};
  if (stage_->kind() == StageKind::kPrefetch) args[count++] = {"buffer_limit", stage_->buffer_size()};
  internal::RecordStaticEventWithArgs(stage_->long_name(), start_ticks_, end_ticks, args, count);
}

}  // namespace stepscope
