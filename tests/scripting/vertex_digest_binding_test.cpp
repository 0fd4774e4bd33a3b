// vertex_digest_binding_test.cpp — game:vertex_digest (engine/vertex_digest.cpp, docs/boards.md "Digest around a
// vertex"), on the tiny-board fixture (tests/fixtures/tiny-board: the start rhombus at 0,0 over faces 0,0u and 0,0d,
// gold tokens face down on them, marks explored (vertex) / canal (edge) / course (face)): around a corner of the start
// tile it changes with a token taken from any face of the tile, a mark on any face or side of the tile, a face-up
// token's identity, and not with a vertex mark, a tile laid that does not touch it, a face-down token's identity,
// figures, zones or the turn; at a vertex no tile touches, nothing done to the start tile changes it; an observation has the state's
// digest; a bad board or vertex is an error naming it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "probe.hpp"
#include "rules.hpp"

using Catch::Contains;

namespace {

constexpr int kValley = 0;                      // the board (0-based in C++)
constexpr hr::ComponentId kForest = 1;          // a forest rhombus (Lua 2)
constexpr hr::ComponentId kGold[] = {5, 6, 7};  // gold 1, 2, 3 (Lua 6, 7, 8)

struct Tiny {
  Tiny()
      : rules(hr::load_rules(std::string(HOUSERULES_TEST_DIR) + "/fixtures/tiny-board", scripting_test::quick_options())),
        state(rules->new_game(1)) {}
  /// game:vertex_digest('valley', v) read by Lua in state s (a read-only hook), v in text form, as text.
  std::string digest(const hr::GameState& s, const char* v) {
    return rules->explain_illegal(s, std::string("local game = ... return tostring(game:vertex_digest('valley', '") + v + "'))");
  }
  int face(const char* text) { return rules->layout().boards[kValley].lattice.face(text); }
  int edge(const char* text) { return rules->layout().boards[kValley].lattice.edge(text); }
  int vertex(const char* text) { return rules->layout().boards[kValley].lattice.vertex(text); }
  int mark(const char* name) { return rules->layout().boards[kValley].mark_index(name); }
  std::unique_ptr<hr::ScriptedRules> rules;
  hr::GameState state;
};

}  // namespace

TEST_CASE("game:vertex_digest is the kernel's digest around a vertex, the same for the same surroundings", "[binding][board][digest]") {
  Tiny t;
  const std::string d = t.digest(t.state, "0,0");
  CHECK(d == std::to_string(static_cast<long long>(t.state.vertex_digest(kValley, t.vertex("0,0")))));
  CHECK(t.rules->explain_illegal(t.state, "local game = ... return tostring(game:vertex_digest(1, game:vertex(1, '0,0')) == game:vertex_digest('valley', '0,0'))") == "true");
  CHECK(t.digest(t.state, "1,1") != d);  // another corner of the same tile: another vertex
  hr::GameState same = t.state;
  same.move_figure_to_site(0, kValley, hr::SiteKind::Vertex, t.vertex("1,1"));
  same.set_to_move(2);
  same.move(kForest, t.rules->layout().zone_id("bag.1"));
  CHECK(t.digest(same, "0,0") == d);
  CHECK(t.digest(t.state.observation(1), "0,0") == d);
  CHECK(t.digest(t.state.observation(2), "0,0") == d);
}

TEST_CASE("game:vertex_digest changes with what the tiles touching the vertex show, and only with that", "[binding][board][digest]") {
  Tiny t;
  const char* corner = "0,0";  // a corner of the start tile
  const char* far = "4,3";     // no tile touches it
  const std::string d = t.digest(t.state, corner), f = t.digest(t.state, far);
  auto changed_here_only = [&](const hr::GameState& s) {
    CHECK(t.digest(s, corner) != d);
    CHECK(t.digest(s, far) == f);
  };
  hr::GameState s = t.state;
  s.set_mark(kValley, t.mark("canal"), t.edge("0,1-1,1"), 1);  // a side of the start tile away from 0,0
  changed_here_only(s);
  s.set_mark(kValley, t.mark("canal"), t.edge("0,1-1,1"), 0);
  CHECK(t.digest(s, corner) == d);  // back as it was
  s = t.state;
  s.set_mark(kValley, t.mark("explored"), t.vertex("1,1"), 1);  // a vertex mark: not in the digest
  CHECK(t.digest(s, corner) == d);
  s = t.state;
  s.set_mark(kValley, t.mark("course"), t.face("0,0d"), 1);
  changed_here_only(s);
  s = t.state;
  s.move(kGold[2], t.rules->layout().zone_id("bag.2"));  // a token taken from the tile
  changed_here_only(s);
  s = t.state;
  s.lay(kGold[0], kValley, hr::SiteKind::Face, t.face("0,0d"), true);  // a token moved to the tile's other face
  changed_here_only(s);
  // a tile laid next to the start tile touches 1,0 and 1,1, not 0,0 nor 4,3
  s = t.state;
  s.place_tile_on(kForest, kValley, t.vertex("1,0"), 0);
  CHECK(t.digest(s, corner) == d);
  CHECK(t.digest(s, far) == f);
  CHECK(t.digest(s, "1,0") != t.digest(t.state, "1,0"));
  // a mark or a token elsewhere, far from both
  s = t.state;
  s.set_mark(kValley, t.mark("explored"), t.vertex("3,2"), 1);
  s.set_mark(kValley, t.mark("canal"), t.edge("3,2-4,2"), 1);
  s.lay(kGold[0], kValley, hr::SiteKind::Face, t.face("2,1u"), true);
  CHECK(t.digest(s, corner) != d);  // gold 1 left the start tile
  hr::GameState g = t.state;
  g.set_mark(kValley, t.mark("explored"), t.vertex("3,2"), 1);
  g.set_mark(kValley, t.mark("canal"), t.edge("3,2-4,2"), 1);
  CHECK(t.digest(g, corner) == d);
}

TEST_CASE("game:vertex_digest tells face-up tokens apart, never face-down ones", "[binding][board][digest]") {
  Tiny t;
  const int u = t.face("0,0u"), dn = t.face("0,0d");
  hr::GameState a = t.state, b = t.state;
  b.lay(kGold[2], kValley, hr::SiteKind::Face, u, true);
  b.lay(kGold[0], kValley, hr::SiteKind::Face, dn, true);
  REQUIRE(b.lying(kValley, hr::SiteKind::Face, u).size() == 1);
  REQUIRE(b.lying(kValley, hr::SiteKind::Face, dn).size() == 2);
  CHECK(t.digest(a, "0,0") == t.digest(b, "0,0"));
  for (hr::GameState* s : {&a, &b})
    for (const int f : {u, dn})
      for (const hr::ComponentId c : std::vector<hr::ComponentId>(s->lying(kValley, hr::SiteKind::Face, f).begin(),
                                                                   s->lying(kValley, hr::SiteKind::Face, f).end()))
        s->lay(c, kValley, hr::SiteKind::Face, f, false);
  CHECK(t.digest(a, "0,0") != t.digest(b, "0,0"));
}

TEST_CASE("game:vertex_digest names a bad board or vertex", "[binding][board][digest]") {
  Tiny t;
  CHECK_THROWS_WITH(t.rules->explain_illegal(t.state, "local game = ... return game:vertex_digest('lake', 1)"), Contains("unknown board 'lake'"));
  CHECK_THROWS_WITH(t.rules->explain_illegal(t.state, "local game = ... return game:vertex_digest('valley', 999)"), Contains("has no vertex number 999"));
  CHECK_THROWS_WITH(t.state.vertex_digest(1, 0), Contains("no board number 2"));
  CHECK_THROWS_WITH(t.state.vertex_digest(kValley, 999), Contains("no vertex 1000"));
}
