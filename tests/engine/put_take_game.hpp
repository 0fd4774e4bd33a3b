// put_take_game.hpp — a tiny native game in which a bot that dodges the deck plays forever unless it avoids
// repeating a position (the bots' PositionHistory, issue 12 "Bots can play forever").
//
// "Put-take": two seats, six cards A..F. Each seat is dealt one hidden hand card, the other four form the deck.
// On its turn a seat either puts its hand card on the public pile ("put"), takes the pile's top card into its
// hand ("take"), or draws the deck's top card onto its public won pile ("draw"). The round (and the game) ends
// when the deck is empty. A seat's score is the number of cards it won; the heuristic is minus that: drawing
// looks bad, putting and taking look free — the shape of the Lost Cities heuristic bug in docs/bots.md, where
// taking back a discard looked better than drawing and two greedy players did it without end.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bots.hpp"
#include "rules.hpp"

namespace put_take {

constexpr hr::ZoneId kDeck = 0, kHand1 = 1, kHand2 = 2, kPile = 3, kWon1 = 4, kWon2 = 5;
constexpr hr::Action kPut = 0, kTake = 1, kDraw = 2;

inline hr::ZoneId hand(int seat) { return seat == 1 ? kHand1 : kHand2; }
inline hr::ZoneId won(int seat) { return seat == 1 ? kWon1 : kWon2; }

inline hr::Layout make_layout() {
  hr::Layout l;
  l.seats = 2;
  l.rounds = 1;
  for (const char* name : {"A", "B", "C", "D", "E", "F"}) l.components.push_back({name, {}});
  l.zones = {{"deck", {}, hr::Visibility::Hidden},
             {"hand1", {hr::Owner::Kind::Seat, 1}, hr::Visibility::Owner},
             {"hand2", {hr::Owner::Kind::Seat, 2}, hr::Visibility::Owner},
             {"pile", {}, hr::Visibility::Public},
             {"won1", {hr::Owner::Kind::Seat, 1}, hr::Visibility::Public},
             {"won2", {hr::Owner::Kind::Seat, 2}, hr::Visibility::Public}};
  l.finalize();
  return l;
}

class PutTakeGame : public hr::Rules {
 public:
  PutTakeGame() : layout_(make_layout()) {}
  const hr::Layout& layout() const override { return layout_; }
  std::string id() const override { return "put-take"; }
  std::string action_text(const hr::GameState&, hr::Action action) override {
    if (action == kPut) return "put";
    if (action == kTake) return "take";
    if (action == kDraw) return "draw";
    throw hr::RulesError("put-take: no action number " + std::to_string(action));
  }
  std::int64_t score(const hr::GameState& state, int seat) override { return state.size(won(seat)); }
  std::optional<double> heuristic(const hr::GameState& state, int seat) override {
    return -static_cast<double>(state.size(won(seat)));
  }

 protected:
  void setup(hr::GameState& state) override {
    for (hr::ComponentId c = 0; c < 6; ++c) state.move(c, kDeck);
  }
  void start_round(hr::GameState& state) override {
    state.shuffle(kDeck);
    const hr::ZoneId hands[] = {kHand1, kHand2};
    state.deal(kDeck, hands, 1);
    state.set_to_move(1);
  }
  void generate_actions(const hr::GameState& state, std::vector<hr::Action>& out) override {
    if (state.size(hand(state.to_move())) > 0) out.push_back(kPut);
    if (state.size(kPile) > 0) out.push_back(kTake);
    if (state.size(kDeck) > 0) out.push_back(kDraw);
  }
  void do_apply(hr::GameState& state, hr::Action action) override {
    const int seat = state.to_move();
    const hr::ZoneId from = action == kPut ? hand(seat) : action == kTake ? kPile : kDeck;
    const hr::ZoneId to = action == kPut ? kPile : action == kTake ? hand(seat) : won(seat);
    if (state.move_top(from, to) == hr::kNoComponent) throw hr::RulesError("nothing to move");
    state.set_to_move(3 - seat);
    if (state.size(kDeck) == 0) state.request_round_end();
  }

 private:
  hr::Layout layout_;
};

/// Plays a game of put-take from `seed` between p1 (seat 1) and p2 (seat 2), stopping at `max_plies` actions if it
/// is not over by then; returns the last state.
inline hr::GameState play(PutTakeGame& game, std::uint64_t seed, hr::Player& p1, hr::Player& p2, std::int64_t max_plies) {
  hr::GameState s = game.new_game(seed);
  std::vector<hr::Action> legal;
  while (!s.over() && s.ply() < max_plies) {
    game.legal_actions(s, legal);
    hr::Player& p = s.to_move() == 1 ? p1 : p2;
    game.apply(s, p.choose(game, hr::InformationSet(s, s.to_move(), legal)));
  }
  return s;
}

}  // namespace put_take
