// board_digest_binding_test.cpp — game:board_digest (engine/board_digest.cpp, docs/boards.md "Digest of a board"),
// on the tiny-board fixture (tests/fixtures/tiny-board: the start tile at 0,0, gold tokens face down on its faces,
// two prospectors, marks explored/canal/course): the same map gives the same integer, whatever else differs and
// whichever face-down tokens lie where; a tile, an anchor or rotation, a mark, a token more, the order at a site or a face-up
// token's identity changes it; an observation has the state's digest; a bad board is an error naming it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "probe.hpp"
#include "rules.hpp"

using Catch::Contains;

namespace {

constexpr int kValley = 0;                 // the board (0-based in C++)
constexpr hr::ComponentId kForest = 1;      // a forest rhombus (Lua 2)
constexpr hr::ComponentId kGold[] = {5, 6, 7};  // gold 1, 2, 3 (Lua 6, 7, 8)

struct Tiny {
  Tiny()
      : rules(hr::load_rules(std::string(HOUSERULES_TEST_DIR) + "/fixtures/tiny-board", scripting_test::quick_options())),
        state(rules->new_game(1)) {}
  /// game:board_digest('valley') read by Lua in state s (a read-only hook), as text.
  std::string digest(const hr::GameState& s) { return rules->explain_illegal(s, "local game = ... return tostring(game:board_digest('valley'))"); }
  int face(const char* text) { return rules->layout().boards[kValley].lattice.face(text); }
  int vertex(const char* text) { return rules->layout().boards[kValley].lattice.vertex(text); }
  int mark(const char* name) { return rules->layout().boards[kValley].mark_index(name); }
  std::unique_ptr<hr::ScriptedRules> rules;
  hr::GameState state;
};

}  // namespace

TEST_CASE("game:board_digest is the kernel's digest of the map, the same for the same map", "[binding][board][digest]") {
  Tiny t;
  const std::string d = t.digest(t.state);
  CHECK(d == std::to_string(static_cast<long long>(t.state.board_digest(kValley))));
  CHECK(t.rules->explain_illegal(t.state, "local game = ... return tostring(game:board_digest(1) == game:board_digest('valley'))") == "true");
  hr::GameState same = t.state;
  CHECK(t.digest(same) == d);
  // what is not the map: figures, whose turn, zones
  same.move_figure_to_site(0, kValley, hr::SiteKind::Vertex, t.vertex("1,1"));
  same.set_to_move(2);
  same.move(kForest, t.rules->layout().zone_id("bag.1"));
  CHECK(t.digest(same) == d);
  // the map as a seat sees it: the face-down tokens are unknown there, and present
  CHECK(t.digest(t.state.observation(1)) == d);
  CHECK(t.digest(t.state.observation(2)) == d);
}

TEST_CASE("game:board_digest changes with a tile, an anchor, a mark and what lies at a site", "[binding][board][digest]") {
  Tiny t;
  const std::string d = t.digest(t.state);
  hr::GameState s = t.state;
  s.set_mark(kValley, t.mark("canal"), 0, 1);
  CHECK(t.digest(s) != d);
  s.set_mark(kValley, t.mark("canal"), 0, 0);
  CHECK(t.digest(s) == d);  // back as it was: the same map again
  s.set_mark(kValley, t.mark("explored"), t.vertex("2,1"), 1);
  CHECK(t.digest(s) != d);

  s = t.state;
  s.place_tile_on(kForest, kValley, t.vertex("1,0"), 0);
  const std::string laid = t.digest(s);
  CHECK(laid != d);
  s.place_tile_on(kForest, kValley, t.vertex("2,0"), 0);  // the same tile elsewhere
  CHECK(t.digest(s) != laid);
  CHECK(t.digest(s) != d);
  // the same tile on the same two faces, anchored at the rhombus's other end and turned half a turn
  s.place_tile_on(kForest, kValley, t.vertex("2,1"), 3);
  REQUIRE(s.tile_on(kValley, t.face("1,0u")) == kForest);
  REQUIRE(s.tile_on(kValley, t.face("1,0d")) == kForest);
  CHECK(t.digest(s) != laid);

  s = t.state;
  s.lay(kGold[0], kValley, hr::SiteKind::Face, t.face("0,0d"), true);  // a token moved to another face
  CHECK(t.digest(s) != d);
  s = t.state;
  s.move(kGold[2], t.rules->layout().zone_id("bag.2"));  // a token taken
  CHECK(t.digest(s) != d);
}

TEST_CASE("game:board_digest tells face-up tokens apart, never face-down ones", "[binding][board][digest]") {
  Tiny t;
  const int u = t.face("0,0u"), dn = t.face("0,0d");
  // face down: gold 1 on 0,0u and gold 2, 3 on 0,0d (the fixture), or gold 3 on 0,0u and gold 2, 1 on 0,0d
  hr::GameState a = t.state, b = t.state;
  b.lay(kGold[2], kValley, hr::SiteKind::Face, u, true);
  b.lay(kGold[0], kValley, hr::SiteKind::Face, dn, true);
  REQUIRE(b.lying(kValley, hr::SiteKind::Face, u).size() == 1);
  REQUIRE(b.lying(kValley, hr::SiteKind::Face, dn).size() == 2);
  CHECK(t.digest(a) == t.digest(b));
  // the same places face up: every seat sees which token lies where
  for (hr::GameState* s : {&a, &b})
    for (const int f : {u, dn})
      for (const hr::ComponentId c : std::vector<hr::ComponentId>(s->lying(kValley, hr::SiteKind::Face, f).begin(),
                                                                   s->lying(kValley, hr::SiteKind::Face, f).end()))
        s->lay(c, kValley, hr::SiteKind::Face, f, false);
  CHECK(t.digest(a) != t.digest(b));
  // face up, the order at a site counts too: gold 2 under gold 3 on 0,0d, or over it
  hr::GameState c = a;
  c.lay(kGold[1], kValley, hr::SiteKind::Face, dn, false);
  CHECK(t.digest(c) != t.digest(a));
}

TEST_CASE("game:board_digest names a bad board", "[binding][board][digest]") {
  Tiny t;
  CHECK_THROWS_WITH(t.rules->explain_illegal(t.state, "local game = ... return game:board_digest('lake')"), Contains("unknown board 'lake'"));
  CHECK_THROWS_WITH(t.rules->explain_illegal(t.state, "local game = ... return game:board_digest(2)"), Contains("no board number 2"));
  CHECK_THROWS_WITH(t.state.board_digest(1), Contains("no board number 2"));
}
