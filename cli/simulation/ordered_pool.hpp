// ordered_pool.hpp — work items 0..n-1 done on several threads, their results handed over one by one in item
// order on the calling thread, with at most a fixed window of results waiting: the memory of a run does not grow
// with its length, and what the caller writes (a --jsonl file) is the same whatever the thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace hr {

/// Does work items 0..n-1 on `threads` threads. Each thread first calls `make_worker()` (e.g. loads its own Lua
/// rules) and then the function it returns on the items it takes. `consume(result)` is called on the calling
/// thread with every result in item order; `tick(done)` about every 100 ms with the count consumed so far (and
/// once at the end). A thread is never more than `window` items ahead of the oldest result not yet consumed, so
/// at most `window` results wait at any time. An exception thrown by a worker (make_worker) or by `consume` stops
/// the workers after their current item and is rethrown here.
template <class Result>
void run_ordered(std::size_t n, int threads, const std::function<std::function<Result(std::size_t)>()>& make_worker,
                 const std::function<void(Result&&)>& consume, const std::function<void(std::size_t done)>& tick,
                 std::size_t window = 0) {
  threads = std::max(1, std::min<int>(threads, static_cast<int>(std::max<std::size_t>(n, 1))));
  if (window == 0) window = std::max<std::size_t>(256, 64 * static_cast<std::size_t>(threads));
  std::vector<std::optional<Result>> slots(window);
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::condition_variable ready, space;  // a result was stored; a slot was freed (or the run stops)
  std::size_t consumed = 0;
  int finished = 0;
  bool stop = false;
  std::exception_ptr error;
  auto worker = [&] {
    try {
      auto work = make_worker();
      for (std::size_t i; (i = next.fetch_add(1)) < n;) {
        {
          std::unique_lock lock(mutex);
          space.wait(lock, [&] { return stop || i < consumed + window; });
          if (stop) break;
        }
        Result result = work(i);
        std::lock_guard lock(mutex);
        slots[i % window] = std::move(result);
        if (i == consumed) ready.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!error) error = std::current_exception();
      stop = true;
      next.store(n);
      space.notify_all();
    }
    std::lock_guard lock(mutex);
    ++finished;
    ready.notify_all();
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  auto last_tick = std::chrono::steady_clock::now();
  {
    std::unique_lock lock(mutex);
    while (consumed < n && !stop) {
      auto& slot = slots[consumed % window];
      if (!slot) {
        if (finished == threads) break;  // cannot happen unless a worker stopped: guarded by `stop`
        ready.wait_for(lock, std::chrono::milliseconds(100));
      } else {
        Result result = std::move(*slot);
        slot.reset();
        ++consumed;
        space.notify_all();
        lock.unlock();
        try {
          consume(std::move(result));
        } catch (...) {  // stop the workers before the exception leaves (their threads must be joined)
          lock.lock();
          if (!error) error = std::current_exception();
          break;
        }
        lock.lock();
      }
      if (tick && std::chrono::steady_clock::now() - last_tick >= std::chrono::milliseconds(100)) {
        last_tick = std::chrono::steady_clock::now();
        const std::size_t done = consumed;
        lock.unlock();
        tick(done);
        lock.lock();
      }
    }
    stop = true;
    space.notify_all();
  }
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  if (tick) tick(n);
}

}  // namespace hr
