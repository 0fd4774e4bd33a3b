// take_game.hpp — a tiny native game for the tests of hr::Rules and the bots.
//
// "Take": two seats, eight cards Y1..Y8 (value = number). Each round the deck is gathered and shuffled,
// each seat gets one hidden hand card (never played: it only hides information), and two cards are laid
// in the public row. On its turn a seat either takes a row card ("take Y5") or blindly draws the top of
// the deck ("draw deck") onto its public won pile. An empty row is refilled with two cards from the deck;
// when it cannot be refilled the round ends. A seat's round score is the sum of its won pile.
//
// Test switches: `offer_boom` makes the action "boom" legal; it mutates the state everywhere and then
// throws (`boom_throws_std` picks a non-RulesError exception). `score_throws` makes the score hook fail.
// `perverse` installs a heuristic that is minus the score, `flat` one that is always 0 (all actions tie), `nan` one that is NaN.
#pragma once

#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rules.hpp"

namespace take_game {

constexpr hr::ZoneId kDeck = 0, kHand1 = 1, kHand2 = 2, kRow = 3, kWon1 = 4, kWon2 = 5;
constexpr hr::Action kTake = 0;  // kTake + i: take row card i
constexpr hr::Action kDraw = 100;
constexpr hr::Action kBoom = 999;

inline hr::ZoneId won(int seat) { return seat == 1 ? kWon1 : kWon2; }
inline int value_of(hr::ComponentId c) { return c + 1; }  // component i is Y(i+1)

inline hr::Layout make_layout(int rounds) {
  hr::Layout l;
  l.seats = 2;
  l.rounds = rounds;
  for (int v = 1; v <= 8; ++v) l.components.push_back({"Y" + std::to_string(v), {{"value", std::int64_t{v}}}});
  l.zones = {{"deck", {}, hr::Visibility::Hidden},
             {"hand1", {hr::Owner::Kind::Seat, 1}, hr::Visibility::Owner},
             {"hand2", {hr::Owner::Kind::Seat, 2}, hr::Visibility::Owner},
             {"row", {}, hr::Visibility::Public},
             {"won1", {hr::Owner::Kind::Seat, 1}, hr::Visibility::Public},
             {"won2", {hr::Owner::Kind::Seat, 2}, hr::Visibility::Public}};
  l.counters = {{"taken", true, 0}};
  l.finalize();
  return l;
}

class TakeGame : public hr::Rules {
 public:
  explicit TakeGame(int rounds = 2) : layout_(make_layout(rounds)) {}

  const hr::Layout& layout() const override { return layout_; }
  std::string id() const override { return "take"; }

  std::string action_text(const hr::GameState& state, hr::Action action) override {
    if (action == kDraw) return "draw deck";
    if (action == kBoom) return "boom";
    if (action >= kTake && action < kTake + state.size(kRow))
      return "take " + layout_.components[state.cards(kRow)[action - kTake]].name;
    throw hr::RulesError("take: no action number " + std::to_string(action));
  }

  std::int64_t score(const hr::GameState& state, int seat) override {
    if (score_throws) throw hr::RulesError("score: failing on purpose");
    std::int64_t sum = 0;
    for (hr::ComponentId c : state.cards(won(seat))) sum += value_of(c);
    score_calls.push_back({seat, sum});
    return sum;
  }

  std::optional<double> heuristic(const hr::GameState& state, int seat) override {
    if (nan) return std::numeric_limits<double>::quiet_NaN();
    if (flat) return 0.0;
    if (!perverse) return std::nullopt;
    double sum = 0;
    for (hr::ComponentId c : state.cards(won(seat))) sum += value_of(c);
    return -sum;
  }

  bool offer_boom = false;
  bool boom_throws_std = false;
  bool score_throws = false;
  bool perverse = false;
  bool flat = false;
  bool nan = false;  ///< a heuristic that is NaN (a ruleset's would be refused by ScriptedRules first)
  int setups = 0, round_starts = 0;
  std::vector<std::pair<int, std::int64_t>> score_calls;  // (seat, score returned)

 protected:
  void setup(hr::GameState& state) override {
    ++setups;
    for (hr::ComponentId c = 0; c < 8; ++c) state.move(c, kDeck);
  }

  void start_round(hr::GameState& state) override {
    ++round_starts;
    for (hr::ComponentId c = 0; c < 8; ++c) state.move(c, kDeck);
    state.shuffle(kDeck);
    const hr::ZoneId hands[] = {kHand1, kHand2};
    state.deal(kDeck, hands, 1);
    state.move_top(kDeck, kRow);
    state.move_top(kDeck, kRow);
    state.set_to_move(state.round() % 2 == 1 ? 1 : 2);
  }

  void generate_actions(const hr::GameState& state, std::vector<hr::Action>& out) override {
    for (int i = 0; i < state.size(kRow); ++i) out.push_back(kTake + i);
    if (state.size(kDeck) > 0) out.push_back(kDraw);
    if (offer_boom) out.push_back(kBoom);
  }

  void do_apply(hr::GameState& state, hr::Action action) override {
    const int seat = state.to_move();
    if (action == kBoom) {
      // Change as much as possible, then fail.
      state.move(state.cards(kRow)[0], won(seat));
      state.move_top(kDeck, kHand1);
      state.shuffle(kDeck);
      state.set_counter(0, seat, 42);
      state.reveal(state.cards(kHand2)[0], 0b01);
      state.set_phase(7);
      state.set_to_move(3 - seat);
      state.request_round_end();
      if (boom_throws_std) throw std::out_of_range("boom (std)");
      throw hr::RulesError("boom");
    }
    if (action == kDraw) {
      if (state.move_top(kDeck, won(seat)) == hr::kNoComponent) throw hr::RulesError("the deck is empty");
    } else {
      if (action < kTake || action >= kTake + state.size(kRow)) throw hr::RulesError("no such row card");
      state.move(state.cards(kRow)[action - kTake], won(seat));
    }
    state.set_counter(0, seat, state.counter(0, seat) + 1);
    state.set_to_move(3 - seat);
    if (state.size(kRow) == 0) {
      state.move_top(kDeck, kRow);
      state.move_top(kDeck, kRow);
      if (state.size(kRow) == 0) state.request_round_end();
    }
  }

 private:
  hr::Layout layout_;
};

/// A state of TakeGame built card by card (round 1, seat `to_move` to move): the deck is shuffled first
/// so that nobody knows any card, then the zones are filled in the order given (deck bottom to top).
/// All eight cards must be listed.
inline hr::GameState arrange(const hr::Layout& layout, const std::vector<hr::ComponentId>& won1,
                             const std::vector<hr::ComponentId>& hand1, const std::vector<hr::ComponentId>& row,
                             const std::vector<hr::ComponentId>& hand2, const std::vector<hr::ComponentId>& deck,
                             int to_move = 1, std::uint64_t seed = 17) {
  hr::GameState s(layout, seed);
  for (hr::ComponentId c = 0; c < 8; ++c) s.move(c, kDeck);
  s.shuffle(kDeck);
  for (auto c : won1) s.move(c, kWon1);
  for (auto c : hand1) s.move(c, kHand1);
  for (auto c : row) s.move(c, kRow);
  for (auto c : hand2) s.move(c, kHand2);
  for (auto c : deck) s.move(c, kDeck);
  if (s.size(kDeck) != static_cast<int>(deck.size())) throw std::logic_error("arrange: every card must be placed");
  s.set_to_move(to_move);
  return s;
}

}  // namespace take_game
