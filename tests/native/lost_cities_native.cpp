// lost_cities_native.cpp — the plain C++ Lost Cities (see the header for the contract shared with the script).
#include "lost_cities_native.hpp"

namespace hr {

namespace {
constexpr const char* kColourNames[NativeLostCities::kColours] = {"yellow", "blue", "white", "green", "red"};
constexpr char kColourLetters[NativeLostCities::kColours] = {'Y', 'B', 'W', 'G', 'R'};
}  // namespace

NativeLostCities::NativeLostCities() {
  layout_.seats = 2;
  layout_.rounds = 3;
  layout_.components.reserve(kCards);
  for (int k = 0; k < kColours; ++k) {
    for (int i = 0; i < kCardsPerColour; ++i) {
      const int value = i < 3 ? 0 : i - 1;  // three wagers, then 2..10
      Component card;
      card.name = std::string(1, kColourLetters[k]) + (value == 0 ? std::string("x") : std::to_string(value));
      card.attributes = {{"colour", std::string(kColourNames[k])},
                         {"colour_index", std::int64_t{k + 1}},
                         {"value", std::int64_t{value}},
                         {"wager", value == 0}};
      const auto id = layout_.components.size();
      colour_[id] = static_cast<std::uint8_t>(k);
      value_[id] = static_cast<std::uint8_t>(value);
      layout_.components.push_back(std::move(card));
    }
  }
  const Owner nobody{};
  layout_.zones.push_back({"deck", nobody, Visibility::Hidden});
  for (int s = 1; s <= 2; ++s)
    layout_.zones.push_back({"hand." + std::to_string(s), Owner{Owner::Kind::Seat, s}, Visibility::Owner});
  for (int s = 1; s <= 2; ++s)
    for (int k = 0; k < kColours; ++k)
      layout_.zones.push_back({"expedition." + std::to_string(s) + "." + kColourNames[k], nobody, Visibility::Public});
  for (int k = 0; k < kColours; ++k)
    layout_.zones.push_back({std::string("discard.") + kColourNames[k], nobody, Visibility::Top});
  // The script declares the bookkeeping of the 3- and 4-player last turns (unused by the 2-player game): the
  // same layout, so both states' digests are the same.
  layout_.counters.push_back({"last_turns_left", false, 0});
  layout_.counters.push_back({"last_turn_placed", false, 0});
  layout_.finalize();

  deck_ = layout_.zone_id("deck");
  for (int s = 1; s <= 2; ++s) {
    hand_[s] = layout_.zone_id("hand." + std::to_string(s));
    for (int k = 0; k < kColours; ++k)
      expedition_[s][k] = layout_.zone_id("expedition." + std::to_string(s) + "." + kColourNames[k]);
  }
  for (int k = 0; k < kColours; ++k) discard_[k] = layout_.zone_id(std::string("discard.") + kColourNames[k]);
}

void NativeLostCities::start_round(GameState& state) {
  for (int c = 0; c < kCards; ++c) state.move(static_cast<ComponentId>(c), deck_);
  state.shuffle(deck_);
  const ZoneId hands[2] = {hand_[1], hand_[2]};
  state.deal(deck_, hands, kHandSize);
  state.set_phase(kPlace);
  if (state.round() == 1)
    state.set_to_move(1);
  else
    state.set_to_move(state.match_score(2) > state.match_score(1) ? 2 : 1);
}

void NativeLostCities::generate_actions(const GameState& state, std::vector<Action>& out) {
  const int seat = state.to_move();
  // Built in a local array and appended at once (one capacity check instead of one per action).
  Action actions[2 * kCards + kColours + 1];
  int n = 0;
  if (state.phase() == kPlace) {
    // The plays of the playable cards, then the discards of every card, both in hand order (as the script).
    // The value of each column's top card, read once (-1: empty). Columns are kept in order (wagers first,
    // numbers strictly increasing), so the top card says it all: a card goes on an empty column, a wager only
    // on wagers, a number on wagers or on a lower number.
    int top_value[kColours];
    for (int k = 0; k < kColours; ++k) {
      const ComponentId top = state.top(expedition_[seat][k]);
      top_value[k] = top == kNoComponent ? -1 : value_[top];
    }
    unsigned wager_colours_seen = 0;  // bit k: a wager of colour k was offered already
    Action discards[kCards];
    int discard_count = 0;
    for (ComponentId c : state.cards(hand_[seat])) {
      const int value = value_[c];
      if (value == 0) {
        // The copies of a wager are one action: only the bottom-most copy in the hand is offered, so every
        // legal action has its own text (as the script does).
        const unsigned bit = 1u << colour_[c];
        if (wager_colours_seen & bit) continue;
        wager_colours_seen |= bit;
      }
      const Action lua_id = static_cast<Action>(c) + 1;
      const int top = top_value[colour_[c]];
      if (top < 0 || (value == 0 ? top == 0 : value > top)) actions[n++] = kPlayBase + lua_id;
      discards[discard_count++] = kDiscardBase + lua_id;
    }
    for (int i = 0; i < discard_count; ++i) actions[n++] = discards[i];
  } else {
    if (state.size(deck_) > 0) actions[n++] = kDrawDeck;  // always true in play: the last draw ends the round
    const auto just_discarded = state.phase() - kDraw;  // the colour just discarded to, or 0
    for (int k = 1; k <= kColours; ++k)
      if (state.size(discard_[k - 1]) > 0 && k != just_discarded) actions[n++] = kDrawDeck + k;
  }
  out.insert(out.end(), actions, actions + n);
}

void NativeLostCities::do_apply(GameState& state, Action action) {
  const int seat = state.to_move();
  if (action >= 1 && action <= kCards) {
    const auto c = static_cast<ComponentId>(action - 1);
    state.move(c, expedition_[seat][colour_[c]]);
    state.set_phase(kDraw);
  } else if (action > kDiscardBase && action <= kDiscardBase + kCards) {
    const auto c = static_cast<ComponentId>(action - kDiscardBase - 1);
    state.move(c, discard_[colour_[c]]);
    state.set_phase(kDraw + colour_[c] + 1);
  } else if (action >= kDrawDeck && action <= kDrawDeck + kColours) {
    const ZoneId from = action == kDrawDeck ? deck_ : discard_[action - kDrawDeck - 1];
    state.move_top(from, hand_[seat]);
    state.set_phase(kPlace);
    state.set_to_move(3 - seat);
    if (state.size(deck_) == 0) state.request_round_end();
  } else {
    throw RulesError("lost-cities/native: unknown action code " + std::to_string(action));
  }
}

std::string NativeLostCities::action_text(const GameState&, Action action) {
  if (action >= 1 && action <= kCards) return "play " + layout_.components[action - 1].name;
  if (action > kDiscardBase && action <= kDiscardBase + kCards)
    return "discard " + layout_.components[action - kDiscardBase - 1].name;
  if (action == kDrawDeck) return "draw deck";
  if (action > kDrawDeck && action <= kDrawDeck + kColours)
    return std::string("draw ") + kColourLetters[action - kDrawDeck - 1];
  return "action " + std::to_string(action);
}

std::int64_t NativeLostCities::column_score(const GameState& state, ZoneId column) const {
  const auto cards = state.cards(column);
  if (cards.empty()) return 0;
  std::int64_t sum = 0, wagers = 0;
  for (ComponentId c : cards) {
    if (value_[c] == 0)
      ++wagers;
    else
      sum += value_[c];
  }
  return (sum - 20) * (1 + wagers) + (cards.size() >= 8 ? 20 : 0);
}

std::int64_t NativeLostCities::score(const GameState& state, int seat) {
  std::int64_t total = 0;
  for (int k = 0; k < kColours; ++k) total += column_score(state, expedition_[seat][k]);
  return total;
}

}  // namespace hr
