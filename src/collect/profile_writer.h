// The collector thread: converts stopped sessions to XSpace and writes them to their
// logdir, so the training thread that called StopProfiling never waits for files.
//
// Jobs run one at a time, in stop order. A failed write is kept for FlushProfiles and
// also logged to stderr at once (the program may never call FlushProfiles).
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "stepscope/session.h"
#include "stepscope/status.h"

namespace stepscope::collect {

struct ProfileDestination {
  std::string logdir;
  std::string run;            // run directory name
  bool run_is_default = false;  // chosen by us: add a suffix instead of overwriting
  std::string host;           // file name host part (sanitised when written)
};

class ProfileWriter {
 public:
  // The process-wide writer (never destroyed; Shutdown() joins its thread at exit).
  static ProfileWriter& Get();

  // Queues a stopped session. Starts the thread on first use.
  void Enqueue(std::unique_ptr<Session> session, ProfileDestination destination);
  // Waits until the queue is empty and nothing is being written. Returns the first
  // error since the last call and appends the paths written since the last call.
  Status Flush(std::vector<std::string>* written_paths);
  // Flushes and joins the thread; later Enqueue calls write synchronously.
  void Shutdown();

 private:
  struct Job {
    std::unique_ptr<Session> session;
    ProfileDestination destination;
  };
  ProfileWriter() = default;
  void Run();
  // Converts and writes one job; returns the path or the error.
  static StatusOr<std::string> Write(Job& job);
  void RecordResult(const StatusOr<std::string>& result);  // needs mu_

  std::mutex mu_;
  std::condition_variable work_cv_;   // new job or shutdown
  std::condition_variable idle_cv_;   // queue drained
  std::deque<Job> queue_;
  bool busy_ = false;
  bool shutting_down_ = false;
  bool thread_started_ = false;
  std::thread thread_;
  Status first_error_;
  std::vector<std::string> written_paths_;
};

}  // namespace stepscope::collect
