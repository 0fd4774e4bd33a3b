// tick_game.hpp — a tiny native game in which two bots that dodge the deck never repeat a position and still
// go nowhere: the shape of issue 37 (Lost Cities' nothing-in-hand, greedy seats passing cards between discard
// piles in orders that never came back).
//
// "Tick": two seats, four cards in a hidden deck, a public counter. On its turn a seat either "tick"s (adds 1 to
// the counter: every tick is a new position) or "draw"s the deck's top card onto its public won pile. The round
// (and the game) ends when the deck is empty. The heuristic is minus the cards won: drawing looks bad, ticking
// free, so a greedy seat ticks for ever unless it notices that the round makes no progress
// (PositionHistory::stalled).
#pragma once

#include <string>
#include <vector>

#include "bots.hpp"
#include "rules.hpp"

namespace tick_game {

constexpr hr::ZoneId kDeck = 0, kWon1 = 1, kWon2 = 2;
constexpr hr::Action kTick = 0, kDraw = 1;

inline hr::Layout make_layout() {
  hr::Layout l;
  l.seats = 2;
  l.rounds = 1;
  for (const char* name : {"A", "B", "C", "D"}) l.components.push_back({name, {}});
  l.zones = {{"deck", {}, hr::Visibility::Hidden},
             {"won1", {hr::Owner::Kind::Seat, 1}, hr::Visibility::Public},
             {"won2", {hr::Owner::Kind::Seat, 2}, hr::Visibility::Public}};
  l.counters = {{"ticks", false, 0}};
  l.finalize();
  return l;
}

class TickGame : public hr::Rules {
 public:
  TickGame() : layout_(make_layout()) {}
  const hr::Layout& layout() const override { return layout_; }
  std::string id() const override { return "tick"; }
  std::string action_text(const hr::GameState&, hr::Action action) override { return action == kTick ? "tick" : "draw"; }
  std::int64_t score(const hr::GameState& state, int seat) override { return state.size(seat == 1 ? kWon1 : kWon2); }
  std::optional<double> heuristic(const hr::GameState& state, int seat) override {
    return -static_cast<double>(state.size(seat == 1 ? kWon1 : kWon2));
  }

 protected:
  void setup(hr::GameState& state) override {
    for (hr::ComponentId c = 0; c < 4; ++c) state.move(c, kDeck);
  }
  void start_round(hr::GameState& state) override {
    state.shuffle(kDeck);
    state.set_to_move(1);
  }
  void generate_actions(const hr::GameState&, std::vector<hr::Action>& out) override {
    out.push_back(kTick);
    out.push_back(kDraw);
  }
  void do_apply(hr::GameState& state, hr::Action action) override {
    const int seat = state.to_move();
    if (action == kTick) {
      state.set_counter(0, 0, state.counter(0) + 1);
    } else if (state.move_top(kDeck, seat == 1 ? kWon1 : kWon2) == hr::kNoComponent) {
      throw hr::RulesError("nothing to draw");
    }
    state.set_to_move(3 - seat);
    if (state.size(kDeck) == 0) state.request_round_end();
  }

 private:
  hr::Layout layout_;
};

/// Plays a game from `seed` between p1 (seat 1) and p2 (seat 2), stopping after `max_plies`; returns the last state.
inline hr::GameState play(TickGame& game, std::uint64_t seed, hr::Player& p1, hr::Player& p2, std::int64_t max_plies) {
  hr::GameState s = game.new_game(seed);
  std::vector<hr::Action> legal;
  while (!s.over() && s.ply() < max_plies) {
    game.legal_actions(s, legal);
    hr::Player& p = s.to_move() == 1 ? p1 : p2;
    game.apply(s, p.choose(game, hr::InformationSet(s, s.to_move(), legal)));
  }
  return s;
}

}  // namespace tick_game
