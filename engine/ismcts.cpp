// ismcts.cpp — SO-ISMCTS with UCT (see ismcts.hpp), and the parsing of its options.
#include "ismcts.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace hr {

namespace {

/// Plies per call of Rules::random_playout when playing to the end of a round: random_playout stops only at
/// the end of the match, so a round's end is noticed between calls (at most this many plies late).
constexpr std::int64_t kRolloutChunk = 24;
constexpr int kDefaultRandomDepth = 1000;
/// finish_turn's bound: a seat that keeps the move longer (a solitaire, a long chain) is evaluated from there.
constexpr int kFinishTurnPlies = 16;

[[noreturn]] void bad_value(const std::string& key, const std::string& value, const char* expected) {
  throw std::invalid_argument("ismcts: option " + key + "=" + value + ": expected " + expected);
}

long long parse_integer(const std::string& key, const std::string& value, long long lo, long long hi,
                        const char* expected) {
  if (value.empty()) bad_value(key, value, expected);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(value.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi) bad_value(key, value, expected);
  return v;
}

double parse_number(const std::string& key, const std::string& value, double lo, const char* expected) {
  if (value.empty()) bad_value(key, value, expected);
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v) || v < lo) bad_value(key, value, expected);
  return v;
}

}  // namespace

const char* IsmctsOptions::option_names() {
  return "iterations, exploration, rollout, depth, finish_turn, expand, widen, reward, scale, baseline, round_end, time_ms, "
         "memo, seed";
}

IsmctsOptions IsmctsOptions::parse(const std::string& text) {
  IsmctsOptions o;
  std::size_t pos = 0;
  while (pos <= text.size() && !text.empty()) {
    std::size_t end = text.find(':', pos);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(pos, end - pos);
    pos = end + 1;
    const std::size_t eq = item.find('=');
    if (item.empty() || eq == std::string::npos)
      throw std::invalid_argument("ismcts: '" + item + "' is not key=value (options: " + option_names() + ")");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key == "iterations") {
      o.iterations = static_cast<int>(parse_integer(key, value, 0, 100'000'000, "a whole number from 0 to 100000000"));
    } else if (key == "exploration") {
      o.exploration = parse_number(key, value, 0, "a number >= 0");
    } else if (key == "rollout") {
      if (value == "random") o.rollout = Rollout::Random;
      else if (value == "heuristic") o.rollout = Rollout::Heuristic;
      else if (value == "greedy") o.rollout = Rollout::Greedy;
      else bad_value(key, value, "random, heuristic or greedy");
    } else if (key == "depth") {
      o.depth = static_cast<int>(parse_integer(key, value, 0, 1'000'000, "a whole number of plies from 0 to 1000000"));
    } else if (key == "finish_turn") {
      if (value == "on") o.finish_turn = true;
      else if (value == "off") o.finish_turn = false;
      else bad_value(key, value, "on or off");
    } else if (key == "expand") {
      if (value == "random") o.expand = Expand::Random;
      else if (value == "greedy") o.expand = Expand::Greedy;
      else bad_value(key, value, "random or greedy");
    } else if (key == "widen") {
      o.widen = parse_number(key, value, 0, "a number >= 0 (0: no widening)");
    } else if (key == "reward") {
      if (value == "margin") o.reward = Reward::Margin;
      else if (value == "win") o.reward = Reward::Win;
      else if (value == "own") o.reward = Reward::Own;
      else bad_value(key, value, "margin, win or own");
    } else if (key == "scale") {
      o.scale = parse_number(key, value, 1e-9, "a number > 0");
    } else if (key == "baseline") {
      if (value == "on") o.baseline = true;
      else if (value == "off") o.baseline = false;
      else bad_value(key, value, "on or off");
    } else if (key == "round_end") {
      if (value == "exact") o.round_end = RoundEnd::Exact;
      else if (value == "heuristic") o.round_end = RoundEnd::Heuristic;
      else bad_value(key, value, "exact or heuristic");
    } else if (key == "memo") {
      if (value == "on") o.memo = true;
      else if (value == "off") o.memo = false;
      else bad_value(key, value, "on or off");
    } else if (key == "time_ms") {
      o.time_ms = parse_number(key, value, 0, "a number of milliseconds >= 0");
    } else if (key == "seed") {
      o.seed = static_cast<std::uint64_t>(
          parse_integer(key, value, 0, std::numeric_limits<long long>::max(), "a whole number >= 0"));
    } else {
      throw std::invalid_argument("ismcts: unknown option '" + key + "' (options: " + option_names() + ")");
    }
    if (end == text.size()) break;
  }
  if (o.iterations == 0 && o.time_ms <= 0)
    throw std::invalid_argument("ismcts: iterations=0 (no count limit) needs a time budget: time_ms=...");
  return o;
}

IsmctsPlayer::IsmctsPlayer(std::uint64_t seed, IsmctsOptions options)
    : options_(options), rng_(options.seed ? *options.seed : seed) {}

int IsmctsPlayer::child_of(int node, Action action) const {
  for (int c : nodes_[static_cast<std::size_t>(node)].children)
    if (nodes_[static_cast<std::size_t>(c)].action == action) return c;
  return -1;
}

std::optional<double> IsmctsPlayer::heuristic(Rules& rules, const GameState& state, int seat) {
  if (memo_on_ && stats_.heuristic_calls + stats_.memo_hits == kMemoProbe && stats_.memo_hits * 16 < kMemoProbe)
    memo_on_ = false, stats_.memo_stopped = true;  // views do not repeat here: the key would cost more than it saves
  if (!memo_on_) {
    ++stats_.heuristic_calls;
    return rules.heuristic(state, seat);
  }
  const std::uint64_t digest = state.observation_key(seat);
  MemoEntry& e = memo_[(digest ^ static_cast<std::uint64_t>(seat) * 0x9E3779B97F4A7C15ULL) & (kMemoSlots - 1)];
  if (e.decision == memo_decision_ && e.digest == digest && e.seat == seat) {
    ++stats_.memo_hits;
    return e.has_value ? std::optional<double>(e.value) : std::nullopt;
  }
  ++stats_.heuristic_calls;
  const std::optional<double> h = rules.heuristic(state, seat);
  e = {digest, h.value_or(0.0), memo_decision_, static_cast<std::int8_t>(seat), h.has_value()};
  return h;
}

int IsmctsPlayer::greedy_untried(Rules& rules, const GameState& state, int node, int mover) {
  std::vector<Action>& order = nodes_[static_cast<std::size_t>(node)].order;
  picked_state_ = false;
  if (order.empty()) {
    // Rank this sample's legal actions by the mover's heuristic after each, best first (ties: ruleset order).
    ranked_.clear();
    double best = 0;
    for (std::size_t i = 0; i < legal_.size(); ++i) {
      turn_next_ = state;
      rules.apply(turn_next_, legal_[i]);
      double h = heuristic(rules, turn_next_, mover).value_or(0.0);
      if (std::isnan(h)) h = -std::numeric_limits<double>::infinity();
      ranked_.push_back({h, legal_[i]});
      // The first best (the one the stable sort puts first) keeps its state: the caller applies it.
      if (i == 0 || h > best) best = h, std::swap(turn_next_, turn_best_);
    }
    picked_state_ = true;
    std::stable_sort(ranked_.begin(), ranked_.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    order.reserve(ranked_.size());
    for (const auto& r : ranked_) order.push_back(r.second);
  }
  for (Action a : order)
    for (int i : untried_)
      if (legal_[static_cast<std::size_t>(i)] == a) {
        picked_state_ = picked_state_ && a == order[0];  // ranked here: turn_best_ is the state after order[0]
        return i;
      }
  picked_state_ = false;
  return untried_[0];  // legal in this sample only: unranked, the first in the ruleset's order
}

std::vector<IsmctsPlayer::ChildStats> IsmctsPlayer::root_children() const {
  std::vector<ChildStats> out;
  if (nodes_.empty()) return out;
  for (int c : nodes_[0].children) {
    const Node& n = nodes_[static_cast<std::size_t>(c)];
    out.push_back({n.action, n.visits, n.visits ? n.reward / n.visits : 0.0});
  }
  return out;
}

void IsmctsPlayer::values(Rules& rules, const GameState& state, int round, double* value, Known known) {
  const auto& rounds = state.round_scores();
  // round_end=heuristic: a round over before the match is valued like any other state (below), by the heuristic.
  const bool after_round = !state.over() && state.round() != round;
  const bool exact_round = !(after_round && has_heuristic_ && options_.round_end == IsmctsOptions::RoundEnd::Heuristic);
  if (exact_round && (state.over() || after_round) && rounds.size() >= static_cast<std::size_t>(round)) {
    // The round of the decision is over: its exact result (match totals through that round).
    for (int s = 0; s < seats_; ++s) {
      double total = 0;
      for (int r = 0; r < round; ++r) total += static_cast<double>(rounds[static_cast<std::size_t>(r)][static_cast<std::size_t>(s)]);
      value[s] = total;
    }
  } else if (state.over()) {
    for (int s = 0; s < seats_; ++s) value[s] = static_cast<double>(state.match_score(s + 1));
  } else {
    for (int s = 0; s < seats_; ++s) {
      std::optional<double> h;
      if (has_heuristic_) h = s + 1 == known.seat ? std::optional<double>(known.value) : heuristic(rules, state, s + 1);
      value[s] = h ? *h : static_cast<double>(state.match_score(s + 1) + rules.score(state, s + 1));
    }
  }
  if (options_.reward == IsmctsOptions::Reward::Own) return;  // each seat for itself: its value, no margin
  // Each seat's margin over the best other seat.
  double margin[kMaxSeats];
  for (int s = 0; s < seats_; ++s) {
    double best_other = -std::numeric_limits<double>::infinity();
    for (int o = 0; o < seats_; ++o)
      if (o != s) best_other = std::max(best_other, value[o]);
    margin[s] = seats_ == 1 ? value[s] : value[s] - best_other;
  }
  for (int s = 0; s < seats_; ++s) value[s] = margin[s];
}

IsmctsPlayer::Known IsmctsPlayer::finish_turn(Rules& rules, GameState& state, int round, int seat) {
  Known last;  // the value of the state reached by the last action applied, when computed
  for (int played = 0; played < kFinishTurnPlies && !state.over() && state.round() == round && state.to_move() == seat;
       ++played) {
    rules.legal_actions(state, turn_legal_);
    if (turn_legal_.empty()) return last;
    Action best = turn_legal_[0];
    last = {};
    bool kept = false;  // turn_best_ holds the state after `best` (apply is a function of the state: no second apply)
    if (turn_legal_.size() > 1) {
      double best_value = -std::numeric_limits<double>::infinity();
      for (Action a : turn_legal_) {
        turn_next_ = state;
        rules.apply(turn_next_, a);
        const std::optional<double> h = heuristic(rules, turn_next_, seat);
        const double v = h.value_or(0.0);
        if (v > best_value) {  // ties: the first in the ruleset's order
          best_value = v, best = a;
          last = h ? Known{seat, *h} : Known{};
          std::swap(turn_next_, turn_best_), kept = true;
        }
      }
    }
    if (kept) std::swap(state, turn_best_);
    else rules.apply(state, best);  // one legal action, or no comparable value: `best` is the first
    ++stats_.rollout_plies;
  }
  return last;
}

void IsmctsPlayer::evaluate(Rules& rules, GameState& state, int round, std::int64_t depth, const double* baseline,
                            double* reward, Known known) {
  std::int64_t left = depth;
  while (left > 0 && !state.over() && state.round() == round) {
    const std::int64_t played = rules.random_playout(state, rng_, std::min(left, kRolloutChunk));
    stats_.rollout_plies += played;
    left -= played;
  }
  double margin[kMaxSeats];
  values(rules, state, round, margin, left == depth ? known : Known{});
  for (int s = 0; s < seats_; ++s) {
    const double m = margin[s] - baseline[s];
    if (options_.reward == IsmctsOptions::Reward::Win) reward[s] = m > 0 ? 1.0 : m == 0 ? 0.5 : 0.0;
    else reward[s] = 0.5 + 0.5 * std::tanh(m / options_.scale);
  }
}

void IsmctsPlayer::new_positions(Rules& rules, const GameState& sample, int seat, std::span<const Action> legal) {
  root_actions_.clear();
  root_keys_.clear();
  for (Action a : legal) {
    turn_next_ = sample;
    rules.apply(turn_next_, a);
    const std::uint64_t key = PositionHistory::key(turn_next_, seat);
    if (history_.seen(key)) continue;
    root_actions_.push_back(a);
    root_keys_.push_back(key);
  }
  if (!root_actions_.empty()) return;
  root_actions_.assign(legal.begin(), legal.end());  // every action repeats a position: all of them
  for (Action a : legal) {
    turn_next_ = sample;
    rules.apply(turn_next_, a);
    root_keys_.push_back(PositionHistory::key(turn_next_, seat));
  }
}

Action IsmctsPlayer::choose(Rules& rules, const InformationSet& info) {
  stats_ = {};
  nodes_.clear();
  history_.visit(info);
  if (info.legal().size() == 1) return info.legal()[0];
  if (history_.stalled()) return info.legal()[rng_.below(info.legal().size())];  // PositionHistory::stalled
  const auto start = std::chrono::steady_clock::now();
  seats_ = rules.layout().seats;
  const int me = info.seat();

  GameState state = sample(info, rng_);
  new_positions(rules, state, me, info.legal());
  const std::span<const Action> root_legal(root_actions_);
  const auto remember = [this](Action chosen) {
    const auto at = std::find(root_actions_.begin(), root_actions_.end(), chosen) - root_actions_.begin();
    history_.add(root_keys_[static_cast<std::size_t>(at)]);
    return chosen;
  };
  if (root_legal.size() == 1) return remember(root_legal[0]);
  const int round = state.round();
  memo_on_ = options_.memo;
  if (memo_on_) {  // a new decision: the memo's entries of earlier ones no longer count
    if (memo_.empty() || ++memo_decision_ == 0) memo_.assign(kMemoSlots, MemoEntry{}), memo_decision_ = 1;
  }
  // The deciding seat's own value at the root is the same in every sample: the heuristic values what the
  // seat may see (Rules::heuristic), which every sample of its information set shares. Computed once here,
  // it is the baseline's value for that seat in every iteration (one hook call fewer per iteration).
  const std::optional<double> own_root_value = heuristic(rules, state, me);
  has_heuristic_ = own_root_value.has_value();
  const Known own_root = has_heuristic_ ? Known{me, *own_root_value} : Known{};
  const bool random_rollout = options_.rollout ? *options_.rollout == IsmctsOptions::Rollout::Random || !has_heuristic_
                                              : !has_heuristic_;
  const bool greedy_rollout = !random_rollout && options_.rollout == IsmctsOptions::Rollout::Greedy;
  // Random plies before the evaluation; the greedy rollout's own bound is greedy_plies.
  const std::int64_t depth = greedy_rollout        ? 0
                             : options_.depth >= 0 ? options_.depth
                             : random_rollout      ? kDefaultRandomDepth
                                                   : 0;
  const std::int64_t greedy_plies = options_.depth >= 0 ? options_.depth : std::int64_t{kFinishTurnPlies} * seats_;
  const bool finish = has_heuristic_ && (options_.finish_turn ? *options_.finish_turn : !random_rollout);
  const bool greedy_expansion = has_heuristic_ && options_.expand == IsmctsOptions::Expand::Greedy;
  double baseline[kMaxSeats] = {};

  nodes_.reserve(static_cast<std::size_t>(options_.iterations > 0 ? options_.iterations + 1 : 4096));
  nodes_.push_back(Node{});
  nodes_[0].mover = me;
  double reward[kMaxSeats];
  const double c = options_.exploration;

  for (std::int64_t it = 0;; ++it) {
    if (options_.iterations > 0 && it >= options_.iterations) break;
    if (options_.time_ms > 0 &&
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() >= options_.time_ms)
      break;
    if (it > 0) state = sample(info, rng_);
    // The sample's own margins, subtracted from the result (a control variate): what the sample deals
    // (the opponent's hand, the deck) moves every action's result alike, and no longer adds noise.
    if (options_.baseline && options_.reward != IsmctsOptions::Reward::Win)
      values(rules, state, round, baseline, own_root);
    path_.clear();
    int node = 0;
    path_.push_back(node);
    bool root = true;
    // Selection and expansion.
    while (!state.over() && state.round() == round) {
      if (root) {
        legal_.assign(root_legal.begin(), root_legal.end());
      } else {
        rules.legal_actions(state, legal_);
        if (legal_.empty()) break;
      }
      root = false;
      untried_.clear();
      int best = -1, available = 0;
      double best_ucb = -std::numeric_limits<double>::infinity();
      const std::size_t parent = static_cast<std::size_t>(node);
      for (std::size_t i = 0; i < legal_.size(); ++i) {
        const int child = child_of(node, legal_[i]);
        if (child < 0) {
          untried_.push_back(static_cast<int>(i));
          continue;
        }
        Node& n = nodes_[static_cast<std::size_t>(child)];
        ++n.availability;
        ++available;
        const double ucb = n.reward / n.visits + c * std::sqrt(std::log(static_cast<double>(n.availability)) / n.visits);
        if (ucb > best_ucb) best_ucb = ucb, best = child;
      }
      const int mover = state.to_move();
      // Widening: with k > 0 a node that already has ceil(k * sqrt(visits)) children here chooses among them.
      const bool grow = !untried_.empty() &&
                        (options_.widen <= 0 || available == 0 ||
                         available < std::ceil(options_.widen * std::sqrt(static_cast<double>(nodes_[parent].visits))));
      if (grow) {
        picked_state_ = false;
        const int pick = greedy_expansion ? greedy_untried(rules, state, node, mover)
                                          : untried_[rng_.below(untried_.size())];
        const Action a = legal_[static_cast<std::size_t>(pick)];
        Node fresh;
        fresh.action = a;
        fresh.mover = mover;
        fresh.availability = 1;
        nodes_.push_back(std::move(fresh));
        const int created = static_cast<int>(nodes_.size() - 1);
        nodes_[parent].children.push_back(created);
        if (picked_state_) std::swap(state, turn_best_);  // greedy_untried applied `a` while ranking
        else rules.apply(state, a);
        path_.push_back(created);
        break;
      }
      if (best < 0)  // every child's value is NaN: a value from a hook that is not a finite number
        throw RulesError("ismcts: no move has a comparable value (NaN): a heuristic or score that is not a finite number?");
      rules.apply(state, nodes_[static_cast<std::size_t>(best)].action);
      node = best;
      path_.push_back(node);
    }
    // Leaves are compared at the end of a turn: the seat that made the last move of the path (a place, say)
    // completes its turn (its draw) by the heuristic, as greedy would, before the evaluation.
    Known leaf;  // the finishing seat's value of the leaf, computed while it chose its last action
    if (finish && seats_ > 1) leaf = finish_turn(rules, state, round, nodes_[static_cast<std::size_t>(path_.back())].mover);
    if (greedy_rollout) {
      // The other seats play their turns greedily until the deciding seat is to move again.
      const std::int64_t start_plies = stats_.rollout_plies;
      while (!state.over() && state.round() == round && state.to_move() != me &&
             stats_.rollout_plies - start_plies < greedy_plies) {
        const std::int64_t before = stats_.rollout_plies;
        leaf = finish_turn(rules, state, round, state.to_move());
        if (stats_.rollout_plies == before) break;  // no legal action: nothing more to play here
      }
    }
    evaluate(rules, state, round, depth, baseline, reward, leaf);
    for (int n : path_) {
      Node& x = nodes_[static_cast<std::size_t>(n)];
      ++x.visits;
      if (n != 0) x.reward += reward[x.mover - 1];
    }
    ++stats_.iterations;
  }
  stats_.nodes = static_cast<std::int64_t>(nodes_.size());
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // The most visited root child; ties: the higher mean, then the first in the ruleset's order.
  Action chosen = root_legal[0];
  int best_visits = -1;
  double best_mean = 0;
  for (Action a : root_legal) {
    const int child = child_of(0, a);
    if (child < 0) continue;
    const Node& n = nodes_[static_cast<std::size_t>(child)];
    const double mean = n.visits ? n.reward / n.visits : 0.0;
    if (n.visits > best_visits || (n.visits == best_visits && mean > best_mean)) {
      chosen = a, best_visits = n.visits, best_mean = mean;
    }
  }
  return remember(chosen);
}

}  // namespace hr
