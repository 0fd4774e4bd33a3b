// ruleset.hpp — finding rulesets on disk and loading one into a sandboxed Lua state as hr::Rules.
//
// A ruleset is a folder with `ruleset.toml` (id, name, players, entry script, [params]) and its Lua entry
// script (`rules.lua` by default). Built-in rulesets live in the source tree's `rulesets/`; the folders
// listed in the environment variable HOUSERULES_PATH (colon-separated) are searched too, first.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules.hpp"

namespace hr {

/// A ruleset could not be found or loaded: a missing file, broken TOML (message has file:line:column),
/// a Lua error at load time (file:line and traceback), a bad declaration. Nothing was changed.
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What `ruleset.toml` says about a ruleset, without running its script.
struct RulesetInfo {
  std::string id;                    ///< e.g. "lost-cities"
  std::string name;                  ///< e.g. "Lost Cities (card game)"
  std::string summary;               ///< one line
  std::filesystem::path dir;         ///< the folder holding ruleset.toml
  std::filesystem::path entry;       ///< the entry script, absolute
  int min_players = 2;
  int max_players = 2;
  int default_players = 2;
};

/// The folders searched for rulesets, in order: HOUSERULES_PATH entries, then the built-in folder.
std::vector<std::filesystem::path> ruleset_search_path();
/// Every ruleset found on the search path (the first of a given id wins), sorted by id.
std::vector<RulesetInfo> list_rulesets();
/// Reads `<dir>/ruleset.toml`. Throws LoadError (file:line:column for TOML errors, missing keys named).
RulesetInfo read_ruleset_info(const std::filesystem::path& dir);
/// Resolves a ruleset id ("lost-cities") through the search path, or a path to a ruleset folder or to its
/// ruleset.toml. Throws LoadError listing the rulesets that exist when nothing matches.
RulesetInfo find_ruleset(const std::string& id_or_path);

/// Limits and choices for loading a ruleset.
struct LoadOptions {
  int seats = 0;                                   ///< 0 = the ruleset's default number of players
  std::size_t memory_limit = 64u << 20;            ///< bytes the Lua state may allocate
  std::chrono::milliseconds hook_time_limit{2000}; ///< wall time one hook call may run before it is stopped
};

/// Loads a ruleset into a fresh sandboxed Lua state and returns it as hr::Rules (one per thread: a Lua
/// state is not thread-safe). Throws LoadError. See scripting/scripted_rules.hpp for the Lua contract.
std::unique_ptr<class ScriptedRules> load_rules(const std::string& id_or_path, const LoadOptions& options = {});

}  // namespace hr
