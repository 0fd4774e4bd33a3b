// query_binding_test.cpp — the queries a rule author asks (issue 35), on the tiny-board fixture
// (tests/fixtures/tiny-board: bags bag.1 and bag.2 owned by seats 1 and 2, seat 1's prospector on vertex 0,0 and
// seat 2's on 1,0): game:owns ("does this seat own X"), game:holdings ("what does it hold"), game:owner_of, game:seats_on
// ("who stands here") and game:adjacent ("are these next to each other"); a hidden card is never found by another seat.
#include <catch2/catch.hpp>

#include <string>

#include "probe.hpp"
#include "rules.hpp"

namespace {

/// The tiny-board rules and a new game; eval runs Lua in the read-only `explain` hook with the game as `...`.
struct Board {
  Board()
      : rules(hr::load_rules(std::string(HOUSERULES_TEST_DIR) + "/fixtures/tiny-board", scripting_test::quick_options())),
        state(rules->new_game(1)) {}
  std::string eval(const std::string& code) { return eval_on(state, code); }
  std::string eval_on(const hr::GameState& s, const std::string& code) { return rules->explain_illegal(s, "local game = ... " + code); }
  std::unique_ptr<hr::ScriptedRules> rules;
  hr::GameState state;
};

}  // namespace

TEST_CASE("owns, holdings and owner_of: what a seat holds in the zones it owns", "[binding][query]") {
  Board b;
  b.state.move(5, b.rules->layout().zone_id("bag.1"));  // gold 1 (component 6) into seat 1's bag
  b.state.move(1, b.rules->layout().zone_id("bag.2"));  // a forest tile (component 2) into seat 2's bag
  CHECK(b.eval("return tostring(game:owns(1, 6)) .. tostring(game:owns(1, 'gold')) .. tostring(game:owns(2, 'gold'))") ==
        "truetruefalse");
  CHECK(b.eval("return tostring(game:owns(2, 'forest')) .. tostring(game:owns(2, 3)) .. tostring(game:owns(1, 'forest'))") ==
        "truefalsefalse");  // by name: either forest; by number: that one only
  CHECK(b.eval("local list, n = game:holdings(1) return n .. ':' .. table.concat(list, ',')") == "1:6");
  CHECK(b.eval("local list, n = game:holdings(2, {}) return n .. ':' .. table.concat(list, ',')") == "1:2");
  CHECK(b.eval("return tostring(game:owner_of(6)) .. ' ' .. tostring(game:owner_of(2)) .. ' ' .. tostring(game:owner_of(3))") ==
        "1 2 nil");  // component 3 lies in the public stack, which nobody owns
  CHECK_THROWS_WITH(b.eval("return game:owns(1, 'unicorn')"), Catch::Contains("game:owns: no component named 'unicorn'"));
  CHECK_THROWS_WITH(b.eval("return game:owns(3, 6)"), Catch::Contains("no seat 3"));
}

TEST_CASE("owns and holdings read only what the viewer may see: a hidden card is never found", "[binding][query]") {
  Board b;
  b.state.move(5, b.rules->layout().zone_id("bag.1"));  // bag.1 is visible to its owner only
  const hr::GameState seen_by_2 = b.state.observation(2);
  CHECK(b.eval_on(seen_by_2, "return tostring(game:owns(1, 'gold')) .. tostring(game:owns(1, 6))") == "falsefalse");
  CHECK(b.eval_on(seen_by_2, "local list, n = game:holdings(1) return n .. ':' .. table.concat(list, ',')") == "1:0");
  const hr::GameState seen_by_1 = b.state.observation(1);
  CHECK(b.eval_on(seen_by_1, "return tostring(game:owns(1, 'gold'))") == "true");
}

TEST_CASE("seats_on and adjacent: who stands here, are these next to each other", "[binding][query]") {
  Board b;
  CHECK(b.eval("return table.concat(game:seats_on('valley', 'vertex', '0,0'), ',')") == "1");
  CHECK(b.eval("return table.concat(game:seats_on('valley', 'vertex', '1,0'), ',')") == "2");
  CHECK(b.eval("return #game:seats_on('valley', 'vertex', '1,1')") == "0");
  CHECK(b.eval("return tostring(game:adjacent('valley', 'vertex', '0,0', '1,0')) .. tostring(game:adjacent('valley', 'vertex', '0,0', '2,0'))"
               " .. tostring(game:adjacent('valley', 'vertex', '0,0', '0,0'))") == "truefalsefalse");
  CHECK(b.eval("return tostring(game:adjacent('valley', 'face', '0,0u', '0,0d')) .. tostring(game:adjacent('valley', 'face', '0,0u', '1,0d'))") ==
        "truefalse");
  CHECK(b.eval("return tostring(game:adjacent('valley', 'edge', '0,0-1,0', '1,0-1,1')) .. tostring(game:adjacent('valley', 'edge', '0,0-1,0', '0,1-1,1'))") ==
        "truefalse");
  CHECK(b.eval("return tostring(game:adjacent('valley', 'face', 1, 2))") == "true");  // ids as numbers too
  CHECK_THROWS_WITH(b.eval("return game:adjacent('valley', 'corner', 1, 2)"), Catch::Contains("is not a site kind"));
}

TEST_CASE("owns in Lost Valley: a prospector owns the equipment it bought and the goods in its backpack", "[binding][query]") {
  // seed 004 B.5 (the store): equipment lies in front of its prospector, public; goods go into the backpack
  hr::LoadOptions options = scripting_test::quick_options();
  options.seats = 3;
  // Lost Valley with an explain hook that evaluates Lua, as tiny-board's (tests/fixtures/lost-valley-probe)
  auto rules = hr::load_rules(std::string(HOUSERULES_TEST_DIR) + "/fixtures/lost-valley-probe/probe.toml", options);
  hr::GameState state = rules->new_game(1);
  const hr::Layout& layout = rules->layout();
  hr::ComponentId horse = hr::kNoComponent;
  for (std::size_t c = 0; c < layout.components.size(); ++c)
    if (layout.components[c].name == "horse") horse = static_cast<hr::ComponentId>(c);
  REQUIRE(horse != hr::kNoComponent);
  const auto ask = [&](const hr::GameState& s, const std::string& code) {
    return rules->explain_illegal(s, "local game = ... " + code);
  };
  CHECK(ask(state, "return tostring(game:owns(2, 'horse'))") == "false");
  state.move(horse, layout.zone_id("equip.2"));
  CHECK(ask(state, "return tostring(game:owns(2, 'horse')) .. tostring(game:owns(1, 'horse'))") == "truefalse");
  CHECK(ask(state.observation(1), "return tostring(game:owner_of(" + std::to_string(horse + 1) + "))") == "2");  // public; 1-based in Lua
}
