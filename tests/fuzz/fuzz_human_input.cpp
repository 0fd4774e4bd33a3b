// fuzz_human_input.cpp — lines typed at the human prompt of a live game: HumanPlayer::choose reads them
// (read_bounded_line, normalize_input_line) and tries each through parse_action and the ruleset's explain hook,
// until one is a legal action, "undo" or "quit", or the input ends. The first byte picks the ruleset and how far
// into a seeded random game the prompt comes; the rest is what the person types.
#include <sstream>

#include "fuzz_util.hpp"
#include "play/play.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

namespace {

struct Game {
  std::unique_ptr<hr::ScriptedRules> rules;
  std::vector<hr::GameState> positions;  // the start, and states 10, 40 and 120 random plies in
};

std::vector<Game>& games() {
  static std::vector<Game> all = [] {
    std::vector<Game> out;
    for (const char* id : {"lost-cities", "lost-cities-rivals", "lost-cities-board", "lost-cities/six-expeditions"}) {
      Game g;
      g.rules = hr::load_rules(id);
      for (const std::int64_t plies : {0, 10, 40, 120}) {
        hr::GameState state = g.rules->new_game(7);
        hr::Rng rng(11);
        g.rules->random_playout(state, rng, plies);
        if (!state.over()) g.positions.push_back(state);
      }
      out.push_back(std::move(g));
    }
    return out;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Game& game = games()[data[0] % games().size()];
  const hr::GameState& state = game.positions[(data[0] / 4) % game.positions.size()];
  std::istringstream in(std::string(hr::fuzz::as_text(data + 1, size - 1)));
  hr::fuzz::NullStream out;
  hr::HumanPlayer human(in, out);
  const std::vector<hr::Action> legal = game.rules->legal_actions(state);
  try {
    human.choose(*game.rules, hr::InformationSet(state, state.to_move(), legal));
  } catch (const hr::InputEnded&) {  // the input ran out, or a line said "quit"
  } catch (const hr::UndoRequested&) {  // a line said "undo": the play loop takes the game back (cli/play/play.cpp)
  }
  // Free this input's Lua garbage now (as fuzz_scenario does): otherwise the input looks as if it allocated more
  // than it freed, and libFuzzer runs a leak check over the whole heap after it (80% of the time, measured), then
  // gives leak checking up altogether.
  game.rules->collect_garbage();
  return 0;
}
