// rules.cpp — the kernel's half of the turn sequence: rollback (the state's undo log), round ends, match ends, action parsing.
#include "rules.hpp"

#include <algorithm>
#include <cctype>

namespace hr {

GameState Rules::new_game(std::uint64_t seed) {
  GameState state(layout(), seed);
  setup(state);
  start_round(state);
  return state;
}

void Rules::legal_actions(const GameState& state, std::vector<Action>& out) {
  out.clear();
  if (!state.over()) generate_actions(state, out);
}

std::vector<Action> Rules::legal_actions(const GameState& state) {
  std::vector<Action> out;
  legal_actions(state, out);
  return out;
}

void Rules::finish_requested_round(GameState& state, GameState* round_end) {
  while (state.round_end_requested() && !state.over()) {
    std::int64_t scores[kMaxSeats];
    const int seats = layout().seats;
    for (int s = 1; s <= seats; ++s) scores[s - 1] = score(state, s);
    if (round_end != nullptr) *round_end = state;
    if (state.close_round(std::span<const std::int64_t>(scores, static_cast<std::size_t>(seats))))
      start_round(state);
  }
}

void Rules::apply(GameState& state, Action action, GameState* round_end) {
  if (state.over()) throw IllegalAction("the game is over");
  // The state's undo log records what the action changes; a state already recording (an apply inside a
  // caller's own recording) is saved by a copy instead.
  const bool logged = state.begin_undo();
  if (!logged) backup_ = state;
  try {
    do_apply(state, action);
    state.count_ply();
    finish_round_if_requested(state, round_end);
  } catch (...) {
    if (logged)
      state.rollback();
    else
      state = backup_;
    throw;
  }
  if (logged) state.commit_undo();
}

std::int64_t Rules::random_playout(GameState& state, Rng& rng, std::int64_t max_plies) {
  const GameState start = state;
  std::int64_t plies = 0;
  try {
    while (!state.over() && plies < max_plies) {
      legal_actions(state, scratch_);
      if (scratch_.empty())
        throw RulesError("seat " + std::to_string(state.to_move()) + " has no legal action but the game is not over");
      // As apply, without its undo log: the copy above restores the state if anything fails.
      do_apply(state, scratch_[rng.below(scratch_.size())]);
      state.count_ply();
      finish_round_if_requested(state);
      ++plies;
    }
  } catch (...) {
    state = start;
    throw;
  }
  return plies;
}

bool Rules::is_legal(const GameState& state, Action action) {
  legal_actions(state, scratch_);
  return std::find(scratch_.begin(), scratch_.end(), action) != scratch_.end();
}

void Rules::apply_checked(GameState& state, Action action) {
  if (!is_legal(state, action)) {
    if (state.over()) throw IllegalAction("the game is over");
    // FIX (engine tests): an illegal action may not even have a text form (a take beyond the row, a
    // corrupt transcript); action_text then threw its own error instead of the promised IllegalAction.
    std::string text;
    try {
      text = action_text(state, action);
    } catch (const std::exception&) {
      text = "action " + std::to_string(action);
    }
    throw IllegalAction("'" + text + "' is not legal now");
  }
  apply(state, action);
}

std::string normalized_action_text(std::string_view text) {
  std::string out;
  bool blank = false;
  for (char ch : text) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      blank = !out.empty();
      continue;
    }
    if (blank) out.push_back(' ');
    blank = false;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  }
  return out;
}

std::optional<Action> Rules::parse_action(const GameState& state, std::string_view text) {
  const std::string wanted = normalized_action_text(text);
  for (Action a : legal_actions(state))
    if (normalized_action_text(action_text(state, a)) == wanted) return a;
  return std::nullopt;
}

std::string Rules::explain_illegal(const GameState& state, std::string_view text) {
  if (state.over()) return "the game is over";
  return "'" + std::string(text) + "' is not a legal action now";
}

std::string Rules::describe(const GameState& observation, int seat) { return render_observation(observation, seat); }

std::string render_observation(const GameState& view, int seat) {
  const Layout& layout = view.layout();
  std::string out;
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    const ZoneDef& def = layout.zones[z];
    if (static_cast<ZoneId>(z) == layout.box()) continue;
    const auto cards = view.cards(static_cast<ZoneId>(z));
    out += def.name + ": ";
    if (def.visibility == Visibility::Hidden) {
      out += std::to_string(cards.size()) + " cards";
    } else if (def.visibility == Visibility::TopCard && !cards.empty()) {
      const ComponentId top = cards.back();
      out += std::to_string(cards.size()) + " cards, top " +
             (top == kUnknownComponent ? std::string("?") : layout.components[top].name);
    } else if (cards.empty()) {
      out += "-";
    } else {
      for (std::size_t i = 0; i < cards.size(); ++i) {
        if (i) out += ' ';
        out += cards[i] == kUnknownComponent ? std::string("?") : layout.components[cards[i]].name;
      }
    }
    out += '\n';
  }
  for (std::size_t i = 0; i < layout.counters.size(); ++i) {
    const CounterDef& def = layout.counters[i];
    out += def.name + ": " + std::to_string(view.counter(static_cast<int>(i), 0));
    if (def.per_seat)
      for (int s = 1; s <= layout.seats; ++s)
        out += "  seat " + std::to_string(s) + " " + std::to_string(view.counter(static_cast<int>(i), s));
    out += '\n';
  }
  out += "round " + std::to_string(view.round()) + " of " + std::to_string(layout.rounds) + ", seat " +
         std::to_string(view.to_move()) + " to move; you are seat " + std::to_string(seat) + "\nmatch scores:";
  for (auto s : view.match_scores()) out += " " + std::to_string(s);
  out += '\n';
  return out;
}

}  // namespace hr
