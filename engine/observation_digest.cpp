// observation_digest.cpp — GameState::observation_digest and observation_key: what one seat sees, hashed without the
// copy that observation() makes. hash_observation feeds a hasher the same bytes, in the same order, as
// observation(seat).position_digest() feeds Fnv (GameState::digest_of in state.cpp, with_history false):
// tests/games/ismcts_memo_test.cpp checks observation_digest against it on real states of every game, so a change to
// digest_of needs the same change here. observation_key hashes the same view its own (faster) way: the same test
// checks that it tells apart exactly the views the digest and the ply tell apart.
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "fnv.hpp"
#include "word_hash.hpp"
#include "state.hpp"

namespace hr {

namespace {

/// What every seat sees alike, fed the same way by both hashes below: the tiles on the tracks, the figures' places
/// on them, the counters and the scores.
template <class Hasher>
void hash_public(Hasher& f, const std::vector<TilePlacement>& tiles, const std::vector<FigurePlace>& figures,
                 const std::vector<std::int64_t>& counters, const std::vector<std::int64_t>& match_scores,
                 const std::vector<std::vector<std::int64_t>>& round_scores) {
  for (const auto& t : tiles) f.value(t.component), f.value(t.rotation);
  for (const auto& p : figures) f.value(p.track), f.value(p.space);
  f.bytes(counters.data(), counters.size() * sizeof(std::int64_t));
  f.bytes(match_scores.data(), match_scores.size() * sizeof(std::int64_t));
  for (const auto& r : round_scores) f.bytes(r.data(), r.size() * sizeof(std::int64_t));
}

}  // namespace

template <class Hasher>
void GameState::hash_observation(Hasher& f, int seat) const {
  if (seat < 1 || seat > layout_->seats) [[unlikely]] no_seat(seat);
  const auto bit = static_cast<std::uint8_t>(1u << (seat - 1));
  // observation(): a card is masked unless the seat knows it (its bit) or it is a top-card zone's shown top.
  const auto known = [&](ComponentId c) { return (seen_by_[c] & bit) || top_shown(c); };
  for (std::size_t z = 0; z < zone_size_.size(); ++z) {
    f.value(zone_size_[z]);
    for (ComponentId c : cards(static_cast<ZoneId>(z))) f.value(known(c) ? c : kUnknownComponent);
  }
  for (std::size_t c = 0; c < capacity_; ++c) {
    const std::uint8_t seen = known(static_cast<ComponentId>(c)) ? seen_by_[c] : std::uint8_t{0};
    f.value(seen);
  }
  hash_public(f, tiles_, figures_, counters_, match_scores_, round_scores_);
  if (!layout_->boards.empty()) {
    for (const auto& p : figures_) f.value(p.board), f.value(p.kind), f.value(p.site);
    f.bytes(face_tile_.data(), face_tile_.size() * sizeof(ComponentId));
    // A masked card's place is Place{} (not a tile): only the placed tiles the seat knows are hashed.
    for (std::size_t c = 0; c < capacity_; ++c)
      if (place_[c].site_kind == SiteKind::Tile && known(static_cast<ComponentId>(c)))
        f.value(c), f.value(place_[c].site), f.value(place_[c].rotation);
    f.bytes(marks_.data(), marks_.size());
    f.bytes(lying_key_.data(), lying_key_.size() * sizeof(std::uint32_t));
    // A face-down token lying on a site: the site shows that one lies there, not which (seen-by only: not in a zone).
    for (ComponentId c : lying_) f.value(seen_by_[c] & bit ? c : kUnknownComponent);
  }
  f.value(to_move_), f.value(phase_), f.value(round_), f.value(over_), f.value(round_end_requested_);
}

std::uint64_t GameState::observation_digest(int seat) const {
  Fnv f;
  hash_observation(f, seat);
  return f.h;
}

std::uint64_t GameState::observation_key(int seat) const {
  // What hash_observation feeds, packed by hand (four cards or eight seen-by bytes a word) and with each board's faces
  // and marks as its key (board_keys.cpp): a different value, equal for the same views as observation_digest.
  if (seat < 1 || seat > layout_->seats) [[unlikely]] no_seat(seat);
  const auto bit = static_cast<std::uint8_t>(1u << (seat - 1));
  WordHash f;
  for (std::size_t z = 0; z < zone_size_.size(); ++z) {
    const std::span<const ComponentId> here = cards(static_cast<ZoneId>(z));
    const bool shows_top = layout_->reveals_top(static_cast<ZoneId>(z));  // top_shown: the top card of such a zone
    std::uint64_t w = zone_size_[z];
    unsigned k = 1;
    for (std::size_t i = 0; i < here.size(); ++i) {
      const ComponentId c = here[i];
      const bool known = (seen_by_[c] & bit) || (shows_top && i + 1 == here.size());
      w |= std::uint64_t{known ? c : kUnknownComponent} << (16 * k);
      if (++k == 4) f.mix(w), w = 0, k = 0;
    }
    if (k) f.mix(w);
  }
  // Each card's seen-by bits where the seat knows it (0 where it does not), and where each tile it knows lies.
  WordHash placed;
  std::uint64_t w = 0;
  unsigned k = 0;
  for (std::size_t c = 0; c < capacity_; ++c) {
    std::uint8_t seen = seen_by_[c];
    if (seen != 0 && !(seen & bit) && !top_shown(static_cast<ComponentId>(c))) seen = 0;
    w |= std::uint64_t{seen} << (8 * k);
    if (++k == 8) f.mix(w), w = 0, k = 0;
    const Place& p = place_[c];
    if (p.site_kind == SiteKind::Tile && ((seen_by_[c] & bit) || top_shown(static_cast<ComponentId>(c))))
      placed.mix(static_cast<std::uint64_t>(c) << 40 | static_cast<std::uint64_t>(p.board) << 32 |
                 static_cast<std::uint64_t>(p.site) << 8 | p.rotation);
  }
  if (k) f.mix(w);
  hash_public(f, tiles_, figures_, counters_, match_scores_, round_scores_);
  if (!layout_->boards.empty()) {
    for (const auto& p : figures_) f.value(p.board), f.value(p.kind), f.value(p.site);
    for (std::size_t b = 0; b < layout_->boards.size(); ++b) f.word(board_keys_[2 * b]);
    f.word(placed.finish());
    f.bytes(lying_key_.data(), lying_key_.size() * sizeof(std::uint32_t));
    // A face-down token lying on a site: the site shows that one lies there, not which (seen-by only: not in a zone).
    for (ComponentId c : lying_) f.value(seen_by_[c] & bit ? c : kUnknownComponent);
  }
  f.value(to_move_), f.value(phase_), f.value(round_), f.value(over_), f.value(round_end_requested_);
  f.value(ply_);  // public (InformationSet::ply): a hook may read it (game:ply), so two plies are two views
  return f.finish();
}

}  // namespace hr
