// undo_check.cpp — an undo refused past a reveal of hidden information (undo_check.hpp).
#include "undo_check.hpp"

#include <fmt/format.h>

#include "input_line.hpp"
#include "printable.hpp"

namespace hr {

namespace {

/// Whether `view` (an observation) knows component c: an observation puts every card its seat does not know at
/// Place{} (state.hpp).
bool knows(const GameState& view, ComponentId c) { return !(view.place_of(c) == Place{}); }

}  // namespace

std::vector<ComponentId> learned_since(const GameState& back_to, const GameState& now, int seat) {
  const GameState before = back_to.observation(seat), after = now.observation(seat);
  std::vector<ComponentId> learned;
  const std::size_t count = now.layout().components.size();
  for (std::size_t c = 0; c < count; ++c) {
    const auto id = static_cast<ComponentId>(c);
    if (knows(after, id) && !knows(before, id)) learned.push_back(id);
  }
  return learned;
}

std::string undo_refusal(const GameState& back_to, const GameState& now, int seat) {
  const std::vector<ComponentId> learned = learned_since(back_to, now, seat);
  if (learned.empty()) {
    if (back_to.rng() == now.rng()) return {};
    // A die rolled or a pile shuffled since then: replaying from here draws the same numbers again (the game's
    // RNG is part of the position), so going back would let the seat choose again knowing the outcome.
    return "Undo refused: since that decision the game has drawn a random result (a die roll or a shuffle); going "
           "back would let you choose again knowing how it falls. An undo cannot go past chance.";
  }
  constexpr std::size_t kNamed = 8;
  std::string names;
  for (std::size_t i = 0; i < learned.size() && i < kNamed; ++i)
    names += (i ? ", " : "") + printable(cut_for_message(now.layout().components[learned[i]].name, 40));
  if (learned.size() > kNamed) names += fmt::format(" and {} more", learned.size() - kNamed);
  return fmt::format("Undo refused: since that decision you have seen {} (hidden before); going back would let you "
                     "choose again knowing {}. An undo cannot go past a card being revealed.",
                     names, learned.size() == 1 ? "it" : "them");
}

}  // namespace hr
