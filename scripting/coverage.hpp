// coverage.hpp — which lines and functions of the rule scripts ran (`houserules test|check --coverage`), and
// the script sources `houserules mutate` loads in place of the files on disk.
//
// Coverage: while CoverageRecorder::global() is enabled, every Sandbox created sets a Lua line and call hook
// (the same hook function as its CPU guard, scripting/sandbox_watchdog.cpp) that reports here. Only chunks loaded from
// files (chunk names "@file") are recorded. A file's executable lines are the lines Lua can report for it: the
// line information of every function prototype of the chunk, nested ones included, read from the chunk's
// binary dump (lua_dump, from C: the sandbox has no string.dump). This is what `debug.getinfo(f, "L")`
// gives for each function (activelines), for all of them at once.
//
// Mutation: set_source_override(file, text) makes every later load of that file (Sandbox::load_file, require,
// parse_toml_file) read `text` instead (read_source does the lookup). Meant for a process that runs one
// mutant and ends (cli/testing/mutate.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

struct lua_State;
struct lua_Debug;

namespace hr {

/// One function of a rule script (a Lua function prototype; the main chunk is not listed).
struct FunctionCoverage {
  std::string name;      ///< from its definition ("may_play", "rules.apply"), or "function@<line>"
  int line = 0;          ///< line of `function`
  int last_line = 0;     ///< line of its `end`
  std::int64_t calls = 0;
};

/// What ran of one rule script.
struct FileCoverage {
  std::string shown;                  ///< the path as messages show it (relative to the working directory)
  std::filesystem::path path;         ///< absolute
  std::map<int, std::int64_t> lines;  ///< every executable line -> times it ran (Lua line events)
  std::vector<FunctionCoverage> functions;  ///< by line
  int lines_run() const;
  int functions_reached() const;
  /// The executable lines never run, as ranges over the executable lines ("12-14, 30": no executable line
  /// between 12 and 14 ran).
  std::string unrun_ranges() const;
};

/// The process-wide record of what ran. Thread-safe (sandboxes of several threads may report).
class CoverageRecorder {
 public:
  static CoverageRecorder& global();
  /// Sandboxes created from now on record coverage (their Lua code runs slower: a hook at every line).
  void enable() { enabled_ = true; }
  bool enabled() const { return enabled_; }
  /// Snapshot of every file recorded so far, sorted by shown path.
  std::vector<FileCoverage> files() const;
  /// The Lua hook mask a recording sandbox keeps set (line and call events).
  static int hook_mask();
  /// Called by the sandbox's hook for line and call events. Never throws, never raises a Lua error.
  void record(lua_State* L, lua_Debug* ar) noexcept;

 private:
  FileCoverage* file_for(lua_State* L, lua_Debug* ar, bool is_main);
  bool enabled_ = false;
  mutable std::mutex mutex_;
  std::map<std::string, FileCoverage> files_;  // by chunk name without '@'
  const char* last_source_ = nullptr;          // cache of the last lookup (pointer and name both compared)
  FileCoverage* last_file_ = nullptr;
};

/// Prints, per file, the share of executable lines run and of functions reached, the lines never run (as
/// ranges) and the functions never called; then the totals.
void print_coverage_report(const std::vector<FileCoverage>& files, std::ostream& out);
/// Writes the lcov tracefile (TN/SF/FN/FNDA/FNF/FNH/DA/LF/LH/end_of_record) that `genhtml` reads.
void write_lcov(const std::vector<FileCoverage>& files, std::ostream& out, const std::string& test_name);
/// The coverage as JSON: {"files":[{"file","lines":{"total","run","unrun":[...]},"functions":[...]}],"total":{...}}.
std::string coverage_json(const std::vector<FileCoverage>& files);

/// The executable lines of a chunk of Lua source (as CoverageRecorder counts them), or nullopt with `error`
/// set when it does not compile (the message names chunkname and the line).
std::optional<std::set<int>> executable_lines(std::string_view source, const std::string& chunkname,
                                              std::string* error = nullptr);

/// Makes later loads of `file` read `text` (mutation testing). The file must exist.
void set_source_override(const std::filesystem::path& file, std::string text);
/// The override of `file`, if one is set.
std::optional<std::string> source_override(const std::filesystem::path& file);
/// The text of `file`: its override if one is set, else its contents. nullopt when it cannot be read.
std::optional<std::string> read_source(const std::filesystem::path& file);

}  // namespace hr
