// sandbox.hpp — one Lua 5.4 state locked down for running untrusted rules scripts (DESIGN.md §5).
//
//  * Libraries: base without dofile, loadfile, collectgarbage and binary chunks (`load` takes text only);
//    string without dump; table; math with `random` drawing from the game's RNG and no randomseed; utf8.
//    No io, os, debug, package. `require` loads Lua modules only from the ruleset's own folders.
//  * `pairs` and `next` visit keys in a fixed order (numbers ascending, then strings bytewise, then false,
//    true); other key types are refused, since their order would depend on memory addresses.
//  * Memory: every allocation goes through a capped allocator; past the cap the script gets Lua's
//    "not enough memory" error and the hook fails with a message naming the limit.
//  * CPU: a watchdog thread arms a count hook only in a call that has run past the time limit, so normal
//    code runs at full speed (with coverage on, the same hook function also takes line and call events); once armed, the hook raises an error at every instruction until the call has
//    unwound, so a `pcall` inside the script cannot swallow it, nor an `xpcall` handler outlive it. A call
//    still running a backstop time after that (stuck in C code, where no hook fires) ends the process with
//    a one-line message naming the hook, file and line. Library functions that loop in C are bounded:
//    table.insert/remove/move/sort refuse lengths past kMaxTableLength, and the pattern functions of
//    `string` run on a step budget (sandbox_patterns.cpp).
//  * No finalizers: setmetatable refuses `__gc` (it would run at any later allocation, in any hook, or at
//    lua_close, outside every limit) and `__mode` (weak tables show when the collector runs).
//  * Determinism: tostring, print and string.format never show a memory address; table.sort is a merge
//    sort (Lua's randomizes its pivot from the clock).
//  * Output: print writes at most kPrintBudget bytes per Lua state, control characters escaped.
//  * After loading, freeze() makes the globals and the library tables read-only: rules keep their state in
//    the game.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "block_pool.hpp"
#include "printable.hpp"  // printable(), truncated(): for the callers that include only this header
#include "rng.hpp"
#include "rules.hpp"

struct lua_State;

namespace hr {

/// A Lua error raised while running a rules hook: the message has the file, line and a traceback.
class ScriptError : public RulesError {
 public:
  using RulesError::RulesError;
};

class Watchdog;  // sandbox_watchdog.hpp: the thread that stops calls past their time limit
class CoverageRecorder;  // coverage.hpp

class Sandbox {
 public:
  /// Past this length table.insert, table.remove, table.move and table.sort stop with an error (a table
  /// that big does not fit in the memory cap anyway; a lying __len would make them loop in C).
  static constexpr long long kMaxTableLength = 1ll << 24;
  /// Steps one call of string.find, match, gmatch (per iteration) or gsub may take (sandbox_patterns.cpp):
  /// a fraction of a second.
  static constexpr long long kPatternSteps = 1ll << 24;
  /// Bytes `print` writes per Lua state before it falls silent (with one notice).
  static constexpr std::size_t kPrintBudget = 1u << 20;
  /// Bytes of a module name `require` accepts (each becomes a file name).
  static constexpr std::size_t kMaxModuleName = 128;
  /// Bytes of a script's error message kept (the file and line come first).
  static constexpr std::size_t kMaxErrorBytes = 4096;
  /// Memory only the kernel may use past the script's cap: kernel-side Lua calls outside a hook (creating
  /// the action list, pushing a hook's arguments) never fail for memory the script filled.
  static constexpr std::size_t kKernelReserve = 1u << 20;

  struct Limits {
    std::size_t memory_bytes = 64u << 20;
    std::chrono::milliseconds hook_time{2000};
  };

  explicit Sandbox(Limits limits);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  lua_State* lua() const { return L_; }
  const Limits& limits() const { return limits_; }

  /// Loads `file` as a text chunk (never binary) and pushes it as a function. Throws LoadError with the
  /// file and line of a syntax error.
  void load_file(const std::filesystem::path& file);
  /// Calls the function below `nargs` arguments on the stack, with a traceback on error and the CPU guard
  /// armed; `what` names the hook in error messages ("hook 'apply'"). Throws ScriptError; the Lua stack is
  /// restored either way (nresults values pushed on success).
  void call(const char* what, int nargs, int nresults);
  /// Folders `require` may load modules from (the ruleset's folder first).
  void set_module_roots(std::vector<std::filesystem::path> roots) { module_roots_ = std::move(roots); }
  /// The RNG `math.random` draws from (the bound game's); nullptr makes math.random an error.
  void set_random_source(Rng* rng) { random_source_ = rng; }
  /// How many times math.random has drawn from the game's RNG since the sandbox was made: a rule call after
  /// which it did not move used no randomness (game:append_allowed remembers only such calls' answers).
  std::uint64_t random_draws() const { return random_draws_; }
  /// Makes the globals table and the library tables read-only. Reading an undefined global stays nil.
  void freeze();
  /// Replaces the table at the top of the stack by a read-only proxy of it (recursively for nested tables).
  void make_read_only(int depth = 16);
  /// Bytes currently allocated by the Lua state.
  std::size_t memory_used() const { return used_; }
  /// A path as shown in messages: relative to the working directory when inside it.
  static std::string display_path(const std::filesystem::path& file);

  /// Opaque pointer for the bindings (the ScriptedRules that owns this sandbox).
  void* owner = nullptr;

  /// Registers the one table whose contents live outside Lua (the `actions` hook's `out` list while the kernel
  /// keeps it in its own buffer, scripting/bindings_actions.cpp): the table itself holds nothing and metamethods
  /// serve it. `unbuffer` (a C function taking no arguments, returning nothing) makes it a plain table holding
  /// those contents, for good; it also calls set_buffered_table(nullptr, nullptr). nullptr: no such table.
  void set_buffered_table(const void* table, int (*unbuffer)(lua_State*)) {
    buffered_table_ = table;
    unbuffer_ = unbuffer;
  }
  /// Before reading or writing the table at `index` raw (next, pairs, rawget, rawlen, rawset, getmetatable,
  /// setmetatable; the kernel's readers of what a script passed or returned): when it is the buffered table,
  /// makes it plain, so raw access sees what the script sees. For C functions called from Lua (a Lua error on
  /// failure).
  void plain(lua_State* L, int index) {
    if (buffered_table_ && is_buffered(L, index)) unbuffer_(L);
  }
  /// As plain(), for kernel code outside a protected call: runs `unbuffer` in one, and throws ScriptError
  /// (out of memory) when it fails.
  void plain_protected(lua_State* L, int index);

  // Internal, for the allocator, the CPU hook and the watchdog.
  static Sandbox* from(lua_State* L);
  std::size_t used_ = 0;
  BlockPool pool_;  // the state's small blocks (block_pool.hpp); destroyed after lua_close (~Sandbox)
  std::atomic<std::uint64_t> call_serial_{0};
  std::atomic<int> call_depth_{0};
  /// The CPU-time clock of the thread in the outermost call (pthread_getcpuclockid), or -1: the watchdog
  /// measures a call's running time on it, so a thread the machine starves is not stopped for it.
  std::atomic<int> cpu_clock_{-1};
  std::atomic<std::uint64_t> armed_serial_{~0ull};
  const char* current_hook_ = "";
  std::size_t printed_ = 0;  // bytes print has written
  Rng* random_source_ = nullptr;
  std::uint64_t random_draws_ = 0;
  std::vector<std::filesystem::path> module_roots_;
  /// Where the hook reports line and call events: set when the sandbox is created while coverage is
  /// recorded (scripting/coverage.hpp), else nullptr (no hook at all outside an armed CPU guard).
  CoverageRecorder* coverage_ = nullptr;
  /// The hook mask kept outside an armed CPU guard (coverage's line and call events, or none).
  int coverage_mask() const;
  /// Sets the hook back to that mask (the CPU guard's count event off).
  void disarm();
  /// Called by the allocator when it refuses a block inside a call: records the script's file and line.
  void note_out_of_memory();
  /// "file:line" of the last allocation refused in the current call (empty: none, or no Lua line).
  char out_of_memory_at_[96] = {};  // (LUA_IDSIZE, 60, and a line number)

 private:
  void open_libraries();
  bool is_buffered(lua_State* L, int index) const;
  const void* buffered_table_ = nullptr;
  int (*unbuffer_)(lua_State*) = nullptr;
  Limits limits_;
  lua_State* L_ = nullptr;
  // Shared ownership: a Sandbox in a static object destroyed late at exit (after the process-wide
  // reference) keeps the watchdog alive until it has unregistered; the last owner stops its thread.
  std::shared_ptr<Watchdog> watchdog_;
};

}  // namespace hr
