// sandbox_watchdog.cpp — the sandbox's CPU guard (sandbox.hpp, "CPU"): the one hook of a Lua state (which also
// feeds coverage), the process-wide watchdog thread that arms it in a call past its time limit, and the
// backstop that ends the process when a call is stuck in C code.
#include "sandbox_watchdog.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <lua.hpp>

#include "coverage.hpp"
#include "printable.hpp"
#include "sandbox.hpp"

namespace hr {

namespace {

constexpr int kBackstopExitStatus = 70;  // EX_SOFTWARE (not 124: that is timeout(1)'s)

// The one hook of a sandbox: line and call events go to the coverage record (set only when coverage is on),
// count events are the CPU guard.
//
// With coverage on, the line events are the CPU guard too: Lua decrements its instruction counter on every
// instruction while any hook is set, and that non-atomic decrement races the watchdog's asynchronous
// lua_sethook, which can lose the reset to 1 and leave the count hook billions of instructions away (a
// runaway loop then met the backstop instead of the limit, in about one run in seven on a loaded machine).
// Every line event therefore also checks whether the watchdog armed this call.
void sandbox_hook(lua_State* L, lua_Debug* ar) {
  Sandbox* sandbox = Sandbox::from(L);
  const bool armed_for_this_call =
      sandbox->call_depth_.load(std::memory_order_relaxed) != 0 &&
      sandbox->armed_serial_.load(std::memory_order_relaxed) == sandbox->call_serial_.load(std::memory_order_relaxed);
  if (ar->event != LUA_HOOKCOUNT) {
    if (sandbox->coverage_) sandbox->coverage_->record(L, ar);
    if (!armed_for_this_call) return;
  } else if (!armed_for_this_call) {
    sandbox->disarm();  // armed for a call that has already finished
    return;
  }
  // A hook runs in the frame of the interrupted function, so that function is level 0 (luaL_error's level 1
  // would name the line of its caller instead of the line that was running).
  luaL_where(L, 0);
  lua_pushfstring(L, "%s ran longer than the limit of %d ms and was stopped", sandbox->current_hook_,
                  static_cast<int>(sandbox->limits().hook_time.count()));
  lua_concat(L, 2);
  lua_error(L);
}

}  // namespace

std::shared_ptr<Watchdog> Watchdog::shared() {
  static const std::shared_ptr<Watchdog> process_wide = std::make_shared<Watchdog>();
  return process_wide;
}

void Watchdog::add(Sandbox* sandbox) {
  std::lock_guard lock(mutex_);
  watched_.push_back(Entry{sandbox, 0, std::chrono::milliseconds{0}});
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void Watchdog::remove(Sandbox* sandbox) {
  std::lock_guard lock(mutex_);
  std::erase_if(watched_, [&](const Entry& e) { return e.sandbox == sandbox; });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::optional<std::chrono::nanoseconds> Watchdog::thread_cpu_time(int clock) {
  timespec ts{};
  if (clock == -1 || clock_gettime(static_cast<clockid_t>(clock), &ts) != 0) return std::nullopt;
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

std::chrono::milliseconds Watchdog::backstop(const Sandbox& s) {
  return std::max(s.limits().hook_time, std::chrono::milliseconds{2000});
}

void Watchdog::stop_process(Sandbox& s, std::chrono::milliseconds running) {
  lua_State* L = s.lua();
  std::string where = "in C code";
  lua_Debug ar;
  for (int level = 0; level < 8 && lua_getstack(L, level, &ar); ++level) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
    where = std::string(ar.short_src) + ":" + std::to_string(ar.currentline);
    break;
  }
  std::fprintf(stderr,
               "houserules: %s (%s) still ran %lld ms after its limit of %lld ms, inside a library call that cannot "
               "be interrupted; the process is stopped\n",
               printable(s.current_hook_).c_str(), printable(where).c_str(),
               static_cast<long long>((running - s.limits().hook_time).count()),
               static_cast<long long>(s.limits().hook_time.count()));
  std::fflush(stderr);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  std::abort();  // under libFuzzer (-DHOUSERULES_FUZZ=ON): a crash it reports, with the input that caused it saved
#else
  std::_Exit(kBackstopExitStatus);
#endif
}

void Watchdog::run() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, tick);
    for (Entry& e : watched_) {
      Sandbox* s = e.sandbox;
      const std::uint64_t serial = s->call_serial_.load(std::memory_order_relaxed);
      const bool in_call = s->call_depth_.load(std::memory_order_relaxed) != 0;
      const auto cpu = in_call ? thread_cpu_time(s->cpu_clock_.load(std::memory_order_relaxed)) : std::nullopt;
      if (!in_call || serial != e.serial) {
        e.serial = serial;
        e.running = std::chrono::milliseconds{0};
        e.cpu_start = cpu;
        continue;
      }
      // the CPU time the call's thread used since the call was first seen; watchdog ticks if it cannot be read
      if (cpu && e.cpu_start)
        e.running = std::chrono::duration_cast<std::chrono::milliseconds>(*cpu - *e.cpu_start);
      else
        e.running += tick;
      if (e.running >= s->limits().hook_time && s->armed_serial_.load() != serial) {
        s->armed_serial_.store(serial);
        // documented as safe to call asynchronously
        lua_sethook(s->lua(), sandbox_hook, LUA_MASKCOUNT | s->coverage_mask(), 1);
      } else if (e.running >= s->limits().hook_time + backstop(*s)) {
        stop_process(*s, e.running);
      }
    }
  }
}

int Sandbox::coverage_mask() const { return coverage_ ? CoverageRecorder::hook_mask() : 0; }

void Sandbox::disarm() {
  if (coverage_) {
    lua_sethook(L_, sandbox_hook, coverage_mask(), 0);
  } else {
    lua_sethook(L_, nullptr, 0, 0);
  }
}

}  // namespace hr
