// bots.hpp — players that choose actions for a seat through the Rules interface only: they receive an
// InformationSet (what the seat knows), never the real state, so they serve every ruleset and cannot peek.
#pragma once

#include <memory>
#include <span>
#include <string>
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
/// current round's score. Ties are broken at random.
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
};

/// Makes a bot from its setting: a name ("random", "greedy", "ismcts"), for ismcts optionally followed by
/// options "name:key=value:key=value" (e.g. "ismcts:iterations=2000", see IsmctsOptions::parse). Returns
/// nullptr for an unknown name; throws std::invalid_argument for bad options (naming the known ones).
std::unique_ptr<Player> make_bot(const std::string& spec, std::uint64_t seed);

}  // namespace hr
