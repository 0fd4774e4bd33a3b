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
  WordHash m;
  m.word(static_cast<std::uint64_t>(board));
  // the tile on each face and the marks (tiles lie face up: every seat sees them), then where each tile is anchored
  // and turned: the board keys (board_keys.cpp), kept up to date by every change
  m.word(board_keys_[2 * static_cast<std::size_t>(board)]);
  m.word(board_keys_[2 * static_cast<std::size_t>(board) + 1]);
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
