// module.hpp — the two objects `import houserules` hands out (docs/python.md): a Game (a loaded ruleset, one Lua
// state behind a lock) and a State (a game in progress, with the actions played since its deal, from which its
// transcript is made). Shared by the module's files: houserules_module.cpp (Game, State), bots_binding.cpp (the
// bots as callables), transcript_binding.cpp (the transcript).
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "scripted_rules.hpp"

namespace hr::python {

/// A loaded ruleset: one sandboxed Lua state, used by one thread at a time (the mutex).
struct Game {
  std::unique_ptr<ScriptedRules> rules;
  std::mutex lock;
  std::string ruleset;                 ///< as given to load(): an id, "id/variant" or a path (a transcript's "ruleset")
  std::vector<std::string> overrides;  ///< the params as `--set name=value` texts (a transcript's "set")
};

/// A game in progress; it keeps its Game alive.
struct State {
  std::shared_ptr<Game> game;
  GameState state;
  std::uint64_t seed = 0;        ///< the seed new_game dealt it from
  std::vector<Action> history;   ///< the actions applied since the deal, in order (the transcript replays them)
  /// False for a resample(): its hidden cards were dealt by the determinization, not by `seed`, so it has no
  /// transcript (`history` does not lead from the deal of `seed` to it).
  bool from_seed = true;

  int seats() const { return game->rules->layout().seats; }
  /// Throws IndexError for a 0-based player out of range.
  void check_player(int player) const {
    if (player < 0 || player >= seats())
      throw pybind11::index_error("player " + std::to_string(player) + " is not in 0.." + std::to_string(seats() - 1));
  }
};

/// Adds houserules.Bot and houserules.bot(name, seed=0, **options) to the module (bots_binding.cpp).
void bind_bots(pybind11::module_& m);
/// The JSON Lines transcript of `s` as `houserules play --log` writes it (transcript_binding.cpp): a header
/// naming `players` (one name per seat), one line per action, and a result line when the game is over, else a
/// `stopped` line (so `houserules play --resume` continues it). `file`, when not empty, is where the text will be
/// written (a ruleset given by path is then named relative to its folder, as play --log does). Replays the
/// history from the seed; throws ValueError for a resample() or a wrong number of player names.
std::string transcript_text(State& s, const std::vector<std::string>& players, const std::string& file);

}  // namespace hr::python
