// compare_test.cpp — the statistics of `houserules compare` (cli/simulation/compare.hpp) on published and hand-computed
// values, mirror-match seeding, and a comparison of a ruleset with itself (every change exactly zero).
#include <catch2/catch.hpp>

#include "simulation/simulation.hpp"

namespace {

TEST_CASE("compare: Newcombe's hybrid score interval matches the published example", "[compare]") {
  // Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 vs 48/80, method 10: 0.0524 to 0.3339
  // for 56/70 - 48/80 = 0.2.
  const hr::Estimate e = hr::proportion_change(48, 80, 56, 70);
  CHECK(e.value == Approx(0.2));
  CHECK(e.low == Approx(0.0524).margin(5e-4));
  CHECK(e.high == Approx(0.3339).margin(5e-4));
}

TEST_CASE("compare: Welch interval of a difference of means", "[compare]") {
  const hr::Estimate e = hr::mean_change({1, 2, 3}, {4, 5, 6});
  CHECK(e.value == Approx(3.0));
  // variances 1 and 1, n = 3 each: se = sqrt(2/3); half width 1.959964 * 0.816497
  CHECK(e.high - e.value == Approx(1.600304).margin(1e-5));
  CHECK(e.value - e.low == Approx(1.600304).margin(1e-5));
}

TEST_CASE("compare: mirror matches deal the same cards to every rotation of a block", "[compare]") {
  hr::Experiment e;
  e.seats = 3;
  e.seed = 11;
  e.mirror = true;
  CHECK(hr::game_seed(e, 0) == hr::game_seed(e, 1));
  CHECK(hr::game_seed(e, 0) == hr::game_seed(e, 2));
  CHECK(hr::game_seed(e, 2) != hr::game_seed(e, 3));
  CHECK(hr::seating_of(e, 0) != hr::seating_of(e, 1));
  e.mirror = false;
  CHECK(hr::game_seed(e, 0) != hr::game_seed(e, 1));
}

TEST_CASE("compare: a ruleset against itself changes nothing", "[compare]") {
  hr::Experiment e;
  e.ruleset = "lost-cities";
  e.ruleset_id = "lost-cities";
  e.seats = 2;
  e.players = {"greedy", "random"};
  e.games = 6;
  e.mirror = true;
  e.count_actions = true;
  const auto records = hr::run_games(e, {0, 1, 2, 3, 4, 5}, 2);
  const hr::Comparison c = hr::compare_simulations(e, records, e, records);
  REQUIRE(c.metrics.size() >= 7);  // advantage, 2 win rates, 2 scores, margin, plies, rounds, action kinds
  for (const auto& m : c.metrics) {
    INFO(m.key);
    CHECK(m.change.value == 0);
    CHECK_FALSE(m.significant);
    CHECK(m.verdict.find("no significant change") != std::string::npos);
  }
  CHECK(c.metrics.front().key == "first_player_advantage");
  bool draws = false;
  for (const auto& m : c.metrics) draws = draws || (m.key == "actions/draw" && m.a.value > 0);
  CHECK(draws);
}

}  // namespace
