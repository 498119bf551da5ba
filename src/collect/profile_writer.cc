#include "src/collect/profile_writer.h"

#include <utility>

#include "src/base/logging.h"
#include "src/xspace/logdir.h"
#include "src/xspace/xplane.h"

namespace stepscope::collect {

ProfileWriter& ProfileWriter::Get() {
  static ProfileWriter* writer = new ProfileWriter();  // leaked: see Shutdown()
  return *writer;
}

void ProfileWriter::Enqueue(std::unique_ptr<Session> session, ProfileDestination destination) {
  std::unique_lock<std::mutex> lock(mu_);
  if (shutting_down_) {
    // After Shutdown (process exit): nobody will run the thread again; write here.
    Job job{std::move(session), std::move(destination)};
    lock.unlock();
    StatusOr<std::string> result = Write(job);
    lock.lock();
    RecordResult(result);
    return;
  }
  queue_.push_back(Job{std::move(session), std::move(destination)});
  if (!thread_started_) {
    thread_started_ = true;
    thread_ = std::thread([this] { Run(); });
  }
  work_cv_.notify_one();
}

Status ProfileWriter::Flush(std::vector<std::string>* written_paths) {
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
  if (written_paths != nullptr) {
    written_paths->insert(written_paths->end(), written_paths_.begin(), written_paths_.end());
  }
  written_paths_.clear();
  Status error = std::move(first_error_);
  first_error_ = OkStatus();
  return error;
}

void ProfileWriter::Shutdown() {
  std::thread thread;
  {
    std::unique_lock<std::mutex> lock(mu_);
    idle_cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
    shutting_down_ = true;
    work_cv_.notify_all();
    thread = std::move(thread_);
  }
  if (thread.joinable()) thread.join();
}

void ProfileWriter::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    work_cv_.wait(lock, [this] { return !queue_.empty() || shutting_down_; });
    if (queue_.empty()) return;  // shutting down with nothing left
    Job job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    StatusOr<std::string> result = Write(job);
    job.session.reset();  // frees the recorded blocks before taking the lock again
    lock.lock();
    RecordResult(result);
    busy_ = false;
    if (queue_.empty()) idle_cv_.notify_all();
  }
}

StatusOr<std::string> ProfileWriter::Write(Job& job) {
  xspace::XSpace space;
  Status collected = job.session->CollectXSpace(&space);
  if (!collected.ok()) return collected.WithContext("collecting the profile");
  if (!job.destination.run_is_default) {
    return xspace::WriteXSpaceToLogdir(job.destination.logdir, job.destination.run, job.destination.host, space);
  }
  // Two sessions stopped within the same second would otherwise share a run directory and
  // the second would replace the first: the host file is claimed without replacing (an
  // atomic rename), and a taken one moves on to run_1, run_2, ... Bounded: a path the OS
  // reads differently from ours must not spin here forever.
  constexpr int kMaxSuffix = 100000;
  std::string run = job.destination.run;
  for (int suffix = 1;; ++suffix) {
    StatusOr<std::string> written =
        xspace::WriteXSpaceToLogdir(job.destination.logdir, run, job.destination.host, space, /*replace=*/false);
    if (written.ok() || written.status().code() != StatusCode::kAlreadyExists) return written;
    if (suffix > kMaxSuffix) {
      return AlreadyExistsError("no free run name: " + job.destination.run + "_1 .. _" + std::to_string(kMaxSuffix) +
                                " all exist");
    }
    run = job.destination.run + "_" + std::to_string(suffix);
  }
}

void ProfileWriter::RecordResult(const StatusOr<std::string>& result) {
  if (result.ok()) {
    written_paths_.push_back(*result);
    return;
  }
  base::LogWarning("could not write the profile: %s", result.status().ToString().c_str());
  if (first_error_.ok()) first_error_ = result.status();
}

}  // namespace stepscope::collect
