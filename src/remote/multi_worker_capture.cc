#include "src/remote/multi_worker_capture.h"

#include <unistd.h>

#include <mutex>
#include <string_view>
#include <thread>

#include "src/base/clock.h"
#include "src/remote/service_address.h"
#include "src/xspace/logdir.h"

namespace stepscope::remote {

int CaptureResult::succeeded() const {
  int count = 0;
  for (const WorkerCapture& worker : workers) count += worker.status.ok() ? 1 : 0;
  return count;
}

uint64_t ResponseBytesPerWorker(const CaptureOptions& options, size_t workers) {
  return workers == 0 ? options.max_response_bytes : options.max_response_bytes / workers;
}

Status CheckCaptureBounds(size_t workers, const CaptureOptions& options) {
  if (workers > static_cast<size_t>(options.max_workers)) {
    return ResourceExhaustedError(std::to_string(workers) + " workers in one capture, over the limit of " +
                                  std::to_string(options.max_workers) +
                                  " (max_workers); capture them in batches or raise the limit");
  }
  uint64_t share = ResponseBytesPerWorker(options, workers);
  if (share < kMinResponseBytesPerWorker) {
    return ResourceExhaustedError("max_response_bytes " + std::to_string(options.max_response_bytes) + " leaves " +
                                  std::to_string(share) + " bytes per worker for " + std::to_string(workers) +
                                  " workers, under the floor of " + std::to_string(kMinResponseBytesPerWorker) +
                                  " (1 MiB); raise max_response_bytes or capture fewer workers at once");
  }
  return OkStatus();
}

StatusOr<CaptureResult> CaptureWorkers(const std::vector<std::string>& addresses, const CaptureOptions& options) {
  Status valid = ValidateCaptureOptions(options);
  if (!valid.ok()) return valid;
  if (addresses.empty()) return InvalidArgumentError("no service address given");
  valid = CheckCaptureBounds(addresses.size(), options);
  if (!valid.ok()) return valid;
  for (const std::string& address : addresses) {
    valid = ValidateServiceAddress(address, UnixSockets::kAllowed);  // callers parsed them under their rule
    if (!valid.ok()) return valid;
  }

  uint64_t now_ns = base::WallNowNs();
  CaptureResult result;
  // The default name is the time to the second: a second capture within it gets name_2,
  // as creating the directory claims the name. A named run is joined (one run may
  // collect several captures' hosts); its host files are not replaced without
  // options.overwrite (capture_client.h).
  StatusOr<std::string> run =
      options.run.empty() ? xspace::CreateRunDir(options.logdir, base::LocalTimestampString(now_ns), xspace::RunDirMode::kFresh)
                          : xspace::CreateRunDir(options.logdir, options.run, xspace::RunDirMode::kJoin);
  if (!run.ok()) return run.status();
  result.run = std::move(run).value();
  result.run_dir = xspace::ProfileRootDir(options.logdir) + "/" + result.run;
  // One agreed start so the workers' windows line up (TensorFlow's start_timestamp_ns).
  uint64_t start_wall_ns = options.delay_ms > 0 ? now_ns + options.delay_ms * 1000000 : 0;

  // Progress lines from several threads, one at a time.
  std::mutex progress_mu;
  CaptureOptions worker_options = options;
  // Every worker may hold its share at once, so together they hold max_response_bytes.
  worker_options.max_response_bytes = ResponseBytesPerWorker(options, addresses.size());
  if (options.progress) {
    worker_options.progress = [&](std::string_view line) {
      std::lock_guard<std::mutex> lock(progress_mu);
      options.progress(line);
    };
  }
  result.workers.resize(addresses.size());
  std::vector<std::thread> threads;
  threads.reserve(addresses.size());
  for (size_t i = 0; i < addresses.size(); ++i) {
    threads.emplace_back([&, i] {
      result.workers[i] = CaptureWorker(addresses[i], worker_options, result.run, start_wall_ns);
    });
  }
  for (std::thread& thread : threads) thread.join();
  // Nothing saved: leave no empty run behind (rmdir keeps a directory that has files).
  if (result.succeeded() == 0) ::rmdir(result.run_dir.c_str());
  return result;
}

}  // namespace stepscope::remote
