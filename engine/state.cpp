// state.cpp — operations on the mutable game state.
#include "state.hpp"
#include "fnv.hpp"

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
      face_tile_(static_cast<std::size_t>(layout.board_faces()), kNoComponent),
      marks_(static_cast<std::size_t>(layout.mark_cells()), 0),
      board_keys_(2 * layout.boards.size(), 0),  // no tile, no mark: every code XOR-ed is none
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

void GameState::no_component(ComponentId c) const {
  throw LayoutError("no component number " + std::to_string(c + 1));
}

void GameState::no_zone(ZoneId z) const { throw LayoutError("no zone number " + std::to_string(z + 1)); }

void GameState::remove_from_place(ComponentId c) {
  const Place p = place_[c];
  if (p.site_kind == SiteKind::Tile) {
    each_footprint_face(c, p.board, p.site, p.rotation, [&](int f) {
      if (f < 0) return;
      ComponentId& face = face_tile_[static_cast<std::size_t>(layout_->board_face_offset(p.board) + f)];
      note(face);
      toggle_face_key(p.board, f, face);
      face = kNoComponent;
    });
    toggle_anchor_key(p.board, c, p.site, p.rotation);
  } else if (p.lying()) {
    note_lying();
    const std::uint32_t key = site_key(p.board, p.site_kind, p.site);
    auto it = std::lower_bound(lying_key_.begin(), lying_key_.end(), key);
    std::size_t i = static_cast<std::size_t>(it - lying_key_.begin());
    while (i < lying_.size() && lying_[i] != c) ++i;
    lying_key_.erase(lying_key_.begin() + static_cast<std::ptrdiff_t>(i));
    lying_.erase(lying_.begin() + static_cast<std::ptrdiff_t>(i));
  } else if (p.in_zone()) {
    ComponentId* base = slots_.data() + static_cast<std::size_t>(p.zone) * capacity_;
    const int n = zone_size_[p.zone];
    int i = n - 1;  // most moves take the top card: search from the top
    while (i >= 0 && base[i] != c) --i;
    if (i == n - 1)
      note(base[i]);  // (a constant size: the usual case, the top card)
    else
      note(base + i, static_cast<std::size_t>(n - i) * sizeof(ComponentId));
    note(zone_size_[p.zone]);
    // The top card of a top-card zone lay face up: whoever takes it, everybody saw it (not while dealing).
    if (i == n - 1 && !quiet_ && layout_->reveals_top(p.zone)) note(seen_by_[c]), seen_by_[c] = layout_->all_seats_mask();
    if (i < n - 1)  // (most moves take the top card: nothing to close up)
      std::memmove(base + i, base + i + 1, static_cast<std::size_t>(n - 1 - i) * sizeof(ComponentId));
    base[n - 1] = kNoComponent;
    zone_size_[p.zone] = static_cast<std::uint16_t>(n - 1);
  } else {
    TilePlacement& tile = tiles_[static_cast<std::size_t>(layout_->track_offset(p.track) + p.space - 1)];
    note(tile);
    tile = TilePlacement{};
  }
}

void GameState::move(ComponentId c, ZoneId to, int index) {
  check_component(c);
  check_zone(to);
  if (masked_for_) throw LayoutError("an observation cannot be changed");
  const Place p = place_[c];
  const int size_after_removal = zone_size_[to] - (p.zone == to ? 1 : 0);
  if (index > size_after_removal)
    throw LayoutError("position " + std::to_string(index + 1) + " is past the top of zone '" +
                      layout_->zones[to].name + "'");
  if (index < 0) index = size_after_removal;
  if (!p.in_zone()) {  // from a track, a site or a board: the general removal, then the insertion below
    remove_from_place(c);
    ComponentId* base = slots_.data() + static_cast<std::size_t>(to) * capacity_;
    const int n = zone_size_[to];
    note(base + index, static_cast<std::size_t>(n + 1 - index) * sizeof(ComponentId));
    note(zone_size_[to]);
    note(place_[c]);
    note(seen_by_[c]);
    if (index < n) std::memmove(base + index + 1, base + index, static_cast<std::size_t>(n - index) * sizeof(ComponentId));
    base[index] = c;
    zone_size_[to] = static_cast<std::uint16_t>(n + 1);
    place_[c] = Place{to, 0, 0};
    seen_by_[c] |= layout_->grant_mask(to);
    return;
  }
  // Zone to zone, the usual move: one record of what it overwrites (note_zone_move), then the change. The removal
  // is remove_from_place's zone case without its saves, inline here (a shared helper cost 1.6% more instructions a
  // ply on the native per-ply path: the record's writes make the compiler reload the zone's size and slots).
  ComponentId* from = slots_.data() + static_cast<std::size_t>(p.zone) * capacity_;
  const int n = zone_size_[p.zone];
  int i = n - 1;  // most moves take the top card: search from the top
  while (i > 0 && from[i] != c) --i;
  if (undo_.active) note_zone_move(c, p.zone, i, to, index);
  // The top card of a top-card zone lay face up: whoever takes it, everybody saw it (not while dealing).
  if (i == n - 1 && !quiet_ && layout_->reveals_top(p.zone)) seen_by_[c] = layout_->all_seats_mask();
  if (i < n - 1) {  // (most moves take the top card: nothing to close up)
    if (n - 1 - i <= 8 && static_cast<std::size_t>(i) + 9 <= capacity_) {
      // A short shift (a card out of a hand) as one fixed 16-byte copy, not a call: it stays inside the zone's
      // slots (i + 9 <= capacity_), and past the top it only moves empty slots onto empty slots.
      unsigned char next[8 * sizeof(ComponentId)];
      std::memcpy(next, from + i + 1, sizeof next);
      std::memcpy(from + i, next, sizeof next);
    } else {
      std::memmove(from + i, from + i + 1, static_cast<std::size_t>(n - 1 - i) * sizeof(ComponentId));
    }
  }
  from[n - 1] = kNoComponent;
  zone_size_[p.zone] = static_cast<std::uint16_t>(n - 1);
  ComponentId* base = slots_.data() + static_cast<std::size_t>(to) * capacity_;
  const int m = zone_size_[to];
  if (index < m)  // (most moves put the card on top: nothing to open up)
    std::memmove(base + index + 1, base + index, static_cast<std::size_t>(m - index) * sizeof(ComponentId));
  base[index] = c;
  zone_size_[to] = static_cast<std::uint16_t>(m + 1);
  place_[c] = Place{to, 0, 0};
  seen_by_[c] |= layout_->grant_mask(to);
}

void GameState::note_shifted(ComponentId* from_base, int i, int n, ComponentId* to_base, int index, int top_after) {
  if (i < n - 1) save(from_base + i, static_cast<std::size_t>(n - 1 - i) * sizeof(ComponentId));
  if (index < top_after) save(to_base + index, static_cast<std::size_t>(top_after - index) * sizeof(ComponentId));
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
  if (undo_.active) {
    note(slots_.data(), slots_.size() * sizeof(ComponentId));
    note(zone_size_.data(), zone_size_.size() * sizeof(std::uint16_t));
    note(tiles_.data(), tiles_.size() * sizeof(TilePlacement));
    note(face_tile_.data(), face_tile_.size() * sizeof(ComponentId));
    note(board_keys_.data(), board_keys_.size() * sizeof(std::uint64_t));
    note(place_.data(), place_.size() * sizeof(Place));
    note(seen_by_.data(), seen_by_.size());
    note_lying();
  }
  std::fill(slots_.begin(), slots_.end(), kNoComponent);
  std::fill(zone_size_.begin(), zone_size_.end(), std::uint16_t{0});
  std::fill(tiles_.begin(), tiles_.end(), TilePlacement{});
  std::fill(face_tile_.begin(), face_tile_.end(), kNoComponent);
  lying_key_.clear();
  lying_.clear();
  ComponentId* base = slots_.data() + static_cast<std::size_t>(to) * capacity_;
  const std::uint8_t grant = layout_->grant_mask(to);
  for (std::size_t c = 0; c < capacity_; ++c) {
    base[c] = static_cast<ComponentId>(c);
    place_[c] = Place{to, 0, 0};
    seen_by_[c] |= grant;
  }
  zone_size_[to] = static_cast<std::uint16_t>(capacity_);
  // No tile on any face any more; the marks stay. Copied into the keys' own buffer: the undo log noted its address.
  const std::vector<std::uint64_t> keys = computed_board_keys();
  std::copy(keys.begin(), keys.end(), board_keys_.begin());
}

int GameState::deal(ZoneId from, std::span<const ZoneId> to, int count) {
  // Dealing a zone to itself would never empty it (and loop `count` times); every other deal ends when
  // `from` is empty, after at most its size moves.
  check_zone(from);
  if (std::find(to.begin(), to.end(), from) != to.end())
    throw LayoutError("cannot deal zone '" + layout_->zones[from].name + "' to itself");
  int dealt = 0;
  const bool was_quiet = quiet_;
  quiet_ = true;  // cards are dealt face down: a top-card deck shows only the card left on top
  struct Restore {
    bool& flag;
    bool value;
    ~Restore() { flag = value; }
  } restore{quiet_, was_quiet};
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
  note(cards.data(), cards.size_bytes());
  note(seen_by_.data(), seen_by_.size());
  rng_.shuffle(cards);
  if (layout_->zones[z].visibility == Visibility::Hidden || layout_->reveals_top(z))
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
  TilePlacement& tile = tiles_[static_cast<std::size_t>(layout_->track_offset(track) + space - 1)];
  note(tile);
  note(place_[c]);
  note(seen_by_[c]);
  tile = TilePlacement{c, static_cast<std::uint8_t>(rotation)};
  place_[c] = Place{kNoZone, static_cast<std::uint8_t>(track), static_cast<std::uint8_t>(space)};
  seen_by_[c] = layout_->all_seats_mask();  // tiles on the board lie face up
}

void GameState::move_figure(int figure, int track, int space) {
  if (figure < 0 || figure >= static_cast<int>(figures_.size()))
    throw LayoutError("no figure number " + std::to_string(figure + 1));
  if (track == -1) {
    note(figures_[figure]);
    figures_[figure] = FigurePlace{};
    return;
  }
  tile_at(track, space);  // range check
  note(figures_[figure]);
  figures_[figure] = FigurePlace{static_cast<std::int16_t>(track), static_cast<std::int16_t>(space)};
}

std::vector<int> GameState::figures_at(int track, int space) const {
  std::vector<int> out;
  for (std::size_t f = 0; f < figures_.size(); ++f)
    if (figures_[f].track == track && figures_[f].space == space) out.push_back(static_cast<int>(f));
  return out;
}

void GameState::no_seat(int seat) const {
  throw LayoutError("no " + seat_text(seat) + " in a game of " + std::to_string(layout_->seats) + " seats");
}

bool GameState::close_round(std::span<const std::int64_t> scores) {
  std::int64_t totals[64];
  const std::size_t n = std::min({match_scores_.size(), scores.size(), std::size(totals)});
  for (std::size_t s = 0; s < n; ++s)
    if (__builtin_add_overflow(match_scores_[s], scores[s], &totals[s]))
      throw LayoutError("seat " + std::to_string(s + 1) + "'s match total overflows (" + std::to_string(match_scores_[s]) +
                        " + " + std::to_string(scores[s]) + ")");
  note(match_scores_.data(), match_scores_.size() * sizeof(std::int64_t));
  round_scores_.emplace_back(scores.begin(), scores.end());
  std::copy(totals, totals + n, match_scores_.begin());
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
      if (!(seen_by_[c] & bit) && !top_shown(c)) c = kUnknownComponent;
  // FIX (engine tests): the per-component tables must be masked too. Before, view.place_of(c) gave the
  // real zone of a card the seat cannot see, and view.seen_by(c) told whether it was in an opponent's
  // hand (that seat's bit) or in the deck (0) — a bot holding an observation could peek (DESIGN.md §4).
  // An unknown card now has place Place{} (no zone, space 0: "unknown") and seen_by 0.
  for (ComponentId& c : view.lying_)
    if (!(seen_by_[c] & bit)) c = kUnknownComponent;  // a face-down token: the site shows that one lies there
  for (std::size_t c = 0; c < capacity_; ++c)
    if (!(seen_by_[c] & bit) && !top_shown(static_cast<ComponentId>(c))) {
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
    if ((place_[c].in_zone() || place_[c].lying()) && !(seen_by_[c] & bit) && !top_shown(static_cast<ComponentId>(c)))
      unknown.push_back(static_cast<ComponentId>(c));
  // `unknown` is in id order, so the sample depends only on the set of unknown cards (what the seat knows)
  // and on `rng`; the slots to fill are visited in zone and position order, which are public.
  rng.shuffle(std::span<ComponentId>(unknown));
  // Backs: a component's string attribute `back` (none: one common back) is what anyone sees of it face down,
  // so a slot is refilled with an unknown card of the same back as the card it held (a river tile's slot with a
  // river tile, a gold token's with a gold token). With one back this is exactly the plain deal.
  // (Layout::back_index numbers the backs: only their equality counts here.)
  const auto back_of = [this](ComponentId c) { return layout_->back_index(c); };
  // A zone that `holds` only some components (ZoneDef::holds: public knowledge) is refilled first, each slot with
  // the next unknown card of its back that may be there; then every other slot, in zone and position order, with the
  // next card of its back not taken yet. For a state the rules made, some card fits each slot (the real one); should
  // none be left, the slot waits for the second pass (what is left fits it as well as anything: no card is peeked).
  std::vector<char> taken(unknown.size(), 0);
  std::vector<std::size_t> next(static_cast<std::size_t>(layout_->back_count()) + 1, 0);  // per back: the next position in `unknown` to look at
  auto take = [&](ComponentId held) {
    std::size_t& i = next[static_cast<std::size_t>(back_of(held))];
    while (taken[i] || back_of(unknown[i]) != back_of(held)) ++i;
    taken[i] = 1;
    return unknown[i++];
  };
  auto fill = [&](std::size_t z, int i, ComponentId c) {
    sample.slots_[z * capacity_ + static_cast<std::size_t>(i)] = c;
    sample.place_[c] = Place{static_cast<ZoneId>(z), 0, 0};
  };
  auto unknown_slot = [&](std::size_t z, int i) {
    const ComponentId held = slots_[z * capacity_ + static_cast<std::size_t>(i)];
    return !(seen_by_[held] & bit) && !top_shown(held);
  };
  std::vector<char> filled;  // per slot of a zone that holds only some components: refilled in the first pass
  for (std::size_t z = 0; z < zone_size_.size(); ++z) {
    const std::string& holds = layout_->zones[z].holds;
    if (holds.empty()) continue;
    if (filled.empty()) filled.assign(slots_.size(), 0);
    for (int i = 0; i < zone_size_[z]; ++i) {
      if (!unknown_slot(z, i)) continue;
      const int back = back_of(slots_[z * capacity_ + static_cast<std::size_t>(i)]);
      for (std::size_t k = 0; k < unknown.size(); ++k)
        if (!taken[k] && back_of(unknown[k]) == back && attribute_set(layout_->components[unknown[k]].attribute(holds))) {
          taken[k] = 1;
          fill(z, i, unknown[k]);
          filled[z * capacity_ + static_cast<std::size_t>(i)] = 1;
          break;
        }
    }
  }
  for (std::size_t z = 0; z < zone_size_.size(); ++z)
    for (int i = 0; i < zone_size_[z]; ++i)
      if (unknown_slot(z, i) && (filled.empty() || !filled[z * capacity_ + static_cast<std::size_t>(i)]))
        fill(z, i, take(slots_[z * capacity_ + static_cast<std::size_t>(i)]));
  for (std::size_t i = 0; i < lying_.size(); ++i)  // then the face-down components on the boards, in site order
    if (!(seen_by_[lying_[i]] & bit)) {
      const ComponentId c = take(lying_[i]);
      sample.lying_[i] = c;
      sample.place_[c] = place_of_key(lying_key_[i]);
    }
  // seen_by of each moved card: what the seat (and, conservatively, everybody else) knows of the slot it
  // now fills is "unknown to seat"; other seats' knowledge is not part of this seat's information, so it
  // is recomputed from the zone grants alone.
  for (ComponentId c : unknown)
    sample.seen_by_[c] = sample.place_[c].in_zone() ? layout_->grant_mask(sample.place_[c].zone) : 0;
  sample.rng_.reseed(rng.next());
  return sample;
}

std::string GameState::check_invariants() const {
  std::vector<int> count(capacity_, 0);
  for (std::size_t z = 0; z < zone_size_.size(); ++z) {
    const auto cards_here = cards(static_cast<ZoneId>(z));
    for (std::size_t i = cards_here.size(); i < capacity_; ++i)  // the undo log's move records rely on it
      if (slots_[z * capacity_ + i] != kNoComponent)
        return "zone '" + layout_->zones[z].name + "' has a component in a slot past its top";
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
  for (std::size_t b = 0; b < layout_->boards.size(); ++b) {
    const BoardDef& board = layout_->boards[b];
    for (int f = 0; f < board.lattice.faces(); ++f) {
      const ComponentId c = tile_on(static_cast<int>(b), f);
      if (c == kNoComponent) continue;
      if (c >= capacity_) return "board '" + board.name + "' holds an invalid tile";
      const Place p = place_[c];
      if (p.site_kind != SiteKind::Tile || p.board != b)
        return "tile '" + layout_->components[c].name + "' lies on face " + board.lattice.face_text(f) + " of board '" +
               board.name + "' but its place says otherwise";
    }
  }
  for (std::size_t c = 0; c < capacity_; ++c) {
    const Place p = place_[c];
    if (p.site_kind != SiteKind::Tile) continue;
    const BoardDef& board = layout_->boards[p.board];
    bool whole = true;
    each_footprint_face(static_cast<ComponentId>(c), p.board, p.site, p.rotation,
                        [&](int f) { whole = whole && f >= 0 && tile_on(p.board, f) == c; });
    if (!whole)
      return "tile '" + layout_->components[c].name + "' is placed at " + board.lattice.vertex_text(p.site) + " r" +
             std::to_string(p.rotation) + " on board '" + board.name + "' but does not cover its faces";
    ++count[c];
  }
  if (board_keys_ != computed_board_keys()) return "the board keys are out of date (a change to a board not keyed)";
  for (std::size_t i = 0; i < lying_.size(); ++i) {
    const ComponentId c = lying_[i];
    if (c >= capacity_) return "a board site holds an invalid component";
    if (i > 0 && lying_key_[i - 1] > lying_key_[i]) return "the components lying on the boards are out of order";
    ++count[c];
    if (place_[c] != place_of_key(lying_key_[i]))
      return "component '" + layout_->components[c].name + "' lies on board '" + layout_->boards[place_[c].board].name +
             "' but its place says otherwise";
  }
  for (std::size_t c = 0; c < capacity_; ++c)
    if (count[c] != 1)
      return "component '" + layout_->components[c].name + "' is in " + std::to_string(count[c]) + " places";
  return {};
}

bool GameState::begin_undo() {
  if (undo_.active) return false;
  UndoLog& u = undo_;
  u.active = true;
  u.lying_saved = false;
  u.count = 0;
  u.used = 0;
  u.moves_used = 0;
  u.rounds_scored = round_scores_.size();
  u.rng = rng_;
  u.ply = ply_;
  u.to_move = to_move_;
  u.phase = phase_;
  u.round = round_;
  u.quiet = quiet_;
  u.round_end_requested = round_end_requested_;
  u.over = over_;
  return true;
}

void GameState::grow_undo(std::size_t size) {
  UndoLog& u = undo_;
  if (u.used + size > u.bytes.size()) u.bytes.resize(std::max<std::size_t>(2 * u.bytes.size(), u.used + size + 1024));
  if (u.count == u.entries.size()) u.entries.resize(std::max<std::size_t>(2 * u.entries.size(), 64));
  if (u.moves_used == u.moves.size()) u.moves.resize(std::max<std::size_t>(2 * u.moves.size(), 32));
}

void GameState::note_lying() {
  if (!undo_.active || undo_.lying_saved) return;
  undo_.lying_key = lying_key_;
  undo_.lying = lying_;
  undo_.lying_saved = true;
}

void GameState::rollback() noexcept {
  UndoLog& u = undo_;
  if (!u.active) return;
  for (std::size_t i = u.count; i-- > 0;) {
    const UndoLog::Entry& e = u.entries[i];
    if (e.at != nullptr) {
      std::memcpy(e.at, u.bytes.data() + e.offset, e.size);
      continue;
    }
    const UndoLog::ZoneMove& r = u.moves[e.offset];  // a zone-to-zone move (note_zone_move): its values before it
    zone_size_[r.to] = r.to_size;
    slots_[static_cast<std::size_t>(r.to) * capacity_ + r.to_top_slot] = r.to_top;
    zone_size_[r.from] = r.from_size;
    slots_[static_cast<std::size_t>(r.from) * capacity_ + r.from_size - 1u] = r.from_top;
    place_[r.component] = r.place;
    seen_by_[r.component] = r.seen_by;
  }
  if (u.lying_saved) {  // swaps: no allocation (the log's copies take the changed tables, dropped next time)
    lying_key_.swap(u.lying_key);
    lying_.swap(u.lying);
  }
  if (round_scores_.size() > u.rounds_scored)
    round_scores_.erase(round_scores_.begin() + static_cast<std::ptrdiff_t>(u.rounds_scored), round_scores_.end());
  rng_ = u.rng;
  ply_ = u.ply;
  to_move_ = u.to_move;
  phase_ = u.phase;
  round_ = u.round;
  quiet_ = u.quiet;
  round_end_requested_ = u.round_end_requested;
  over_ = u.over;
  u.active = false;
}

bool GameState::operator==(const GameState& o) const {
  return layout_ == o.layout_ && slots_ == o.slots_ && zone_size_ == o.zone_size_ && place_ == o.place_ &&
         seen_by_ == o.seen_by_ && tiles_ == o.tiles_ && figures_ == o.figures_ && counters_ == o.counters_ &&
         match_scores_ == o.match_scores_ && round_scores_ == o.round_scores_ && rng_ == o.rng_ &&
         ply_ == o.ply_ && to_move_ == o.to_move_ && phase_ == o.phase_ && round_ == o.round_ &&
         masked_for_ == o.masked_for_ && round_end_requested_ == o.round_end_requested_ && over_ == o.over_ &&
         face_tile_ == o.face_tile_ && marks_ == o.marks_ && lying_key_ == o.lying_key_ && lying_ == o.lying_;
}

// (GameState::observation_digest, observation_digest.cpp, feeds the same bytes for what a seat sees: keep the two
// in step.)
std::uint64_t GameState::digest_of(bool with_history) const {
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
  if (layout_ && !layout_->boards.empty()) {  // (only then: the digests of games without boards stay as they were)
    for (const auto& p : figures_) f.value(p.board), f.value(p.kind), f.value(p.site);
    f.bytes(face_tile_.data(), face_tile_.size() * sizeof(ComponentId));
    for (std::size_t c = 0; c < capacity_; ++c)
      if (place_[c].site_kind == SiteKind::Tile) f.value(c), f.value(place_[c].site), f.value(place_[c].rotation);
    f.bytes(marks_.data(), marks_.size());
    f.bytes(lying_key_.data(), lying_key_.size() * sizeof(std::uint32_t));
    f.bytes(lying_.data(), lying_.size() * sizeof(ComponentId));
  }
  if (with_history) f.value(rng_), f.value(ply_);  // (same bytes in the same order as before: golden digests hold)
  f.value(to_move_), f.value(phase_), f.value(round_), f.value(over_), f.value(round_end_requested_);
  return f.h;
}

}  // namespace hr

// ---- lattice boards ----------------------------------------------------------------------------------------

namespace hr {

namespace {
std::string board_name(const Layout& layout, int board) { return "board '" + layout.boards[static_cast<std::size_t>(board)].name + "'"; }
}  // namespace

template <class F>
bool GameState::each_footprint_face(ComponentId c, int board, int anchor, int rotation, F&& fn) const {
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  const Coord at = def.lattice.vertex_coord(anchor);
  for (const FaceCoord& local : def.footprints[static_cast<std::size_t>(layout_->components[c].shape)][static_cast<std::size_t>(rotation)]) {
    const int f = def.lattice.face_at(Lattice::translate(local, at));
    fn(f);
    if (f < 0) return false;
  }
  return true;
}

void GameState::check_site(int board, SiteKind kind, int id) const {
  if (board < 0 || board >= static_cast<int>(layout_->boards.size())) throw LayoutError("no board number " + std::to_string(board + 1));
  if (kind != SiteKind::Face && kind != SiteKind::Edge && kind != SiteKind::Vertex)
    throw LayoutError("a site of " + board_name(*layout_, board) + " is a face, an edge or a vertex");
  const int n = layout_->sites(board, kind);
  if (id < 0 || id >= n)
    throw LayoutError(board_name(*layout_, board) + " has no " + std::string(to_string(kind)) + " number " +
                      std::to_string(id + 1) + " (it has " + std::to_string(n) + ")");
}

std::string GameState::placement_problem(ComponentId c, int board, int anchor, int rotation) const {
  check_component(c);
  check_site(board, SiteKind::Vertex, anchor);
  const Component& tile = layout_->components[c];
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  if (tile.shape < 0) return "'" + tile.name + "' is not a tile (it has no shape)";
  if (def.footprints[static_cast<std::size_t>(tile.shape)].empty())
    return "the shape of tile '" + tile.name + "' is not made for the " + std::string(to_string(def.lattice.kind())) +
           " " + board_name(*layout_, board);
  if (rotation < 0 || rotation >= def.lattice.rotations())
    return "rotation " + std::to_string(rotation) + " is not one of 0.." + std::to_string(def.lattice.rotations() - 1);
  const Coord at = def.lattice.vertex_coord(anchor);
  for (const FaceCoord& local : def.footprints[static_cast<std::size_t>(tile.shape)][static_cast<std::size_t>(rotation)]) {
    const FaceCoord global = Lattice::translate(local, at);
    const int f = def.lattice.face_at(global);
    const std::string where = "tile '" + tile.name + "' at " + def.lattice.vertex_text(anchor) + " r" + std::to_string(rotation) + ": face ";
    if (f < 0) return where + def.lattice.face_text(global) + " is off " + board_name(*layout_, board);
    const ComponentId there = tile_on(board, f);
    if (there != kNoComponent && there != c)
      return where + def.lattice.face_text(f) + " of " + board_name(*layout_, board) + " already holds tile '" +
             layout_->components[there].name + "'";
  }
  return {};
}

void GameState::place_tile_on(ComponentId c, int board, int anchor, int rotation) {
  if (masked_for_) throw LayoutError("an observation cannot be changed");
  if (std::string problem = placement_problem(c, board, anchor, rotation); !problem.empty()) throw LayoutError(problem);
  remove_from_place(c);
  each_footprint_face(c, board, anchor, rotation, [&](int f) {
    ComponentId& face = face_tile_[static_cast<std::size_t>(layout_->board_face_offset(board) + f)];
    note(face);
    face = c;
    toggle_face_key(board, f, c);
  });
  toggle_anchor_key(board, c, anchor, rotation);
  note(place_[c]);
  note(seen_by_[c]);
  Place p;
  p.board = static_cast<std::uint8_t>(board);
  p.site_kind = SiteKind::Tile;
  p.site = static_cast<std::uint16_t>(anchor);
  p.rotation = static_cast<std::uint8_t>(rotation);
  place_[c] = p;
  seen_by_[c] = layout_->all_seats_mask();  // tiles on the board lie face up
}

void GameState::placements(ComponentId c, int board, std::vector<std::int32_t>& out) const {
  out.clear();
  check_component(c);
  check_site(board, SiteKind::Vertex, 0);
  const Component& tile = layout_->components[c];
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  if (tile.shape < 0 || def.footprints[static_cast<std::size_t>(tile.shape)].empty())
    throw LayoutError(placement_problem(c, board, 0, 0));
  const int rotations = def.lattice.rotations();
  const auto& per_rotation = def.footprints[static_cast<std::size_t>(tile.shape)];
  const ComponentId* tiles = face_tile_.data() + layout_->board_face_offset(board);
  for (int v = 0; v < def.lattice.vertices(); ++v) {
    const Coord at = def.lattice.vertex_coord(v);
    for (int r = 0; r < rotations; ++r) {
      bool fits = true;
      for (const FaceCoord& local : per_rotation[static_cast<std::size_t>(r)]) {
        const int f = def.lattice.face_at(Lattice::translate(local, at));
        if (f < 0 || (tiles[f] != kNoComponent && tiles[f] != c)) {
          fits = false;
          break;
        }
      }
      if (fits) out.push_back(v * rotations + r);
    }
  }
}

std::vector<std::int32_t> GameState::placement_faces(ComponentId c, int board, int anchor, int rotation) const {
  check_component(c);
  check_site(board, SiteKind::Vertex, anchor);
  const Component& tile = layout_->components[c];
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  if (tile.shape < 0 || def.footprints[static_cast<std::size_t>(tile.shape)].empty() || rotation < 0 ||
      rotation >= def.lattice.rotations())
    throw LayoutError(placement_problem(c, board, anchor, rotation));
  std::vector<std::int32_t> out;
  const Coord at = def.lattice.vertex_coord(anchor);
  for (const FaceCoord& local : def.footprints[static_cast<std::size_t>(tile.shape)][static_cast<std::size_t>(rotation)])
    out.push_back(def.lattice.face_at(Lattice::translate(local, at)));
  return out;
}

std::uint16_t GameState::face_feature(int board, int face) const {
  check_site(board, SiteKind::Face, face);
  const ComponentId c = tile_on(board, face);
  if (c == kNoComponent) return 0;
  const Place p = place_[c];
  const Lattice& l = layout_->boards[static_cast<std::size_t>(board)].lattice;
  const FaceCoord g = l.face_coord(face);
  const Coord at = l.vertex_coord(p.site);
  const FaceCoord local = l.rotate(FaceCoord{g.q - at.q, g.r - at.r, g.t}, -p.rotation);
  for (const auto& [f, feature] : layout_->components[c].features.faces)
    if (f == local) return feature;
  return 0;
}

std::vector<std::int32_t> GameState::tile_faces(int board, int face) const {
  check_site(board, SiteKind::Face, face);
  std::vector<std::int32_t> out;
  const ComponentId c = tile_on(board, face);
  if (c == kNoComponent) return out;
  const Lattice& l = layout_->boards[static_cast<std::size_t>(board)].lattice;
  out.push_back(face);
  for (std::size_t i = 0; i < out.size(); ++i) {
    for (const std::int32_t e : l.face_edges(out[i])) {
      const std::int32_t across = l.neighbour(out[i], e);
      if (across >= 0 && tile_on(board, across) == c && std::find(out.begin(), out.end(), across) == out.end())
        out.push_back(across);
    }
  }
  return out;
}

std::uint16_t GameState::side_feature(ComponentId c, int board, int anchor, int rotation, EdgeCoord e) const {
  const Lattice& l = layout_->boards[static_cast<std::size_t>(board)].lattice;
  const Coord at = l.vertex_coord(anchor);
  const EdgeCoord local = l.rotate(EdgeCoord{e.a - at, e.b - at}, -rotation);
  for (const auto& [side, feature] : layout_->components[c].features.sides)
    if (side == local) return feature;
  return 0;
}

std::array<std::int32_t, 2> GameState::edge_sides(int board, int edge) const {
  check_site(board, SiteKind::Edge, edge);
  return edge_sides_at(board, edge);
}

std::array<std::int32_t, 2> GameState::edge_sides_at(int board, int edge) const {
  const Lattice& l = layout_->boards[static_cast<std::size_t>(board)].lattice;
  std::array<std::int32_t, 2> out{-1, -1};
  const auto faces = l.edge_faces(edge);
  ComponentId previous = kNoComponent;
  for (std::size_t i = 0; i < faces.size(); ++i) {
    const ComponentId c = tile_on(board, faces[i]);
    if (c == kNoComponent || c == previous) continue;
    previous = c;
    const Place p = place_[c];
    out[i] = side_feature(c, board, p.site, p.rotation, l.edge_coord(edge));
  }
  return out;
}

std::uint16_t GameState::edge_feature(int board, int edge) const {
  const auto sides = edge_sides(board, edge);
  return static_cast<std::uint16_t>((sides[0] < 0 ? 0 : sides[0]) | (sides[1] < 0 ? 0 : sides[1]));
}

std::uint16_t GameState::vertex_feature(int board, int vertex) const {
  check_site(board, SiteKind::Vertex, vertex);
  const Lattice& l = layout_->boards[static_cast<std::size_t>(board)].lattice;
  std::uint16_t out = 0;
  ComponentId seen[Lattice::kMaxDegree];
  int n = 0;
  for (const std::int32_t f : l.vertex_faces(vertex)) {
    const ComponentId c = tile_on(board, f);
    if (c == kNoComponent || std::find(seen, seen + n, c) != seen + n) continue;
    seen[n++] = c;
    const Place p = place_[c];
    const Coord local = l.rotate(l.vertex_coord(vertex) - l.vertex_coord(p.site), -p.rotation);
    for (const auto& [corner, feature] : layout_->components[c].features.corners)
      if (corner == local) out |= feature;
  }
  return out;
}

std::uint8_t GameState::edge_class(int board, int edge) const {
  check_site(board, SiteKind::Edge, edge);
  return edge_class_at(board, edge);
}

std::uint8_t GameState::edge_class_at(int board, int edge) const {
  const Lattice& l = layout_->boards[static_cast<std::size_t>(board)].lattice;
  const auto faces = l.edge_faces(edge);
  const ComponentId a = tile_on(board, faces[0]);
  if (faces.size() == 1) return static_cast<std::uint8_t>(kEdgeOffboard | (a != kNoComponent ? kEdgeCovered1 : 0));
  const ComponentId b = tile_on(board, faces[1]);
  if (a == kNoComponent && b == kNoComponent) return 0;
  if (a == kNoComponent || b == kNoComponent) return kEdgeCovered1;
  return a == b ? kEdgeInner : kEdgeCovered2;
}

bool GameState::edge_passes(int board, int edge, const EdgeMask& m) const {  // (ids checked by the caller)
  if (m.class_any || m.class_none) {
    const std::uint8_t cls = edge_class_at(board, edge);
    if ((m.class_any && !(cls & m.class_any)) || (cls & m.class_none)) return false;
  }
  if (m.feature_any || m.feature_none) {
    const auto sides = edge_sides_at(board, edge);
    const auto feature = static_cast<std::uint16_t>((sides[0] < 0 ? 0 : sides[0]) | (sides[1] < 0 ? 0 : sides[1]));
    if ((m.feature_any && !(feature & m.feature_any)) || (feature & m.feature_none)) return false;
  }
  if (m.mark >= 0 && (m.mark_any || m.mark_none)) {
    const int value = marks_[static_cast<std::size_t>(layout_->mark_offset(board, m.mark) + edge)];
    if ((m.mark_any && !(value & m.mark_any)) || (value & m.mark_none)) return false;
  }
  return true;
}

namespace {
/// Checks the marks a filter names: an edge mark and a vertex mark of the board.
void check_mask(const BoardDef& def, const EdgeMask& mask) {
  if (mask.mark >= 0 && (mask.mark >= static_cast<int>(def.marks.size()) || def.marks[static_cast<std::size_t>(mask.mark)].kind != SiteKind::Edge))
    throw LayoutError("the mark of an edge filter must be an edge mark of board '" + def.name + "'");
  if (mask.through >= 0 && (mask.through >= static_cast<int>(def.marks.size()) || def.marks[static_cast<std::size_t>(mask.through)].kind != SiteKind::Vertex))
    throw LayoutError("the 'through' mark of an edge filter must be a vertex mark of board '" + def.name + "'");
}
}  // namespace

bool GameState::passes_through(int board, int vertex, const EdgeMask& m) const {
  if (m.through < 0 || !(m.through_any || m.through_none)) return true;
  const int value = marks_[static_cast<std::size_t>(layout_->mark_offset(board, m.through) + vertex)];
  return !((m.through_any && !(value & m.through_any)) || (value & m.through_none));
}

std::span<const std::int32_t> GameState::reachable(int board, int from, int k, const EdgeMask& mask, LatticeScratch& scratch) const {
  check_site(board, SiteKind::Vertex, from);
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  check_mask(def, mask);
  return def.lattice.reachable(
      from, k, [&](int e) { return edge_passes(board, e, mask); }, [&](int v) { return passes_through(board, v, mask); }, scratch);
}

bool GameState::path(int board, int from, int to, int k, const EdgeMask& mask, LatticeScratch& scratch,
                     std::vector<std::int32_t>& out) const {
  check_site(board, SiteKind::Vertex, from);
  check_site(board, SiteKind::Vertex, to);
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  check_mask(def, mask);
  return def.lattice.path(
      from, to, k, [&](int e) { return edge_passes(board, e, mask); }, [&](int v) { return passes_through(board, v, mask); },
      scratch, out);
}

int GameState::mark(int board, int mark, int id) const {
  check_site(board, SiteKind::Vertex, 0);
  const BoardDef& def = layout_->boards[static_cast<std::size_t>(board)];
  if (mark < 0 || mark >= static_cast<int>(def.marks.size())) throw LayoutError(board_name(*layout_, board) + " has no mark number " + std::to_string(mark + 1));
  check_site(board, def.marks[static_cast<std::size_t>(mark)].kind, id);
  return marks_[static_cast<std::size_t>(layout_->mark_offset(board, mark) + id)];
}

void GameState::set_mark(int board, int mark, int id, int value) {
  this->mark(board, mark, id);  // checks
  if (masked_for_) throw LayoutError("an observation cannot be changed");
  if (value < 0 || value > 255)
    throw LayoutError("mark '" + layout_->boards[static_cast<std::size_t>(board)].marks[static_cast<std::size_t>(mark)].name +
                      "' holds 0..255, not " + std::to_string(value));
  const std::size_t at = static_cast<std::size_t>(layout_->mark_offset(board, mark) + id);
  std::uint8_t& cell = marks_[at];
  note(cell);
  toggle_mark_key(board, at, cell);
  toggle_mark_key(board, at, value);
  cell = static_cast<std::uint8_t>(value);
}

void GameState::lay(ComponentId c, int board, SiteKind kind, int id, bool face_down) {
  check_component(c);
  check_site(board, kind, id);
  if (masked_for_) throw LayoutError("an observation cannot be changed");
  remove_from_place(c);
  note_lying();
  note(place_[c]);
  note(seen_by_[c]);
  const std::uint32_t key = site_key(board, kind, id);
  const auto at = std::upper_bound(lying_key_.begin(), lying_key_.end(), key) - lying_key_.begin();
  lying_key_.insert(lying_key_.begin() + at, key);
  lying_.insert(lying_.begin() + at, c);
  place_[c] = place_of_key(key);
  seen_by_[c] = face_down ? 0 : layout_->all_seats_mask();
}

std::span<const ComponentId> GameState::lying(int board, SiteKind kind, int id) const {
  check_site(board, kind, id);
  const std::uint32_t key = site_key(board, kind, id);
  const auto [first, last] = std::equal_range(lying_key_.begin(), lying_key_.end(), key);
  return {lying_.data() + (first - lying_key_.begin()), static_cast<std::size_t>(last - first)};
}

void GameState::move_figure_to_site(int figure, int board, SiteKind kind, int id) {
  if (figure < 0 || figure >= static_cast<int>(figures_.size())) throw LayoutError("no figure number " + std::to_string(figure + 1));
  check_site(board, kind, id);
  if (kind == SiteKind::Edge) throw LayoutError("a figure stands on a vertex or a face, not on an edge");
  FigurePlace p;
  p.board = static_cast<std::int16_t>(board);
  p.kind = kind;
  p.site = static_cast<std::uint16_t>(id);
  note(figures_[static_cast<std::size_t>(figure)]);
  figures_[static_cast<std::size_t>(figure)] = p;
}

std::vector<int> GameState::figures_on(int board, SiteKind kind, int id) const {
  check_site(board, kind, id);
  std::vector<int> out;
  for (std::size_t f = 0; f < figures_.size(); ++f)
    if (figures_[f].board == board && figures_[f].kind == kind && figures_[f].site == id) out.push_back(static_cast<int>(f));
  return out;
}

std::size_t GameState::board_bytes() const {
  return face_tile_.size() * sizeof(ComponentId) + marks_.size() + lying_key_.size() * sizeof(std::uint32_t) +
         lying_.size() * sizeof(ComponentId);
}

}  // namespace hr
