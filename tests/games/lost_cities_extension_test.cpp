// lost_cities_extension_test.cpp — Lost Cities' extension points (rulesets/lost-cities/README.md, "For
// variant authors"): the generic paths the hooks take when a variant replaces a point give the same game as
// the fast paths, and rules.encoding reads, writes and allocates codes (checked in Lua while it loads).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "rng.hpp"
#include "scripted_rules.hpp"

namespace {

const std::string kFixtures = HOUSERULES_SOURCE_DIR "/tests/fixtures/lost-cities-extension-points/";

}  // namespace

TEST_CASE("lost-cities: with every extension point replaced by a wrapper, the generic paths play the same games") {
  auto fast = hr::load_rules("lost-cities");
  auto generic = hr::load_rules(kFixtures + "generic.toml");
  std::vector<hr::Action> a, b;
  for (std::uint64_t game = 0; game < 12; ++game) {
    hr::GameState x = fast->new_game(hr::derive_seed(7, game));
    hr::GameState y = generic->new_game(hr::derive_seed(7, game));
    hr::Rng player(hr::derive_seed(8, game));
    while (!x.over()) {
      REQUIRE_FALSE(y.over());
      fast->legal_actions(x, a);
      generic->legal_actions(y, b);
      REQUIRE(a == b);
      const int seat = x.to_move();
      REQUIRE(fast->heuristic(x, seat) == generic->heuristic(y, seat));
      REQUIRE(fast->score(x, seat) == generic->score(y, seat));
      const hr::Action chosen = a[player.below(a.size())];
      fast->apply(x, chosen);
      generic->apply(y, chosen);
      REQUIRE(x.digest() == y.digest());
    }
    REQUIRE(y.over());
    REQUIRE(x.round_scores() == y.round_scores());
  }
}

TEST_CASE("lost-cities: a may_play that reads the game for some cards gets its answers asked again where it read") {
  // late-plays: the parent's answer, and a number above 5 only once the deck holds 30 cards or fewer. Its answers
  // for the other cards read nothing of the game and are remembered (game:append_allowed); the high numbers'
  // answers read the deck and must follow it. The same games as the base, actions chosen among the variant's.
  auto base = hr::load_rules("lost-cities");
  auto late = hr::load_rules(kFixtures + "late-plays.toml");
  const hr::ZoneId deck = base->layout().zone_id("deck");
  const auto& components = base->layout().components;
  std::vector<hr::Action> a, b, expected;
  int held_back = 0, allowed_late = 0;
  for (std::uint64_t game = 0; game < 8; ++game) {
    hr::GameState x = base->new_game(hr::derive_seed(9, game));
    hr::GameState y = late->new_game(hr::derive_seed(9, game));
    hr::Rng player(hr::derive_seed(10, game));
    while (!x.over()) {
      base->legal_actions(x, a);
      late->legal_actions(y, b);
      expected.clear();
      for (const hr::Action action : a) {
        bool high_play = false;  // a play (codes 1..99) of a number above 5 ("Y6".."Y10"; "Yx" is a wager)
        if (action >= 1 && action < 100) {
          const std::string& name = components[static_cast<std::size_t>(action - 1)].name;
          high_play = name[1] != 'x' && std::stoi(name.substr(1)) > 5;
        }
        if (high_play && x.size(deck) > 30) ++held_back;
        else expected.push_back(action), allowed_late += high_play;
      }
      REQUIRE(b == expected);
      const hr::Action chosen = b[player.below(b.size())];
      base->apply(x, chosen);
      late->apply(y, chosen);
      REQUIRE(x.digest() == y.digest());
    }
  }
  CHECK(held_back > 0);  // both sides of the deck's size were met
  CHECK(allowed_late > 0);
}

TEST_CASE("lost-cities: the explanations come from the extension points on both paths") {
  auto fast = hr::load_rules("lost-cities");
  auto generic = hr::load_rules(kFixtures + "generic.toml");
  hr::GameState x = fast->new_game(3);
  hr::GameState y = generic->new_game(3);
  // after a discard, drawing from that pile is refused with the same reason
  std::vector<hr::Action> legal = fast->legal_actions(x);
  hr::Action discard = 0;
  for (hr::Action action : legal)
    if (fast->action_text(x, action).rfind("discard ", 0) == 0) discard = action;
  REQUIRE(discard != 0);
  const std::string text = fast->action_text(x, discard);
  fast->apply(x, discard);
  generic->apply(y, discard);
  const std::string letter = text.substr(std::string("discard ").size(), 1);
  const std::string why = fast->explain_illegal(x, "draw " + letter);
  CHECK_THAT(why, Catch::Contains("you just discarded to it"));
  CHECK(generic->explain_illegal(y, "draw " + letter) == why);
}

TEST_CASE("lost-cities: rules.encoding names the historic codes, allocates new ones and refuses clashes") {
  // encoding.lua raises on the first wrong answer, which makes the load fail with its line
  REQUIRE_NOTHROW(hr::load_rules(kFixtures + "encoding.toml"));
}
