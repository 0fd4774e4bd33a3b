// story.hpp — the log of a game as the page of `houserules serve` tells it (docs/serve.md, "The log"): one entry per
// turn with the ruleset's `turn_summary` line as the viewer saw it (the same line `houserules play` prints, through
// turn_summary_text of cli/play/play.hpp), and at the end of each round the scores with each seat's
// `score_breakdown`, as the terminal prints them.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "rules.hpp"

namespace hr {
class ScriptedRules;

/// One action of a game's history: the seat that played it, the action and its text.
struct StoryAction {
  int seat = 0;
  Action action = 0;
  std::string text;
};

/// The story of the game that starts at `start` (a full state: the deal of new_game) and goes on with `actions`
/// (all legal; they are applied again here), as `viewer` saw it: viewer 1..seats reads each turn from that seat's
/// observations (GameState::observation: nothing it could not see), viewer 0 from the full states (a replay, a table
/// of bots only: nothing is hidden from that viewer), viewer -1 is a spectator of a shared table (serve --host
/// without a seat link): each turn is its action texts only (the public log) and no breakdown is made, so that no
/// hook ever reads a hidden card for it. A JSON array, one entry per turn (a seat's consecutive
/// actions):
///   {"seat", "first", "last" (1-based action numbers), "summary": the turn_summary line,
///    "round_end" (when the turn ended a round): {"round", "scores": [..], "totals": [..] (match scores after it),
///                  "breakdown": [text or null per seat] (score_breakdown on the round's final position with every
///                  card revealed, as players show their hands when a round is over)}}.
/// A hook that fails gives the entry "error": its message (the summary falls back to the action texts). When
/// `out_of_time` (if given) says the request's time budget is spent, the story stops there with a last entry for the
/// actions left ({"seat", "first", "last", "summary": their texts' count, "error": why}). Throws RulesError when an
/// action does not apply (the caller's history is corrupt).
nlohmann::json story_json(ScriptedRules& rules, const GameState& start, std::span<const StoryAction> actions,
                          int viewer, const std::function<bool()>& out_of_time = {});

}  // namespace hr
