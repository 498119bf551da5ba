#include "examples/mnist_mlp/dataset.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>

#include <unistd.h>

#include "examples/mnist_mlp/dataset_generator.h"

namespace mnist_mlp {
namespace {

using stepscope::Status;
using stepscope::StatusOr;

constexpr char kManifestName[] = "MANIFEST";
// Bump when RenderExample or the file layout changes, so old datasets are regenerated.
constexpr int kGeneratorVersion = 2;

std::string ShardPrefix(const std::string& dir, const DatasetSpec& spec, uint32_t shard) {
  char name[64];
  std::snprintf(name, sizeof(name), "train-%05u-of-%05u", shard, spec.num_shards);
  return dir + "/" + name;
}

std::string ManifestText(const DatasetSpec& spec) {
  std::ostringstream text;
  text << "mnist_mlp synthetic dataset\n"
       << "generator_version=" << kGeneratorVersion << "\n"
       << "examples=" << spec.num_examples << "\n"
       << "shards=" << spec.num_shards << "\n"
       << "seed=" << spec.seed << "\n";
  return text.str();
}

Status ValidateSpec(const DatasetSpec& spec) {
  if (spec.num_shards == 0 || spec.num_examples < spec.num_shards) {
    return stepscope::InvalidArgumentError("dataset needs at least one example per shard (" +
                                           std::to_string(spec.num_examples) + " examples, " +
                                           std::to_string(spec.num_shards) + " shards)");
  }
  return stepscope::OkStatus();
}

// True when MANIFEST matches and every shard opens with the expected dimensions.
bool DatasetIsComplete(const std::string& dir, const DatasetSpec& spec) {
  std::ifstream manifest(dir + "/" + kManifestName);
  std::stringstream text;
  text << manifest.rdbuf();
  if (!manifest || text.str() != ManifestText(spec)) return false;
  for (uint32_t shard = 0; shard < spec.num_shards; ++shard) {
    const uint64_t count = ShardBegin(spec, shard + 1) - ShardBegin(spec, shard);
    StatusOr<std::unique_ptr<IdxFile>> images = IdxFile::Open(ImageShardPath(dir, spec, shard));
    StatusOr<std::unique_ptr<IdxFile>> labels = IdxFile::Open(LabelShardPath(dir, spec, shard));
    if (!images.ok() || !labels.ok()) return false;
    const std::vector<uint32_t> image_dims = {static_cast<uint32_t>(count), kImageRows, kImageCols};
    const std::vector<uint32_t> label_dims = {static_cast<uint32_t>(count)};
    if ((*images)->header().dims != image_dims || (*labels)->header().dims != label_dims) return false;
  }
  return true;
}

Status WriteTextFile(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) return stepscope::UnavailableError(tmp + ": cannot write");
  }
  std::error_code error;
  std::filesystem::rename(tmp, path, error);
  if (error) return stepscope::UnavailableError(path + ": rename failed: " + error.message());
  return stepscope::OkStatus();
}

Status GenerateShard(const std::string& dir, const DatasetSpec& spec, uint32_t shard) {
  const uint64_t begin = ShardBegin(spec, shard);
  const uint64_t count = ShardBegin(spec, shard + 1) - begin;
  std::string images(count * kImagePixels, '\0');
  std::string labels(count, '\0');
  for (uint64_t i = 0; i < count; ++i) {
    labels[i] = static_cast<char>(
        RenderExample(spec.seed, begin + i, reinterpret_cast<uint8_t*>(images.data()) + i * kImagePixels));
  }
  const uint32_t n = static_cast<uint32_t>(count);
  if (Status status = WriteIdxFile(ImageShardPath(dir, spec, shard), {n, kImageRows, kImageCols}, images);
      !status.ok()) {
    return status;
  }
  return WriteIdxFile(LabelShardPath(dir, spec, shard), {n}, labels);
}

}  // namespace

uint64_t ShardBegin(const DatasetSpec& spec, uint32_t shard) {
  return uint64_t{spec.num_examples} * shard / spec.num_shards;
}

std::string ImageShardPath(const std::string& dir, const DatasetSpec& spec, uint32_t shard) {
  return ShardPrefix(dir, spec, shard) + "-images-idx3-ubyte";
}

std::string LabelShardPath(const std::string& dir, const DatasetSpec& spec, uint32_t shard) {
  return ShardPrefix(dir, spec, shard) + "-labels-idx1-ubyte";
}

Status EnsureDataset(const std::string& dir, const DatasetSpec& spec, bool* generated) {
  if (generated != nullptr) *generated = false;
  if (Status status = ValidateSpec(spec); !status.ok()) return status;
  if (DatasetIsComplete(dir, spec)) return stepscope::OkStatus();

  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return stepscope::UnavailableError(dir + ": cannot create directory: " + error.message());
  // An old MANIFEST must not vouch for shards that are being replaced.
  std::filesystem::remove(dir + "/" + kManifestName, error);

  // Shards are independent: generate them on all cores (60k examples take about a
  // second per core).
  const uint32_t num_threads = std::clamp<uint32_t>(std::thread::hardware_concurrency(), 1, spec.num_shards);
  std::vector<Status> statuses(spec.num_shards);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < num_threads; ++t) {
    threads.emplace_back([&, t] {
      for (uint32_t shard = t; shard < spec.num_shards; shard += num_threads) {
        statuses[shard] = GenerateShard(dir, spec, shard);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const Status& status : statuses) {
    if (!status.ok()) return status;
  }
  if (Status status = WriteTextFile(dir + "/" + kManifestName, ManifestText(spec)); !status.ok()) return status;
  if (generated != nullptr) *generated = true;
  return stepscope::OkStatus();
}

StatusOr<std::unique_ptr<Dataset>> Dataset::Open(const std::string& dir, const DatasetSpec& spec) {
  if (Status status = ValidateSpec(spec); !status.ok()) return status;
  std::unique_ptr<Dataset> dataset(new Dataset(spec));
  for (uint32_t shard = 0; shard < spec.num_shards; ++shard) {
    const uint64_t count = ShardBegin(spec, shard + 1) - ShardBegin(spec, shard);
    StatusOr<std::unique_ptr<IdxFile>> images = IdxFile::Open(ImageShardPath(dir, spec, shard));
    if (!images.ok()) return images.status();
    StatusOr<std::unique_ptr<IdxFile>> labels = IdxFile::Open(LabelShardPath(dir, spec, shard));
    if (!labels.ok()) return labels.status();
    if ((*images)->header().num_records() != count || (*images)->header().record_bytes() != kImagePixels ||
        (*labels)->header().num_records() != count || (*labels)->header().record_bytes() != 1) {
      return stepscope::DataLossError(ImageShardPath(dir, spec, shard) +
                                      ": shard does not match the dataset spec; delete " + dir +
                                      " to regenerate it");
    }
    dataset->images_.push_back(std::move(images).value());
    dataset->labels_.push_back(std::move(labels).value());
  }
  return dataset;
}

Status Dataset::Read(uint64_t index, uint8_t* image, uint8_t* label) const {
  if (index >= spec_.num_examples) {
    return stepscope::InvalidArgumentError("example " + std::to_string(index) + " out of range (" +
                                           std::to_string(spec_.num_examples) + " examples)");
  }
  // Shards are near-equal slices, so the division finds the shard in one step; the
  // loops correct for the rounding of ShardBegin.
  uint32_t shard = static_cast<uint32_t>(index * spec_.num_shards / spec_.num_examples);
  while (shard + 1 < spec_.num_shards && index >= ShardBegin(spec_, shard + 1)) ++shard;
  while (shard > 0 && index < ShardBegin(spec_, shard)) --shard;
  const uint64_t record = index - ShardBegin(spec_, shard);
  if (Status status = images_[shard]->ReadRecords(record, 1, image); !status.ok()) return status;
  return labels_[shard]->ReadRecords(record, 1, label);
}

}  // namespace mnist_mlp
