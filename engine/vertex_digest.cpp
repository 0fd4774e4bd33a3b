// vertex_digest.cpp — GameState::vertex_digest: what a board shows every seat around one vertex, as one 64-bit
// integer (docs/boards.md, "Digest around a vertex"; Lost Valley's heuristic keeps each intersection's promise under
// it, across maps).
//
// Invariants: it reads only which faces around the vertex are covered and the tiles touching it (whole: every face
// of each, its face marks and what lies on it, its sides' edge marks); it never depends on a hidden identity, so it
// reveals none. It reads the state's arrays directly (a few hundred instructions a call: it is asked per
// intersection looked at).
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "state.hpp"
#include "word_hash.hpp"

namespace hr {

std::uint64_t GameState::vertex_digest(int board, int v) const {
  if (board < 0 || board >= static_cast<int>(layout_->boards.size()))
    throw LayoutError("no board number " + std::to_string(board + 1) + " (the game has " +
                      std::to_string(layout_->boards.size()) + ")");
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  const Lattice& l = def.lattice;
  if (v < 0 || v >= l.vertices()) throw LayoutError("no vertex " + std::to_string(v + 1) + " on board '" + def.name + "'");
  const std::uint8_t everyone = layout_->all_seats_mask();
  const ComponentId* face_tile = face_tile_.data() + layout_->board_face_offset(board);
  // the first cell of each face mark and each edge mark of the board (a mark's cells are its sites in id order)
  std::array<int, 16> face_marks{}, edge_marks{};
  std::size_t nfm = 0, nem = 0;
  for (std::size_t k = 0; k < def.marks.size(); ++k) {
    const int at = layout_->mark_offset(board, static_cast<int>(k));
    if (def.marks[k].kind == SiteKind::Face) {
      if (nfm == face_marks.size()) throw LayoutError("vertex_digest: more than 16 face marks on board '" + def.name + "'");
      face_marks[nfm++] = at;
    } else if (def.marks[k].kind == SiteKind::Edge) {
      if (nem == edge_marks.size()) throw LayoutError("vertex_digest: more than 16 edge marks on board '" + def.name + "'");
      edge_marks[nem++] = at;
    }
  }
  WordHash m;
  m.word(static_cast<std::uint64_t>(board) << 32 | static_cast<std::uint64_t>(v));
  std::array<ComponentId, 16> tiles{};  // at most one per face around v
  std::size_t ntiles = 0;
  for (const std::int32_t f : l.vertex_faces(v)) {
    const ComponentId c = face_tile[f];
    m.word(static_cast<std::uint64_t>(f) << 16 | c);
    if (c != kNoComponent && ntiles < tiles.size() && std::find(tiles.begin(), tiles.begin() + ntiles, c) == tiles.begin() + ntiles)
      tiles[ntiles++] = c;
  }
  thread_local std::vector<std::int32_t> faces;  // reused: no allocation once grown
  for (std::size_t t = 0; t < ntiles; ++t) {
    const ComponentId c = tiles[t];
    const Place& p = place_[c];
    m.word(static_cast<std::uint64_t>(c) << 32 | static_cast<std::uint64_t>(p.site) << 8 | p.rotation);
    // the tile's faces, breadth-first from the first face around v it covers (as tile_faces): at each, its face
    // marks, what lies there, and the edge marks of its sides
    faces.clear();
    for (const std::int32_t f : l.vertex_faces(v))
      if (face_tile[f] == c) { faces.push_back(f); break; }
    for (std::size_t i = 0; i < faces.size(); ++i) {
      const std::int32_t f = faces[i];
      m.word(static_cast<std::uint64_t>(f));
      for (std::size_t k = 0; k < nfm; ++k) m.word(marks_[static_cast<std::size_t>(face_marks[k] + f)]);
      const std::uint32_t key = site_key(board, SiteKind::Face, f);
      const auto first = std::lower_bound(lying_key_.begin(), lying_key_.end(), key);
      auto it = first;
      for (; it != lying_key_.end() && *it == key; ++it) {
        const ComponentId x = lying_[static_cast<std::size_t>(it - lying_key_.begin())];
        const bool shown = x != kUnknownComponent && x < capacity_ && seen_by_[x] == everyone;
        m.word(shown ? x : kUnknownComponent);
      }
      m.word(static_cast<std::uint64_t>(it - first));
      for (const std::int32_t e : l.face_edges(f)) {
        for (std::size_t k = 0; k < nem; ++k) m.word(marks_[static_cast<std::size_t>(edge_marks[k] + e)]);
        const std::int32_t across = l.neighbour(f, e);
        if (across >= 0 && face_tile[across] == c && std::find(faces.begin(), faces.end(), across) == faces.end())
          faces.push_back(across);
      }
    }
  }
  return m.finish();
}

}  // namespace hr
