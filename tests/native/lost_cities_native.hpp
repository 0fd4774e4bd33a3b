// lost_cities_native.hpp — 2-player Lost Cities (5 colours, 3 rounds) written directly in C++: the reference
// the scripted ruleset (rulesets/lost-cities/rules.lua) is checked against, and the baseline of the benchmark.
//
// It plays exactly the same games as the script, move for move and bit for bit (same layout, same action
// codes, same kernel operations in the same order, hence the same RNG draws and the same digests).
//
// Layout (C++ ids are 0-based; the script's ids are these + 1):
//   components  for each colour yellow, blue, white, green, red: 3 wagers "Yx", then "Y2".."Y10"
//               (12 per colour, 60 in all); attributes colour (string), colour_index (1..5), value (0 for
//               a wager), wager (bool).
//   zones       deck (hidden), hand.1, hand.2 (owner), expedition.<seat>.<colour> (public, no owner; seat 1's
//               five then seat 2's), discard.<colour> (top), box (added by Layout::finalize).
//   counters    last_turns_left, last_turn_placed (declared as the script does; unused in 2-player games).
//   phases      0 place; 10 draw, or 10 + k after discarding to colour k (whose pile may not be drawn from).
//   phase       0 = place a card, 1 = draw a card.
// Action codes (the script's): play = card id + 1 (Lua id), discard = 100 + Lua id, draw from the deck =
// 200, draw from discard pile k (1..5) = 200 + k.
// Legal actions, in order: place phase, for each hand card bottom to top, play (if legal) then discard; the
// copies of a wager count as one card: only the bottom-most wager of each colour in the hand is offered (so
// each legal action has a distinct text and a transcript's text names one action). Draw phase: the deck
// (when not empty), then each non-empty discard pile 1..5 except the one discarded to in this turn.
// Rules: see /work/shared/rules/lost-cities.md. A round ends at once when the last deck card is drawn.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "layout.hpp"
#include "rules.hpp"
#include "state.hpp"

namespace hr {

class NativeLostCities final : public Rules {
 public:
  static constexpr int kColours = 5;
  static constexpr int kCardsPerColour = 12;  // 3 wagers + 2..10
  static constexpr int kCards = kColours * kCardsPerColour;
  static constexpr int kHandSize = 8;
  static constexpr Action kPlayBase = 0;      // play card with Lua id i: i
  static constexpr Action kDiscardBase = 100;  // discard card with Lua id i: 100 + i
  static constexpr Action kDrawDeck = 200;     // draw pile k: 200 + k
  // Phases, as the script numbers them: place; draw (kDraw, or kDraw + k after discarding to colour k).
  static constexpr int kPlace = 0;
  static constexpr int kDraw = 10;

  NativeLostCities();

  const Layout& layout() const override { return layout_; }
  std::string id() const override { return "lost-cities/native"; }

  std::string action_text(const GameState& state, Action action) override;
  std::int64_t score(const GameState& state, int seat) override;

  /// Static data of card c (0-based id): colour 0..4, value 2..10 (0 for a wager).
  int colour_of(ComponentId c) const { return colour_[c]; }
  int value_of(ComponentId c) const { return value_[c]; }
  bool is_wager(ComponentId c) const { return value_[c] == 0; }
  /// Zone ids.
  ZoneId deck() const { return deck_; }
  ZoneId hand(int seat) const { return hand_[seat]; }
  ZoneId expedition(int seat, int colour) const { return expedition_[seat][colour]; }
  ZoneId discard(int colour) const { return discard_[colour]; }

  /// Score of one expedition column (the cards of one colour in front of one player).
  std::int64_t column_score(const GameState& state, ZoneId column) const;

 protected:
  void start_round(GameState& state) override;
  void generate_actions(const GameState& state, std::vector<Action>& out) override;
  void do_apply(GameState& state, Action action) override;

 private:
  Layout layout_;
  std::array<std::uint8_t, kCards> colour_{};  // 0..4
  std::array<std::uint8_t, kCards> value_{};   // 0 = wager
  ZoneId deck_ = kNoZone;
  std::array<ZoneId, 3> hand_{};                           // index = seat (1, 2)
  std::array<std::array<ZoneId, kColours>, 3> expedition_{};  // [seat][colour]
  std::array<ZoneId, kColours> discard_{};
};

}  // namespace hr
