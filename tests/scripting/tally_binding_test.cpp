// tally_binding_test.cpp — game:tally (counts of the cards in several zones by a declared map's key) and
// game:track_tiles (a path's tiles in one call), on Lost Cities: the board game's real zones, maps, groups and paths
// (tests/fixtures/lost-cities-board-probe: its `explain` hook evaluates Lua with the game as `...`).
#include <catch2/catch.hpp>

#include <string>

#include "probe.hpp"
#include "rules.hpp"

namespace {

/// The board game (2 seats) and a new game; eval runs Lua in the read-only `explain` hook with the game as `...`.
/// Cards are numbered colour by colour (yellow, blue, ...), value 0..10, two copies each: card(k, v) is the first
/// copy's 0-based component id.
struct Board {
  Board()
      : rules(hr::load_rules(std::string(HOUSERULES_TEST_DIR) + "/fixtures/lost-cities-board-probe/probe.toml",
                             scripting_test::quick_options())),
        state(rules->new_game(1)) {}
  std::string eval(const std::string& code) { return eval_on(state, code); }
  std::string eval_on(const hr::GameState& s, const std::string& code) {
    return rules->explain_illegal(s, "local game = ... local G, M = houserules.groups, houserules.maps " + code);
  }
  static hr::ComponentId card(int colour, int value) { return static_cast<hr::ComponentId>((colour - 1) * 22 + value * 2); }
  hr::ZoneId zone(const char* name) const { return rules->layout().zone_id(name); }
  std::unique_ptr<hr::ScriptedRules> rules;
  hr::GameState state;
};

}  // namespace

TEST_CASE("tally counts the cards of a zone group by colour, and with `least` only those at or above it", "[binding][tally]") {
  Board b;
  b.state.move(Board::card(1, 2), b.zone("pile.1.yellow"));
  b.state.move(Board::card(1, 5), b.zone("pile.1.yellow"));
  b.state.move(Board::card(1, 7), b.zone("pile.2.yellow"));
  b.state.move(Board::card(1, 1), b.zone("discard.yellow"));
  b.state.move(Board::card(1, 9), b.zone("discard.yellow"));
  b.state.move(Board::card(2, 3), b.zone("pile.2.blue"));
  b.state.move(Board::card(2, 5), b.zone("discard.blue"));
  // every card of the piles and discard piles, by colour (yellow 5, blue 2), none unknown
  CHECK(b.eval("local into = {0, 0, 0, 0, 0} local n, unknown = game:tally(G.shown, M.colour, into)"
               " return table.concat(into, ',') .. ' ' .. n .. ' ' .. unknown") == "5,2,0,0,0 7 0");
  // at or above 5 in yellow (Y5, Y7, Y9), above 3 in blue (B5: B3 is not), any card of the other colours
  CHECK(b.eval("local into = {9, 9, 9, 9, 9} local n = game:tally(G.shown, M.colour, into, nil,"
               " {5, 4, -math.huge, -math.huge, -math.huge}, M.value) return table.concat(into, ',') .. ' ' .. n") ==
        "3,1,0,0,0 4");
  // the limit is inclusive: at or above 7 counts Y7 and Y9; math.huge counts none
  CHECK(b.eval("local into = {0, 0} game:tally(G.shown, M.colour, into, nil, {7, math.huge}, M.value)"
               " return table.concat(into, ',')") == "2,0");
  // only keys 1..#into are counted and written: the other colours are left out
  CHECK(b.eval("local into = {0} local n = game:tally(G.shown, M.colour, into) return #into .. ' ' .. into[1] .. ' ' .. n") ==
        "1 5 5");
  // a list of zones works as a group does
  CHECK(b.eval("local into = {0, 0} game:tally({'discard.yellow', 'discard.blue'}, M.colour, into)"
               " return table.concat(into, ',')") == "2,1");
}

TEST_CASE("tally with a seat counts only the cards that seat knows; the others are unknown", "[binding][tally]") {
  Board b;
  const int in_hand = static_cast<int>(b.state.cards(b.zone("hand.2")).size());
  REQUIRE(in_hand == 8);
  // seat 1 knows none of seat 2's hand: nothing counted, every card unknown
  CHECK(b.eval("local into = {0, 0, 0, 0, 0} local n, unknown = game:tally(G['other_hands.1'], M.colour, into, 1)"
               " return table.concat(into, ',') .. ' ' .. n .. ' ' .. unknown") == "0,0,0,0,0 0 8");
  // seat 2 knows its own hand: every card counted
  CHECK(b.eval("local into = {0, 0, 0, 0, 0} local n, unknown = game:tally({'hand.2'}, M.colour, into, 2)"
               " return n .. ' ' .. unknown") == "8 0");
  // a card of seat 2's hand shown to seat 1 (game:knows) is counted for seat 1, the rest stay unknown
  const hr::ComponentId shown = b.state.cards(b.zone("hand.2")).front();
  b.state.reveal(shown, 1);
  CHECK(b.eval("local into = {0, 0, 0, 0, 0} local n, unknown = game:tally(G['other_hands.1'], M.colour, into, 1)"
               " return n .. ' ' .. unknown .. ' ' .. tostring(game:knows(1, " + std::to_string(shown + 1) + "))") ==
        "1 7 true");
  // in seat 1's observation the cards of seat 2's hand cannot be seen (but the one shown): unknown even without a
  // seat, so the count tells no more than game:cards would
  const hr::GameState seen_by_1 = b.state.observation(1);
  CHECK(b.eval_on(seen_by_1, "local into = {0, 0, 0, 0, 0} local n, unknown = game:tally({'hand.2'}, M.colour, into)"
                             " return n .. ' ' .. unknown") == "1 7");
}

TEST_CASE("tally refuses bad arguments with a message naming them", "[binding][tally]") {
  Board b;
  CHECK_THROWS_WITH(b.eval("return game:tally(G.shown, 99, {0})"), Catch::Contains("no map number 99"));
  CHECK_THROWS_WITH(b.eval("return game:tally(999, M.colour, {0})"), Catch::Contains("no zone group number 999"));
  CHECK_THROWS_WITH(b.eval("return game:tally(G.shown, M.colour, {0, 0}, nil, {1, 'x'}, M.value)"),
                    Catch::Contains("least[2] is not a number"));
  CHECK_THROWS_WITH(b.eval("local t = {} for i = 1, 65 do t[i] = 0 end return game:tally(G.shown, M.colour, t)"),
                    Catch::Contains("at most 64 keys"));
  CHECK_THROWS_WITH(b.eval("return game:tally(G.shown, M.colour, {0}, 3)"), Catch::Contains("no seat 3"));
}

TEST_CASE("track_tiles reads a path's tiles in one call, as game:tile does space by space", "[binding][tally]") {
  Board b;
  // every path, every space: the same tiles as game:tile (false where it answers nil)
  CHECK(b.eval("local out = {} for k = 1, 5 do local t = game:track_tiles(k, {}) for s = 1, 9 do"
               " if t[s] ~= (game:tile(k, s) or false) then out[#out + 1] = k .. ':' .. s end end end"
               " return #out == 0 and 'same' or table.concat(out, ' ')") == "same");
  // the yellow path's tile spaces are 2, 3, 5, 6, 7 (ruleset.toml): tiles there, none on 1, 4, 8, 9
  CHECK(b.eval("local t = game:track_tiles('path.yellow', {}) local out = {} for s = 1, 9 do"
               " out[s] = t[s] and 'T' or '.' end return table.concat(out)") == ".TT.TTT..");
  // a range fills only its spaces
  CHECK(b.eval("local t = game:track_tiles(1, {'a', 'b', 'c', 'd'}, 2, 3)"
               " return tostring(t[1]) .. ' ' .. tostring(t[2] == game:tile(1, 2)) .. ' ' .. tostring(t[4])") ==
        "a true d");
  CHECK_THROWS_WITH(b.eval("return game:track_tiles(1, {}, 0, 3)"), Catch::Contains("not within 1..9"));
  CHECK_THROWS_WITH(b.eval("return game:track_tiles(1, {}, 2, 10)"), Catch::Contains("not within 1..9"));
  CHECK_THROWS_WITH(b.eval("return game:track_tiles(6, {})"), Catch::Contains("no track number 6"));
}
