// ismcts_memo_test.cpp — ismcts's heuristic memo (IsmctsOptions::memo, engine/ismcts.hpp). Its key:
// GameState::observation_digest (engine/observation_digest.cpp) is observation(seat).position_digest() on real
// states of every game, and GameState::observation_key tells apart the same views (at the same ply). A search with
// the memo reaches the same root children (visits, means) as one without, while taking values from it.
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
  // (seat, observation(seat).position_digest(), ply, observation_key(seat)) of every state and determinization.
  struct Seen {
    int seat;
    std::uint64_t digest;
    std::int64_t ply;
    std::uint64_t key;
  };
  std::vector<Seen> seen;
  for (const GameState& s : states) {
    for (int seat = 1; seat <= seats; ++seat) {
      INFO("ply " << s.ply() << ", seat " << seat);
      const std::uint64_t digest = s.observation(seat).position_digest();
      CHECK(s.observation_digest(seat) == digest);
      seen.push_back({seat, digest, s.ply(), s.observation_key(seat)});
      // A determinization (a state the search values) differs from the real state only where the seat cannot see.
      const GameState sample = s.determinized(seat, rng);
      CHECK(sample.observation_digest(seat) == sample.observation(seat).position_digest());
      CHECK(sample.observation_digest(seat) == digest);
      CHECK(sample.observation_key(seat) == s.observation_key(seat));
      seen.push_back({seat, sample.observation(seat).position_digest(), sample.ply(), sample.observation_key(seat)});
    }
    if (s.observation_digest(1) != s.observation_digest(2)) ++differ_between_seats;
    // The ply count is public (game:ply): a hook may read it, so the key tells two plies apart; the position does not.
    GameState later = s;
    later.count_ply();
    CHECK(later.observation_digest(1) == s.observation_digest(1));
    CHECK(later.observation_key(1) != s.observation_key(1));
  }
  // The memo's key tells apart exactly the views the position digest and the ply tell apart (the same bytes and the
  // ply, hashed by words).
  int pairs = 0, same = 0, disagree = 0;
  for (std::size_t i = 0; i < seen.size(); ++i)
    for (std::size_t j = i + 1; j < seen.size(); ++j) {
      if (seen[i].seat != seen[j].seat) continue;
      ++pairs;
      const bool same_view = seen[i].digest == seen[j].digest && seen[i].ply == seen[j].ply;
      if (same_view) ++same;
      if (same_view != (seen[i].key == seen[j].key)) ++disagree;
    }
  CHECK(disagree == 0);
  CHECK(same > 0);
  CHECK(same < pairs);
  // Lost Cities and the board game hide each hand, Lost Valley each seat's goods and gold: two seats' views differ.
  // Rivals hides nothing a seat holds: every seat's view has the same digest (there the memo's key needs its seat).
  if (game == "lost-cities-rivals") CHECK(differ_between_seats == 0);
  else CHECK(differ_between_seats > 0);
}

namespace {

/// One decision of ismcts (`spec` after the ruleset's [bots] options) at `s`: the root children and the counters.
struct Decision {
  std::vector<hr::IsmctsPlayer::ChildStats> children;
  hr::IsmctsStats stats;
};

Decision decide(hr::Rules& rules, const GameState& s, const std::string& spec) {
  std::vector<Action> legal;
  rules.legal_actions(s, legal);
  auto bot = hr::make_bot(spec, 17, &rules);
  auto* ismcts = dynamic_cast<hr::IsmctsPlayer*>(bot.get());
  REQUIRE(ismcts != nullptr);
  bot->choose(rules, InformationSet(s, s.to_move(), legal));
  return {ismcts->root_children(), ismcts->last_stats()};
}

/// The memo changes nothing the search finds: the same root children, visited as often, with the same means (the
/// values are the hook's own, the same in the same order: equal to the last bit). Returns the memo's hits.
std::int64_t same_search(hr::Rules& rules, const GameState& s, const std::string& options) {
  const Decision on = decide(rules, s, "ismcts:" + options + ":memo=on");
  const Decision off = decide(rules, s, "ismcts:" + options + ":memo=off");
  INFO("ply " << s.ply() << ": memo hits " << on.stats.memo_hits << ", hook calls " << on.stats.heuristic_calls
              << " with the memo, " << off.stats.heuristic_calls << " without");
  REQUIRE(on.children.size() == off.children.size());
  REQUIRE(on.children.size() >= 2);
  for (std::size_t i = 0; i < on.children.size(); ++i) {
    CHECK(on.children[i].action == off.children[i].action);
    CHECK(on.children[i].visits == off.children[i].visits);
    CHECK(on.children[i].mean == off.children[i].mean);
  }
  // Every value the search asked for was computed or found in the memo.
  CHECK(on.stats.heuristic_calls + on.stats.memo_hits == off.stats.heuristic_calls);
  CHECK(off.stats.memo_hits == 0);
  return on.stats.memo_hits;
}

/// Positions with at least `min_legal` legal actions, one every `step` plies from ply `first`.
std::vector<GameState> decision_positions(hr::Rules& rules, std::uint64_t seed, int first, int step, int count,
                                          std::size_t min_legal) {
  std::vector<GameState> out;
  for (const GameState& s : greedy_positions(rules, seed, 1, 100000)) {
    if (static_cast<int>(out.size()) == count) break;
    std::vector<Action> legal;
    rules.legal_actions(s, legal);
    if (s.ply() >= first && legal.size() >= min_legal && (out.empty() || s.ply() - out.back().ply() >= step))
      out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("lost-valley: ismcts with the memo finds the same root children, taking values from it",
          "[ismcts][memo][lost-valley]") {
  auto rules = rules_for("lost-valley", 3);
  const auto positions = decision_positions(*rules, 5, 10, 30, 2, 6);
  REQUIRE(positions.size() == 2);
  for (const GameState& s : positions) {
    // The ruleset's [bots] setting (expand=greedy...) with fewer iterations: every kind of hook call of the search.
    const std::int64_t hits = same_search(*rules, s, "iterations=40");
    CHECK(hits >= 40);  // the other seats' values at the root, at least, repeat in every sample
  }
}

TEST_CASE("rivals: ismcts with the memo finds the same root children, most values from it (nothing held is hidden)",
          "[ismcts][memo][rivals]") {
  auto rules = rules_for("lost-cities-rivals", 3);
  const auto positions = decision_positions(*rules, 5, 4, 9, 3, 3);
  REQUIRE(positions.size() == 3);
  for (const GameState& s : positions) {
    const std::int64_t hits = same_search(*rules, s, "iterations=300");
    CHECK(hits >= 300);
  }
}

TEST_CASE("lost-cities: the memo finds the same root children, and stops where no view repeats",
          "[ismcts][memo]") {
  auto rules = rules_for("lost-cities", 2);
  const auto positions = decision_positions(*rules, 5, 6, 11, 3, 5);
  REQUIRE(positions.size() == 3);
  for (const GameState& s : positions) {
    same_search(*rules, s, "iterations=300");
    // Each sample deals the opponent a new hand: its values never repeat, and the memo stops after its probe.
    CHECK(decide(*rules, s, "ismcts:iterations=300").stats.memo_stopped);
  }
}
