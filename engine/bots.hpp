// bots.hpp — players that choose actions for a seat through the Rules interface only: they receive an
// InformationSet (what the seat knows), never the real state, so they serve every ruleset and cannot peek.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "rng.hpp"
#include "rules.hpp"

namespace hr {

/// What a seat may use to decide: its legal actions (known to the seat to move), its observation, and
/// determinizations (samples of the hidden cards consistent with the observation). The real state stays
/// private to this class.
class InformationSet {
 public:
  InformationSet(const GameState& real, int seat, std::span<const Action> legal)
      : real_(&real), seat_(seat), legal_(legal) {}
  int seat() const { return seat_; }
  std::span<const Action> legal() const { return legal_; }
  /// The state with every card this seat cannot see masked (GameState::observation).
  GameState observation() const { return real_->observation(seat_); }
  /// A full state with the unseen cards dealt at random from `rng` (GameState::determinized).
  GameState determinize(Rng& rng) const { return real_->determinized(seat_, rng); }
  /// Plies played so far in the match (public: every seat can count them).
  std::int64_t ply() const { return real_->ply(); }
  /// The round being played (1-based; public).
  int round() const { return real_->round(); }

 private:
  const GameState* real_;
  int seat_;
  std::span<const Action> legal_;
};

class Player {
 public:
  virtual ~Player() = default;
  /// Chooses one of info.legal() (non-empty). May throw RulesError if a rules hook it calls fails.
  virtual Action choose(Rules& rules, const InformationSet& info) = 0;
  /// "random", "greedy", "human"...
  virtual std::string name() const = 0;
  /// Whether the match loop should tell this player every action played (action_played). Default: no, so
  /// loops of bot-only games need not compute action texts.
  virtual bool follows_moves() const { return false; }
  /// An action was played by `seat` (any seat, this one included), given by its text; called after it is
  /// applied, in order, when follows_moves(). Action texts are public (every seat sees what was played).
  virtual void action_played(int /*seat*/, const std::string& /*text*/) {}
  /// The match is over: `final_state` is the finished game (scores and places are public by then; a player
  /// shows its seat only its observation). Called once by the match loops of `play` and `simulate`.
  virtual void match_over(Rules& /*rules*/, const GameState& /*final_state*/) {}
};

/// The positions one seat has been in during a game, so that a bot can avoid moving back into one: a seat that
/// takes back the card it discarded, in the same position, is not playing, and two such seats play forever
/// (issue 12). A position is the seat's observation without the ply count and the RNG
/// (GameState::position_digest of GameState::observation): the same cards in the same places, counters, figures,
/// seat to move and phase. Nothing in it is ruleset-specific, so it serves every ruleset; a rule that must
/// never repeat (a counter that changes every turn) simply never repeats a position.
///
/// Positions need not repeat for a game to go nowhere: two greedy seats that both find ending the round bad
/// can pass cards between discard piles in an order that never comes back (issue 37: Lost Cities' nothing-in-hand,
/// 33,000 plies without an exact repeat). So the history also counts the seat's decisions in the round being
/// played: past kStallDecisions the seat is stalled() and the bots play at random (from their own seeded Rng,
/// so games stay reproducible) until the round ends — random play ends every round of our rulesets. No round of
/// our rulesets takes a seat more than ~150 decisions (the `sweep` CTest label checks that greedy never gets there).
class PositionHistory {
 public:
  /// Decisions of one seat in one round after which it is stalled(): about 4 times the longest round of our
  /// rulesets (Lost Valley's single round, 4 seats: ~130 decisions a seat).
  static constexpr std::int64_t kStallDecisions = 600;
  /// Records the position the seat is in at a decision (its real observation). When the ply count did not
  /// advance since its last decision (the bot is reused for a new game, or asked again after an undo) it first
  /// forgets what it has seen.
  void visit(const InformationSet& info);
  /// The position `seat` sees in `state` (a real state or a sample after one of the seat's candidate actions;
  /// a sample and the real state give the same key when they differ only in cards hidden from the seat).
  static std::uint64_t key(const GameState& state, int seat) { return state.observation(seat).position_digest(); }
  /// Whether the seat has been in the position with this key (at a decision, or after one of its actions).
  bool seen(std::uint64_t key) const { return seen_.count(key) != 0; }
  /// Records the position after the seat's chosen action.
  void add(std::uint64_t key) { seen_.insert(key); }
  std::size_t size() const { return seen_.size(); }
  /// The seat's decisions in the current round, this one included (since visit() last saw a new round).
  std::int64_t round_decisions() const { return round_decisions_; }
  /// More than kStallDecisions decisions in this round: the bot should play at random until it ends.
  bool stalled() const { return round_decisions_ > kStallDecisions; }

 private:
  std::unordered_set<std::uint64_t> seen_;
  std::int64_t last_ply_ = -1;
  int last_round_ = -1;
  std::int64_t round_decisions_ = 0;
};

/// Uniformly random among the legal actions.
class RandomPlayer : public Player {
 public:
  explicit RandomPlayer(std::uint64_t seed) : rng_(seed) {}
  Action choose(Rules& rules, const InformationSet& info) override;
  std::string name() const override { return "random"; }

 private:
  Rng rng_;
};

/// One ply ahead: applies each legal action to one determinization of what it knows and keeps the action
/// with the best value for its seat — the ruleset's heuristic if it has one, else the match total plus the
/// current round's score. Ties are broken at random. Actions that lead back into a position the seat has been in
/// this game (PositionHistory) are left out, unless every action does; a seat stalled in a round
/// (PositionHistory::stalled) plays at random until the round ends.
class GreedyPlayer : public Player {
 public:
  explicit GreedyPlayer(std::uint64_t seed) : rng_(seed) {}
  Action choose(Rules& rules, const InformationSet& info) override;
  std::string name() const override { return "greedy"; }
  /// The value greedy maximises for `seat` in `state`.
  static double value(Rules& rules, const GameState& state, int seat);

 private:
  Rng rng_;
  std::vector<Action> best_;
  std::vector<std::uint64_t> best_keys_;
  PositionHistory history_;
};

/// Makes a bot from its setting: a name ("random", "greedy", "ismcts"), for ismcts optionally followed by
/// options "name:key=value:key=value" (e.g. "ismcts:iterations=2000", see IsmctsOptions::parse). Returns
/// nullptr for an unknown name; throws std::invalid_argument for bad options (naming the known ones).
/// With `rules`, the ruleset's defaults for the bot (Rules::bot_options) come first and the setting's options
/// after them, so a setting overrides the ruleset: "ismcts:expand=greedy" wins over a ruleset's expand=random.
std::unique_ptr<Player> make_bot(const std::string& spec, std::uint64_t seed, const Rules* rules = nullptr);

}  // namespace hr
