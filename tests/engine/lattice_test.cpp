// lattice_test.cpp — hr::Lattice: the triangular and the square lattice (counts, adjacency, Euler, rotations,
// text forms, the movement queries).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "lattice.hpp"

using hr::Coord;
using hr::EdgeCoord;
using hr::FaceCoord;
using hr::Lattice;
using hr::LatticeError;
using hr::LatticeKind;
using hr::LatticeScratch;

namespace {

std::vector<int> to_vector(std::span<const std::int32_t> s) { return {s.begin(), s.end()}; }

/// Checks every table of `l` against the others (symmetry of each incidence relation).
void check_adjacency(const Lattice& l) {
  for (int f = 0; f < l.faces(); ++f) {
    const auto vs = l.face_vertices(f);
    const auto es = l.face_edges(f);
    REQUIRE(static_cast<int>(vs.size()) == l.face_size());
    for (int i = 0; i < l.face_size(); ++i) {
      const int e = es[static_cast<std::size_t>(i)];
      REQUIRE(e >= 0);
      // edge i joins vertex i and i+1
      const auto ends = l.edge_vertices(e);
      const int a = vs[static_cast<std::size_t>(i)], b = vs[static_cast<std::size_t>((i + 1) % l.face_size())];
      CHECK(((ends[0] == a && ends[1] == b) || (ends[0] == b && ends[1] == a)));
      const auto ef = l.edge_faces(e);
      CHECK(std::find(ef.begin(), ef.end(), f) != ef.end());
      const int across = l.neighbour(f, e);
      if (across >= 0) CHECK(l.neighbour(across, e) == f);
      else CHECK(l.on_rim(e));
      const auto vf = l.vertex_faces(a);
      CHECK(std::find(vf.begin(), vf.end(), f) != vf.end());
    }
  }
  for (int e = 0; e < l.edges(); ++e) {
    const auto ends = l.edge_vertices(e);
    CHECK(ends[0] < ends[1]);
    CHECK(l.edge_between(ends[0], ends[1]) == e);
    CHECK(l.edge_between(ends[1], ends[0]) == e);
    for (const int v : ends) {
      const auto ve = l.vertex_edges(v);
      CHECK(std::find(ve.begin(), ve.end(), e) != ve.end());
    }
    for (const int f : l.edge_faces(e)) {
      const auto fe = l.face_edges(f);
      CHECK(std::find(fe.begin(), fe.end(), e) != fe.end());
    }
  }
  for (int v = 0; v < l.vertices(); ++v) {
    for (const int e : l.vertex_edges(v)) {
      const auto ends = l.edge_vertices(e);
      CHECK((ends[0] == v || ends[1] == v));
    }
    for (const int f : l.vertex_faces(v)) {
      const auto fv = l.face_vertices(f);
      CHECK(std::find(fv.begin(), fv.end(), v) != fv.end());
    }
  }
}

}  // namespace

TEST_CASE("triangular lattice: counts, Euler characteristic, degrees", "[lattice]") {
  const Lattice l(LatticeKind::Triangular, 4, 3);
  CHECK(l.vertices() == 5 * 4);
  CHECK(l.faces() == 2 * 4 * 3);
  CHECK(l.edges() == 3 * 4 * 3 + 4 + 3);
  CHECK(l.vertices() - l.edges() + l.faces() == 1);  // a disk
  CHECK(l.rotations() == 6);
  // an inner vertex has 6 edges and 6 faces; the corner (0,0) 2 edges and 1 face; (4,0) 3 edges and 2 faces
  const int inner = l.vertex_at({2, 1});
  CHECK(l.vertex_edges(inner).size() == 6);
  CHECK(l.vertex_faces(inner).size() == 6);
  CHECK(l.vertex_edges(l.vertex_at({0, 0})).size() == 2);
  CHECK(l.vertex_faces(l.vertex_at({0, 0})).size() == 1);
  CHECK(l.vertex_edges(l.vertex_at({4, 0})).size() == 3);
  CHECK(l.vertex_faces(l.vertex_at({4, 0})).size() == 2);
  int rim = 0;
  for (int e = 0; e < l.edges(); ++e) rim += l.on_rim(e);
  CHECK(rim == 2 * (4 + 3));
  check_adjacency(l);
}

TEST_CASE("square lattice: counts, Euler characteristic, degrees", "[lattice]") {
  const Lattice l(LatticeKind::Square, 5, 2);
  CHECK(l.vertices() == 6 * 3);
  CHECK(l.faces() == 10);
  CHECK(l.edges() == 2 * 5 * 2 + 5 + 2);
  CHECK(l.vertices() - l.edges() + l.faces() == 1);
  CHECK(l.rotations() == 4);
  CHECK(l.vertex_edges(l.vertex_at({1, 1})).size() == 4);
  CHECK(l.vertex_faces(l.vertex_at({1, 1})).size() == 4);
  CHECK(l.face_vertices(l.face_at({0, 0, 0})).size() == 4);
  check_adjacency(l);
}

TEST_CASE("ids follow the documented order, tables run counter-clockwise from east", "[lattice]") {
  const Lattice l(LatticeKind::Triangular, 3, 2);
  CHECK(l.vertex_at({0, 0}) == 0);
  CHECK(l.vertex_at({1, 0}) == 1);
  CHECK(l.vertex_at({0, 1}) == 4);
  CHECK(l.vertex_at({4, 0}) == -1);
  CHECK(l.vertex_at({-1, 0}) == -1);
  CHECK(l.face_at({0, 0, 0}) == 0);  // (0,0)u
  CHECK(l.face_at({0, 0, 1}) == 1);  // (0,0)d
  CHECK(l.face_at({1, 0, 0}) == 2);
  CHECK(l.face_at({0, 1, 0}) == 6);
  CHECK(l.face_at({3, 0, 0}) == -1);
  // face (0,0)u = (0,0), (1,0), (0,1); (0,0)d = (1,0), (1,1), (0,1)
  CHECK(to_vector(l.face_vertices(0)) == std::vector<int>{0, 1, 4});
  CHECK(to_vector(l.face_vertices(1)) == std::vector<int>{1, 5, 4});
  // edges from vertex 0: east (0-1), then up (0-4); from vertex 1: east, up, up-left (1-4)
  CHECK(l.edge_vertices(0) == std::array<std::int32_t, 2>{0, 1});
  CHECK(l.edge_vertices(1) == std::array<std::int32_t, 2>{0, 4});
  CHECK(l.edge_vertices(2) == std::array<std::int32_t, 2>{1, 2});
  CHECK(l.edge_vertices(3) == std::array<std::int32_t, 2>{1, 5});
  CHECK(l.edge_vertices(4) == std::array<std::int32_t, 2>{1, 4});
  // around inner vertex (1,1): neighbours east (2,1), (1,2), (0,2), west (0,1), (1,0), (2,0)
  const int v = l.vertex_at({1, 1});
  std::vector<int> ends;
  for (const int e : l.vertex_edges(v)) ends.push_back(l.other_end(e, v));
  CHECK(ends == std::vector<int>{l.vertex_at({2, 1}), l.vertex_at({1, 2}), l.vertex_at({0, 2}), l.vertex_at({0, 1}),
                                 l.vertex_at({1, 0}), l.vertex_at({2, 0})});
  // the faces around it: (1,1)u, (0,1)d, (0,1)u, (0,0)d, (1,0)u, (1,0)d
  std::vector<std::string> faces;
  for (const int f : l.vertex_faces(v)) faces.push_back(l.face_text(f));
  CHECK(faces == std::vector<std::string>{"1,1u", "0,1d", "0,1u", "0,0d", "1,0u", "1,0d"});
  // drawing positions
  CHECK(l.vertex_xy(v).first == Approx(1.5));
  CHECK(l.vertex_xy(v).second == Approx(0.8660254));
}

TEST_CASE("rotations: r^6 = id (triangular), r^4 = id (square), faces map to faces", "[lattice]") {
  for (const LatticeKind kind : {LatticeKind::Triangular, LatticeKind::Square}) {
    const Lattice l(kind, 4, 4);
    const int n = l.rotations();
    for (int q = -2; q <= 2; ++q)
      for (int r = -2; r <= 2; ++r) {
        const Coord c{q, r};
        CHECK(l.rotate(c, n) == c);
        CHECK(l.rotate(l.rotate(c, 1), n - 1) == c);
        CHECK(l.rotate(c, -1) == l.rotate(c, n - 1));
        if (!(q == 0 && r == 0)) CHECK(l.rotate(c, 1) != c);
        for (int t = 0; t < l.face_types(); ++t) {
          const FaceCoord f{q, r, t};
          FaceCoord g = f;
          std::set<std::tuple<int, int, int>> orbit;
          for (int i = 0; i < n; ++i) {
            orbit.insert({g.q, g.r, g.t});
            g = l.rotate(g, 1);
          }
          CHECK(g == f);
          CHECK(static_cast<int>(orbit.size()) == n);  // no face is fixed by a turn about a vertex
        }
      }
  }
  const Lattice tri(LatticeKind::Triangular, 2, 2);
  // 60° turns (0,0)u into the down face left of it: (-1,0)d = (0,0), (0,1), (-1,1)
  CHECK(tri.rotate(FaceCoord{0, 0, 0}, 1) == FaceCoord{-1, 0, 1});
  CHECK(tri.rotate(Coord{1, 0}, 1) == Coord{0, 1});
  CHECK(tri.rotate(Coord{1, 0}, 3) == Coord{-1, 0});
  const Lattice sq(LatticeKind::Square, 2, 2);
  CHECK(sq.rotate(FaceCoord{0, 0, 0}, 1) == FaceCoord{-1, 0, 0});
  CHECK(sq.rotate(FaceCoord{0, 0, 0}, 2) == FaceCoord{-1, -1, 0});
}

TEST_CASE("text forms round-trip; malformed text is an error naming it", "[lattice]") {
  const Lattice l(LatticeKind::Triangular, 5, 5);
  for (int v = 0; v < l.vertices(); ++v) CHECK(l.vertex(l.vertex_text(v)) == v);
  for (int f = 0; f < l.faces(); ++f) CHECK(l.face(l.face_text(f)) == f);
  for (int e = 0; e < l.edges(); ++e) CHECK(l.edge(l.edge_text(e)) == e);
  CHECK(l.vertex_text(l.vertex_at({4, 2})) == "4,2");
  CHECK(l.face_text(l.face_at({4, 2, 1})) == "4,2d");
  CHECK(l.edge_text(l.edge_between(l.vertex_at({2, 3}), l.vertex_at({1, 3}))) == "1,3-2,3");
  CHECK(l.edge("2,3-1,3") == l.edge("1,3-2,3"));  // either order
  CHECK(l.edge("1,4-2,3") == l.edge_between(l.vertex_at({1, 4}), l.vertex_at({2, 3})));
  CHECK(l.vertex(" 4 , 2 ") == l.vertex_at({4, 2}));
  CHECK(l.vertex("9,9") == -1);  // well formed, off the board
  CHECK(l.face("5,0u") == -1);
  CHECK_THROWS_WITH(l.vertex("4;2"), Catch::Contains("'4;2' is not a vertex"));
  CHECK_THROWS_WITH(l.face("4,2"), Catch::Contains("'4,2' is not a face of a triangular board"));
  CHECK_THROWS_WITH(l.face("4,2x"), Catch::Contains("not a face"));
  CHECK_THROWS_WITH(l.edge("1,1-3,1"), Catch::Contains("not an edge"));  // two steps
  CHECK_THROWS_WITH(l.edge("1,1-2,2"), Catch::Contains("not an edge"));  // not a triangular direction
  // negative local coordinates parse (shapes)
  CHECK(hr::parse_local_edge("-1,0-0,0") == hr::make_edge({-1, 0}, {0, 0}));
  CHECK(hr::parse_local_face("-1,2d") == FaceCoord{-1, 2, 1});
  CHECK(hr::parse_local_face("3,4") == FaceCoord{3, 4, -1});
  const Lattice sq(LatticeKind::Square, 3, 3);
  for (int f = 0; f < sq.faces(); ++f) CHECK(sq.face(sq.face_text(f)) == f);
  CHECK(sq.face_text(sq.face_at({2, 1, 0})) == "2,1");
  CHECK_THROWS_WITH(sq.face("2,1u"), Catch::Contains("square board"));
  CHECK_THROWS_WITH(sq.edge("1,1-2,2"), Catch::Contains("not an edge"));  // a diagonal is not a square edge
}

TEST_CASE("reachable: distances, masks, order; path", "[lattice]") {
  const Lattice l(LatticeKind::Triangular, 6, 6);
  LatticeScratch scratch;
  const int center = l.vertex_at({3, 3});
  const auto all = [](int) { return true; };
  auto one = l.reachable(center, 1, all, scratch);
  CHECK(one.size() == 6);
  CHECK(std::is_sorted(one.begin(), one.end()));
  auto two = to_vector(l.reachable(center, 2, all, scratch));
  CHECK(two.size() == 6 + 12);  // a hexagonal ring of 12 at distance 2
  for (std::size_t i = 0; i < two.size(); ++i) CHECK(scratch.dist[static_cast<std::size_t>(two[i])] == (i < 6 ? 1 : 2));
  CHECK(std::is_sorted(two.begin(), two.begin() + 6));
  CHECK(std::is_sorted(two.begin() + 6, two.end()));
  CHECK(l.reachable(center, 0, all, scratch).empty());
  // only east-west edges: 2 steps along the row
  const auto horizontal = [&](int e) { return l.edge_coord(e).a.r == l.edge_coord(e).b.r; };
  CHECK(to_vector(l.reachable(center, 2, horizontal, scratch)) ==
        std::vector<int>{l.vertex_at({2, 3}), l.vertex_at({4, 3}), l.vertex_at({1, 3}), l.vertex_at({5, 3})});
  // a wall: no edge may cross q + r/2 = 3.25 — the right side is out of reach
  const auto wall = [&](int e) {
    const auto [x1, y1] = l.vertex_xy(l.edge_vertices(e)[0]);
    const auto [x2, y2] = l.vertex_xy(l.edge_vertices(e)[1]);
    return (x1 < 3.25) == (x2 < 3.25);
  };
  for (const int v : l.reachable(l.vertex_at({0, 0}), 20, wall, scratch)) CHECK(l.vertex_xy(v).first < 3.25);
  std::vector<std::int32_t> path;
  REQUIRE(l.path(l.vertex_at({0, 0}), l.vertex_at({3, 0}), 5, all, scratch, path));
  CHECK(path == std::vector<std::int32_t>{l.vertex_at({0, 0}), l.vertex_at({1, 0}), l.vertex_at({2, 0}), l.vertex_at({3, 0})});
  CHECK_FALSE(l.path(l.vertex_at({0, 0}), l.vertex_at({3, 0}), 2, all, scratch, path));
  CHECK(path.empty());
  CHECK_FALSE(l.path(l.vertex_at({0, 0}), l.vertex_at({6, 0}), 20, wall, scratch, path));
  // a vertex that stops moves: reached, but not passed through (the start always is)
  const int stop = l.vertex_at({4, 3});
  const auto not_stop = [&](int v) { return v != stop; };
  auto row = to_vector(l.reachable(center, 2, horizontal, not_stop, scratch));
  CHECK(row == std::vector<int>{l.vertex_at({2, 3}), stop, l.vertex_at({1, 3})});
  CHECK_FALSE(l.path(center, l.vertex_at({5, 3}), 5, horizontal, not_stop, scratch, path));
  CHECK(l.path(stop, l.vertex_at({5, 3}), 1, horizontal, not_stop, scratch, path));
  // square: Manhattan distance
  const Lattice sq(LatticeKind::Square, 4, 4);
  CHECK(sq.reachable(sq.vertex_at({2, 2}), 2, all, scratch).size() == 4 + 8);
  CHECK(sq.reachable(sq.vertex_at({0, 0}), 8, all, scratch).size() == 24);
  CHECK(scratch.dist[static_cast<std::size_t>(sq.vertex_at({4, 4}))] == 8);
}
