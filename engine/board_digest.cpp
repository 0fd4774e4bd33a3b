// board_digest.cpp — GameState::board_digest: a 64-bit digest of what one lattice board shows every seat (the
// tiles on its faces with their anchors and rotations, its marks, what lies at each site), for memos keyed by
// the map (docs/boards.md, "Digest of a board"; Lost Valley's heuristic keeps what it read of the map under it).
//
// Invariants: two states whose board shows every seat the same thing have the same digest, whatever else differs
// (figures, zones, counters, the turn, and the identity of a lying component some seat cannot see: determinizations
// that deal different face-down tokens share it); a change to a tile, an anchor, a rotation, a mark, the number or
// order of the components at a site, or the identity of a component every seat sees changes it (up to a 64-bit
// collision). It never depends on a hidden identity, so it reveals none.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "state.hpp"
#include "word_hash.hpp"

namespace hr {

std::uint64_t GameState::board_digest(int board) const {
  if (board < 0 || board >= static_cast<int>(layout_->boards.size()))
    throw LayoutError("no board number " + std::to_string(board + 1) + " (the game has " +
                      std::to_string(layout_->boards.size()) + ")");
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  WordHash m;
  m.word(static_cast<std::uint64_t>(board));
  // the tile on each face (tiles lie face up: every seat sees them), then where each tile is anchored and turned
  const std::size_t faces = static_cast<std::size_t>(def.lattice.faces());
  const ComponentId* face_tile = face_tile_.data() + layout_->board_face_offset(board);
  m.bytes(face_tile, faces * sizeof(ComponentId));
  for (std::size_t c = 0; c < capacity_; ++c) {
    const Place& p = place_[c];
    if (p.site_kind == SiteKind::Tile && p.board == board)
      m.word(static_cast<std::uint64_t>(c) << 32 | static_cast<std::uint64_t>(p.site) << 8 | p.rotation);
  }
  // the marks: the board's cells are contiguous, mark after mark
  if (!def.marks.empty()) {
    const int first = layout_->mark_offset(board, 0);
    const MarkDef& last = def.marks.back();
    const int end = layout_->mark_offset(board, static_cast<int>(def.marks.size()) - 1) + layout_->sites(board, last.kind);
    m.bytes(marks_.data() + first, static_cast<std::size_t>(end - first));
  }
  // what lies at each site, bottom to top: the component when every seat knows it, else only that one is there
  const std::uint32_t lo = static_cast<std::uint32_t>(board) << 22, hi = static_cast<std::uint32_t>(board + 1) << 22;
  const auto from = std::lower_bound(lying_key_.begin(), lying_key_.end(), lo);
  const auto to = std::lower_bound(from, lying_key_.end(), hi);
  const std::uint8_t everyone = layout_->all_seats_mask();
  for (auto it = from; it != to; ++it) {
    const ComponentId c = lying_[static_cast<std::size_t>(it - lying_key_.begin())];
    const bool shown = c != kUnknownComponent && c < capacity_ && seen_by_[c] == everyone;
    m.word(static_cast<std::uint64_t>(*it) << 16 | (shown ? c : kUnknownComponent));
  }
  m.word(static_cast<std::uint64_t>(to - from));
  return m.finish();
}

}  // namespace hr
