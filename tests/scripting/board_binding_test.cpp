// board_binding_test.cpp — the Lua API of lattice boards (docs/boards.md), on the tiny-board fixture
// (tests/fixtures/tiny-board): declarations, reads in any hook, writes in apply, 1-based ids and texts,
// type-checked arguments with errors naming the board and the text, observations.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "probe.hpp"
#include "rules.hpp"

using Catch::Contains;
namespace fs = std::filesystem;

namespace {

std::string tiny_board() { return std::string(HOUSERULES_TEST_DIR) + "/fixtures/tiny-board"; }

/// A copy of tiny-board in a fresh temporary folder with `replaced` replaced by `edit` in rules.lua.
class EditedBoard {
 public:
  EditedBoard(const std::string& name, const std::string& replaced, const std::string& edit)
      : dir_(fs::temp_directory_path() / ("hr-board-test-" + std::to_string(::getpid())) / name) {
    fs::remove_all(dir_);
    fs::create_directories(dir_.parent_path());
    fs::copy(tiny_board(), dir_, fs::copy_options::recursive);
    std::ifstream in(dir_ / "rules.lua");
    std::stringstream text;
    text << in.rdbuf();
    std::string source = text.str();
    const auto at = source.find(replaced);
    REQUIRE(at != std::string::npos);
    source.replace(at, replaced.size(), edit);
    in.close();
    std::ofstream(dir_ / "rules.lua", std::ios::trunc) << source;
  }
  ~EditedBoard() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path() const { return dir_.string(); }

 private:
  fs::path dir_;
};

/// The tiny-board rules and a new game; eval runs Lua in the read-only `explain` hook with the game as `...`.
struct Board {
  explicit Board(const std::string& path = tiny_board())
      : rules(hr::load_rules(path, scripting_test::quick_options())), state(rules->new_game(1)) {}
  std::string eval(const std::string& code) { return rules->explain_illegal(state, "local game = ... " + code); }
  std::string eval_on(const hr::GameState& s, const std::string& code) { return rules->explain_illegal(s, "local game = ... " + code); }
  std::unique_ptr<hr::ScriptedRules> rules;
  hr::GameState state;
};

std::string load_error(const std::string& path) {
  try {
    hr::load_rules(path, scripting_test::quick_options());
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(loaded)";
}

}  // namespace

TEST_CASE("declare{boards, shapes}: geometry, ids and texts in Lua are 1-based", "[binding][board]") {
  Board b;
  const hr::Layout& layout = b.rules->layout();
  REQUIRE(layout.boards.size() == 1);
  CHECK(layout.boards[0].lattice.faces() == 24);
  CHECK(layout.shapes.size() == 2);
  CHECK(layout.components[0].shape == layout.shape_index("rhombus"));
  CHECK(b.eval("return table.concat({game:board_size('valley')}, ' ')") == "triangular 4 3 24 43 20");
  CHECK(b.eval("return table.concat({game:board_size(1)}, ' ')") == "triangular 4 3 24 43 20");
  CHECK(b.eval("return game:vertex('valley', '1,1')") == "7");
  CHECK(b.eval("return game:vertex('valley', 1, 1)") == "7");
  CHECK(b.eval("return tostring(game:vertex('valley', '9,9'))") == "nil");
  CHECK(b.eval("return game:face('valley', '0,0d')") == "2");
  CHECK(b.eval("return game:face('valley', 0, 0, 'd')") == "2");
  CHECK(b.eval("return game:edge_text('valley', game:edge('valley', '1,0-0,0'))") == "0,0-1,0");
  CHECK(b.eval("return game:vertex_text('valley', 7) .. ' ' .. game:face_text('valley', 2)") == "1,1 0,0d");
  CHECK(b.eval("local q, r, x, y = game:vertex_coord('valley', '1,2') return q .. ' ' .. r .. ' ' .. x .. ' ' .. string.format('%.3f', y)") ==
        "1 2 2.0 1.732");
  CHECK(b.eval("return table.concat(game:face_vertices('valley', '0,0d'), ',')") == "2,7,6");
  CHECK(b.eval("return #game:vertex_edges('valley', '1,1') .. ' ' .. #game:vertex_faces('valley', '1,1')") == "6 6");
  CHECK(b.eval("local e = game:edge('valley', '1,0-0,1') return game:neighbour('valley', '0,0u', e) .. ' ' .. #game:edge_faces('valley', e)") == "2 2");
  CHECK(b.eval("return game:edge_between('valley', 1, 2) .. ' ' .. tostring(game:edge_between('valley', 1, 3))") == "1 nil");
}

TEST_CASE("tiles, features, classes, lying tokens, marks and figures read from Lua", "[binding][board]") {
  Board b;
  // the start tile at 0,0 r0; RIVER = 2 on its sides 0,0-1,0 and 0,1-1,1, STORE = 4 at its corner 0,0
  CHECK(b.eval("return table.concat({game:tile_at('valley', '0,0u')}, ' ')") == "1 0 1");
  CHECK(b.eval("return tostring(game:tile_at('valley', '1,0u'))") == "nil");
  CHECK(b.eval("local f = game:tile_faces('valley', '0,0d') return game:face_text('valley', f[1]) .. ' ' .. game:face_text('valley', f[2]) .. ' ' .. #f") ==
        "0,0d 0,0u 2");  // the face asked for first, then the rest of the start tile
  CHECK(b.eval("return #game:tile_faces('valley', '1,0u')") == "0");
  CHECK(b.eval("return game:edge_feature('valley', '0,0-1,0') .. game:edge_feature('valley', '0,1-1,1') .. game:edge_feature('valley', '0,0-0,1')") == "220");
  CHECK(b.eval("local a, c = game:edge_sides('valley', '0,1-1,1') return tostring(a) .. ' ' .. tostring(c)") == "2 nil");
  CHECK(b.eval("return game:vertex_feature('valley', '0,0') .. game:vertex_feature('valley', '1,0')") == "40");
  CHECK(b.eval("return game:face_feature('valley', '0,0u')") == "0");
  CHECK(b.eval("return game:edge_class('valley', '1,0-0,1') .. ' ' .. game:edge_class('valley', '0,0-1,0') .. ' ' .. game:edge_class('valley', '1,0-1,1')") ==
        "1 12 4");
  // gold 1 (component 6) face down on 0,0u, gold 2 and 3 on 0,0d
  CHECK(b.eval("local l, n = game:lying('valley', 'face', '0,0d') return n .. ':' .. table.concat(l, ',')") == "2:7,8");
  CHECK(b.eval("return table.concat({game:site_of(6)}, ' ')") == "1 face 1");
  CHECK(b.eval("return table.concat({game:site_of(1)}, ' ')") == "1 tile 1 0");
  CHECK(b.eval("return tostring(game:site_of(2))") == "nil");
  CHECK(b.eval("return game:mark('valley', 'explored', '0,0') .. game:mark('valley', 'explored', 2)") == "10");
  CHECK(b.eval("return table.concat({game:figure(1)}, ' ')") == "1 vertex 1");
  CHECK(b.eval("return table.concat(game:figures_on('valley', 'vertex', '1,0'), ',')") == "2");
  // an observation: face-down tokens read 0, their site is unknown
  const hr::GameState view = b.state.observation(2);
  CHECK(b.eval_on(view, "local l, n = game:lying('valley', 'face', '0,0d') return n .. ':' .. table.concat(l, ',')") == "2:0,0");
  CHECK(b.eval_on(view, "return tostring(game:site_of(7))") == "nil");
}

TEST_CASE("reachable, path and placements from Lua", "[binding][board]") {
  Board b;
  // from 0,0 along the edges of laid tiles (COVERED1 | COVERED2, not INNER): 1,0 (id 2) and 0,1 (id 6)
  CHECK(b.eval("local v, d, n = game:reachable('valley', '0,0', 3, { class_any = 6, class_none = 1 }) "
               "return n .. ':' .. table.concat(v, ',') .. ':' .. table.concat(d, ',')") == "3:2,6,7:1,1,2");
  CHECK(b.eval("local v, d, n = game:reachable('valley', '0,0', 1, { feature_any = 2 }) return n .. ':' .. table.concat(v, ',')") == "1:2");
  CHECK(b.eval("local v, d, n = game:reachable('valley', '0,0', 1) return n") == "2");
  CHECK(b.eval("local into, dist = {}, {} local v, d, n = game:reachable('valley', 1, 1, {}, into, dist) return tostring(v == into and d == dist) .. n") == "true2");
  CHECK(b.eval("return table.concat(game:path('valley', '0,0', '1,1', 3, { class_any = 6, class_none = 1 }), ',')") == "1,2,7");
  // through: only explored vertices (mark 'explored' = 1: the start 0,0 alone) are passed through
  CHECK(b.eval("local v, d, n = game:reachable('valley', '0,0', 3, { class_any = 6, class_none = 1, through = 'explored', through_any = 1 }) "
               "return n .. ':' .. table.concat(v, ',')") == "2:2,6");
  CHECK_THROWS_WITH(b.eval("return game:reachable('valley', 1, 2, { through = 'canal', through_any = 1 })"), Contains("through mark 'canal' of board 'valley' is not a vertex mark"));
  CHECK_THROWS_WITH(b.eval("return game:reachable('valley', 1, 2, { through_any = 1 })"), Contains("need through"));
  CHECK(b.eval("return tostring(game:path('valley', '0,0', '4,3', 3, { class_any = 6 }))") == "nil");
  // placements of a forest (component 2): the same as the kernel's
  std::vector<std::int32_t> kernel;
  b.state.placements(1, 0, kernel);
  CHECK(b.eval("local p, n = game:placements('valley', 2) return n") == std::to_string(kernel.size()));
  CHECK(b.eval("local p = game:placements('valley', 2) return p[1]") == std::to_string(kernel[0] + 1));
  CHECK(b.eval("return game:placement('valley', '1,0 r0') .. ' ' .. game:placement('valley', '1,0', 0) .. ' ' .. game:placement_text('valley', 7)") ==
        "7 7 1,0 r0");
  CHECK(b.eval("return table.concat({game:placement_anchor('valley', '1,0 r2')}, ' ')") == "2 2");
  CHECK(b.eval("return table.concat(game:placement_faces('valley', 2, '1,0 r0'), ',')") == "3,4");
  CHECK(b.eval("local f, why = game:placement_faces('valley', 2, '0,0 r3') return tostring(f) .. ' ' .. why") ==
        "nil tile 'forest' at 0,0 r3: face -1,-1d is off board 'valley'");
  // the sides of forest at 1,0 r0: one touches the start tile (edge 1,0-1,1, the start's side there is 0)
  CHECK(b.eval("local n, across = 0, '' for _, s in ipairs(game:placement_sides('valley', 2, '1,0 r0')) do n = n + 1 "
               "if s.across_tile then across = across .. game:edge_text('valley', s.edge) .. '=' .. s.across .. '/' .. s.across_tile end end "
               "return n .. ' ' .. across") == "4 1,0-1,1=0/1");
}

TEST_CASE("reachable's class_in, through_covered and allow", "[binding][board]") {
  // The start rhombus covers 0,0u and 0,0d: its sides on the rim 0,0-1,0 and 0,0-0,1 are class 12 (COVERED1 |
  // OFFBOARD), its other sides 1,0-1,1 and 0,1-1,1 class 4 (the border of the placed area), its inner side 1,0-0,1
  // class 1. Vertex ids: 0,0 = 1, 1,0 = 2, 2,0 = 3, 0,1 = 6, 1,1 = 7.
  Board b;
  const auto walk = [&](const std::string& from, int k, const std::string& filter) {
    return b.eval("local v, d, n = game:reachable('valley', '" + from + "', " + std::to_string(k) + ", " + filter +
                  ") return n .. ':' .. table.concat(v, ',') .. ':' .. table.concat(d, ',')");
  };
  // class_in: exact classes. { 12 }: a tile's sides on the rim, not the border inside the board (class_none = 4
  // would refuse both: it tests bits)
  CHECK(walk("1,0", 3, "{ class_in = { 12 } }") == "2:1,6:1,2");
  CHECK(walk("1,0", 3, "{ class_in = { 4, 12 } }") == "3:1,7,6:1,1,2");
  // allow: the inner side passes whatever class_in says: 0,1 is one side away
  CHECK(walk("1,0", 3, "{ class_in = { 12 }, allow = { '1,0-0,1' } }") == "2:1,6:1,1");
  CHECK(walk("1,0", 3, "{ class_in = { 12 }, allow = { game:edge('valley', '1,0-0,1'), '1,0-0,1' } }") == "2:1,6:1,1");
  CHECK(b.eval("return table.concat(game:path('valley', '1,0', '0,1', 3, { class_in = { 12 } }), ',')") == "2,1,6");
  CHECK(b.eval("return table.concat(game:path('valley', '1,0', '0,1', 3, { class_in = { 12 }, allow = { '1,0-0,1' } }), ',')") == "2,6");
  // through_covered: a move goes on only from a vertex whose faces are all covered (0,0: its one face is the
  // start's), so from 1,0 only its four neighbours are reached; without it, the whole board within 2 sides
  CHECK(walk("1,0", 3, "{ through_covered = true }") == "4:1,3,6,7:1,1,1,1");
  CHECK(walk("1,0", 2, "{ through_covered = false }") == walk("1,0", 2, "{}"));
  CHECK(walk("1,0", 2, "{}").substr(0, 2) != "4:");
  CHECK(b.eval("return tostring(game:path('valley', '1,0', '2,1', 3, { through_covered = true }))") == "nil");
  // the kernel's own keys still apply with them: a vertex mark, an edge class
  CHECK(walk("0,0", 3, "{ class_in = { 2, 4, 12 }, through = 'explored', through_any = 1 }") == "2:2,6:1,1");
  CHECK_THROWS_WITH(walk("1,0", 1, "{ class_in = { 16 } }"), Contains("class_in must be a list of edge classes 0..15"));
  CHECK_THROWS_WITH(walk("1,0", 1, "{ class_in = 4 }"), Contains("class_in must be a list of edge classes 0..15"));
  CHECK_THROWS_WITH(walk("1,0", 1, "{ class_in = {} }"), Contains("class_in lists no class"));
  CHECK_THROWS_WITH(walk("1,0", 1, "{ through_covered = 1 }"), Contains("through_covered must be true or false"));
  CHECK_THROWS_WITH(walk("1,0", 1, "{ allow = { '9,9-9,10' } }"), Contains("allow: edge 9,9-9,10 is not on board 'valley'"));
  CHECK_THROWS_WITH(walk("1,0", 1, "{ allow = { 0 } }"), Contains("allow[1] is not an edge of board 'valley'"));
  CHECK_THROWS_WITH(walk("1,0", 1, "{ allow = '1,0-0,1' }"), Contains("allow must be a list of edges"));
}

TEST_CASE("board arguments are type-checked; errors name the board and the text", "[binding][board]") {
  Board b;
  CHECK_THROWS_WITH(b.eval("return game:vertex('nowhere', '1,1')"), Contains("unknown board 'nowhere'"));
  CHECK_THROWS_WITH(b.eval("return game:vertex(2, '1,1')"), Contains("no board number 2 (the game has 1)"));
  CHECK_THROWS_WITH(b.eval("return game:vertex({}, '1,1')"), Contains("board (name or number)"));
  CHECK_THROWS_WITH(b.eval("return game:face('valley', '1,1')"), Contains("board 'valley': '1,1' is not a face of a triangular board"));
  CHECK_THROWS_WITH(b.eval("return game:face_text('valley', 99)"), Contains("board 'valley' has no face number 99 (it has 24)"));
  CHECK_THROWS_WITH(b.eval("return game:tile_at('valley', '9,9u')"), Contains("face 9,9u is not on board 'valley'"));
  CHECK_THROWS_WITH(b.eval("return game:tile_at('valley', true)"), Contains("expected a face of board 'valley'"));
  CHECK_THROWS_WITH(b.eval("return game:tile_faces('valley', '9,9u')"), Contains("face 9,9u is not on board 'valley'"));
  CHECK_THROWS_WITH(b.eval("return game:mark('valley', 'nope', 1)"), Contains("board 'valley' has no mark 'nope'"));
  CHECK_THROWS_WITH(b.eval("return game:mark('valley', 'canal', '0,0')"), Contains("'0,0' is not an edge"));
  CHECK_THROWS_WITH(b.eval("return game:lying('valley', 'cell', 1)"), Contains("'cell' is not a site kind"));
  CHECK_THROWS_WITH(b.eval("return game:reachable('valley', 1, 2, { klass = 1 })"), Contains("unknown key 'klass'"));
  CHECK_THROWS_WITH(b.eval("return game:reachable('valley', 1, 2, { mark = 'explored', mark_none = 1 })"), Contains("not an edge mark"));
  CHECK_THROWS_WITH(b.eval("return game:reachable('valley', 1, 2, { mark_none = 1 })"), Contains("need mark"));
  CHECK_THROWS_WITH(b.eval("return game:reachable('valley', 1, 2, { class_any = 1.5 })"), Contains("class_any must be an integer"));
  CHECK_THROWS_WITH(b.eval("return game:placements('valley', 6)"), Contains("component 6 ('gold') is not a tile"));
  CHECK_THROWS_WITH(b.eval("return game:placement_text('valley', '1,0 r9')"), Contains("'1,0 r9' is not a placement on board 'valley'"));
  CHECK_THROWS_WITH(b.eval("return game:placement_text('valley', 9999)"), Contains("no placement number 9999"));
  CHECK_THROWS_WITH(b.eval("game:place_tile(2, 'valley', '1,0 r0')"), Contains("game:place_tile changes the game, which explain may not do"));
  CHECK_THROWS_WITH(b.eval("game:set_mark('valley', 'explored', 1, 1)"), Contains("game:set_mark changes the game"));
  CHECK_THROWS_WITH(b.eval("game:lay(6, 'valley', 'face', 1)"), Contains("game:lay changes the game"));
}

TEST_CASE("writes in apply: tiles, tokens, marks, figures; a refused write changes nothing", "[binding][board]") {
  // tricks 9001.. applied directly (Rules::apply does not check legality)
  EditedBoard edited("writes", "function rules.apply(game, action, seat)\n",
                     "local TRICKS = {\n"
                     "  [9001] = function(game) game:place_tile(2, 'valley', '0,0 r0') end,\n"
                     "  [9002] = function(game) game:place_tile(2, 'valley', '9,9 r0') end,\n"
                     "  [9003] = function(game) game:lay(6, 'valley', 'face', '1,1x') end,\n"
                     "  [9004] = function(game) game:set_mark('valley', 'explored', '1,1', 300) end,\n"
                     "  [9005] = function(game) game:move_figure(1, 'valley', 'edge', '0,0-1,0') end,\n"
                     "  [9006] = function(game)\n"
                     "    game:place_tile(2, 'valley', '2,1', 2)\n"
                     "    game:lay(6, 'valley', 'vertex', '1,0')\n"
                     "    game:lay(7, 'valley', 'edge', '0,0-1,0', true)\n"
                     "    game:set_mark('valley', 'canal', '0,0-1,0', 2)\n"
                     "    game:move_figure(2, 'valley', 'face', '1,0u')\n"
                     "  end,\n"
                     "  [9007] = function(game) game:lay(6, 'nowhere', 'face', 1) end,\n"
                     "  [9008] = function(game) game:place_tile(6, 'valley', '1,0 r0') end,\n"
                     "}\n"
                     "function rules.apply(game, action, seat)\n"
                     "  if TRICKS[action] then return TRICKS[action](game) end\n");
  Board b(edited.path());
  const hr::GameState before = b.state;
  auto refused = [&](hr::Action action, const std::string& message) {
    CHECK_THROWS_WITH(b.rules->apply(b.state, action), Contains(message));
    CHECK(b.state == before);
  };
  refused(9001, "tile 'forest' at 0,0 r0: face 0,0u of board 'valley' already holds tile 'start'");
  refused(9002, "vertex 9,9 is not on board 'valley'");
  refused(9003, "'1,1x' is not a face of a triangular board");
  refused(9004, "mark 'explored' of board 'valley' holds 0..255, not 300");
  refused(9005, "not on an edge");
  refused(9007, "unknown board 'nowhere'");
  refused(9008, "component 6 ('gold') is not a tile");
  b.rules->apply(b.state, 9006);
  const hr::Lattice& l = b.rules->layout().boards[0].lattice;
  CHECK(b.state.tile_on(0, l.face("0,0d")) == 0);  // the start tile stays
  const hr::Place p = b.state.place_of(1);
  CHECK(p.site_kind == hr::SiteKind::Tile);
  CHECK(p.site == l.vertex("2,1"));
  CHECK(b.state.tile_on(0, l.face("1,1u")) == 1);
  CHECK(b.state.tile_on(0, l.face("0,1d")) == 1);
  CHECK(p.rotation == 2);
  CHECK(b.state.lying(0, hr::SiteKind::Vertex, l.vertex("1,0")).size() == 1);
  CHECK(b.state.lying(0, hr::SiteKind::Edge, l.edge("0,0-1,0"))[0] == 6);
  CHECK(b.state.seen_by(6) == 0);
  CHECK(b.state.seen_by(5) == 0b11);
  CHECK(b.state.mark(0, b.rules->layout().boards[0].mark_index("canal"), l.edge("0,0-1,0")) == 2);
  CHECK(b.state.figure_place(1).on_board());
  CHECK(b.state.figure_place(1).kind == hr::SiteKind::Face);
  CHECK(b.state.check_invariants() == "");
  CHECK(b.state.digest() != before.digest());
}

TEST_CASE("declare errors for boards, shapes and tile features name what is wrong", "[binding][board]") {
  {
    EditedBoard e("kind", "kind = \"triangular\"", "kind = \"hexagonal\"");
    CHECK_THAT(load_error(e.path()), Contains("board 'valley': unknown board kind 'hexagonal' (expected triangular or square)"));
  }
  {
    EditedBoard e("size", "width = P.width", "width = 0");
    CHECK_THAT(load_error(e.path()), Contains("a board is 1 to 255 cells wide and high"));
  }
  {
    EditedBoard e("mark", "explored = \"vertex\"", "explored = \"corner\"");
    CHECK_THAT(load_error(e.path()), Contains("marks must map names to \"face\", \"edge\" or \"vertex\""));
  }
  {
    EditedBoard e("shape", "{ name = \"pond\", shape = \"triangle\"", "{ name = \"pond\", shape = \"hexagon\"");
    CHECK_THAT(load_error(e.path()), Contains("('pond'): unknown shape 'hexagon'"));
  }
  {
    EditedBoard e("shape-face", "triangle = { \"0,0u\" }", "triangle = { \"0,0x\" }");
    CHECK_THAT(load_error(e.path()), Contains("shape 'triangle': entry 1 is not a face"));
  }
  {
    EditedBoard e("mixed", "triangle = { \"0,0u\" }", "triangle = { \"0,0u\", \"1,0\" }");
    CHECK_THAT(load_error(e.path()), Contains("shape 'triangle' mixes triangular faces"));
  }
  {
    EditedBoard e("side", "sides = { [\"0,0-1,0\"] = RIVER, [\"0,1-1,1\"] = RIVER }, corners",
                  "sides = { [\"0,0-1,0\"] = RIVER, [\"0,2-1,2\"] = RIVER }, corners");
    CHECK_THAT(load_error(e.path()), Contains("tile 'start': side 0,2-1,2 is not part of its shape 'rhombus'"));
  }
  {
    EditedBoard e("feature", "faces = { [\"0,0u\"] = 0 }", "faces = { [\"0,0u\"] = 70000 }");
    CHECK_THAT(load_error(e.path()), Contains("faces[\"0,0u\"] must be an integer 0..65535"));
  }
  {
    EditedBoard e("corner", "corners = { [\"1,0\"] = STORE }", "corners = { [\"2,0\"] = STORE }");
    CHECK_THAT(load_error(e.path()), Contains("tile 'pond': corner 2,0 is not part of its shape 'triangle'"));
  }
  {
    EditedBoard e("holds", "{ name = \"bag.1\", owner = 1,", "{ name = \"bag.1\", holds = 3, owner = 1,");
    CHECK_THAT(load_error(e.path()), Contains("zone 'bag.1': holds must be the name of a component attribute (a string)"));
  }
}

TEST_CASE("declare: a zone that holds only some components keeps the attribute's name", "[binding][board]") {
  EditedBoard e("holds-ok", "{ name = \"bag.1\", owner = 1,", "{ name = \"bag.1\", holds = \"token\", owner = 1,");
  const Board b(e.path());
  const hr::Layout& layout = b.rules->layout();
  CHECK(layout.zones[layout.zone_id("bag.1")].holds == "token");
  CHECK(layout.zones[layout.zone_id("bag.2")].holds == "");
}
