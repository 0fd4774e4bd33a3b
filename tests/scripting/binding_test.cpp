// binding_test.cpp — the `game` object a hook receives (scripting/bindings.cpp): 1-based numbering, nil for
// nothing, zones by name or number, clear errors, and observations in which unknown cards read as 0.
#include <catch2/catch.hpp>

#include <string>

#include "probe.hpp"

using Catch::Contains;
using scripting_test::Probe;
namespace st = scripting_test;

namespace {

/// The Lua numbers of the cards of zone z, bottom to top, joined by commas (C++ id + 1).
std::string lua_ids(const hr::GameState& state, hr::ZoneId z) {
  std::string out;
  for (hr::ComponentId c : state.cards(z)) out += (out.empty() ? "" : ",") + std::to_string(c + 1);
  return out;
}

}  // namespace

TEST_CASE("component, zone and seat numbers are 1-based in Lua", "[binding]") {
  Probe p;
  const auto pile = p.zone("pile");
  REQUIRE(pile == 0);
  REQUIRE(p.state.size(pile) == 6);
  const auto cards = p.state.cards(pile);
  CHECK(p.eval("local game = ... return table.concat(game:cards('pile'), ',')") == lua_ids(p.state, pile));
  CHECK(p.eval("local game = ... return game:card('pile', 1)") == std::to_string(cards[0] + 1));
  CHECK(p.eval("local game = ... return game:card('pile', -1)") == std::to_string(cards[5] + 1));
  CHECK(p.eval("local game = ... return game:top('pile')") == std::to_string(p.state.top(pile) + 1));
  CHECK(p.eval("local game = ... local seen = {} for _, c in ipairs(game:cards('pile')) do seen[c] = true end "
               "for c = 1, 6 do if not seen[c] then return 'missing ' .. c end end return 'all'") == "all");
  CHECK(p.eval("local game = ... return game:zone_of(1)") == "1");
  CHECK(p.eval("local game = ... return game:zone_name(1)") == "pile");
  CHECK(p.eval("local game = ... return game:to_move() .. '/' .. game:seats()") == "1/2");
  // a card moved by the kernel shows under its Lua number; C++ component 2 is c3
  p.state.move(2, p.zone("hand.1"));
  CHECK(p.eval("local game = ... return table.concat(game:cards('hand.1'), ',')") == "3");
  CHECK(p.eval("local game = ... return game:zone_name(game:zone_of(3))") == "hand.1");
  CHECK_THROWS_WITH(p.eval("local game = ... return game:zone_of(0)"), Contains("no component number 0"));
  CHECK_THROWS_WITH(p.eval("local game = ... return game:zone_of(7)"), Contains("no component number 7 (the game has 6)"));
}

TEST_CASE("game:top and game:card on an empty zone are nil", "[binding]") {
  Probe p;
  CHECK(p.eval("local game = ... return type(game:top('hand.1'))") == "nil");
  CHECK(p.eval("local game = ... return type(game:card('hand.1', 1))") == "nil");
  CHECK(p.eval("local game = ... return #game:cards('hand.1')") == "0");
  CHECK(p.eval("local game = ... return type(game:card('pile', 7))") == "nil");
}

TEST_CASE("zones may be given by name or by number", "[binding]") {
  Probe p;
  p.rules->apply(p.state, st::kTake);
  const int hand1 = p.zone("hand.1") + 1;
  CHECK(p.eval("local game = ... return game:size('pile') .. ' ' .. game:size(1)") == "5 5");
  CHECK(p.eval("local game = ... return game:size('hand.1') .. ' ' .. game:size(" + std::to_string(hand1) + ")") == "1 1");
  CHECK(p.eval("local game = ... return game:top('hand.1') == game:top(" + std::to_string(hand1) + ")") == "true");
}

TEST_CASE("an unknown zone name or number is an error that names it", "[binding]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("local game = ... return game:size('nowhere')"), Contains("unknown zone 'nowhere'"));
  CHECK_THROWS_WITH(p.eval("local game = ... return game:top('hand.3')"), Contains("unknown zone 'hand.3'"));
  CHECK_THROWS_WITH(p.eval("local game = ... return game:size(99)"), Contains("no zone number 99"));
  CHECK_THROWS_WITH(p.eval("local game = ... return game:size(0)"), Contains("no zone number 0"));
  CHECK_THROWS_WITH(p.eval("local game = ... return game:size(true)"), Contains("zone (number or name) expected"));
}

TEST_CASE("in an observation the cards a seat cannot see read as 0", "[binding]") {
  Probe p;
  p.rules->apply(p.state, st::kTake);  // seat 1 takes c6 into hand.1 (owner-only)
  p.rules->apply(p.state, st::kTake);  // seat 2 takes c5 into hand.2
  const std::string pile = lua_ids(p.state, p.zone("pile"));
  const std::string hand1 = lua_ids(p.state, p.zone("hand.1"));
  const std::string hand2 = lua_ids(p.state, p.zone("hand.2"));
  REQUIRE(hand1.size() == 1);
  REQUIRE(hand2.size() == 1);
  // full state: every card as it is, no viewer
  CHECK(p.rules->describe(p.state, 1) == "viewer=nil;pile=" + pile + ";hand.1=" + hand1 + ";hand.2=" + hand2 + ";table=;box=");
  // seat 1's observation: its own hand, nothing of the shuffled hidden pile nor of seat 2's hand
  CHECK(p.rules->describe(p.state.observation(1), 1) == "viewer=1;pile=0,0,0,0;hand.1=" + hand1 + ";hand.2=0;table=;box=");
  CHECK(p.rules->describe(p.state.observation(2), 2) == "viewer=2;pile=0,0,0,0;hand.1=0;hand.2=" + hand2 + ";table=;box=");
  // a card that leaves for an unknown place is not found in the view either
  const int unknown = p.state.cards(p.zone("hand.2"))[0] + 1;
  hr::GameState view = p.state.observation(1);
  CHECK(p.rules->explain_illegal(view, "local game = ... return tostring(game:zone_of(" + std::to_string(unknown) + "))") == "nil");
}

TEST_CASE("trick: calling the game's methods without the game, or setting fields on it", "[binding]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("local game = ... return game.size('pile')"), Contains("expected the game as first argument"));
  CHECK_THROWS_WITH(p.eval("local game = ... return game.size({}, 'pile')"), Contains("expected the game as first argument"));
  CHECK_THROWS_WITH(p.eval("local game = ... game.move = function() end"), Contains("the game has no fields to set"));
  CHECK(p.eval("local game = ... return getmetatable(game)") == "game");
  CHECK_THROWS_WITH(p.eval("local game = ... setmetatable(game, nil)"), Contains("table expected"));
}
