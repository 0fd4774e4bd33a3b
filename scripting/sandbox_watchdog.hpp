// sandbox_watchdog.hpp — private to scripting/sandbox*.cpp: the process-wide thread that stops Lua calls past
// their time limit (sandbox_watchdog.cpp). Sandbox (sandbox.cpp) registers with it for its whole life.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace hr {

class Sandbox;

/// One thread for the whole process. Every `tick` it looks at each sandbox in a call: a call whose serial
/// number has not changed while its thread used more CPU time than the sandbox's limit gets the count hook
/// armed. CPU time, not wall time: on a loaded machine a starved thread may take seconds of wall time for a
/// call of milliseconds, and must not be stopped (nor ended by the backstop) for it. The hot path pays a few
/// relaxed atomic stores per call and never reads a clock.
///
/// Lifetime: every Sandbox holds a shared_ptr to it, and so does a function-local static. At exit the static's
/// reference goes first or last depending on construction order; a Sandbox kept in a static object (a cache of
/// loaded rules) can be destroyed after it, and still unregisters from a live watchdog. The last owner's
/// release joins the thread.
class Watchdog {
 public:
  static std::shared_ptr<Watchdog> shared();
  void add(Sandbox* sandbox);
  void remove(Sandbox* sandbox);
  ~Watchdog();

 private:
  struct Entry {
    Sandbox* sandbox;
    std::uint64_t serial;
    std::chrono::milliseconds running;
    std::optional<std::chrono::nanoseconds> cpu_start = std::nullopt;  // the thread's CPU time when first seen
  };

  /// The CPU time a thread has used so far, or nothing when its clock cannot be read.
  static std::optional<std::chrono::nanoseconds> thread_cpu_time(int clock);
  static constexpr std::chrono::milliseconds tick{25};

  /// How long an armed call may go on before the process is ended: the count hook fires at the next Lua
  /// instruction, so a call still running this long after arming is stuck in C code (a library function)
  /// or in a place no hook reaches.
  static std::chrono::milliseconds backstop(const Sandbox& s);

  /// The backstop: one line on stderr naming the hook and the script's file and line, then the process
  /// ends (a Lua state stuck in C cannot be unwound from another thread). The call's stack does not change
  /// while its C function runs, so reading it from here is safe in practice; nothing else runs after.
  [[noreturn]] static void stop_process(Sandbox& s, std::chrono::milliseconds running);

  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Entry> watched_;
  std::thread thread_;
  bool stop_ = false;
};

}  // namespace hr
