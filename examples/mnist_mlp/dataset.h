// The generated training set on disk: MNIST-format shards, created once and then read
// record by record.
//
//   <dir>/train-00000-of-00006-images-idx3-ubyte   N/6 x 28 x 28 bytes
//   <dir>/train-00000-of-00006-labels-idx1-ubyte   N/6 bytes
//   ...
//   <dir>/MANIFEST                                 what was generated (written last)
//
// EnsureDataset regenerates everything when MANIFEST is missing or describes another
// dataset, or when a shard is missing or has the wrong size; otherwise the files are
// reused, so only the first run pays for generation (about a second for 60k images).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "examples/mnist_mlp/idx_file.h"
#include "stepscope/status.h"

namespace mnist_mlp {

struct DatasetSpec {
  uint32_t num_examples = 60000;  // MNIST's training set size
  uint32_t num_shards = 6;        // 10k examples per shard, like a sharded TFRecord set
  uint64_t seed = 20240601;       // any value; part of the MANIFEST so a change regenerates
};

// Shard `shard` covers examples [ShardBegin(shard), ShardBegin(shard + 1)).
uint64_t ShardBegin(const DatasetSpec& spec, uint32_t shard);
std::string ImageShardPath(const std::string& dir, const DatasetSpec& spec, uint32_t shard);
std::string LabelShardPath(const std::string& dir, const DatasetSpec& spec, uint32_t shard);

// Makes sure `dir` holds the dataset described by `spec`, generating it when needed
// (creating `dir`). Sets *generated to whether files were written. Safe to run from
// several processes at once: files are written whole and renamed into place.
stepscope::Status EnsureDataset(const std::string& dir, const DatasetSpec& spec, bool* generated = nullptr);

// Read access to the shards. Thread-safe; every read is a pread on the shard files.
class Dataset {
 public:
  static stepscope::StatusOr<std::unique_ptr<Dataset>> Open(const std::string& dir, const DatasetSpec& spec);

  uint64_t num_examples() const { return spec_.num_examples; }

  // Reads example `index` (< num_examples): kImagePixels bytes into `image`, and its label.
  stepscope::Status Read(uint64_t index, uint8_t* image, uint8_t* label) const;

 private:
  explicit Dataset(const DatasetSpec& spec) : spec_(spec) {}

  DatasetSpec spec_;
  std::vector<std::unique_ptr<IdxFile>> images_;  // one per shard
  std::vector<std::unique_ptr<IdxFile>> labels_;
};

}  // namespace mnist_mlp
