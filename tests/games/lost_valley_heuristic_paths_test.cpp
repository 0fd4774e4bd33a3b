// lost_valley_heuristic_paths_test.cpp — Lost Valley's heuristic (rulesets/lost-valley/heuristic.lua) walks the valley with the
// kernel (game:reachable with class_in, through_covered and allow, docs/boards.md), answers rules.explored from its
// survey, reads the equipment once, reads each river tile's banks once, and keeps what the map promises, the nearest
// food and log found and the best promise across calls under game:board_digest (and what each intersection holds under
// game:vertex_digest, across maps), while rules.way, rules.explored, rules.owns, rules.same_bank, rules.has_water,
// rules.promise, rules.fish_count, rules.fell_count, rules.hunt_sites (and what they ask) are the base rules; the test
// variant plain-paths (rulesets/lost-valley/tests/variants/plain-paths) replaces some of them by functions that ask the
// base ones, so that its heuristic takes the plain Lua paths. The rules are the same: in every position of three random
// games (a boat and an axe for seat 2, a horse for seat 3, a rod for seat 1), and in each with the ice block in play,
// and with no food nor log in any backpack (with the rod and the axe, and again without them), both give every seat
// the same value, to the last bit (docs/performance.md, "Lost Valley's heuristic"). The seats are asked in turn on the
// same map: a memo key that missed the ice, the boat, the horse, a tool, the rod or "no food" gives a seat another's
// value and fails here; after each game every 50th position is asked again, latest first, so that what was read of
// a larger map must not stay for a smaller one. A second case plays the test variant heavy-logs (rules.fish_count
// replaced by one that reads the logs carried, which no memo key holds) against the same rule on the plain paths:
// it fails if the memo is kept while rules.fish_count is replaced.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rng.hpp"
#include "scripted_rules.hpp"

namespace {

using hr::Action;
using hr::ComponentId;
using hr::GameState;

/// Moves the first component named `name` lying in zone `from` into zone `to`.
void give(const hr::Rules& rules, GameState& s, const std::string& name, const std::string& from, const std::string& to) {
  const hr::Layout& layout = rules.layout();
  for (ComponentId c : s.cards(layout.zone_id(from)))
    if (layout.components[c].name == name) {
      s.move(c, layout.zone_id(to));
      return;
    }
  FAIL("no " << name << " in " << from);
}

/// Moves the first component named `name` in zone `from` into zone `to`, when there is one (a seat may have spent it).
void take(const hr::Rules& rules, GameState& s, const std::string& name, const std::string& from, const std::string& to) {
  const hr::Layout& layout = rules.layout();
  for (ComponentId c : s.cards(layout.zone_id(from)))
    if (layout.components[c].name == name) {
      s.move(c, layout.zone_id(to));
      return;
    }
}

}  // namespace

TEST_CASE("lost valley: the heuristic's kernel walk and survey give the values of its plain Lua paths in every position",
          "[heuristic][lost-valley]") {
  auto kernel = hr::load_rules("lost-valley");
  auto plain = hr::load_rules(std::string(HOUSERULES_SOURCE_DIR) +
                              "/rulesets/lost-valley/tests/variants/plain-paths/plain-paths.toml");
  const int seats = kernel->layout().seats;
  const int ice = kernel->layout().counter_index("ice");
  const int food = kernel->layout().counter_index("food"), logs = kernel->layout().counter_index("log");
  int positions = 0, walked = 0;  // positions: (position, seat) pairs compared, each also with the ice block
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    GameState a = kernel->new_game(seed), b = plain->new_game(seed);
    // a boat for seat 2 (it crosses the river anywhere), a horse for seat 3 (0.92 a side), a fishing rod for seat 1
    // and an axe for seat 2 (they find food and logs nearer: the nearest food and log depend on them)
    for (GameState* s : {&a, &b}) {
      give(*kernel, *s, "boat", "store", "equip.2");
      give(*kernel, *s, "horse", "store", "equip.3");
      give(*kernel, *s, "rod", "store", "equip.1");
      give(*kernel, *s, "axe", "store", "equip.2");
    }
    hr::Rng rng(seed);
    std::vector<std::pair<GameState, GameState>> earlier;  // every 50th position, asked again after the game
    for (int ply = 0; ply < 400 && !a.over(); ++ply) {
      if (ply % 50 == 0) earlier.emplace_back(a, b);
      // each position as it is, and with the ice block in play (borders walked, unexplored intersections passed
      // through; a copy: the rules expect the ice block's figure, which the game goes on without)
      GameState a_ice = a, b_ice = b;
      a_ice.set_counter(ice, 0, 1);
      b_ice.set_counter(ice, 0, 1);
      // and with no food and no log in any backpack (the heuristic then looks for the nearest place to fish or hunt
      // and to fell a tree), each seat with its rod and axe and again without them (the same map and places: a
      // memo key that missed the rod or the axe gives the seat the value it had with them, and fails here)
      GameState a_poor = a, b_poor = b;
      for (GameState* s : {&a_poor, &b_poor})
        for (int seat = 1; seat <= seats; ++seat) {
          s->set_counter(food, seat, 0);
          s->set_counter(logs, seat, 0);
        }
      GameState a_bare = a_poor, b_bare = b_poor;
      for (GameState* s : {&a_bare, &b_bare}) {
        take(*kernel, *s, "rod", "equip.1", "store");
        take(*kernel, *s, "axe", "equip.2", "store");
      }
      for (int seat = 1; seat <= seats; ++seat) {
        INFO("seed " << seed << ", ply " << ply << ", seat " << seat);
        const std::optional<double> x = kernel->heuristic(a, seat), y = plain->heuristic(b, seat);
        REQUIRE(x.has_value());
        REQUIRE(y.has_value());
        CHECK(*x == *y);
        CHECK(*kernel->heuristic(a_ice, seat) == *plain->heuristic(b_ice, seat));
        CHECK(*kernel->heuristic(a_poor, seat) == *plain->heuristic(b_poor, seat));
        CHECK(*kernel->heuristic(a_bare, seat) == *plain->heuristic(b_bare, seat));
        ++positions;
      }
      const std::vector<Action> legal = kernel->legal_actions(a);
      REQUIRE(legal == plain->legal_actions(b));
      if (legal.empty()) break;
      const Action chosen = legal[rng.below(legal.size())];
      if (kernel->action_text(a, chosen).rfind("move", 0) == 0) ++walked;
      kernel->apply(a, chosen);
      plain->apply(b, chosen);
    }
    // back in time, latest first: smaller maps after larger ones (what was read of a later map must not stay)
    for (auto it = earlier.rbegin(); it != earlier.rend(); ++it)
      for (int seat = 1; seat <= seats; ++seat) {
        INFO("seed " << seed << ", an earlier position again, seat " << seat);
        CHECK(*kernel->heuristic(it->first, seat) == *plain->heuristic(it->second, seat));
      }
  }
  CHECK(positions > 1000);
  CHECK(walked > 100);  // the prospectors went places: the valley explored around them
}

TEST_CASE("lost valley: a variant that replaces a rule the heuristic's memo stands for takes its plain path",
          "[heuristic][lost-valley]") {
  // heavy-logs: rules.fish_count replaced (no fish while carrying two logs or more); what the seat carries beyond "no
  // log" is not in the memo's keys, so a memo kept while rules.fish_count is replaced gives a seat with two logs the
  // nearest food a seat with one found (and the reverse): the values differ from the plain paths'
  const std::string dir = std::string(HOUSERULES_SOURCE_DIR) + "/rulesets/lost-valley/tests/variants/heavy-logs/";
  auto variant = hr::load_rules(dir + "heavy-logs.toml");
  auto plain = hr::load_rules(dir + "heavy-logs-plain.toml");
  const int seats = variant->layout().seats;
  const int food = variant->layout().counter_index("food"), logs = variant->layout().counter_index("log");
  int positions = 0;
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    GameState a = variant->new_game(seed), b = plain->new_game(seed);
    for (GameState* s : {&a, &b}) give(*variant, *s, "rod", "store", "equip.1");  // fish wherever there is water
    hr::Rng rng(seed);
    for (int ply = 0; ply < 300 && !a.over(); ++ply) {
      // no food anywhere (the nearest food counts), and 1 or 2 logs by seat and ply: the same map and places asked
      // with one log, then with two
      for (int logs_held = 1; logs_held <= 2; ++logs_held) {
        GameState x = a, y = b;
        for (GameState* s : {&x, &y})
          for (int seat = 1; seat <= seats; ++seat) {
            s->set_counter(food, seat, 0);
            s->set_counter(logs, seat, (seat + ply) % 2 == 0 ? logs_held : 3 - logs_held);
          }
        for (int seat = 1; seat <= seats; ++seat) {
          INFO("seed " << seed << ", ply " << ply << ", seat " << seat << ", logs " << logs_held);
          CHECK(*variant->heuristic(x, seat) == *plain->heuristic(y, seat));
          ++positions;
        }
      }
      const std::vector<Action> legal = variant->legal_actions(a);
      REQUIRE(legal == plain->legal_actions(b));
      if (legal.empty()) break;
      const Action chosen = legal[rng.below(legal.size())];
      variant->apply(a, chosen);
      plain->apply(b, chosen);
    }
  }
  CHECK(positions > 1000);
}
