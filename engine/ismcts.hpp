// ismcts.hpp — single-observer information-set Monte Carlo tree search (SO-ISMCTS with UCT; Cowling, Powley
// and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), over the Rules interface.
//
// One tree per decision, rooted at the deciding seat's information set. Each iteration:
//   1. determinize: deal the cards the seat cannot see at random (InformationSet::determinize, the bot's Rng);
//   2. select: from the root, while every legal action of the sample has a child, take the child with the
//      best UCB1 value  mean + c * sqrt(ln(availability) / visits), where availability counts the visits of
//      the parent in which the child's action was legal (actions differ between samples: the opponent's
//      sampled hand, the card drawn);
//   3. expand one untried legal action: one at random (expand=random, the default), or the one after which the
//      mover's heuristic is highest, as the greedy bot would play it (expand=greedy);
//      with widening (widen=k > 0) a node grows a new child only while it has fewer than
//      ceil(k * sqrt(visits)) children legal in the sample, else selection goes on among those (progressive
//      widening: Coulom 2007, Chaslot et al. 2008);
//   4. evaluate the sample (rollout policy below) as one reward in [0, 1] per seat;
//   5. backpropagate: each node on the path adds the reward of the seat that chose its action.
// The move returned is the root child visited most (ties: higher mean, then the ruleset's action order).
// Root actions that lead back into a position the seat has been in this game (PositionHistory, bots.hpp) are not
// searched, unless every action does: a bot that takes back what it discarded in the same position is not playing.
// A seat stalled in a round (PositionHistory::stalled: hundreds of decisions without the round ending) plays at
// random until the round ends.
//
// Heuristic memo (memo=on, the default): within a decision, each heuristic value is kept under (seat, what the seat
// sees) and reused where the search values a state that seat cannot tell apart from one it valued (the same values:
// Rules::heuristic is a function of what the seat sees; so the same decisions, with fewer hook calls). 768 KiB a
// bot, allocated once.
//
// The bot never sees the real state: it reads only InformationSet::legal() and determinize(), so for a
// given seed its decision depends only on what its seat knows (tests/games/ismcts_test.cpp proves it).
//
// Horizon: the round being played when the decision is made. A sample whose round has ended is scored
// exactly (the seats' match totals through that round; with round_end=heuristic, unless the match is over, by the
// heuristic of the next round's start, as greedy values an action that ends a round); otherwise it is estimated
// (see Rollout).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bots.hpp"

namespace hr {

struct IsmctsOptions {
  enum class Rollout {
    Random,     ///< random play (Rules::random_playout) to the end of the round, at most `depth` plies
    Heuristic,  ///< `depth` plies of random play, then the ruleset's heuristic (or, without one, the scores)
    /// Greedy play (each seat the action after which its heuristic is highest) until the deciding seat is
    /// to move again or the round ends (at most `depth` plies; -1: 16 a seat), then the heuristic: every
    /// leaf is valued at the same point of the turn order. Needs a heuristic hook (without one: Random).
    Greedy,
  };
  enum class Reward {
    Margin,  ///< 0.5 + 0.5 * tanh((own value - best other seat's value) / scale)
    Win,     ///< 1 if the seat's value is above every other seat's, 0.5 if it ties for the top, else 0
    /// 0.5 + 0.5 * tanh((own value - baseline) / scale): each seat for itself, the others' values ignored
    /// (with baseline=off the value itself, which tanh saturates: keep the baseline on)
    Own,
  };
  int iterations = 1000;         ///< iterations per decision; 0 = no count limit (needs time_ms)
  double exploration = 0.7;      ///< UCB1 constant c (rewards are in [0, 1])
  std::optional<Rollout> rollout;  ///< unset: Heuristic when the ruleset has a heuristic hook, else Random
  int depth = -1;                ///< rollout plies; -1: 0 for Heuristic, 1000 for Random
  /// Before a leaf is evaluated, the seat that made the path's last move finishes its turn, each ply the action
  /// whose result its heuristic values most (16 plies at most). Unset: on with the Heuristic
  /// rollout (when the ruleset has a heuristic hook), off otherwise.
  std::optional<bool> finish_turn;
  enum class Expand {
    Random,  ///< an untried action at random
    Greedy,  ///< the untried action after which the mover's heuristic is highest (needs a heuristic hook)
  };
  /// Unset: Random (a ruleset may name Greedy in its [bots] table: Rivals does, docs/bots.md). Greedy ranks a
  /// node's legal actions once, in the sample where it first expands, by the mover's heuristic after each (one
  /// hook call per action); later expansions take the next in that order that is legal in their sample.
  /// Without a heuristic hook it is Random.
  std::optional<Expand> expand;
  /// Progressive widening constant k: a node has at most ceil(k * sqrt(visits)) children to choose among in a
  /// sample before it expands another. 0 = off (a node expands while any legal action is untried).
  double widen = 0;
  Reward reward = Reward::Margin;
  double scale = 30;             ///< points of margin for tanh's knee (Margin only)
  /// Margin, Own: subtract each sample's own margins (values) at the root (less variance).
  bool baseline = true;
  enum class RoundEnd {
    Exact,      ///< a sample whose round ended is valued by the match totals through that round
    /// a sample whose round ended, the match not over, is valued by the heuristic of the state after it (the
    /// next round dealt): for a ruleset whose rounds leave more than the totals behind (the board game's
    /// artifact chips score at the end of the match), which the totals leave out and the heuristic counts.
    /// The match's end is valued by its totals. Without a heuristic: Exact.
    Heuristic,
  };
  RoundEnd round_end = RoundEnd::Exact;
  double time_ms = 0;            ///< > 0: also stop after this long (then decisions depend on the machine)
  /// Keep each heuristic value computed during a decision under (seat, what the seat sees: GameState::
  /// observation_key) and reuse it when the search values a state that seat cannot tell apart: the same decisions
  /// (Rules::heuristic is a function of what the seat sees), fewer hook calls where views repeat (Rivals, where
  /// nothing a seat holds is hidden; Lost Valley's per-sample baseline). Where they do not (Lost Cities: every
  /// sample deals the opponent a new hand) a decision's memo stops after kMemoProbe lookups that found fewer than
  /// 1 in 16 values in it. Off: every value is computed afresh.
  bool memo = true;
  std::optional<std::uint64_t> seed;  ///< replaces the seed the bot is made with

  /// Parses "key=value:key=value..." (the part of "ismcts:..." after the first colon; empty = defaults).
  /// Throws std::invalid_argument naming a bad key (and listing the known ones) or a bad value.
  static IsmctsOptions parse(const std::string& text);
  /// The option names parse() accepts, comma-separated.
  static const char* option_names();
};

/// Counters of the last decision (for benchmarks and tests).
struct IsmctsStats {
  std::int64_t iterations = 0;
  std::int64_t nodes = 0;
  std::int64_t rollout_plies = 0;
  std::int64_t heuristic_calls = 0;  ///< calls of Rules::heuristic
  std::int64_t memo_hits = 0;        ///< heuristic values taken from the memo instead (memo=on)
  bool memo_stopped = false;         ///< the memo found too few values and stopped for the rest of the decision
  double seconds = 0;
};

/// A heuristic value IsmctsPlayer already computed for the state it is valuing: rules.heuristic(state, seat)
/// == value. Passing it saves a call of the hook and changes no result (the hook is a function of the state).
struct IsmctsKnownValue {
  int seat = 0;  ///< 1..N; 0: nothing known
  double value = 0;
};

class IsmctsPlayer : public Player {
 public:
  IsmctsPlayer(std::uint64_t seed, IsmctsOptions options = {});
  Action choose(Rules& rules, const InformationSet& info) override;
  std::string name() const override { return "ismcts"; }
  const IsmctsOptions& options() const { return options_; }
  const IsmctsStats& last_stats() const { return stats_; }
  /// Root children of the last decision: (action, visits, mean reward for the deciding seat).
  struct ChildStats {
    Action action;
    int visits;
    double mean;
  };
  std::vector<ChildStats> root_children() const;

 protected:
  /// One sample of the state for an iteration. The real bot returns info.determinize(rng); a test double
  /// overrides it to cheat (and shows that the no-peeking test would catch it). Nothing else sees states.
  virtual GameState sample(const InformationSet& info, Rng& rng) { return info.determinize(rng); }

 private:
  struct Node {
    Action action = 0;
    int mover = 0;         // the seat that chose `action` (its reward is accumulated here)
    int visits = 0;
    int availability = 0;  // visits of the parent in which `action` was legal
    double reward = 0;     // sum of the mover's rewards
    std::vector<int> children;
    std::vector<Action> order;  // expand=greedy: the legal actions, best first (filled at the first expansion)
  };

  using Known = IsmctsKnownValue;
  /// Each seat's margin over the best other seat in `state`: exact once the round `round` is over (with
  /// round_end=heuristic only once the match is over), else from the heuristic (or, without one, the scores);
  /// `known` spares the heuristic call of its seat.
  void values(Rules& rules, const GameState& state, int round, double* margin, Known known = {});
  /// While `seat` is to move in round `round`: applies the legal action after
  /// which rules.heuristic(state, seat) is highest (16 plies at most). Counts the plies in stats_.rollout_plies.
  /// Returns the heuristic value of `seat` in the final state when it computed it (choosing the last action).
  Known finish_turn(Rules& rules, GameState& state, int round, int seat);
  /// Plays `depth` random plies (not past the round), then the rewards: margins minus `baseline`, squashed.
  /// `known` (a heuristic value of `state` as given) is used only when no random ply was played.
  void evaluate(Rules& rules, GameState& state, int round, std::int64_t depth, const double* baseline, double* reward,
                Known known = {});
  int child_of(int node, Action action) const;
  /// rules.heuristic(state, seat), through the memo when options_.memo (counted in stats_).
  std::optional<double> heuristic(Rules& rules, const GameState& state, int seat);
  /// expand=greedy: the untried action (an index into legal_, listed in untried_) to expand at `node`.
  int greedy_untried(Rules& rules, const GameState& state, int node, int mover);

  IsmctsOptions options_;
  Rng rng_;
  IsmctsStats stats_;
  std::vector<Node> nodes_;
  std::vector<Action> legal_;
  std::vector<int> untried_;
  std::vector<int> path_;
  int seats_ = 0;
  bool has_heuristic_ = false;
  std::vector<Action> turn_legal_;  // finish_turn's scratch
  std::vector<std::pair<double, Action>> ranked_;  // greedy_untried's scratch
  GameState turn_next_;
  GameState turn_best_;  // finish_turn's and greedy_untried's scratch: the state after the best action so far
  bool picked_state_ = false;  // greedy_untried left the state after the action it picked in turn_best_
  PositionHistory history_;
  std::vector<Action> root_actions_;     // the root's legal actions that do not repeat a position
  std::vector<std::uint64_t> root_keys_;  // the position after each of them (in the first sample)
  /// The memo (memo=on): a direct-mapped table of kMemoSlots entries (allocated at the first decision, never
  /// grown: the same memory for every decision and game), slot (digest ^ seat * odd constant) mod kMemoSlots; an
  /// entry belongs to the decision it was written in (memo_decision_), so a new decision starts with an empty
  /// memo without clearing it. A slot taken by another key is overwritten: a value lost is computed again.
  struct MemoEntry {
    std::uint64_t digest = 0;  // GameState::observation_key(seat)
    double value = 0;
    std::uint32_t decision = 0;  // memo_decision_ when written (0: never)
    std::int8_t seat = 0;
    bool has_value = false;      // the hook returned a value (not nullopt)
  };
  static constexpr std::size_t kMemoSlots = std::size_t{1} << 15;
  /// After this many lookups in a decision, the memo stops unless at least 1 in 16 of them found their value.
  static constexpr std::int64_t kMemoProbe = 256;
  std::vector<MemoEntry> memo_;
  std::uint32_t memo_decision_ = 0;
  bool memo_on_ = false;  // this decision uses the memo (options_.memo, until it stops)
  /// Fills root_actions_/root_keys_ from `legal`: the actions whose result (in `sample`) the seat has not seen,
  /// or all of them when each repeats a position.
  void new_positions(Rules& rules, const GameState& sample, int seat, std::span<const Action> legal);
};

}  // namespace hr
