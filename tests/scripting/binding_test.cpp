// binding_test.cpp — the `game` object a hook receives (scripting/bindings_*.cpp): 1-based numbering, nil for
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

// ---- batch methods: one call for a loop over zones or cards -------------------------------------------------

TEST_CASE("game:tops with a declared map gives each zone's top mapped in one call", "[binding][batch]") {
  Probe p;
  p.state.move(0, p.zone("hand.1"));  // c1 (value 2) on hand.1
  p.state.move(3, p.zone("hand.1"));  // c4 (value 8) on top of it; hand.2 stays empty
  const std::string hands = "local game = ... local hr = houserules ";
  CHECK(p.eval(hands + "local t, n = game:tops(hr.groups.hands, {}, hr.maps.value, -1) return n .. ':' .. table.concat(t, ',')") ==
        "2:8,-1");
  // the same with a list of zones and a Lua table as the map (the slow forms), and without a map
  CHECK(p.eval(hands + "local v = {} for c = 1, 6 do v[c] = 2 * c end "
                       "return table.concat(game:tops({'hand.1', 'hand.2'}, {}, v, -1), ',')") == "8,-1");
  CHECK(p.eval(hands + "local t = game:tops(hr.groups.hands) return tostring(t[1]) .. ',' .. tostring(t[2])") == "4,false");
  CHECK_THROWS_WITH(p.eval(hands + "return game:tops(hr.groups.hands, {}, 9, -1)"), Contains("no map number 9"));
  CHECK_THROWS_WITH(p.eval(hands + "return game:tops(7)"), Contains("no zone group number 7"));
}

TEST_CASE("game:nonempty appends base + position for each zone that holds a card", "[binding][batch]") {
  Probe p;
  p.state.move(0, p.zone("table"));  // everywhere = pile (5 cards), hand.1, hand.2, table (1 card)
  const std::string run = "local game = ... local hr = houserules local out = {'kept'} ";
  CHECK(p.eval(run + "local n = game:nonempty(hr.groups.everywhere, out, 1, 100) return n .. ':' .. table.concat(out, ',')") ==
        "3:kept,101,104");
  // `except` skips one position of the group
  CHECK(p.eval(run + "local n = game:nonempty(hr.groups.everywhere, out, 1, 100, 1) return n .. ':' .. table.concat(out, ',')") ==
        "2:kept,104");
  CHECK(p.eval(run + "return game:nonempty({'hand.1', 'table'}, out, 0, 0)") == "1");
  CHECK_THROWS_WITH(p.eval(run + "return game:nonempty(hr.groups.everywhere, nil, 0, 0)"), Contains("table expected"));
}

TEST_CASE("game:append_cards appends base + card, optionally only the cards below their limits", "[binding][batch]") {
  Probe p;
  // hand.1 holds c2 c3 c5 (values 4 6 10; suits 2 1 1), bottom to top
  for (hr::ComponentId c : {1, 2, 4}) p.state.move(c, p.zone("hand.1"));
  const std::string run = "local game = ... local hr = houserules local out = {} ";
  auto appended = [&](const std::string& call) {
    return p.eval(run + "local n = " + call + " return n .. ':' .. table.concat(out, ',', 1, n)");
  };
  CHECK(appended("game:append_cards('hand.1', out, 0, 100)") == "3:102,103,105");
  CHECK(appended("game:append_cards('hand.1', out, 0, 0, true)") == "3:2,3,5");  // no copies: all distinct
  // limits by suit, as a list: suit 1 needs a value above 6, suit 2 above 3 -> c2 (4, suit 2) and c5 (10, suit 1)
  CHECK(appended("game:append_cards('hand.1', out, 0, 0, true, hr.maps.suit, {6, 3}, hr.maps.value)") == "2:2,5");
  // limits from a zone group: limits[k] = value of the top card of the group's k-th zone (hand.k), 0 if empty.
  // hand.1's top is c5 (10) and hand.2 is empty: suit-1 cards need a value above 10, suit-2 cards above 0.
  CHECK(appended("game:append_cards('hand.1', out, 0, 50, false, hr.maps.suit, hr.groups.hands, hr.maps.value, hr.maps.value, 0)") ==
        "1:52");
  CHECK(appended("game:append_cards('hand.2', out, 0, 0)") == "0:");
  CHECK_THROWS_WITH(p.eval(run + "return game:append_cards('hand.1', out, 0, 0, true, hr.maps.suit, {'x'}, hr.maps.value)"),
                    Contains("limits[1] is not an integer"));
  CHECK_THROWS_WITH(p.eval(run + "return game:append_cards('hand.1', out, 0, 0, true, hr.maps.value, hr.groups.hands, hr.maps.value, hr.maps.value, 0)"),
                    Contains("names no zone of the group"));
  CHECK_THROWS_WITH(p.eval(run + "return game:append_cards('hand.1', out, 0, 0, true, 5, {1, 2}, hr.maps.value)"),
                    Contains("no map number 5"));
}

TEST_CASE("game:append_allowed asks a rule per card with its column's cards, and remembers what read nothing", "[binding][batch]") {
  Probe p;
  // hand.1 holds c2 c3 c5 (suits 2 1 1), bottom to top; with key = suit and columns = hands, a suit-1 card's column
  // is hand.1 and a suit-2 card's hand.2 (empty)
  for (hr::ComponentId c : {1, 2, 4}) p.state.move(c, p.zone("hand.1"));
  // `rule` records each question (card @ column / count / #column / seat) and refuses c3
  const std::string run =
      "local game = ... local hr = houserules local out, asked = {}, {} "
      "local function rule(g, seat, card, column, count) "
      "  asked[#asked + 1] = card .. '@' .. table.concat(column, ',') .. '/' .. count .. '/' .. #column .. '/s' .. seat "
      "  return card ~= 3 end "
      "local function reading(g, seat, card, column, count) asked[#asked + 1] = card return g:size('pile') > 0 end "
      "local function ask(f, seat, columns, base) "
      "  local n = game:append_allowed('hand.1', out, 0, base or 0, true, f, seat, hr.maps.suit, columns or hr.groups.hands) "
      "  return n .. ':' .. table.concat(out, ',', 1, n) end ";
  // one question per card, the column exact (nothing past count), the answers appended after base
  CHECK(p.eval(run + "return ask(rule, 1, nil, 100) .. ' ' .. table.concat(asked, ';')") ==
        "2:102,105 2@/0/0/s1;3@2,3,5/3/3/s1;5@2,3,5/3/3/s1");
  // the same rule, seat, cards and columns again: the answers it gave while reading nothing are remembered
  CHECK(p.eval(run + "local a = ask(rule, 1) local b = ask(rule, 1) return a .. ' ' .. b .. ' ' .. #asked") == "2:2,5 2:2,5 3");
  // another seat, or another column for a card, is another question
  CHECK(p.eval(run + "ask(rule, 1) ask(rule, 2) return #asked") == "6");
  CHECK(p.eval(run + "ask(rule, 1) local b = ask(rule, 1, {'hand.2', 'hand.1'}) return b .. ' ' .. table.concat(asked, ';', 4)") ==
        "2:2,5 2@2,3,5/3/3/s1;3@/0/0/s1;5@/0/0/s1");
  // a rule that reads the game is asked every time
  CHECK(p.eval(run + "local a = ask(reading, 1) local b = ask(reading, 1) return a .. ' ' .. b .. ' ' .. #asked") ==
        "3:2,3,5 3:2,3,5 6");
  // what the rule says goes through: its errors, and a key naming no zone of the group
  CHECK_THROWS_WITH(p.eval(run + "return ask(function() error('no way') end, 1)"), Contains("no way"));
  CHECK_THROWS_WITH(p.eval(run + "return game:append_allowed('hand.1', out, 0, 0, true, rule, 1, hr.maps.value, hr.groups.hands)"),
                    Contains("names no zone of the group"));
  CHECK_THROWS_WITH(p.eval(run + "return game:append_allowed('hand.1', out, 0, 0, true, 'rule', 1, hr.maps.suit, hr.groups.hands)"),
                    Contains("function expected"));
}

TEST_CASE("game:append_allowed asks again a rule that drew from math.random", "[binding][batch]") {
  Probe p;
  for (hr::ComponentId c : {1, 2, 4}) p.state.move(c, p.zone("hand.1"));
  // inside apply (where math.random may draw), a rule that reads nothing of the game but draws a random number
  // is asked for each of the 3 cards on both passes: its answer is not a function of its arguments
  p.rules->apply(p.state, scripting_test::kRandomRule);
  CHECK(p.state.counter(p.counter("r1")) == 6);
}

TEST_CASE("game:append_allowed under check asks again and names a rule that answers otherwise", "[binding][batch]") {
  hr::LoadOptions options = scripting_test::quick_options();
  options.check_remembered_answers = true;
  Probe p(options);
  for (hr::ComponentId c : {1, 2, 4}) p.state.move(c, p.zone("hand.1"));
  // a rule keeping state in a Lua local: its answers flip from one call to the next
  const std::string run =
      "local game = ... local hr = houserules local out, flip = {}, false "
      "local function rule() flip = not flip return flip end "
      "local function ask() return game:append_allowed('hand.1', out, 0, 0, true, rule, 1, hr.maps.suit, hr.groups.hands) end ";
  CHECK(p.eval(run + "return ask()") == "2");  // true, false, true
  CHECK_THROWS_WITH(p.eval(run + "ask() return ask()"), Contains("the rule answered false for seat 1 and card"));
  // a rule that keeps no state passes, asked every time
  CHECK(p.eval("local game = ... local hr = houserules local out, asked = {}, 0 "
               "local function rule(g, s, c) asked = asked + 1 return c ~= 3 end "
               "for _ = 1, 3 do game:append_allowed('hand.1', out, 0, 0, true, rule, 1, hr.maps.suit, hr.groups.hands) end "
               "return asked") == "9");
}

TEST_CASE("game:gather puts every card into one zone in card order", "[binding][batch]") {
  Probe p;
  p.rules->apply(p.state, st::kTake);
  p.state.move(2, p.zone("table"));
  hr::GameState expected = p.state;
  for (hr::ComponentId c = 0; c < 6; ++c) expected.move(c, p.zone("pile"));
  // explain is a read-only hook; start_round (which uses gather) runs in every new game of the probe
  CHECK_THROWS_WITH(p.eval("local game = ... game:gather('pile')"), Contains("game:gather changes the game"));
  p.state.gather(p.zone("pile"));
  CHECK(p.state == expected);
  CHECK(lua_ids(p.state, p.zone("pile")) == "1,2,3,4,5,6");
  CHECK(p.state.check_invariants().empty());
}
