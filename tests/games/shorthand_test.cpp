// shorthand_test.cpp — a whole purchase typed on one line at the human prompt (issue 11: Lost Valley's
// `buy horse whisky whisky`): the ruleset's `shorthand` hook turns the line into its actions, which the
// player plays one at a time, each checked against the legal actions of its own position.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>

#include "play/play.hpp"
#include "scripted_rules.hpp"

using Catch::Contains;

namespace {

/// Moves the first component named `name` that is not already in `zone` into `zone`.
void give(hr::GameState& state, const std::string& name, const std::string& zone) {
  const hr::ZoneId to = state.layout().zone_id(zone);
  for (hr::ComponentId c : state.layout().components_named(name))
    if (state.place_of(c).zone != to) {
      state.move(c, to);
      return;
    }
  FAIL("no " << name << " left to move into " << zone);
}

/// Plays seat 1's decisions with `human` until the seat to move changes or the phase goes back to the main
/// phase after a purchase; returns the texts played.
std::vector<std::string> play_human(hr::Rules& rules, hr::GameState& state, hr::HumanPlayer& human, int decisions) {
  std::vector<std::string> played;
  for (int i = 0; i < decisions; ++i) {
    const auto legal = rules.legal_actions(state);
    const hr::Action a = human.choose(rules, hr::InformationSet(state, state.to_move(), legal));
    played.push_back(rules.action_text(state, a));
    rules.apply_checked(state, a);
  }
  return played;
}

/// The names in `zone`, sorted.
std::vector<std::string> names_in(const hr::GameState& state, const std::string& zone) {
  std::vector<std::string> names;
  for (hr::ComponentId c : state.cards(state.layout().zone_id(zone))) names.push_back(state.layout().components[c].name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("lost-valley: one line buys a whole basket and pays (the seed's example)", "[shorthand][human]") {
  auto rules = hr::load_rules("lost-valley");
  hr::GameState state = rules->new_game(1);
  REQUIRE(state.to_move() == 1);
  for (const char* token : {"grey4", "grey3", "green2"}) give(state, token, "gold.1");
  // The seed's example (rules B.7): a crate, two whiskies and a horse for 9 nuggets and a log.
  std::istringstream in("buy crate whisky whisky horse for log\n");
  std::ostringstream out;
  hr::HumanPlayer human(in, out);
  const auto played = play_human(*rules, state, human, 5);
  CHECK(played == std::vector<std::string>{"buy crate", "buy whisky", "buy whisky", "buy horse for log", "pay"});
  CHECK(names_in(state, "gold.1").empty());
  CHECK(names_in(state, "equip.1") == std::vector<std::string>{"crate", "horse"});
  CHECK(out.str().find("seat 1> (pay)") != std::string::npos);  // the queued steps are shown as they are played
}

TEST_CASE("lost-valley: a shorthand stops at its first illegal step and says why", "[shorthand][human]") {
  auto rules = hr::load_rules("lost-valley");
  hr::GameState state = rules->new_game(1);
  give(state, "green2", "gold.1");
  // 2 nuggets: a whisky (1), then a crate (4) is not covered; the rest of the line is dropped and the
  // person is asked again, with the rule that forbids the step.
  std::istringstream in("buy whisky crate whisky\npay\n");
  std::ostringstream out;
  hr::HumanPlayer human(in, out);
  const auto played = play_human(*rules, state, human, 2);
  CHECK(played == std::vector<std::string>{"buy whisky", "pay"});
  CHECK_THAT(out.str(), Contains("The rest of your line stops at 'buy crate': "));
  CHECK_THAT(out.str(), Contains("does not cover it"));
}

TEST_CASE("lost-valley: the shorthand hook reads only purchases", "[shorthand]") {
  auto rules = hr::load_rules("lost-valley");
  const hr::GameState state = rules->new_game(1);
  CHECK(rules->shorthand(state, "buy horse whisky whisky") ==
        std::vector<std::string>{"buy horse", "buy whisky", "buy whisky", "pay"});
  CHECK(rules->shorthand(state, "BUY  horse for rifle rod") ==
        std::vector<std::string>{"buy horse for rifle", "buy rod", "pay"});
  // issue 33: the player chooses the gold tokens that pay ("with" and the tokens, in order, end the line)
  CHECK(rules->shorthand(state, "buy horse for log whisky with grey4 green1") ==
        std::vector<std::string>{"buy horse for log", "buy whisky", "pay grey4", "pay green1"});
  CHECK(rules->shorthand(state, "buy whisky with").empty());
  CHECK(rules->shorthand(state, "buy whisky with grey4 for log").empty());
  CHECK(rules->shorthand(state, "move 1,1").empty());
  CHECK(rules->shorthand(state, "buy horse for").empty());
  CHECK(rules->shorthand(state, "buy").empty());
  // rulesets without the hook have no shorthands
  auto cities = hr::load_rules("lost-cities");
  CHECK(cities->shorthand(cities->new_game(1), "play y7 draw deck").empty());
}
