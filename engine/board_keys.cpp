// board_keys.cpp — the board keys: per board, a 64-bit Zobrist key of what lies on it (Zobrist, "A New Hashing
// Method with Application for Game Playing", 1970): the XOR of one pseudo-random code per (face, tile covering it)
// and per (mark cell, nonzero value) in board_keys_[2b], and per (tile placed there, anchor, rotation) in
// board_keys_[2b + 1]. A change XORs the old content's code out and the new one's in, so keeping the keys costs a few
// instructions a change, and board_digest and observation_key read two words per board instead of hashing every face
// and mark cell (Lost Valley's board: 648 faces and 5,977 mark cells). The keys are noted for undo like the tables.
// check_invariants compares them with computed_board_keys(), computed afresh from the tables.
#include <cstdint>
#include <vector>

#include "state.hpp"
#include "word_hash.hpp"

namespace hr {

namespace {

constexpr std::uint64_t kFaceSalt = 0x6A09E667F3BCC908ULL, kMarkSalt = 0xBB67AE8584CAA73BULL,
                        kAnchorSalt = 0x3C6EF372FE94F82BULL;

/// The code of one content: MurmurHash3's fmix64 (a bijection) of the salted pair, so distinct (index, value) pairs of
/// one salt have distinct codes.
std::uint64_t code(std::uint64_t salt, std::uint64_t index, std::uint64_t value) {
  return fmix64(salt + index * 0x9E3779B97F4A7C15ULL + value * 0xC2B2AE3D27D4EB4FULL);
}

}  // namespace

void GameState::toggle_face_key(int board, int face, ComponentId tile) {
  if (tile == kNoComponent) return;
  std::uint64_t& key = board_keys_[2 * static_cast<std::size_t>(board)];
  note(key);
  key ^= code(kFaceSalt, static_cast<std::uint64_t>(face), tile);
}

void GameState::toggle_mark_key(int board, std::size_t cell, int value) {
  if (value == 0) return;
  std::uint64_t& key = board_keys_[2 * static_cast<std::size_t>(board)];
  note(key);
  key ^= code(kMarkSalt, cell, static_cast<std::uint64_t>(value));
}

void GameState::toggle_anchor_key(int board, ComponentId tile, int anchor, int rotation) {
  std::uint64_t& key = board_keys_[2 * static_cast<std::size_t>(board) + 1];
  note(key);
  key ^= code(kAnchorSalt, tile, static_cast<std::uint64_t>(anchor) << 8 | static_cast<std::uint64_t>(rotation));
}

std::vector<std::uint64_t> GameState::computed_board_keys() const {
  std::vector<std::uint64_t> keys(2 * layout_->boards.size(), 0);
  for (std::size_t b = 0; b < layout_->boards.size(); ++b) {
    const BoardDef& def = layout_->boards[b];
    const int board = static_cast<int>(b);
    const std::size_t faces = static_cast<std::size_t>(def.lattice.faces());
    const ComponentId* face_tile = face_tile_.data() + layout_->board_face_offset(board);
    for (std::size_t f = 0; f < faces; ++f)
      if (face_tile[f] != kNoComponent) keys[2 * b] ^= code(kFaceSalt, f, face_tile[f]);
    if (def.marks.empty()) continue;
    const int first = layout_->mark_offset(board, 0);
    const int end = layout_->mark_offset(board, static_cast<int>(def.marks.size()) - 1) +
                    layout_->sites(board, def.marks.back().kind);
    for (int cell = first; cell < end; ++cell)
      if (marks_[static_cast<std::size_t>(cell)] != 0)
        keys[2 * b] ^= code(kMarkSalt, static_cast<std::uint64_t>(cell), marks_[static_cast<std::size_t>(cell)]);
  }
  for (std::size_t c = 0; c < capacity_; ++c) {
    const Place& p = place_[c];
    if (p.site_kind == SiteKind::Tile)
      keys[2 * static_cast<std::size_t>(p.board) + 1] ^=
          code(kAnchorSalt, c, static_cast<std::uint64_t>(p.site) << 8 | static_cast<std::uint64_t>(p.rotation));
  }
  return keys;
}

}  // namespace hr
