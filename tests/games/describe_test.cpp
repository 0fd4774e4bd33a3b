// describe_test.cpp — every ruleset's and variant's table (the `describe` hook a human sees at the prompt)
// renders for every seat, at every step of a few random games, for every player count the ruleset allows,
// and at the end of the match. A table that fails to draw stops a human's game (issue 12: nothing-in-hand's
// `score` was called on an observation whose hidden cards have no value, and crashed every prompt).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "rng.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

namespace {

/// Every built-in ruleset id and every variant of each, as `play` names them.
std::vector<std::string> every_ruleset_and_variant() {
  std::vector<std::string> ids;
  for (const hr::RulesetInfo& info : hr::list_rulesets()) {
    if (info.dir.parent_path().filename() != "rulesets") continue;  // built-in only, not HOUSERULES_PATH
    ids.push_back(info.id);
    for (const hr::VariantInfo& v : hr::list_variants(info)) ids.push_back(info.id + "/" + v.id);
  }
  return ids;
}

/// Draws the table of `state` for every seat; fails the test naming the ruleset, seat and ply if one throws
/// or draws nothing.
void describe_every_seat(hr::Rules& rules, const hr::GameState& state, const std::string& where) {
  for (int seat = 1; seat <= rules.layout().seats; ++seat) {
    INFO(where << ", seat " << seat << ", ply " << state.ply());
    std::string table;
    REQUIRE_NOTHROW(table = rules.describe(state.observation(seat), seat));
    REQUIRE_FALSE(table.empty());
  }
}

}  // namespace

TEST_CASE("every ruleset's and variant's table renders for every seat at every step and at the end",
          "[describe]") {
  const std::vector<std::string> ids = every_ruleset_and_variant();
  REQUIRE(ids.size() >= 8);  // three rulesets and their variants at least
  for (const std::string& id : ids) {
    const hr::RulesetInfo info = hr::find_ruleset(id);
    for (int seats = info.min_players; seats <= info.max_players; ++seats) {
      hr::LoadOptions options;
      options.seats = seats;
      auto rules = hr::load_rules(id, options);
      const std::string where = id + " with " + std::to_string(seats) + " players";
      hr::Rng rng(static_cast<std::uint64_t>(seats) * 7919u + 1u);
      hr::GameState state = rules->new_game(static_cast<std::uint64_t>(seats));
      for (int ply = 0; ply < 5000 && !state.over(); ++ply) {
        describe_every_seat(*rules, state, where);
        const std::vector<hr::Action> legal = rules->legal_actions(state);
        REQUIRE_FALSE(legal.empty());
        rules->apply(state, legal[rng.below(legal.size())]);
      }
      describe_every_seat(*rules, state, where + " (end of the match)");
    }
  }
}
