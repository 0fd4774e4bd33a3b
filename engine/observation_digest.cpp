// observation_digest.cpp — GameState::observation_digest and observation_key: what one seat sees, hashed without the
// copy that observation() makes. hash_observation feeds a hasher the same bytes, in the same order, as
// observation(seat).position_digest() feeds Fnv (GameState::digest_of in state.cpp, with_history false):
// tests/games/ismcts_memo_test.cpp checks observation_digest against it on real states of every game, so a change to
// digest_of needs the same change here.
#include <cstring>
#include <type_traits>

#include "fnv.hpp"
#include "word_hash.hpp"
#include "state.hpp"

namespace hr {

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
  for (const auto& t : tiles_) f.value(t.component), f.value(t.rotation);
  for (const auto& p : figures_) f.value(p.track), f.value(p.space);
  f.bytes(counters_.data(), counters_.size() * sizeof(std::int64_t));
  f.bytes(match_scores_.data(), match_scores_.size() * sizeof(std::int64_t));
  for (const auto& r : round_scores_) f.bytes(r.data(), r.size() * sizeof(std::int64_t));
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
  WordHash f;
  hash_observation(f, seat);
  f.value(ply_);  // public (InformationSet::ply): a hook may read it (game:ply), so two plies are two views
  return f.finish();
}

}  // namespace hr
