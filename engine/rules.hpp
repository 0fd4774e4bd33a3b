// rules.hpp — the interface every game implements, scripted (scripting/ScriptedRules) or native C++, and the
// kernel's part of the turn sequence: rollback of a failed action, the end of a round, the end of a match.
//
// Bots, the CLI, scenario tests and benchmarks use only this interface, so they serve every ruleset.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "layout.hpp"
#include "rng.hpp"
#include "state.hpp"

namespace hr {

/// An action in a ruleset's own compact encoding (DESIGN.md §3); its text form comes from action_text().
using Action = std::int32_t;

/// A rules hook failed (a script error, a broken invariant) or refused an action. The message names the
/// hook, and for scripts the file, line and traceback. The game state is unchanged when this is thrown.
class RulesError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The action is not among the legal actions of the seat to move (or the game is over).
class IllegalAction : public RulesError {
 public:
  using RulesError::RulesError;
};

class Rules {
 public:
  virtual ~Rules() = default;

  /// The static description of the game (seats, components, zones...). Valid as long as this object.
  virtual const Layout& layout() const = 0;
  /// Short identifier, e.g. "lost-cities" or "lost-cities/three-player".
  virtual std::string id() const = 0;

  /// A new match: a fresh state seeded with `seed`, then the setup and start_round hooks.
  /// Throws RulesError if a hook fails.
  GameState new_game(std::uint64_t seed);

  /// The legal actions of the seat to move, in the ruleset's order (empty once the game is over).
  void legal_actions(const GameState& state, std::vector<Action>& out);
  std::vector<Action> legal_actions(const GameState& state);

  /// Applies `action` for the seat to move, counts the ply, and when the rules ask for the end of the
  /// round, scores it (score hook for each seat), adds it to the match totals and starts the next round or
  /// ends the match. The action is trusted to be legal (taken from legal_actions); use apply_checked for
  /// outside input. Throws RulesError and leaves `state` exactly as it was if any hook fails.
  /// When `round_end` is given and the action ends a round (the last one too), `*round_end` receives the
  /// final position of that round: after the action, before the round is closed (its number, the totals of
  /// the rounds before it) and before the next round's start_round deals again; the table players look at
  /// when a round is over. It is untouched when no round ends.
  void apply(GameState& state, Action action, GameState* round_end = nullptr);
  /// As apply, but first checks that `action` is legal (is_legal); throws IllegalAction (state unchanged) if not.
  void apply_checked(GameState& state, Action action);
  /// Whether `action` is among the legal actions of the seat to move (false once the game is over): the
  /// legality query, which answers without throwing for an illegal action and never computes a text. The
  /// actions are read into the kernel's own buffer (no allocation once it has grown). Throws RulesError only
  /// when the rules themselves fail (the actions hook raising an error).
  bool is_legal(const GameState& state, Action action);

  /// Plays uniformly random legal actions from `state` until the game is over or `max_plies` actions have
  /// been played; returns the number played. Action i is legal[rng.below(legal.size())] of the legal actions
  /// in the ruleset's order, so every implementation plays the same game for the same state and rng (the
  /// generic loop here; ScriptedRules runs it inside the Lua VM). Used by benchmarks and search rollouts.
  /// Throws RulesError (state as it was at the start of the playout) if a hook fails or a seat has no legal
  /// action while the game is not over.
  virtual std::int64_t random_playout(GameState& state, Rng& rng, std::int64_t max_plies);

  /// The stable text form of `action` in the ruleset's notation ("play Y7", "draw deck").
  virtual std::string action_text(const GameState& state, Action action) = 0;
  /// The legal action whose text is `text` (surrounding blanks ignored, case-insensitive), if any.
  std::optional<Action> parse_action(const GameState& state, std::string_view text);

  /// `seat`'s score in the current round by the ruleset's scoring (seat 1..N).
  virtual std::int64_t score(const GameState& state, int seat) = 0;
  /// The ruleset's estimate of `seat`'s final score from what it may see (higher is better), if it has one.
  virtual std::optional<double> heuristic(const GameState& /*state*/, int /*seat*/) { return std::nullopt; }
  /// The ruleset's default options for the bot named `bot` ("ismcts"): "key=value:key=value", applied before
  /// the options of a player setting (make_bot). Empty: the bot's own defaults. Scripted rulesets read them
  /// from the [bots] table of ruleset.toml and their variants.
  virtual std::string bot_options(const std::string& /*bot*/) const { return {}; }
  /// A readable table of `observation` (a state masked for `seat`) for a human player.
  virtual std::string describe(const GameState& observation, int seat);
  /// One line saying why `text` is not a legal action now (for a human, a scenario's expect.error).
  /// The default says it is not among the legal actions; rulesets give the rule that forbids it.
  virtual std::string explain_illegal(const GameState& state, std::string_view text);
  /// A shorthand a human may type for several actions in a row, as those actions' texts in order (e.g. Lost
  /// Valley's "buy horse whisky whisky" -> "buy horse", "buy whisky", "buy whisky", "pay"); empty when `text`
  /// is not a shorthand of the ruleset (the default). The texts are not checked here: a player plays them one
  /// at a time, each against the legal actions of its own position, and stops at the first that is not legal.
  virtual std::vector<std::string> shorthand(const GameState& /*state*/, std::string_view /*text*/) { return {}; }
  /// The ruleset's own invariants (e.g. "columns increase"), checked by `houserules check` after every
  /// action: an empty string when they hold, else a description of the first violation. Default: none.
  virtual std::string invariant_violation(const GameState& /*state*/) { return {}; }
  /// Final places of a finished match, 1 = first, ties share a place. Default: by match totals.
  virtual std::vector<int> ranks(const GameState& state) { return state.ranks(); }

 protected:
  virtual void setup(GameState& /*state*/) {}
  virtual void start_round(GameState& state) = 0;
  virtual void generate_actions(const GameState& state, std::vector<Action>& out) = 0;
  virtual void do_apply(GameState& state, Action action) = 0;

  /// If the rules asked for the end of the round: scores it, adds it up, starts the next round or ends the match.
  /// `round_end`, when given, receives the position of a round about to be closed. (Inline: asked after every
  /// action, and the answer is nearly always no.)
  void finish_round_if_requested(GameState& state, GameState* round_end = nullptr) {
    if (state.round_end_requested()) finish_requested_round(state, round_end);
  }

 private:
  void finish_requested_round(GameState& state, GameState* round_end);  // finish_round_if_requested's work
  GameState backup_;               // rollback of a state that is already recording: assignment keeps its buffers
  std::vector<Action> scratch_;    // reused by apply_checked
};

/// An action text as parse_action compares it: lower case, runs of blanks as one space, none at the ends.
std::string normalized_action_text(std::string_view text);

/// The kernel's generic table: each zone with its cards (unknown ones as '?', hidden zones as a count),
/// counters, whose turn, round and match scores.
std::string render_observation(const GameState& observation, int seat);

}  // namespace hr
