#include "src/server/worker_pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <thread>

namespace stepscope::server {
namespace {

using std::chrono::milliseconds;

// A latch the tasks wait on, as a worker waits on a client that does not read.
struct Gate {
  std::promise<void> open;
  std::shared_future<void> opened = open.get_future().share();
};

void WaitOnClient(const std::shared_future<void>& opened) {
  WorkerPool::ClientWait waiting;
  opened.wait();
}

TEST(WorkerPoolTest, AWorkerWaitingOnAClientDoesNotDelayTheNextRequest) {
  WorkerPool pool(2, 64);
  Gate gate;
  for (int i = 0; i < 4; ++i) pool.Enqueue([opened = gate.opened] { WaitOnClient(opened); });
  std::promise<void> served;
  pool.Enqueue([&served] { served.set_value(); });
  // A fixed pool of 2 would run this only after the gate opens (never, here).
  EXPECT_EQ(served.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
  // The last waiting worker may enter its wait after the request was served.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (pool.threads() < 6 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(milliseconds(5));
  EXPECT_EQ(pool.peak_threads(), 6u);  // the core and one spare per waiting worker
  gate.open.set_value();
  pool.Shutdown();
  EXPECT_EQ(pool.threads(), 0u);
}

TEST(WorkerPoolTest, SpareThreadsStopAtTheCap) {
  WorkerPool pool(1, 2);
  Gate gate;
  for (int i = 0; i < 3; ++i) pool.Enqueue([opened = gate.opened] { WaitOnClient(opened); });
  std::promise<void> served;
  auto done = served.get_future();
  pool.Enqueue([&served] { served.set_value(); });
  EXPECT_EQ(done.wait_for(milliseconds(200)), std::future_status::timeout);  // both threads wait
  EXPECT_EQ(pool.threads(), 2u);
  gate.open.set_value();
  EXPECT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(pool.peak_threads(), 2u);
}

TEST(WorkerPoolTest, SpareThreadsLeaveWhenTheClientsAreDone) {
  WorkerPool pool(2, 16);
  Gate gate;
  for (int i = 0; i < 5; ++i) pool.Enqueue([opened = gate.opened] { WaitOnClient(opened); });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (pool.threads() < 7 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(milliseconds(5));
  EXPECT_EQ(pool.threads(), 7u);
  gate.open.set_value();
  while (pool.threads() > 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(milliseconds(5));
  EXPECT_EQ(pool.threads(), 2u);
  // The pool still serves after its spares left (and joins them on the next Enqueue).
  std::promise<void> served;
  pool.Enqueue([&served] { served.set_value(); });
  EXPECT_EQ(served.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

TEST(WorkerPoolTest, ShutdownRunsWhatIsQueued) {
  int ran = 0;
  {
    WorkerPool pool(1, 1);
    for (int i = 0; i < 100; ++i) pool.Enqueue([&ran] { ++ran; });
    pool.Shutdown();
    pool.Enqueue([&ran] { ran += 1000; });  // after Shutdown: dropped
  }
  EXPECT_EQ(ran, 100);
}

TEST(WorkerPoolTest, ClientWaitOutsideAPoolDoesNothing) {
  WorkerPool::ClientWait waiting;  // a handler called directly by a test
  SUCCEED();
}

}  // namespace
}  // namespace stepscope::server
