// bench_board.cpp — what a lattice board costs (docs/boards.md): the size of a GameState with a Lost-Valley-sized
// board (triangular 16x16, four marks, 60 tiles, 80 tokens), the time and heap bytes of one copy, and the rate of
// the movement and placement queries (reachable k = 1..3 with an edge-class filter, path, placements), in C++
// and through Lua (game:reachable on the tiny-board fixture). Not a test: it asserts nothing about time;
// CTest does not run it.
//
//   bench_board [--seconds S]    (default 0.5 s per figure)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "allocation_counter.hpp"
#include "rng.hpp"
#include "scripted_rules.hpp"
#include "state.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using namespace hr;

/// Lost Valley's proportions (rules digest): 60 tiles (rhombi and triangles), 80 tokens, a few zones, 5 figures.
Layout valley_layout() {
  Layout l;
  l.seats = 4;
  l.zones = {{"river-pile", {}, Visibility::Hidden}, {"land-pile", {}, Visibility::Hidden}, {"tokens", {}, Visibility::Hidden}};
  for (int s = 1; s <= 4; ++s) {
    l.zones.push_back({"gold." + std::to_string(s), {Owner::Kind::Seat, s}, Visibility::Owner});
    l.zones.push_back({"backpack." + std::to_string(s), {Owner::Kind::Seat, s}, Visibility::Public});
  }
  l.boards.push_back({"valley", Lattice(LatticeKind::Triangular, 16, 16),
                      {{"building", SiteKind::Vertex}, {"canal", SiteKind::Edge}, {"course", SiteKind::Face}, {"explored", SiteKind::Vertex}},
                      {}});
  l.shapes = {{"rhombus", {*parse_local_face("0,0u"), *parse_local_face("0,0d")}}, {"triangle", {*parse_local_face("0,0u")}}};
  for (int i = 0; i < 60; ++i) {
    Component c{i < 48 ? "land" + std::to_string(i % 6) : "triangle", {}};
    c.shape = i < 48 ? 0 : 1;
    c.features.faces = {{*parse_local_face("0,0u"), static_cast<std::uint16_t>(1 + i % 4)}};
    if (i % 5 == 0) c.features.sides = {{make_edge({0, 0}, {1, 0}), 16}};
    l.components.push_back(c);
  }
  for (int i = 0; i < 80; ++i) l.components.push_back({"token" + std::to_string(i % 10), {}});
  for (int s = 0; s <= 4; ++s) l.figures.push_back({"prospector", s});
  l.finalize();
  return l;
}

template <class F>
double per_second(double seconds, F&& body, long& calls) {
  calls = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  while (elapsed < seconds) {
    for (int i = 0; i < 64; ++i) body();
    calls += 64;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return static_cast<double>(calls) / elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 0.5;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--seconds") seconds = std::atof(argv[i + 1]);
  const Layout layout = valley_layout();
  const Lattice& lattice = layout.boards[0].lattice;
  GameState state(layout, 7);
  // a valley half explored: tiles laid greedily from the corner, tokens face down on their faces, marks
  Rng rng(11);
  std::vector<std::int32_t> placements;
  int laid = 0;
  for (ComponentId c = 0; c < 60; ++c) {
    state.placements(c, 0, placements);
    std::int32_t best = -1;
    for (const std::int32_t p : placements)  // the placement nearest the corner 0,0
      if (best < 0 || lattice.vertex_coord(p / 6).q + lattice.vertex_coord(p / 6).r < lattice.vertex_coord(best / 6).q + lattice.vertex_coord(best / 6).r) best = p;
    if (best >= 0) state.place_tile_on(c, 0, best / 6, best % 6), ++laid;
  }
  for (ComponentId c = 60; c < 140; ++c) {
    if (c % 2) state.lay(c, 0, SiteKind::Face, static_cast<int>(rng.below(static_cast<std::uint64_t>(lattice.faces()))), true);
    else state.move(c, 2);
  }
  for (int v = 0; v < lattice.vertices(); v += 3) state.set_mark(0, 3, v, 1);
  for (int f = 0; f < 5; ++f) state.move_figure_to_site(f, 0, SiteKind::Vertex, lattice.vertex_at({f, f}));
  if (const std::string problem = state.check_invariants(); !problem.empty()) {
    fmt::print("invariant: {}\n", problem);
    return 1;
  }
  fmt::print("board: triangular 16x16 ({} faces, {} edges, {} vertices), {} tiles laid, 40 tokens face down, 4 marks\n",
             lattice.faces(), lattice.edges(), lattice.vertices(), laid);

  // size and copy
  const std::size_t before = hr_bench::allocated_bytes();
  { const GameState probe = state; (void)probe; }
  const std::size_t heap = hr_bench::allocated_bytes() - before;
  fmt::print("GameState: sizeof {} B + {} B on the heap per copy (board part {} B)\n", sizeof(GameState), heap, state.board_bytes());
  long calls = 0;
  std::uint64_t sink = 0;
  const double copies = per_second(seconds, [&] { GameState c = state; sink += c.ply(); }, calls);
  fmt::print("copy: {:.0f} ns ({:.2f} M copies/s)\n", 1e9 / copies, copies / 1e6);
  const double digests = per_second(seconds, [&] { sink += state.digest(); }, calls);
  fmt::print("digest: {:.0f} ns\n", 1e9 / digests);

  // queries
  LatticeScratch scratch;
  EdgeMask walk;
  walk.class_any = kEdgeCovered1 | kEdgeCovered2;
  walk.class_none = kEdgeInner;
  std::vector<int> starts;  // vertices of the explored area
  for (int v = 0; v < lattice.vertices(); ++v)
    if (state.reachable(0, v, 1, walk, scratch).size() > 0) starts.push_back(v);
  std::size_t next = 0;
  for (int k = 1; k <= 3; ++k) {
    std::size_t found = 0;
    const double rate = per_second(seconds, [&] {
      found += state.reachable(0, starts[next++ % starts.size()], k, walk, scratch).size();
    }, calls);
    fmt::print("reachable k={} (covered, not inner edges): {:.2f} M calls/s, {:.0f} ns, {:.1f} vertices found on average\n", k,
               rate / 1e6, 1e9 / rate, static_cast<double>(found) / static_cast<double>(calls));
  }
  EdgeMask river;
  river.feature_any = 16;
  const double river_rate = per_second(seconds, [&] { sink += state.reachable(0, starts[next++ % starts.size()], 3, river, scratch).size(); }, calls);
  fmt::print("reachable k=3 (feature filter): {:.2f} M calls/s\n", river_rate / 1e6);
  std::vector<std::int32_t> path;
  const double path_rate = per_second(seconds, [&] {
    sink += state.path(0, starts[next % starts.size()], starts[(next * 7 + 3) % starts.size()], 6, walk, scratch, path);
    ++next;
  }, calls);
  fmt::print("path k<=6: {:.2f} M calls/s\n", path_rate / 1e6);
  const std::size_t alloc_before = hr_bench::allocated_bytes();
  for (int i = 0; i < 1000; ++i) sink += state.reachable(0, starts[next++ % starts.size()], 3, walk, scratch).size();
  fmt::print("allocated by 1000 reachable calls: {} B\n", hr_bench::allocated_bytes() - alloc_before);
  // a free tile for placements: take one off the board
  state.move(59, 1);
  state.move(47, 1);
  const double rhombus = per_second(seconds, [&] { state.placements(47, 0, placements); sink += placements.size(); }, calls);
  fmt::print("placements of a rhombus (whole board, {} legal): {:.0f} us\n", placements.size(), 1e6 / rhombus);

  // through Lua: game:reachable on the tiny-board fixture, from the read-only explain hook
  auto rules = load_rules(std::string(HOUSERULES_SOURCE_DIR) + "/tests/fixtures/tiny-board");
  const GameState tiny = rules->new_game(1);
  const int n = 200000;
  const auto start = Clock::now();
  rules->explain_illegal(tiny, "local game = ... local mask = { class_any = 6, class_none = 1 } local into, dist = {}, {} "
                               "for i = 1, " + std::to_string(n) + " do game:reachable('valley', 1, 2, mask, into, dist) end return 1");
  const double lua_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fmt::print("Lua game:reachable (k=2, filter table, into lists): {:.2f} M calls/s, {:.0f} ns\n", n / lua_seconds / 1e6,
             lua_seconds * 1e9 / n);
  if (sink == 42) fmt::print(" ");
  return 0;
}
