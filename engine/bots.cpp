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

Action GreedyPlayer::choose(Rules& rules, const InformationSet& info) {
  const auto legal = info.legal();
  if (legal.size() == 1) return legal[0];
  const GameState sample = info.determinize(rng_);
  double best_value = 0;
  best_.clear();
  GameState next;
  for (Action a : legal) {
    next = sample;
    rules.apply(next, a);
    const double v = value(rules, next, info.seat());
    if (best_.empty() || v > best_value) {
      best_value = v;
      best_.assign(1, a);
    } else if (v == best_value) {
      best_.push_back(a);
    }
  }
  return best_[rng_.below(best_.size())];
}

std::unique_ptr<Player> make_bot(const std::string& spec, std::uint64_t seed) {
  const std::size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  if (name == "ismcts")
    return std::make_unique<IsmctsPlayer>(seed, IsmctsOptions::parse(colon == std::string::npos ? "" : spec.substr(colon + 1)));
  if (name != "random" && name != "greedy") return nullptr;
  if (colon != std::string::npos) throw std::invalid_argument("player '" + spec + "': " + name + " takes no options");
  if (name == "random") return std::make_unique<RandomPlayer>(seed);
  return std::make_unique<GreedyPlayer>(seed);
}

}  // namespace hr
