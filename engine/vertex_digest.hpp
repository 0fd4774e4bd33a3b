// vertex_digest.hpp — vertex_digest: a 64-bit digest of what one lattice board shows every seat around one vertex
// (the tiles touching it, whole, and everything at their sites), for memos of what a hook reads near an intersection
// (docs/boards.md, "Digest around a vertex"; Lost Valley's heuristic keeps each intersection's promise under it).
#pragma once

#include <cstdint>

#include "state.hpp"

namespace hr {

/// A 64-bit digest of what `board` of state `s` shows every seat around vertex `v`: the board and v; for each face
/// around v (Lattice::vertex_faces order) the tile on it or none; for each tile touching v, once, its id, anchor and
/// rotation and, at every face of the tile, the face marks, what lies there bottom to top (a component's identity
/// only when every seat knows it, else only its presence) and the edge marks of the face's sides. Not in it: vertex
/// marks, and what lies on sides and corners. Equal for two states that show every seat the same there, whatever
/// lies or is marked elsewhere (figures, zones, counters and hidden identities aside); different, but for a 64-bit
/// collision, when a tile touching v, its anchor or rotation, a face or side mark or what lies on a face of one of
/// those tiles, or which faces around v are covered differs.
/// Throws LayoutError for a bad board or vertex.
std::uint64_t vertex_digest(const GameState& s, int board, int v);

}  // namespace hr
