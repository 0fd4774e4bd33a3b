// lost_valley_destinations_test.cpp — Lost Valley's rules.destinations (rulesets/lost-valley/movement.lua) keeps each
// walk (the intersections a prospector reaches from a start by one way of moving, before room is checked) under
// game:board_digest, the ice counter, the start and the mode, while rules.way, rules.may_move_along and rules.explored
// are the base rules (docs/performance.md, "Lost Valley's moves"). The test variant plain-paths
// (rulesets/lost-valley/tests/variants/plain-paths) replaces rules.way and rules.explored by functions that ask the
// base ones, so its destinations walk the plain loop at every call. The rules are the same: in every position of four
// random games (a boat for seat 2, a horse for seat 3: all three ways of moving), as it is and with the ice block in
// play, both offer the same legal actions (the moves among them); after each game every 25th position is asked
// again, latest first (what was kept for a larger map must not answer for a smaller one). The ice copy is asked on
// the same map just before the position itself: a key that missed the ice counter offers the ice's moves and fails.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rng.hpp"
#include "scripted_rules.hpp"

namespace {

/// Moves the first component named `name` lying in zone `from` into zone `to`.
void give(const hr::Rules& rules, hr::GameState& s, const std::string& name, const std::string& from,
          const std::string& to) {
  const hr::Layout& layout = rules.layout();
  for (hr::ComponentId c : s.cards(layout.zone_id(from)))
    if (layout.components[c].name == name) {
      s.move(c, layout.zone_id(to));
      return;
    }
  FAIL("no " << name << " in " << from);
}

}  // namespace

TEST_CASE("lost valley: the walks kept under the map's digest give the plain loop's moves in every position",
          "[lost-valley][movement]") {
  auto kept = hr::load_rules("lost-valley");
  auto plain = hr::load_rules(std::string(HOUSERULES_SOURCE_DIR) +
                              "/rulesets/lost-valley/tests/variants/plain-paths/plain-paths.toml");
  const int ice = kept->layout().counter_index("ice");
  int positions = 0, moves = 0, ice_moves = 0;
  for (std::uint64_t seed = 11; seed <= 14; ++seed) {
    hr::GameState a = kept->new_game(seed), b = plain->new_game(seed);
    for (hr::GameState* s : {&a, &b}) {
      give(*kept, *s, "boat", "store", "equip.2");
      give(*kept, *s, "horse", "store", "equip.3");
    }
    hr::Rng rng(seed);
    std::vector<std::pair<hr::GameState, hr::GameState>> earlier;  // every 25th position, asked again after the game
    for (int ply = 0; ply < 500 && !a.over(); ++ply) {
      INFO("seed " << seed << ", ply " << ply);
      if (ply % 25 == 0) earlier.emplace_back(a, b);
      // with the ice block in play: borders walked, unexplored intersections passed through (a copy)
      hr::GameState a_ice = a, b_ice = b;
      a_ice.set_counter(ice, 0, 1);
      b_ice.set_counter(ice, 0, 1);
      const std::vector<hr::Action> legal_ice = kept->legal_actions(a_ice);
      REQUIRE(legal_ice == plain->legal_actions(b_ice));
      const std::vector<hr::Action> legal = kept->legal_actions(a);
      REQUIRE(legal == plain->legal_actions(b));
      for (hr::Action x : legal)
        if (kept->action_text(a, x).rfind("move", 0) == 0) ++moves;
      for (hr::Action x : legal_ice)
        if (kept->action_text(a_ice, x).rfind("move", 0) == 0) ++ice_moves;
      ++positions;
      if (legal.empty()) break;
      const hr::Action chosen = legal[rng.below(legal.size())];
      kept->apply(a, chosen);
      plain->apply(b, chosen);
    }
    for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
      INFO("seed " << seed << ", an earlier position again");
      REQUIRE(kept->legal_actions(it->first) == plain->legal_actions(it->second));
    }
  }
  CHECK(positions > 1000);
  CHECK(moves > 2000);      // moves were offered (on foot, on horseback, by boat)
  CHECK(ice_moves > moves);  // the ice block opens more of the valley
}
