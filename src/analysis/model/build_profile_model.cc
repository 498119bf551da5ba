#include "src/analysis/model/build_profile_model.h"

#include <utility>

namespace stepscope::analysis {

// First increment: a placeholder so tools can be written against the header. The real
// builder replaces this file's body (see docs/model.md).
StatusOr<ProfileModel> BuildProfileModel(std::shared_ptr<const xspace::ColumnarXSpace> space,
                                         const ModelOptions& options) {
  ProfileModel model;
  model.hostnames.push_back(options.hostname);
  model.run_environment.hosts.push_back(HostEnvironment{.hostname = options.hostname});
  model.run_environment.device_type = "CPU";
  model.step_source = "none";
  model.diagnostics.push_back("profile model builder not implemented yet");
  model.source = std::move(space);
  return model;
}

StatusOr<ProfileModel> BuildProfileModelFromXSpace(const xspace::XSpace& space, const ModelOptions& options) {
  ModelOptions with_host = options;
  if (with_host.hostname.empty() && space.hostnames_size() > 0) with_host.hostname = space.hostnames(0);
  return BuildProfileModel(nullptr, with_host);
}

StatusOr<ProfileModel> BuildProfileModelFromFile(const std::string& path, const ModelOptions& options) {
  return UnimplementedError(path + ": profile model builder not implemented yet");
}

}  // namespace stepscope::analysis
