// state.hpp — the mutable state of one game: where every component is, counters, figures, tiles, whose
// turn it is, phase, round, the RNG, and what each seat has seen.
//
// Invariants (checked by check_invariants()):
//  * every component is in exactly one place: one slot of one zone, or one space of one track;
//  * place_of(c) agrees with the zone slots and track spaces;
//  * seen_by(c) has the bit of every seat the card's current zone grants sight to.
// A GameState is a handful of flat vectors: copying it is a few memcpy's, so search bots can copy freely,
// and a failed rules hook is rolled back by restoring a copy.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "layout.hpp"
#include "rng.hpp"

namespace hr {

/// Where a component is: in a zone (zone != kNoZone), or on space `space` (1-based) of track `track`.
struct Place {
  ZoneId zone = kNoZone;
  std::uint8_t track = 0;
  std::uint8_t space = 0;
  bool in_zone() const { return zone != kNoZone; }
  bool operator==(const Place&) const = default;
};

/// Where a figure stands: nowhere yet (track == -1, in its owner's supply) or on a track space (1-based).
struct FigurePlace {
  std::int16_t track = -1;
  std::int16_t space = 0;
  bool operator==(const FigurePlace&) const = default;
};

/// A tile lying on a track space: the component and its rotation (0..5, in steps the game defines).
struct TilePlacement {
  ComponentId component = kNoComponent;
  std::uint8_t rotation = 0;
  bool operator==(const TilePlacement&) const = default;
};

class GameState {
 public:
  GameState() = default;
  /// A fresh state: every component in the box, counters at their initial values, figures off the board,
  /// seat 1 to move, round 1, phase 0, RNG seeded with `seed`.
  GameState(const Layout& layout, std::uint64_t seed);

  const Layout& layout() const { return *layout_; }

  // ---- zones ---------------------------------------------------------------------------------------
  int size(ZoneId z) const { return zone_size_[z]; }
  /// The cards of zone z, bottom (index 0) to top.
  std::span<const ComponentId> cards(ZoneId z) const {
    return {slots_.data() + static_cast<std::size_t>(z) * capacity_, zone_size_[z]};
  }
  /// The top card of z, or kNoComponent if z is empty.
  ComponentId top(ZoneId z) const { return zone_size_[z] ? cards(z).back() : kNoComponent; }
  Place place_of(ComponentId c) const { return place_[c]; }

  /// Moves component c from wherever it is to zone `to`, on top, or at `index` (0 = bottom) when given.
  /// Throws LayoutError if c or `to` does not exist or index is past the top.
  void move(ComponentId c, ZoneId to, int index = -1);
  /// Moves the top card of `from` onto `to` and returns it; kNoComponent (and no change) if `from` is empty.
  ComponentId move_top(ZoneId from, ZoneId to);
  /// Puts c at the bottom of zone `to` (a deck's "put under").
  void put_under(ComponentId c, ZoneId to) { move(c, to, 0); }
  /// Deals `count` cards from the top of `from` to each zone of `to` in turn, one at a time (round-robin,
  /// as players deal). Stops early when `from` runs out; returns the number of cards dealt.
  int deal(ZoneId from, std::span<const ZoneId> to, int count);
  /// Moves every component (cards in zones, tiles on tracks) into zone `to`, in component-number order, bottom
  /// to top: the state is the same as after `move(c, to)` for c = 0, 1, ... in turn, at the cost of one pass.
  /// The usual start of a round: all the cards back into the deck, before the shuffle. Throws LayoutError if
  /// `to` does not exist or the state is an observation.
  void gather(ZoneId to);
  /// Shuffles zone z with the game's RNG. Cards in a hidden zone are no longer known to anyone after it
  /// (seen-by is reset to the zone's own grant).
  void shuffle(ZoneId z);
  /// Bitmask of the seats (bit s-1) that know the identity of component c where it is now.
  std::uint8_t seen_by(ComponentId c) const { return seen_by_[c]; }
  /// Marks c as known to `mask` additionally (a card shown to a player).
  void reveal(ComponentId c, std::uint8_t mask) { seen_by_[c] |= mask; }

  // ---- tracks, tiles, figures ------------------------------------------------------------------------
  /// The tile on space `space` (1-based) of `track`, or a placement with component kNoComponent.
  TilePlacement tile_at(int track, int space) const;
  /// Moves tile component c from wherever it is onto (track, space). The space must be free.
  void place_tile(ComponentId c, int track, int space, int rotation = 0);
  FigurePlace figure_place(int figure) const { return figures_.at(figure); }
  /// Puts figure f on (track, space), or off the board with track = -1. Throws LayoutError if out of range.
  void move_figure(int figure, int track, int space);
  /// Figures standing on (track, space), in figure order.
  std::vector<int> figures_at(int track, int space) const;

  // ---- counters ----------------------------------------------------------------------------------------
  /// Value of counter `counter` for `owner` (0 = supply, 1..seats). Throws LayoutError for a seat on a
  /// supply-only counter.
  std::int64_t counter(int counter, int owner = 0) const { return counters_[layout_->counter_slot(counter, owner)]; }
  void set_counter(int counter, int owner, std::int64_t value) { counters_[layout_->counter_slot(counter, owner)] = value; }

  // ---- turn sequencing -----------------------------------------------------------------------------
  int to_move() const { return to_move_; }
  void set_to_move(int seat);  ///< throws LayoutError unless 1 <= seat <= seats
  int phase() const { return phase_; }
  void set_phase(int phase) { phase_ = phase; }
  int round() const { return round_; }
  /// Plies applied so far in the whole match (one action = one ply).
  std::int64_t ply() const { return ply_; }
  void count_ply() { ++ply_; }
  /// The rules ask for the current round to end after the action being applied (scoring follows).
  void request_round_end() { round_end_requested_ = true; }
  bool round_end_requested() const { return round_end_requested_; }
  /// Records the round's scores (one per seat), adds them to the match totals, clears the request and,
  /// if rounds remain, advances to the next round; otherwise marks the game over.
  /// Returns true if a new round begins.
  bool close_round(std::span<const std::int64_t> scores);
  bool over() const { return over_; }
  /// Ends the match now (a rule can end it early). Totals stay as they are.
  void set_over() { over_ = true; }
  std::int64_t match_score(int seat) const { return match_scores_.at(seat - 1); }
  const std::vector<std::int64_t>& match_scores() const { return match_scores_; }
  /// Round scores so far: round_scores()[r][s-1].
  const std::vector<std::vector<std::int64_t>>& round_scores() const { return round_scores_; }
  /// Final places from the match totals: 1 = best, ties share a place (standard competition ranking).
  std::vector<int> ranks() const;

  Rng& rng() { return rng_; }
  const Rng& rng() const { return rng_; }

  // ---- information -------------------------------------------------------------------------------
  /// This state as `seat` sees it: every card the seat does not know is replaced by kUnknownComponent and
  /// the RNG is zeroed. The result is for reading (display, a bot's features); it is marked `masked`.
  /// For such a card c, place_of(c) is Place{} (no zone, space 0) and seen_by(c) is 0, so that nothing in
  /// the view depends on where the cards hidden from `seat` really are.
  GameState observation(int seat) const;
  /// A determinization for `seat`: the cards the seat does not know are dealt at random (from `rng`) into
  /// the places where unknown cards are, and the RNG is reseeded from `rng`. Depends only on what the seat
  /// knows and on `rng`, never on where the hidden cards really are (DESIGN.md §4).
  GameState determinized(int seat, Rng& rng) const;
  /// Seat whose observation this is, or 0 for a full state.
  int masked_for() const { return masked_for_; }

  /// Checks the invariants above; returns an empty string or a description of the first violation.
  std::string check_invariants() const;

  bool operator==(const GameState& other) const;
  /// A 64-bit FNV-1a digest of everything in the state (for golden transcripts and replay checks).
  std::uint64_t digest() const;

 private:
  void remove_from_place(ComponentId c);
  void check_component(ComponentId c) const;
  void check_zone(ZoneId z) const;

  const Layout* layout_ = nullptr;
  std::size_t capacity_ = 0;              // slots per zone = number of components
  std::vector<ComponentId> slots_;        // zone z: [z*capacity_, z*capacity_ + zone_size_[z])
  std::vector<std::uint16_t> zone_size_;
  std::vector<Place> place_;              // per component
  std::vector<std::uint8_t> seen_by_;     // per component, bit s-1 = seat s knows it
  std::vector<TilePlacement> tiles_;      // per track space (Layout::track_offset)
  std::vector<FigurePlace> figures_;
  std::vector<std::int64_t> counters_;
  std::vector<std::int64_t> match_scores_;
  std::vector<std::vector<std::int64_t>> round_scores_;
  Rng rng_;
  std::int64_t ply_ = 0;
  int to_move_ = 1;
  int phase_ = 0;
  int round_ = 1;
  int masked_for_ = 0;
  bool round_end_requested_ = false;
  bool over_ = false;
};

}  // namespace hr
