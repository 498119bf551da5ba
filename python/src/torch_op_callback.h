// PyTorch ops as stepscope events: a global at::RecordFunction callback, installed only
// while a session records (session_hooks.h), records every ATen op and autograd node
// (level 2, framework ops) and every record_function scope (level 1, user scopes; the
// DataLoader's "enumerate(DataLoader)#...__next__" among them) on the line of the thread
// that ran it, with PyTorch's own names, so the analysis reads them as it reads
// torch.profiler traces. Stats, in Kineto's names: "Sequence number" (forward ops and
// the backward nodes that link to them), "Fwd thread id" (backward nodes), and with
// record_shapes "Input Dims" / "Input type".
//
// Threads that first record inside an intra-op parallel region are named
// "pytorch intra-op <n>"; threads other than the main one that first run an autograd
// node, "pytorch autograd".
#pragma once

#include "python/src/session_hooks.h"

namespace stepscope::python {

// The name of the innermost op or record_function scope this thread's callback has open
// (recorded ones only: at host level 1, only scopes), or nullptr; valid until that op ends.
const char* InnermostOpName();

// Installs (or removes) a global callback that does nothing, registered exactly as
// stepscope's is at host level 2 (the same scopes, the same needsInputs): what PyTorch
// itself spends once a callback observes ops (per op in the dispatcher, and whatever else
// it does in a step while one is registered), measured by the benchmark apart from what
// stepscope's callback adds. Returns whether it is installed.
bool SetNoopCallbackForBenchmark(bool installed);

class TorchOpRecorder : public SessionObserver {
 public:
  // The process-wide recorder (never destroyed).
  static TorchOpRecorder& Get();

  // Takes effect at the next session start.
  void set_record_shapes(bool record_shapes);
  bool record_shapes() const;
  bool callback_installed() const;

  void OnSessionStart(const ProfileOptions& options) override;
  void OnSessionStop() override;

 private:
  TorchOpRecorder() = default;
};

}  // namespace stepscope::python
