// Capturing many workers at once into one run, e.g. every worker of a data-parallel job:
//
//   remote::CaptureOptions options;
//   options.logdir = "/tmp/logs";
//   options.duration_ms = 2000;
//   auto addresses = remote::ParseServiceAddresses("grpc://10.0.0.1:6009,grpc://10.0.0.2:6009");
//   auto result = remote::CaptureWorkers(*addresses, options);
//   // result->workers[i].status says what happened to each; result->succeeded() how many
//   // profiles landed in result->run_dir.
#pragma once

#include <string>
#include <vector>

#include "src/remote/capture_client.h"
#include "stepscope/status.h"

namespace stepscope::remote {

struct CaptureResult {
  std::string run;
  std::string run_dir;  // <logdir>/plugins/profile/<run>
  std::vector<WorkerCapture> workers;  // in address order
  int succeeded() const;
};

// Captures every address concurrently (one thread each) into one run; each worker is
// retried independently (capture_client.h). With delay_ms > 0 all workers are asked to
// start at the same wall-clock time. Fails only for invalid options or addresses, or
// (kResourceExhausted, before any thread or connection) for more addresses than
// options.max_workers or a max_response_bytes whose per-worker share is under
// kMinResponseBytesPerWorker; worker failures are in the result.
StatusOr<CaptureResult> CaptureWorkers(const std::vector<std::string>& addresses, const CaptureOptions& options);

// The bounds above for `workers` addresses (exposed for tests and callers that check early).
Status CheckCaptureBounds(size_t workers, const CaptureOptions& options);
// Each worker's share of options.max_response_bytes.
uint64_t ResponseBytesPerWorker(const CaptureOptions& options, size_t workers);

}  // namespace stepscope::remote
