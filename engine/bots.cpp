// bots.cpp — the random and greedy players; make_bot (the ismcts player is in ismcts.cpp).
#include "bots.hpp"

#include <stdexcept>

#include "ismcts.hpp"

namespace hr {

Action RandomPlayer::choose(Rules&, const InformationSet& info) {
  const auto legal = info.legal();
  return legal[rng_.below(legal.size())];
}

double GreedyPlayer::value(Rules& rules, const GameState& state, int seat) {
  if (auto h = rules.heuristic(state, seat)) return *h;
  double total = static_cast<double>(state.match_score(seat));
  if (!state.over()) total += static_cast<double>(rules.score(state, seat));
  return total;
}

void PositionHistory::visit(const InformationSet& info) {
  if (info.ply() <= last_ply_) {  // the ply count did not advance: a new game, or one taken back
    seen_.clear();
    last_round_ = -1;
  }
  last_ply_ = info.ply();
  if (info.round() != last_round_) round_decisions_ = 0;
  last_round_ = info.round();
  ++round_decisions_;
  seen_.insert(info.observation().position_digest());
}

Action GreedyPlayer::choose(Rules& rules, const InformationSet& info) {
  const auto legal = info.legal();
  history_.visit(info);
  if (legal.size() == 1) return legal[0];
  if (history_.stalled()) return legal[rng_.below(legal.size())];
  const GameState sample = info.determinize(rng_);
  // The best value among the actions that lead to a new position, and (in case there is none) among all.
  double best_value = 0;
  bool best_new = false;
  best_.clear();
  best_keys_.clear();
  GameState next;
  for (Action a : legal) {
    next = sample;
    rules.apply(next, a);
    const std::uint64_t key = PositionHistory::key(next, info.seat());
    const bool is_new = !history_.seen(key);
    const double v = value(rules, next, info.seat());
    const bool better = best_.empty() || (is_new && !best_new) || (is_new == best_new && v > best_value);
    if (better) {
      best_value = v, best_new = is_new;
      best_.assign(1, a), best_keys_.assign(1, key);
    } else if (is_new == best_new && v == best_value) {
      best_.push_back(a), best_keys_.push_back(key);
    }
  }
  const std::size_t pick = rng_.below(best_.size());
  history_.add(best_keys_[pick]);
  return best_[pick];
}

std::unique_ptr<Player> make_bot(const std::string& spec, std::uint64_t seed, const Rules* rules) {
  const std::size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  if (name == "ismcts") {
    std::string options = rules ? rules->bot_options(name) : std::string();  // the ruleset's first: later keys win
    const std::string own = colon == std::string::npos ? std::string() : spec.substr(colon + 1);
    if (!own.empty()) options += (options.empty() ? "" : ":") + own;
    return std::make_unique<IsmctsPlayer>(seed, IsmctsOptions::parse(options));
  }
  if (name != "random" && name != "greedy") return nullptr;
  if (colon != std::string::npos) throw std::invalid_argument("player '" + spec + "': " + name + " takes no options");
  if (name == "random") return std::make_unique<RandomPlayer>(seed);
  return std::make_unique<GreedyPlayer>(seed);
}

}  // namespace hr
