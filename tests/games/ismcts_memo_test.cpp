// ismcts_memo_test.cpp — the key of ismcts's heuristic memo: GameState::observation_digest
// (engine/observation_digest.cpp) is observation(seat).position_digest() on real states of every game, and
// observation_key tells apart the same views.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bots.hpp"
#include "ismcts.hpp"
#include "rng.hpp"
#include "scripted_rules.hpp"

using hr::Action;
using hr::GameState;
using hr::InformationSet;

namespace {

std::unique_ptr<hr::ScriptedRules> rules_for(const std::string& id, int seats) {
  hr::LoadOptions options;
  options.seats = seats;
  return hr::load_rules(id, options);
}

/// The states of a game between greedy bots (seeded), one every `step` plies, at most `count`.
std::vector<GameState> greedy_positions(hr::Rules& rules, std::uint64_t seed, int step, int count) {
  std::vector<GameState> out;
  GameState s = rules.new_game(seed);
  std::vector<std::unique_ptr<hr::Player>> bots;
  for (int seat = 1; seat <= rules.layout().seats; ++seat) bots.push_back(std::make_unique<hr::GreedyPlayer>(seed + seat));
  std::vector<Action> legal;
  while (!s.over() && static_cast<int>(out.size()) < count) {
    rules.legal_actions(s, legal);
    if (s.ply() % step == 0) out.push_back(s);
    hr::Player& p = *bots[static_cast<std::size_t>(s.to_move() - 1)];
    rules.apply(s, p.choose(rules, InformationSet(s, s.to_move(), legal)));
  }
  return out;
}

}  // namespace

TEST_CASE("observation_digest(seat) is observation(seat).position_digest() on real states of every game",
          "[ismcts][memo][digest]") {
  const auto game = GENERATE(std::string("lost-cities"), std::string("lost-cities-board"),
                             std::string("lost-cities-rivals"), std::string("lost-valley"));
  const int seats = game == "lost-cities" ? 2 : 3;
  auto rules = rules_for(game, seats);
  const auto states = greedy_positions(*rules, 3, 3, 40);
  INFO(game);
  REQUIRE(states.size() >= 20);
  hr::Rng rng(9);
  int differ_between_seats = 0;
  // (seat, observation(seat).position_digest(), observation_key(seat)) of every state and determinization.
  struct Seen {
    int seat;
    std::uint64_t digest, key;
  };
  std::vector<Seen> seen;
  for (const GameState& s : states) {
    for (int seat = 1; seat <= seats; ++seat) {
      INFO("ply " << s.ply() << ", seat " << seat);
      const std::uint64_t digest = s.observation(seat).position_digest();
      CHECK(s.observation_digest(seat) == digest);
      seen.push_back({seat, digest, s.observation_key(seat)});
      // A determinization (a state the search values) differs from the real state only where the seat cannot see.
      const GameState sample = s.determinized(seat, rng);
      CHECK(sample.observation_digest(seat) == sample.observation(seat).position_digest());
      CHECK(sample.observation_digest(seat) == digest);
      CHECK(sample.observation_key(seat) == s.observation_key(seat));
      seen.push_back({seat, sample.observation(seat).position_digest(), sample.observation_key(seat)});
    }
    if (s.observation_digest(1) != s.observation_digest(2)) ++differ_between_seats;
  }
  // The memo's key tells apart exactly the views the position digest tells apart (the same bytes, hashed by words).
  int pairs = 0, same = 0, disagree = 0;
  for (std::size_t i = 0; i < seen.size(); ++i)
    for (std::size_t j = i + 1; j < seen.size(); ++j) {
      if (seen[i].seat != seen[j].seat) continue;
      ++pairs;
      if (seen[i].digest == seen[j].digest) ++same;
      if ((seen[i].digest == seen[j].digest) != (seen[i].key == seen[j].key)) ++disagree;
    }
  CHECK(disagree == 0);
  CHECK(same > 0);
  CHECK(same < pairs);
  // Lost Cities and the board game hide each hand, Lost Valley each seat's goods and gold: two seats' views differ.
  // Rivals hides nothing a seat holds: every seat's view has the same digest (there the memo's key needs its seat).
  if (game == "lost-cities-rivals") CHECK(differ_between_seats == 0);
  else CHECK(differ_between_seats > 0);
}

