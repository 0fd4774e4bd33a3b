// ismcts_test.cpp — the ismcts bot and the Lost Cities heuristic on the real scripted ruleset: no peeking
// (decisions and heuristic values do not change when only what the seat cannot see changes, and a bot that
// reads the real state is caught by the same test), and sane play; Lost Valley's determinizations keep its
// zones' `holds`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bots.hpp"
#include "ismcts.hpp"
#include "../peeking_ismcts.hpp"
#include "rng.hpp"
#include "scripted_rules.hpp"

namespace {

using hr::Action;
using hr::ComponentId;
using hr::GameState;
using hr::InformationSet;
using hr::IsmctsOptions;
using hr::IsmctsPlayer;
using hr::ZoneId;

using test_doubles::PeekingIsmcts;

IsmctsOptions few_iterations() {
  IsmctsOptions o;
  o.iterations = 150;
  return o;
}

/// `real` with the cards that `seat` cannot see rearranged: its opponent's unknown hand cards swapped with
/// deck cards, then the deck shuffled (which also moves the game's hidden RNG on). Only moves between hidden
/// places, so `seat`'s knowledge is untouched.
GameState rearranged(const hr::Rules& rules, const GameState& real, int seat, std::uint64_t seed) {
  const hr::Layout& layout = rules.layout();
  const ZoneId deck = layout.zone_id("deck");
  const ZoneId other_hand = layout.zone_id("hand." + std::to_string(3 - seat));
  const auto bit = static_cast<std::uint8_t>(1u << (seat - 1));
  GameState b = real;
  hr::Rng rng(seed);
  for (int i = 0; i < b.size(other_hand); ++i) {
    const ComponentId mine = b.cards(other_hand)[static_cast<std::size_t>(i)];
    if ((b.seen_by(mine) & bit) || b.size(deck) == 0) continue;
    const int j = static_cast<int>(rng.below(static_cast<std::uint64_t>(b.size(deck))));
    const ComponentId theirs = b.cards(deck)[static_cast<std::size_t>(j)];
    b.move(mine, deck, j);
    b.move(theirs, other_hand, i);
  }
  b.shuffle(deck);
  return b;
}

/// `count` positions of a greedy-vs-greedy game of `rules` where `seat` is to move with more than 4 legal
/// actions (it must place a card), the first at ply `first` or later, then at least `step` plies apart.
std::vector<GameState> positions(hr::Rules& rules, std::uint64_t seed, int seat, int first, int step, int count) {
  std::vector<GameState> out;
  GameState s = rules.new_game(seed);
  hr::GreedyPlayer p1(seed + 1), p2(seed + 2);
  std::vector<Action> legal;
  while (!s.over() && static_cast<int>(out.size()) < count) {
    rules.legal_actions(s, legal);
    if (s.ply() >= first && s.to_move() == seat && legal.size() > 4 && (out.empty() || s.ply() - out.back().ply() >= step))
      out.push_back(s);
    hr::Player& p = s.to_move() == 1 ? static_cast<hr::Player&>(p1) : p2;
    rules.apply(s, p.choose(rules, InformationSet(s, s.to_move(), legal)));
  }
  return out;
}

}  // namespace

TEST_CASE("ismcts decides the same when only cards hidden from its seat differ, and a peeking bot does not",
          "[ismcts][peeking]") {
  auto rules = hr::load_rules("lost-cities");
  int positions_checked = 0, peeking_differs = 0;
  for (int seat = 1; seat <= 2; ++seat) {
    for (const GameState& a : positions(*rules, 40 + static_cast<std::uint64_t>(seat), seat, 6, 8, 4)) {
      const GameState b = rearranged(*rules, a, seat, a.digest());
      INFO("seat " << seat << ", ply " << a.ply());
      // The two states really differ (the opponent's hand, the deck order, the game's RNG)...
      REQUIRE_FALSE(a == b);
      const ZoneId other_hand = rules->layout().zone_id("hand." + std::to_string(3 - seat));
      REQUIRE(std::vector<ComponentId>(a.cards(other_hand).begin(), a.cards(other_hand).end()) !=
              std::vector<ComponentId>(b.cards(other_hand).begin(), b.cards(other_hand).end()));
      // ... but not for this seat.
      REQUIRE(a.observation(seat) == b.observation(seat));
      const std::vector<Action> legal = rules->legal_actions(a);
      REQUIRE(rules->legal_actions(b) == legal);

      // The heuristic reads only what the seat may see.
      CHECK(*rules->heuristic(a, seat) == *rules->heuristic(b, seat));

      for (std::uint64_t seed : {1u, 2u}) {
        IsmctsPlayer bot_a(seed, few_iterations()), bot_b(seed, few_iterations());
        const Action da = bot_a.choose(*rules, InformationSet(a, seat, legal));
        const Action db = bot_b.choose(*rules, InformationSet(b, seat, legal));
        CHECK(da == db);
        // Not only the decision: the whole search is the same.
        const auto ca = bot_a.root_children(), cb = bot_b.root_children();
        REQUIRE(ca.size() == cb.size());
        for (std::size_t i = 0; i < ca.size(); ++i) {
          CHECK(ca[i].action == cb[i].action);
          CHECK(ca[i].visits == cb[i].visits);
          CHECK(ca[i].mean == cb[i].mean);
        }

        // The same search reading the real state decides differently somewhere.
        PeekingIsmcts peek_a(seed, few_iterations(), a), peek_b(seed, few_iterations(), b);
        const Action pa = peek_a.choose(*rules, InformationSet(a, seat, legal));
        const Action pb = peek_b.choose(*rules, InformationSet(b, seat, legal));
        bool same_search = pa == pb;
        const auto qa = peek_a.root_children(), qb = peek_b.root_children();
        for (std::size_t i = 0; i < qa.size() && i < qb.size() && same_search; ++i)
          same_search = qa[i].visits == qb[i].visits && qa[i].mean == qb[i].mean;
        CHECK_FALSE(same_search);  // the peeking search always sees the difference
        peeking_differs += pa != pb;
        ++positions_checked;
      }
    }
  }
  CHECK(positions_checked >= 12);
  CHECK(peeking_differs > 0);  // and it changes the peeking bot's move at least once
}

TEST_CASE("ismcts through make_bot: options, reproducible with a count budget, legal moves", "[ismcts]") {
  auto rules = hr::load_rules("lost-cities");
  const auto list = positions(*rules, 7, 1, 4, 6, 3);
  REQUIRE(list.size() == 3);
  for (const GameState& s : list) {
    const std::vector<Action> legal = rules->legal_actions(s);
    auto one = hr::make_bot("ismcts:iterations=120:exploration=0.5", 9);
    auto two = hr::make_bot("ismcts:iterations=120:exploration=0.5", 9);
    REQUIRE(one);
    CHECK(one->name() == "ismcts");
    const Action a = one->choose(*rules, InformationSet(s, 1, legal));
    CHECK(std::find(legal.begin(), legal.end(), a) != legal.end());
    CHECK(two->choose(*rules, InformationSet(s, 1, legal)) == a);
    const auto& stats = dynamic_cast<IsmctsPlayer&>(*one).last_stats();
    CHECK(stats.iterations == 120);
    // lost-cities has a heuristic: leaves are evaluated with it, after the seat that made the last move of the
    // path finished its turn (a place is followed by its draw; a draw ends the turn): some plies, a few per
    // iteration at most
    CHECK(stats.rollout_plies > 0);
    CHECK(stats.rollout_plies <= 120 * 2);
    auto at_leaf = hr::make_bot("ismcts:iterations=120:exploration=0.5:finish_turn=off", 9);
    at_leaf->choose(*rules, InformationSet(s, 1, legal));
    CHECK(dynamic_cast<IsmctsPlayer&>(*at_leaf).last_stats().rollout_plies == 0);
    auto random_rollouts = hr::make_bot("ismcts:iterations=20:rollout=random", 9);
    random_rollouts->choose(*rules, InformationSet(s, 1, legal));
    CHECK(dynamic_cast<IsmctsPlayer&>(*random_rollouts).last_stats().rollout_plies > 20);
  }
}

TEST_CASE("the Lost Cities heuristic: match total plus an estimate of the round", "[ismcts][heuristic]") {
  auto rules = hr::load_rules("lost-cities");
  GameState s = rules->new_game(3);
  // At the deal nothing is committed: the estimate is never negative (an expedition need not be started).
  CHECK(*rules->heuristic(s, 1) >= 0);
  CHECK(*rules->heuristic(s, 2) >= 0);
  // Through a whole match between greedy players: always a number, and the match total once it is over.
  hr::GreedyPlayer p1(1), p2(2);
  std::vector<Action> legal;
  while (!s.over()) {
    rules->legal_actions(s, legal);
    hr::Player& p = s.to_move() == 1 ? static_cast<hr::Player&>(p1) : p2;
    rules->apply(s, p.choose(*rules, InformationSet(s, s.to_move(), legal)));
    for (int seat = 1; seat <= 2; ++seat) REQUIRE(rules->heuristic(s, seat).has_value());
  }
  CHECK(*rules->heuristic(s, 1) == static_cast<double>(s.match_score(1)));
  CHECK(*rules->heuristic(s, 2) == static_cast<double>(s.match_score(2)));
  // Variants inherit it.
  for (const char* variant : {"lost-cities/three-player", "lost-cities/four-player-teams", "lost-cities/six-expeditions"}) {
    INFO(variant);
    auto v = hr::load_rules(variant);
    GameState g = v->new_game(5);
    hr::Rng rng(5);
    v->random_playout(g, rng, 30);
    for (int seat = 1; seat <= v->layout().seats; ++seat) CHECK(v->heuristic(g, seat).has_value());
  }
}

TEST_CASE("two greedy players finish every round: the heuristic never prefers taking a discard back forever",
          "[ismcts][heuristic]") {
  // With a heuristic that counted the turns left against the cards to play, drawing from a discard pile (which
  // does not shorten the round) could look better than drawing from the deck, and two greedy players then
  // discarded and took back the same cards without end (13 of 200 single rounds never ended; docs/bots.md).
  // A round without that loop: 44 deck draws, a few discard draws; greedy vs greedy averages about 160 plies.
  auto rules = hr::load_rules("lost-cities");
  std::vector<Action> legal;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    GameState s = rules->new_game(seed);
    hr::GreedyPlayer p1(seed + 1), p2(seed + 2);
    while (!s.over() && s.ply() < 3 * 600) {
      rules->legal_actions(s, legal);
      hr::Player& p = s.to_move() == 1 ? static_cast<hr::Player&>(p1) : p2;
      rules->apply(s, p.choose(*rules, InformationSet(s, s.to_move(), legal)));
    }
    CHECK(s.over());  // a match of 3 rounds within 1,800 plies
  }
}

TEST_CASE("lost-valley: a determinization refills a seat's hidden goods with goods only", "[ismcts][determinized]") {
  // Event tokens share one back, goods (whisky, stick, dried fish) and equipment (axe, rod, rifle) alike; a seat's
  // goods zone is hidden from the others, who know it holds goods only (its `holds = "good"`). Before, a sample
  // could put an axe there, and ismcts then failed on "discard axe" (rules.lua: spend_item found none).
  auto rules = hr::load_rules("lost-valley");
  GameState state = rules->new_game(1);
  const hr::Layout& layout = rules->layout();
  const ZoneId pool = layout.zone_id("pool.event"), goods2 = layout.zone_id("goods.2");
  const int held = state.size(goods2);  // the start inventory's whiskies, bought in the open
  std::vector<ComponentId> hidden;
  for (ComponentId c : std::vector<ComponentId>(state.cards(pool).begin(), state.cards(pool).end()))
    if (hidden.size() < 2 && hr::attribute_set(layout.components[c].attribute("good"))) state.move(c, goods2), hidden.push_back(c);
  REQUIRE(hidden.size() == 2);
  bool equipment_left = false;  // the pool still holds equipment a plain deal could put there
  for (ComponentId c : state.cards(pool)) equipment_left |= !hr::attribute_set(layout.components[c].attribute("good"));
  REQUIRE(equipment_left);
  for (ComponentId c : hidden) REQUIRE((state.seen_by(c) & 1u) == 0);  // seat 1 does not know them
  hr::Rng rng(7);
  for (int i = 0; i < 100; ++i) {
    const GameState sample = state.determinized(1, rng);
    REQUIRE(sample.size(goods2) == held + 2);
    for (ComponentId c : sample.cards(goods2)) CHECK(hr::attribute_set(layout.components[c].attribute("good")));
  }
}

TEST_CASE("lost-valley: a determinization refills a seat's hidden gold bag with gold only", "[ismcts][determinized]") {
  // Issue 33: gold events share the event back with axes, rods and rifles; a seat's gold bag is hidden from the
  // others, who know it holds gold only (its `holds = "gold"`). A plain re-deal could put an axe in a gold bag.
  auto rules = hr::load_rules("lost-valley");
  GameState state = rules->new_game(1);
  const hr::Layout& layout = rules->layout();
  const ZoneId pool = layout.zone_id("pool.event"), gold2 = layout.zone_id("gold.2");
  std::vector<ComponentId> hidden;
  for (ComponentId c : std::vector<ComponentId>(state.cards(pool).begin(), state.cards(pool).end()))
    if (hidden.size() < 2 && hr::attribute_set(layout.components[c].attribute("gold"))) state.move(c, gold2), hidden.push_back(c);
  REQUIRE(hidden.size() == 2);  // two of the three gold events (event_gold: 2 x 2 nuggets, 1 x 3)
  for (ComponentId c : hidden) REQUIRE((state.seen_by(c) & 1u) == 0);
  hr::Rng rng(7);
  for (int i = 0; i < 100; ++i) {
    const GameState sample = state.determinized(1, rng);
    REQUIRE(sample.size(gold2) == 2);
    for (ComponentId c : sample.cards(gold2)) CHECK(hr::attribute_set(layout.components[c].attribute("gold")));
  }
}
