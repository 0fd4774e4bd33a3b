// state.cpp — operations on the mutable game state.
#include "state.hpp"

#include <algorithm>
#include <cstring>

namespace hr {

namespace {
std::string seat_text(int seat) { return "seat " + std::to_string(seat); }
}  // namespace

GameState::GameState(const Layout& layout, std::uint64_t seed)
    : layout_(&layout),
      capacity_(layout.components.size()),
      slots_(layout.zones.size() * layout.components.size(), kNoComponent),
      zone_size_(layout.zones.size(), 0),
      place_(layout.components.size()),
      seen_by_(layout.components.size(), 0),
      tiles_(static_cast<std::size_t>(layout.track_spaces())),
      figures_(layout.figures.size()),
      counters_(static_cast<std::size_t>(layout.counter_slots()), 0),
      match_scores_(static_cast<std::size_t>(layout.seats), 0),
      rng_(seed) {
  const ZoneId box = layout.box();
  for (std::size_t c = 0; c < capacity_; ++c) {
    slots_[box * capacity_ + c] = static_cast<ComponentId>(c);
    place_[c] = Place{box, 0, 0};
    seen_by_[c] = layout.grant_mask(box);
  }
  zone_size_[box] = static_cast<std::uint16_t>(capacity_);
  for (std::size_t i = 0; i < layout.counters.size(); ++i) {
    const CounterDef& def = layout.counters[i];
    const int owners = def.per_seat ? layout.seats : 0;
    for (int o = 0; o <= owners; ++o) counters_[layout.counter_slot(static_cast<int>(i), o)] = def.initial;
  }
}

void GameState::check_component(ComponentId c) const {
  if (c >= capacity_) throw LayoutError("no component number " + std::to_string(c + 1));
}

void GameState::check_zone(ZoneId z) const {
  if (z >= zone_size_.size()) throw LayoutError("no zone number " + std::to_string(z + 1));
}

void GameState::remove_from_place(ComponentId c) {
  const Place p = place_[c];
  if (p.in_zone()) {
    ComponentId* base = slots_.data() + static_cast<std::size_t>(p.zone) * capacity_;
    const int n = zone_size_[p.zone];
    int i = n - 1;  // most moves take the top card: search from the top
    while (i >= 0 && base[i] != c) --i;
    if (i < n - 1)  // (most moves take the top card: nothing to close up)
      std::memmove(base + i, base + i + 1, static_cast<std::size_t>(n - 1 - i) * sizeof(ComponentId));
    base[n - 1] = kNoComponent;
    zone_size_[p.zone] = static_cast<std::uint16_t>(n - 1);
  } else {
    tiles_[static_cast<std::size_t>(layout_->track_offset(p.track) + p.space - 1)] = TilePlacement{};
  }
}

void GameState::move(ComponentId c, ZoneId to, int index) {
  check_component(c);
  check_zone(to);
  if (masked_for_) throw LayoutError("an observation cannot be changed");
  const int size_after_removal = zone_size_[to] - (place_[c].zone == to ? 1 : 0);
  if (index > size_after_removal)
    throw LayoutError("position " + std::to_string(index + 1) + " is past the top of zone '" +
                      layout_->zones[to].name + "'");
  remove_from_place(c);
  ComponentId* base = slots_.data() + static_cast<std::size_t>(to) * capacity_;
  const int n = zone_size_[to];
  if (index < 0) index = n;
  if (index < n)  // (most moves put the card on top: nothing to open up)
    std::memmove(base + index + 1, base + index, static_cast<std::size_t>(n - index) * sizeof(ComponentId));
  base[index] = c;
  zone_size_[to] = static_cast<std::uint16_t>(n + 1);
  place_[c] = Place{to, 0, 0};
  seen_by_[c] |= layout_->grant_mask(to);
}

ComponentId GameState::move_top(ZoneId from, ZoneId to) {
  check_zone(from);
  const ComponentId c = top(from);
  if (c != kNoComponent) move(c, to);
  return c;
}

void GameState::gather(ZoneId to) {
  check_zone(to);
  if (masked_for_) throw LayoutError("an observation cannot be changed");
  std::fill(slots_.begin(), slots_.end(), kNoComponent);
  std::fill(zone_size_.begin(), zone_size_.end(), std::uint16_t{0});
  std::fill(tiles_.begin(), tiles_.end(), TilePlacement{});
  ComponentId* base = slots_.data() + static_cast<std::size_t>(to) * capacity_;
  const std::uint8_t grant = layout_->grant_mask(to);
  for (std::size_t c = 0; c < capacity_; ++c) {
    base[c] = static_cast<ComponentId>(c);
    place_[c] = Place{to, 0, 0};
    seen_by_[c] |= grant;
  }
  zone_size_[to] = static_cast<std::uint16_t>(capacity_);
}

int GameState::deal(ZoneId from, std::span<const ZoneId> to, int count) {
  int dealt = 0;
  for (int round = 0; round < count; ++round)
    for (ZoneId z : to) {
      if (move_top(from, z) == kNoComponent) return dealt;
      ++dealt;
    }
  return dealt;
}

void GameState::shuffle(ZoneId z) {
  check_zone(z);
  if (masked_for_) throw LayoutError("an observation cannot be changed");
  std::span<ComponentId> cards{slots_.data() + static_cast<std::size_t>(z) * capacity_, zone_size_[z]};
  rng_.shuffle(cards);
  if (layout_->zones[z].visibility == Visibility::Hidden)
    for (ComponentId c : cards) seen_by_[c] = layout_->grant_mask(z);
}

TilePlacement GameState::tile_at(int track, int space) const {
  if (track < 0 || track >= static_cast<int>(layout_->tracks.size()) || space < 1 ||
      space > static_cast<int>(layout_->tracks[track].values.size()))
    throw LayoutError("no space " + std::to_string(space) + " on track " + std::to_string(track + 1));
  return tiles_[static_cast<std::size_t>(layout_->track_offset(track) + space - 1)];
}

void GameState::place_tile(ComponentId c, int track, int space, int rotation) {
  check_component(c);
  if (tile_at(track, space).component != kNoComponent)
    throw LayoutError("space " + std::to_string(space) + " of track '" + layout_->tracks[track].name +
                      "' already holds a tile");
  if (masked_for_) throw LayoutError("an observation cannot be changed");
  remove_from_place(c);
  tiles_[static_cast<std::size_t>(layout_->track_offset(track) + space - 1)] =
      TilePlacement{c, static_cast<std::uint8_t>(rotation)};
  place_[c] = Place{kNoZone, static_cast<std::uint8_t>(track), static_cast<std::uint8_t>(space)};
  seen_by_[c] = layout_->all_seats_mask();  // tiles on the board lie face up
}

void GameState::move_figure(int figure, int track, int space) {
  if (figure < 0 || figure >= static_cast<int>(figures_.size()))
    throw LayoutError("no figure number " + std::to_string(figure + 1));
  if (track == -1) {
    figures_[figure] = FigurePlace{};
    return;
  }
  tile_at(track, space);  // range check
  figures_[figure] = FigurePlace{static_cast<std::int16_t>(track), static_cast<std::int16_t>(space)};
}

std::vector<int> GameState::figures_at(int track, int space) const {
  std::vector<int> out;
  for (std::size_t f = 0; f < figures_.size(); ++f)
    if (figures_[f].track == track && figures_[f].space == space) out.push_back(static_cast<int>(f));
  return out;
}

void GameState::set_to_move(int seat) {
  if (seat < 1 || seat > layout_->seats)
    throw LayoutError("no " + seat_text(seat) + " in a game of " + std::to_string(layout_->seats) + " seats");
  to_move_ = seat;
}

bool GameState::close_round(std::span<const std::int64_t> scores) {
  round_scores_.emplace_back(scores.begin(), scores.end());
  // Saturating: a script (or a scenario's previous_rounds) may give any int64, and a signed overflow is
  // undefined behaviour (found by the sanitizers, issue 18).
  for (std::size_t s = 0; s < match_scores_.size() && s < scores.size(); ++s)
    if (__builtin_add_overflow(match_scores_[s], scores[s], &match_scores_[s]))
      match_scores_[s] = scores[s] > 0 ? INT64_MAX : INT64_MIN;
  round_end_requested_ = false;
  if (round_ < layout_->rounds) {
    ++round_;
    phase_ = 0;
    return true;
  }
  over_ = true;
  return false;
}

std::vector<int> GameState::ranks() const {
  std::vector<int> out(match_scores_.size(), 1);
  for (std::size_t i = 0; i < match_scores_.size(); ++i)
    for (std::size_t j = 0; j < match_scores_.size(); ++j)
      if (match_scores_[j] > match_scores_[i]) ++out[i];
  return out;
}

GameState GameState::observation(int seat) const {
  GameState view = *this;
  const auto bit = static_cast<std::uint8_t>(1u << (seat - 1));
  for (std::size_t z = 0; z < zone_size_.size(); ++z)
    for (ComponentId& c : std::span<ComponentId>{view.slots_.data() + z * capacity_, zone_size_[z]})
      if (!(seen_by_[c] & bit)) c = kUnknownComponent;
  // FIX (engine tests): the per-component tables must be masked too. Before, view.place_of(c) gave the
  // real zone of a card the seat cannot see, and view.seen_by(c) told whether it was in an opponent's
  // hand (that seat's bit) or in the deck (0) — a bot holding an observation could peek (DESIGN.md §4).
  // An unknown card now has place Place{} (no zone, space 0: "unknown") and seen_by 0.
  for (std::size_t c = 0; c < capacity_; ++c)
    if (!(seen_by_[c] & bit)) {
      view.place_[c] = Place{};
      view.seen_by_[c] = 0;
    }
  view.rng_ = Rng(0);
  view.masked_for_ = seat;
  return view;
}

GameState GameState::determinized(int seat, Rng& rng) const {
  GameState sample = *this;
  const auto bit = static_cast<std::uint8_t>(1u << (seat - 1));
  std::vector<ComponentId> unknown;
  for (std::size_t c = 0; c < capacity_; ++c)
    if (place_[c].in_zone() && !(seen_by_[c] & bit)) unknown.push_back(static_cast<ComponentId>(c));
  // `unknown` is in id order, so the sample depends only on the set of unknown cards (what the seat knows)
  // and on `rng`; the slots to fill are visited in zone and position order, which are public.
  rng.shuffle(std::span<ComponentId>(unknown));
  std::size_t next = 0;
  for (std::size_t z = 0; z < zone_size_.size(); ++z) {
    ComponentId* base = sample.slots_.data() + z * capacity_;
    for (int i = 0; i < zone_size_[z]; ++i)
      if (!(seen_by_[base[i]] & bit)) {
        const ComponentId c = unknown[next++];
        base[i] = c;
        sample.place_[c] = Place{static_cast<ZoneId>(z), 0, 0};
      }
  }
  // seen_by of each moved card: what the seat (and, conservatively, everybody else) knows of the slot it
  // now fills is "unknown to seat"; other seats' knowledge is not part of this seat's information, so it
  // is recomputed from the zone grants alone.
  for (ComponentId c : unknown) sample.seen_by_[c] = layout_->grant_mask(sample.place_[c].zone);
  sample.rng_.reseed(rng.next());
  return sample;
}

std::string GameState::check_invariants() const {
  std::vector<int> count(capacity_, 0);
  for (std::size_t z = 0; z < zone_size_.size(); ++z) {
    const auto cards_here = cards(static_cast<ZoneId>(z));
    for (std::size_t i = 0; i < cards_here.size(); ++i) {
      const ComponentId c = cards_here[i];
      if (c >= capacity_) return "zone '" + layout_->zones[z].name + "' holds an invalid component";
      ++count[c];
      if (place_[c] != Place{static_cast<ZoneId>(z), 0, 0})
        return "component '" + layout_->components[c].name + "' is in zone '" + layout_->zones[z].name +
               "' but its place says otherwise";
      if ((seen_by_[c] & layout_->grant_mask(static_cast<ZoneId>(z))) != layout_->grant_mask(static_cast<ZoneId>(z)))
        return "component '" + layout_->components[c].name + "' is not known to a seat that zone '" +
               layout_->zones[z].name + "' shows it to";
    }
  }
  for (std::size_t t = 0; t < layout_->tracks.size(); ++t)
    for (std::size_t s = 1; s <= layout_->tracks[t].values.size(); ++s) {
      const TilePlacement tile = tile_at(static_cast<int>(t), static_cast<int>(s));
      if (tile.component == kNoComponent) continue;
      ++count[tile.component];
      if (place_[tile.component] != Place{kNoZone, static_cast<std::uint8_t>(t), static_cast<std::uint8_t>(s)})
        return "tile '" + layout_->components[tile.component].name + "' lies on track '" + layout_->tracks[t].name +
               "' but its place says otherwise";
    }
  for (std::size_t c = 0; c < capacity_; ++c)
    if (count[c] != 1)
      return "component '" + layout_->components[c].name + "' is in " + std::to_string(count[c]) + " places";
  return {};
}

bool GameState::operator==(const GameState& o) const {
  return layout_ == o.layout_ && slots_ == o.slots_ && zone_size_ == o.zone_size_ && place_ == o.place_ &&
         seen_by_ == o.seen_by_ && tiles_ == o.tiles_ && figures_ == o.figures_ && counters_ == o.counters_ &&
         match_scores_ == o.match_scores_ && round_scores_ == o.round_scores_ && rng_ == o.rng_ &&
         ply_ == o.ply_ && to_move_ == o.to_move_ && phase_ == o.phase_ && round_ == o.round_ &&
         masked_for_ == o.masked_for_ && round_end_requested_ == o.round_end_requested_ && over_ == o.over_;
}

namespace {
struct Fnv {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  }
  template <class T>
  void value(const T& v) { bytes(&v, sizeof v); }
};
}  // namespace

std::uint64_t GameState::digest() const {
  Fnv f;
  for (std::size_t z = 0; z < zone_size_.size(); ++z) {
    f.value(zone_size_[z]);
    const auto c = cards(static_cast<ZoneId>(z));
    f.bytes(c.data(), c.size_bytes());
  }
  f.bytes(seen_by_.data(), seen_by_.size());
  for (const auto& t : tiles_) f.value(t.component), f.value(t.rotation);
  for (const auto& p : figures_) f.value(p.track), f.value(p.space);
  f.bytes(counters_.data(), counters_.size() * sizeof(std::int64_t));
  f.bytes(match_scores_.data(), match_scores_.size() * sizeof(std::int64_t));
  for (const auto& r : round_scores_) f.bytes(r.data(), r.size() * sizeof(std::int64_t));
  f.value(rng_);
  f.value(ply_), f.value(to_move_), f.value(phase_), f.value(round_), f.value(over_), f.value(round_end_requested_);
  return f.h;
}

}  // namespace hr
