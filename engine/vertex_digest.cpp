// vertex_digest.cpp — vertex_digest (vertex_digest.hpp): what a board shows every seat around one vertex, as one
// 64-bit integer (docs/boards.md, "Digest around a vertex").
//
// Invariants: it reads only the tiles touching the vertex (whole: every face of each and its sides) and which faces
// around it are covered; it never depends on a hidden identity, so it reveals none.
#include "vertex_digest.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hr {

namespace {

/// The word-at-a-time mix of board_digest.cpp (position-dependent), with its final avalanche.
struct Mix {
  std::uint64_t h = 0xbb67ae8584caa73bULL;
  void word(std::uint64_t w) {
    h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
  }
  std::uint64_t done() const {
    std::uint64_t x = h;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
  }
};

/// Whether x is among the ids in `in`.
bool among(const std::vector<std::int32_t>& in, std::int32_t x) { return std::find(in.begin(), in.end(), x) != in.end(); }

}  // namespace

std::uint64_t vertex_digest(const GameState& s, int board, int v) {
  const Layout& layout = s.layout();
  if (board < 0 || board >= static_cast<int>(layout.boards.size()))
    throw LayoutError("no board number " + std::to_string(board + 1) + " (the game has " +
                      std::to_string(layout.boards.size()) + ")");
  const BoardDef& def = layout.boards[static_cast<std::size_t>(board)];
  const Lattice& l = def.lattice;
  if (v < 0 || v >= l.vertices()) throw LayoutError("no vertex " + std::to_string(v + 1) + " on board '" + def.name + "'");
  const std::uint8_t everyone = layout.all_seats_mask();
  Mix m;
  m.word(static_cast<std::uint64_t>(board) << 32 | static_cast<std::uint64_t>(v));
  std::array<ComponentId, 16> tiles{};  // at most one per face around v
  std::size_t ntiles = 0;
  for (const std::int32_t f : l.vertex_faces(v)) {
    const ComponentId c = s.tile_on(board, f);
    m.word(static_cast<std::uint64_t>(f) << 16 | c);
    if (c != kNoComponent && std::find(tiles.begin(), tiles.begin() + ntiles, c) == tiles.begin() + ntiles && ntiles < tiles.size())
      tiles[ntiles++] = c;
  }
  // the board's face marks and edge marks (indices), once per call
  thread_local std::vector<int> face_marks, edge_marks;
  face_marks.clear(), edge_marks.clear();
  for (std::size_t k = 0; k < def.marks.size(); ++k) {
    if (def.marks[k].kind == SiteKind::Face) face_marks.push_back(static_cast<int>(k));
    if (def.marks[k].kind == SiteKind::Edge) edge_marks.push_back(static_cast<int>(k));
  }
  thread_local std::vector<std::int32_t> faces;  // reused: no allocation once grown
  for (std::size_t t = 0; t < ntiles; ++t) {
    const ComponentId c = tiles[t];
    const Place p = s.place_of(c);
    m.word(static_cast<std::uint64_t>(c) << 32 | static_cast<std::uint64_t>(p.site) << 8 | p.rotation);
    // the tile's faces, breadth-first from the first face around v it covers (as GameState::tile_faces): at each,
    // its face marks, what lies there, and the edge marks of its sides
    faces.clear();
    for (const std::int32_t f : l.vertex_faces(v))
      if (s.tile_on(board, f) == c) { faces.push_back(f); break; }
    for (std::size_t i = 0; i < faces.size(); ++i) {
      const std::int32_t f = faces[i];
      m.word(static_cast<std::uint64_t>(f));
      for (const int k : face_marks) m.word(static_cast<std::uint64_t>(s.mark(board, k, f)));
      const auto lying = s.lying(board, SiteKind::Face, f);
      for (const ComponentId x : lying) {
        const bool shown = x != kUnknownComponent && x < layout.components.size() && s.seen_by(x) == everyone;
        m.word(shown ? x : kUnknownComponent);
      }
      m.word(lying.size());
      for (const std::int32_t e : l.face_edges(f)) {
        for (const int k : edge_marks) m.word(static_cast<std::uint64_t>(s.mark(board, k, e)));
        const std::int32_t across = l.neighbour(f, e);
        if (across >= 0 && s.tile_on(board, across) == c && !among(faces, across)) faces.push_back(across);
      }
    }
  }
  return m.done();
}

}  // namespace hr
