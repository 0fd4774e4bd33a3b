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
//    code runs at full speed; once armed, the hook raises an error at every instruction until the call has
//    unwound, so a `pcall` inside the script cannot swallow it.
//  * After loading, freeze() makes the globals and the library tables read-only: rules keep their state in
//    the game.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "rng.hpp"
#include "rules.hpp"

struct lua_State;

namespace hr {

/// A Lua error raised while running a rules hook: the message has the file, line and a traceback.
class ScriptError : public RulesError {
 public:
  using RulesError::RulesError;
};

class Sandbox {
 public:
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

  // Internal, for the allocator, the CPU hook and the watchdog.
  static Sandbox* from(lua_State* L);
  std::size_t used_ = 0;
  std::atomic<std::uint64_t> call_serial_{0};
  std::atomic<int> call_depth_{0};
  std::atomic<std::uint64_t> armed_serial_{~0ull};
  const char* current_hook_ = "";
  Rng* random_source_ = nullptr;
  std::vector<std::filesystem::path> module_roots_;

 private:
  void open_libraries();
  Limits limits_;
  lua_State* L_ = nullptr;
};

}  // namespace hr
