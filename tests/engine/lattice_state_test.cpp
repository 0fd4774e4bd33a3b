// lattice_state_test.cpp — lattice boards in hr::GameState: tiles with footprints and rotations, features,
// edge classes, placements, marks, lying components, board figures; copies, rollback, digest, invariants,
// observations and determinizations with face-down tokens.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "state.hpp"

using namespace hr;

namespace {

constexpr ZoneId kBag = 0, kHand1 = 1;
// components: 0 start (rhombus), 1 forest (rhombus), 2 forest, 3 pond (triangle), 4..7 tokens, 8 domino
constexpr ComponentId kStart = 0, kForest = 1, kForest2 = 2, kPond = 3, kToken = 4, kDomino = 8;

FaceCoord local_face(const char* text) { return *parse_local_face(text); }

/// Two seats, a hidden bag and seat 1's hand; a 5x5 triangular board "valley" (marks explored/vertex,
/// canal/edge) and a 3x3 square board "yard"; shapes rhombus, triangle, domino; two figures.
Layout make_layout() {
  Layout l;
  l.seats = 2;
  l.zones = {{"bag", {}, Visibility::Hidden}, {"hand.1", {Owner::Kind::Seat, 1}, Visibility::Owner}};
  l.boards.push_back({"valley", Lattice(LatticeKind::Triangular, 5, 5), {{"explored", SiteKind::Vertex}, {"canal", SiteKind::Edge}}, {}});
  l.boards.push_back({"yard", Lattice(LatticeKind::Square, 3, 3), {}, {}});
  l.shapes = {{"rhombus", {local_face("0,0u"), local_face("0,0d")}}, {"triangle", {local_face("0,0u")}},
              {"domino", {local_face("0,0"), local_face("1,0")}}};
  Component start{"start", {}};
  start.shape = 0;
  start.features.faces = {{local_face("0,0u"), 1}, {local_face("0,0d"), 2}};
  start.features.sides = {{make_edge({0, 0}, {1, 0}), 4}, {make_edge({1, 0}, {0, 1}), 16}};
  start.features.corners = {{{1, 0}, 8}};
  l.components.push_back(start);
  Component forest{"forest", {}};
  forest.shape = 0;
  forest.features.faces = {{local_face("0,0u"), 32}, {local_face("0,0d"), 32}};
  forest.features.sides = {{make_edge({0, 1}, {1, 1}), 4}};
  l.components.push_back(forest);
  l.components.push_back(forest);
  Component pond{"pond", {}};
  pond.shape = 1;
  l.components.push_back(pond);
  for (int i = 0; i < 4; ++i) l.components.push_back({"token" + std::to_string(i), {}});
  Component domino{"domino", {}};
  domino.shape = 2;
  l.components.push_back(domino);
  l.figures = {{"prospector", 1}, {"prospector", 2}};
  l.finalize();
  return l;
}

const Layout& layout() {
  static const Layout l = make_layout();
  return l;
}

int V(const char* text) { return layout().boards[0].lattice.vertex(text); }
int F(const char* text) { return layout().boards[0].lattice.face(text); }
int E(const char* text) { return layout().boards[0].lattice.edge(text); }

}  // namespace

TEST_CASE("a tile covers its rotated footprint; features follow the rotation", "[lattice][state]") {
  GameState s(layout(), 1);
  s.place_tile_on(kStart, 0, V("2,2"), 1);  // 60° about 2,2: 0,0u -> 1,2d, 0,0d -> 1,3u
  CHECK(s.tile_on(0, F("1,2d")) == kStart);
  CHECK(s.tile_on(0, F("1,3u")) == kStart);
  int covered = 0;
  for (int f = 0; f < layout().boards[0].lattice.faces(); ++f) covered += s.tile_on(0, f) != kNoComponent;
  CHECK(covered == 2);
  CHECK(s.face_feature(0, F("1,2d")) == 1);
  CHECK(s.face_feature(0, F("1,3u")) == 2);
  CHECK(s.face_feature(0, F("2,2u")) == 0);
  CHECK(s.edge_feature(0, E("2,2-2,3")) == 4);     // local side 0,0-1,0 turned to 0,0-0,1
  CHECK(s.edge_feature(0, E("2,3-1,3")) == 16);    // the inner side 1,0-0,1 turned to 0,1--1,1: a side may be inner
  CHECK(s.edge_class(0, E("2,3-1,3")) == kEdgeInner);
  CHECK(s.edge_class(0, E("2,2-2,3")) == kEdgeCovered1);
  CHECK(s.edge_class(0, E("0,0-1,0")) == kEdgeOffboard);
  CHECK(s.vertex_feature(0, V("2,3")) == 8);        // corner 1,0 turned to 0,1
  CHECK(s.vertex_feature(0, V("2,2")) == 0);
  const Place p = s.place_of(kStart);
  CHECK(p.site_kind == SiteKind::Tile);
  CHECK(p.site == V("2,2"));
  CHECK(p.rotation == 1);
  CHECK(s.seen_by(kStart) == 0b11);
  CHECK(s.check_invariants() == "");

  // a neighbour across the edge 2,2-2,3: both side features, separately and ORed; the class becomes COVERED2
  s.place_tile_on(kForest, 0, V("2,2"), 0);  // 2,2u and 2,2d: the side 0,1-1,1 is 2,3-3,3
  CHECK(s.edge_class(0, E("2,2-2,3")) == kEdgeCovered2);
  const auto sides = s.edge_sides(0, E("2,2-2,3"));
  CHECK(sides[0] + sides[1] == 4 + 0);
  CHECK(s.edge_feature(0, E("2,3-3,3")) == 4);
  CHECK(s.face_feature(0, F("2,2d")) == 32);
  // lifting a tile frees its faces
  s.move(kStart, kBag);
  CHECK(s.tile_on(0, F("1,2d")) == kNoComponent);
  CHECK(s.edge_class(0, E("2,2-2,3")) == kEdgeCovered1);
  CHECK(s.check_invariants() == "");
}

TEST_CASE("tile_faces: the faces of the tile covering a face, that face first; none on a free face", "[lattice][state]") {
  GameState s(layout(), 1);
  s.place_tile_on(kStart, 0, V("2,2"), 1);   // 1,2d and 1,3u
  s.place_tile_on(kForest, 0, V("2,2"), 0);  // 2,2u and 2,2d, beside the start tile across 2,2-2,3
  CHECK(s.tile_faces(0, F("1,2d")) == std::vector<std::int32_t>{F("1,2d"), F("1,3u")});
  CHECK(s.tile_faces(0, F("1,3u")) == std::vector<std::int32_t>{F("1,3u"), F("1,2d")});
  CHECK(s.tile_faces(0, F("2,2d")) == std::vector<std::int32_t>{F("2,2d"), F("2,2u")});  // not the start tile's
  CHECK(s.tile_faces(0, F("3,3u")).empty());
  CHECK_THROWS_AS(s.tile_faces(0, layout().boards[0].lattice.faces()), LayoutError);
  CHECK_THROWS_AS(s.tile_faces(2, 0), LayoutError);
}

TEST_CASE("placing on a taken or off-board face is an error naming the face, and changes nothing", "[lattice][state]") {
  GameState s(layout(), 1);
  s.place_tile_on(kStart, 0, V("0,0"), 0);
  const GameState before = s;
  CHECK_THROWS_WITH(s.place_tile_on(kForest, 0, V("0,0"), 0), Catch::Contains("face 0,0u of board 'valley' already holds tile 'start'"));
  CHECK_THROWS_WITH(s.place_tile_on(kForest, 0, V("0,0"), 3), Catch::Contains("face -1,-1d is off board 'valley'"));
  CHECK_THROWS_WITH(s.place_tile_on(kToken, 0, V("1,1"), 0), Catch::Contains("'token0' is not a tile"));
  CHECK_THROWS_WITH(s.place_tile_on(kDomino, 0, V("1,1"), 0), Catch::Contains("not made for the triangular board 'valley'"));
  CHECK_THROWS_WITH(s.place_tile_on(kForest, 0, V("1,1"), 6), Catch::Contains("rotation 6 is not one of 0..5"));
  CHECK(s == before);
  // a placed tile may be moved to another placement (its own faces count as free)
  s.place_tile_on(kStart, 0, V("1,1"), 3);
  CHECK(s.tile_on(0, F("0,0u")) == kStart);
  CHECK(s.tile_on(0, F("0,0d")) == kStart);
  CHECK(s.check_invariants() == "");
}

TEST_CASE("placements: all legal ones on an empty and on a partly filled board", "[lattice][state]") {
  GameState s(layout(), 1);
  const Lattice& l = layout().boards[0].lattice;
  std::vector<std::int32_t> out;
  // a rhombus lies on two faces across an inner edge, reached from either acute corner: 2 per inner edge
  auto free_inner_edges = [&] {
    int n = 0;
    for (int e = 0; e < l.edges(); ++e) {
      const auto faces = l.edge_faces(e);
      n += faces.size() == 2 && s.tile_on(0, faces[0]) == kNoComponent && s.tile_on(0, faces[1]) == kNoComponent;
    }
    return n;
  };
  s.placements(kForest, 0, out);
  CHECK(out.size() == 2u * (3 * 5 * 5 - 5 - 5));
  CHECK(static_cast<int>(out.size()) == 2 * free_inner_edges());
  CHECK(std::is_sorted(out.begin(), out.end()));
  s.placements(kPond, 0, out);
  CHECK(out.size() == 3u * 50);  // a triangle: each face from each of its 3 corners
  s.place_tile_on(kStart, 0, V("2,2"), 1);
  s.place_tile_on(kPond, 0, V("0,0"), 0);
  s.placements(kForest, 0, out);
  CHECK(static_cast<int>(out.size()) == 2 * free_inner_edges());
  CHECK(out.size() < 2u * 65);
  for (const int p : out) CHECK(s.placement_problem(kForest, 0, p / 6, p % 6) == "");
  // every legal placement found: compare with a brute force over all (anchor, rotation)
  int brute = 0;
  for (int v = 0; v < l.vertices(); ++v)
    for (int r = 0; r < 6; ++r) brute += s.placement_problem(kForest, 0, v, r).empty();
  CHECK(brute == static_cast<int>(out.size()));
  // square board: a domino, 2 placements per position
  s.placements(kDomino, 1, out);
  CHECK(out.size() == 2u * (2 * 3 + 3 * 2));
  CHECK(s.placement_faces(kForest, 0, V("0,0"), 3) == std::vector<std::int32_t>{-1, -1});
}

TEST_CASE("marks, lying components and board figures", "[lattice][state]") {
  GameState s(layout(), 1);
  s.set_mark(0, 0, V("4,4"), 7);
  s.set_mark(0, 1, E("0,0-1,0"), 255);
  CHECK(s.mark(0, 0, V("4,4")) == 7);
  CHECK(s.mark(0, 0, V("4,3")) == 0);
  CHECK(s.mark(0, 1, E("0,0-1,0")) == 255);
  CHECK_THROWS_WITH(s.set_mark(0, 0, V("4,4"), 256), Catch::Contains("0..255"));
  CHECK_THROWS_WITH(s.mark(0, 2, 0), Catch::Contains("no mark number 3"));
  CHECK_THROWS_WITH(s.mark(0, 0, 36), Catch::Contains("has no vertex number 37 (it has 36)"));

  s.lay(kToken, 0, SiteKind::Face, F("1,1u"));
  s.lay(kToken + 1, 0, SiteKind::Face, F("1,1u"), true);
  s.lay(kToken + 2, 0, SiteKind::Edge, E("1,1-2,1"));
  s.lay(kToken + 3, 0, SiteKind::Face, F("0,0u"));
  const auto here = s.lying(0, SiteKind::Face, F("1,1u"));
  CHECK(std::vector<ComponentId>(here.begin(), here.end()) == std::vector<ComponentId>{kToken, kToken + 1});
  CHECK(s.lying(0, SiteKind::Face, F("1,1d")).empty());
  CHECK(s.seen_by(kToken) == 0b11);
  CHECK(s.seen_by(kToken + 1) == 0);
  CHECK(s.place_of(kToken + 2).site_kind == SiteKind::Edge);
  CHECK(s.check_invariants() == "");
  // taking the bottom one closes up; moving into a zone applies the zone's grant
  s.move(kToken, kHand1);
  CHECK(s.lying(0, SiteKind::Face, F("1,1u")).size() == 1);
  CHECK(s.lying(0, SiteKind::Face, F("1,1u"))[0] == kToken + 1);
  s.move(kToken + 1, kHand1);
  CHECK(s.seen_by(kToken + 1) == 0b01);
  CHECK(s.check_invariants() == "");

  s.move_figure_to_site(0, 0, SiteKind::Vertex, V("3,3"));
  s.move_figure_to_site(1, 0, SiteKind::Face, F("3,3d"));
  CHECK(s.figures_on(0, SiteKind::Vertex, V("3,3")) == std::vector<int>{0});
  CHECK(s.figures_on(0, SiteKind::Face, F("3,3d")) == std::vector<int>{1});
  CHECK(s.figure_place(0).on_board());
  CHECK_THROWS_WITH(s.move_figure_to_site(0, 0, SiteKind::Edge, 0), Catch::Contains("not on an edge"));
  s.move_figure(0, -1, 0);
  CHECK_FALSE(s.figure_place(0).on_board());
  // gather takes everything off the boards
  s.place_tile_on(kStart, 0, V("0,0"), 0);
  s.gather(kBag);
  CHECK(s.size(kBag) == static_cast<int>(layout().components.size()));
  CHECK(s.tile_on(0, F("0,0u")) == kNoComponent);
  CHECK(s.lying(0, SiteKind::Edge, E("1,1-2,1")).empty());
  CHECK(s.check_invariants() == "");
}

TEST_CASE("board contents are copied, rolled back, compared and digested", "[lattice][state]") {
  GameState s(layout(), 1);
  std::set<std::uint64_t> digests{s.digest()};
  const GameState start = s;
  s.place_tile_on(kStart, 0, V("0,0"), 0);
  digests.insert(s.digest());
  s.place_tile_on(kStart, 0, V("1,1"), 3);  // the same faces, another anchor and rotation
  digests.insert(s.digest());
  s.lay(kToken, 0, SiteKind::Vertex, V("2,2"));
  digests.insert(s.digest());
  s.lay(kToken + 1, 0, SiteKind::Vertex, V("2,2"));
  digests.insert(s.digest());
  s.set_mark(0, 1, E("2,2-3,2"), 1);
  digests.insert(s.digest());
  s.move_figure_to_site(1, 0, SiteKind::Vertex, V("2,2"));
  digests.insert(s.digest());
  CHECK(digests.size() == 7);  // each change shows in the digest
  const GameState copy = s;
  CHECK(copy == s);
  CHECK(copy.digest() == s.digest());
  s.set_mark(0, 1, E("2,2-3,2"), 0);
  CHECK_FALSE(copy == s);
  s = copy;  // rollback
  CHECK(s == copy);
  CHECK(s.mark(0, 1, E("2,2-3,2")) == 1);
  CHECK(s.lying(0, SiteKind::Vertex, V("2,2")).size() == 2);
  CHECK_FALSE(s == start);
  // the order of a site matters
  GameState swapped = s;
  swapped.lay(kToken, 0, SiteKind::Vertex, V("2,2"));  // token 0 on top now
  CHECK(swapped.digest() != s.digest());
}

namespace {
/// Everything shuffled into the bag (nobody knows it), then `down` laid face down on 1,1u, token 1 face up on
/// top of it, token 2 into seat 1's hand (known to seat 1 only).
GameState hidden_setup(ComponentId down) {
  GameState s(layout(), 1);
  for (ComponentId c = 0; c < layout().components.size(); ++c) s.move(c, kBag);
  s.shuffle(kBag);
  s.lay(down, 0, SiteKind::Face, F("1,1u"), true);
  s.lay(kToken + 1, 0, SiteKind::Face, F("1,1u"));
  s.move(kToken + 2, kHand1);
  return s;
}
}  // namespace

TEST_CASE("observations hide face-down tokens; determinizations re-deal them with the hidden cards", "[lattice][state]") {
  const GameState s = hidden_setup(kToken);
  REQUIRE(s.check_invariants() == "");
  const GameState view2 = s.observation(2);
  const auto seen = view2.lying(0, SiteKind::Face, F("1,1u"));
  REQUIRE(seen.size() == 2);
  CHECK(seen[0] == kUnknownComponent);
  CHECK(seen[1] == kToken + 1);
  CHECK(view2.place_of(kToken) == Place{});
  CHECK(view2.seen_by(kToken) == 0);
  CHECK(view2.cards(kHand1)[0] == kUnknownComponent);
  const GameState view1 = s.observation(1);
  CHECK(view1.lying(0, SiteKind::Face, F("1,1u"))[0] == kUnknownComponent);
  CHECK(view1.cards(kHand1)[0] == kToken + 2);

  // seat 2 knows neither token 0 (face down), token 2 (seat 1's hand) nor the bag: they are re-dealt among
  // those places; the face-up token stays
  std::set<ComponentId> on_face;
  Rng rng(9);
  for (int i = 0; i < 200; ++i) {
    const GameState d = s.determinized(2, rng);
    REQUIRE(d.check_invariants() == "");
    const auto site = d.lying(0, SiteKind::Face, F("1,1u"));
    REQUIRE(site.size() == 2);
    CHECK(site[1] == kToken + 1);
    on_face.insert(site[0]);
    CHECK(d.place_of(site[0]).site_kind == SiteKind::Face);
    CHECK(d.seen_by(site[0]) == 0);
  }
  CHECK(on_face.size() >= 5);  // 8 unknown components: token 0, token 2, and the bag's
  CHECK(on_face.count(kToken + 1) == 0);
  // seat 1 knows its hand: token 2 never leaves it, nor comes onto the face
  for (int i = 0; i < 50; ++i) {
    const GameState d = s.determinized(1, rng);
    CHECK(d.cards(kHand1)[0] == kToken + 2);
    CHECK(d.lying(0, SiteKind::Face, F("1,1u"))[0] != kToken + 2);
  }
  // a determinization depends only on what the seat knows: the start tile face down instead of token 0 (which
  // stays in the bag) looks the same to seat 2, and gives the same samples
  const GameState other = hidden_setup(kStart);
  REQUIRE(other.check_invariants() == "");
  REQUIRE(other.observation(2).lying(0, SiteKind::Face, F("1,1u"))[0] == kUnknownComponent);
  REQUIRE_FALSE(other == s);
  Rng a(4), b(4);
  const GameState da = s.determinized(2, a), db = other.determinized(2, b);
  CHECK(da == db);
  CHECK(da.digest() == db.digest());
}

TEST_CASE("reachable on a board: edge classes, features and marks filter the walk", "[lattice][state]") {
  GameState s(layout(), 1);
  LatticeScratch scratch;
  // a rhombus at 2,2 r0 (2,2u and 2,2d): walk only along covered edges, never across the inner one
  s.place_tile_on(kForest, 0, V("2,2"), 0);
  EdgeMask walk;
  walk.class_any = kEdgeCovered1 | kEdgeCovered2;
  walk.class_none = kEdgeInner;
  auto found = s.reachable(0, V("2,2"), 1, walk, scratch);
  CHECK(std::vector<int>(found.begin(), found.end()) == std::vector<int>{V("3,2"), V("2,3")});
  found = s.reachable(0, V("2,2"), 4, walk, scratch);
  CHECK(std::vector<int>(found.begin(), found.end()) == std::vector<int>{V("3,2"), V("2,3"), V("3,3")});
  CHECK(scratch.dist[static_cast<std::size_t>(V("3,3"))] == 2);
  // a feature filter: only the forest's side 0,1-1,1 (2,3-3,3) carries 4
  EdgeMask river;
  river.feature_any = 4;
  found = s.reachable(0, V("2,3"), 3, river, scratch);
  CHECK(std::vector<int>(found.begin(), found.end()) == std::vector<int>{V("3,3")});
  // a mark filter: a canal mark on 2,2-3,2 blocks it
  s.set_mark(0, 1, E("2,2-3,2"), 1);
  EdgeMask no_canal = walk;
  no_canal.mark = 1;
  no_canal.mark_none = 1;
  found = s.reachable(0, V("2,2"), 4, no_canal, scratch);
  CHECK(std::vector<int>(found.begin(), found.end()) == std::vector<int>{V("2,3"), V("3,3"), V("3,2")});
  CHECK(scratch.dist[static_cast<std::size_t>(V("3,2"))] == 3);
  std::vector<std::int32_t> path;
  CHECK(s.path(0, V("2,2"), V("3,2"), 4, no_canal, scratch, path));
  CHECK(path == std::vector<std::int32_t>{V("2,2"), V("2,3"), V("3,3"), V("3,2")});
  CHECK_FALSE(s.path(0, V("2,2"), V("3,2"), 2, no_canal, scratch, path));
  // a vertex mark that stops moves: 2,3 unexplored (explored = 0), the others explored — the walk reaches 2,3
  // but does not go on from it
  for (int v = 0; v < layout().boards[0].lattice.vertices(); ++v) s.set_mark(0, 0, v, 1);
  s.set_mark(0, 0, V("2,3"), 0);
  EdgeMask explored = no_canal;
  explored.through = 0;
  explored.through_any = 1;
  found = s.reachable(0, V("2,2"), 4, explored, scratch);
  CHECK(std::vector<int>(found.begin(), found.end()) == std::vector<int>{V("2,3")});
  found = s.reachable(0, V("2,3"), 4, explored, scratch);  // the start is always left
  CHECK(std::vector<int>(found.begin(), found.end()) == std::vector<int>{V("2,2"), V("3,3"), V("3,2")});
  EdgeMask wrong = walk;
  wrong.through = 1;  // canal is an edge mark
  CHECK_THROWS_WITH(s.reachable(0, V("2,2"), 1, wrong, scratch), Catch::Contains("must be a vertex mark of board 'valley'"));
  // no filter: everything within k
  found = s.reachable(0, V("0,0"), 1, EdgeMask{}, scratch);
  CHECK(found.size() == 2);
}

TEST_CASE("the undo log restores board contents: tiles, marks, lying components, figures", "[lattice][state][undo]") {
  GameState s(layout(), 1);
  s.place_tile_on(kStart, 0, V("0,0"), 0);
  s.lay(kToken, 0, SiteKind::Vertex, V("2,2"));
  s.set_mark(0, 0, V("4,4"), 3);
  const GameState base = s;
  REQUIRE(s.begin_undo());
  s.place_tile_on(kStart, 0, V("1,1"), 3);  // lifted and placed again
  s.place_tile_on(kPond, 0, V("3,3"), 0);
  s.lay(kToken + 1, 0, SiteKind::Vertex, V("2,2"), true);
  s.move(kToken, kHand1);  // off the board into a zone
  s.lay(kToken + 2, 0, SiteKind::Edge, E("1,1-2,1"));
  s.set_mark(0, 0, V("4,4"), 9);
  s.set_mark(0, 1, E("0,0-1,0"), 200);
  s.move_figure_to_site(1, 0, SiteKind::Vertex, V("2,2"));
  CHECK_FALSE(s == base);
  s.rollback();
  CHECK(s == base);
  CHECK(s.digest() == base.digest());
  CHECK(s.check_invariants() == "");
  CHECK(s.lying(0, SiteKind::Vertex, V("2,2")).size() == 1);
  // gather takes everything off the boards, and is undone as well
  REQUIRE(s.begin_undo());
  s.gather(kBag);
  CHECK(s.tile_on(0, F("0,0u")) == kNoComponent);
  CHECK(s.check_invariants() == "");  // gather's board keys: no tile any more, the marks as they were
  s.rollback();
  CHECK(s == base);
  CHECK(s.tile_on(0, F("0,0u")) == kStart);
  CHECK(s.check_invariants() == "");  // the board keys restored with the tables (gather kept their buffer)
}
