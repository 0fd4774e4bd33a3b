// transcript_binding.cpp — State.transcript(): a game played from Python as the JSON Lines transcript
// `houserules play --log` writes (cli/play/transcript.hpp), so `houserules replay` checks it and
// `houserules play --resume` continues it (docs/python.md).
#include <sstream>
#include <stdexcept>

#include "module.hpp"
#include "transcript.hpp"

namespace hr::python {

std::string transcript_text(State& s, const std::vector<std::string>& players, const std::string& file) {
  if (!s.from_seed)
    throw pybind11::value_error("a resampled state has no transcript: its hidden cards were dealt by resample(), "
                                "not from a seed");
  if (players.size() != static_cast<std::size_t>(s.seats()))
    throw pybind11::value_error("players: " + std::to_string(players.size()) + " names for " +
                                std::to_string(s.seats()) + " seats");
  std::ostringstream out;
  {
    pybind11::gil_scoped_release release;
    std::lock_guard guard(s.game->lock);
    ScriptedRules& rules = *s.game->rules;
    TranscriptWriter writer(out, file);
    writer.header(s.game->ruleset, s.seats(), s.seed, players, rules.params_json(), s.game->overrides, rules.id());
    // The lines need each action's text, the number of legal actions before it and the digest after it: the
    // history is replayed from the deal (apply_action records only the action, so play costs nothing extra).
    GameState replayed = rules.new_game(s.seed);
    std::vector<Action> legal;
    for (const Action action : s.history) {
      rules.legal_actions(replayed, legal);
      const int round = replayed.round();
      const int seat = replayed.to_move();
      const std::string text = rules.action_text(replayed, action);
      rules.apply(replayed, action);
      writer.action(replayed, round, seat, text, legal.size());
    }
    if (replayed.over()) writer.result(rules, replayed);
    else writer.stopped("left unfinished in Python", replayed);
  }
  return out.str();
}

}  // namespace hr::python
