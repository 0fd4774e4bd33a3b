#pragma once
// The named rules of a ruleset as a variant author meets them: each extension point with the first sentence of
// its docstring, read from the Lua source (`houserules new` lists them in the scaffold and its output).

#include <string>
#include <utility>
#include <vector>

#include "ruleset.hpp"

namespace hr {

/// One named rule: its name ("may_play"), its signature as its docstring or definition gives it
/// ("may_play(game, seat, card, column, n)") and the first sentence of its docstring (empty when it has none).
struct RuleDoc {
  std::string name;
  std::string signature;
  std::string summary;
};

/// For each of `names` (ScriptedRules::rule_functions()), in that order: its definition
/// (`function rules.NAME(...)` or `rules.NAME = function(...)`) and the `---` comment lines just above it, found
/// in the base ruleset's Lua files (the entry script, then the other `*.lua` of its folder) and then in each
/// variant's script of the chain, innermost first (a later definition wins: the one that runs). The summary is
/// the docstring's first sentence (up to ". " or its end, cut at 160 characters), without a leading
/// "NAME(args) -> result:" signature, which becomes `signature`. Unreadable files are skipped.
std::vector<RuleDoc> rule_docs(const RulesetInfo& info, const std::vector<std::string>& names);

}  // namespace hr
