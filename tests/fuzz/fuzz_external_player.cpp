// fuzz_external_player.cpp — the external-player protocol (docs/bots.md, cli/play/external_player.hpp): the
// lines of one input are what a `cmd:` bot writes back, one answer per decision ({"action": TEXT} or {"index": N},
// or anything else). The program is `cat` printing the input, so the real ExternalPlayer sends its hello and
// "decide" messages (the observation as JSON) and parses each answer line exactly as `play --players cmd:...`
// does; seat 1 is the program, seat 2 plays at random, in Lost Cities, until the program's answers end (it
// exits) or one is refused (ExternalPlayerError), for at most 64 decisions. The ruleset is loaded once.
#include <memory>

#include "fuzz_util.hpp"
#include "play/play.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::unique_ptr<hr::ScriptedRules> rules = [] {
    hr::LoadOptions options;
    options.seats = 2;
    return hr::load_rules("lost-cities", options);
  }();
  static const std::string file = (hr::fuzz::scratch() / "answers.txt").string();
  hr::fuzz::write_file(file, hr::fuzz::as_text(data, size));
  try {
    hr::ExternalPlayer program("cmd:time=5:cat " + file, 1);
    hr::RandomPlayer other(7);
    hr::GameState state = rules->new_game(11);
    for (int decisions = 0; decisions < 64 && !state.over();) {
      const int seat = state.to_move();
      const auto legal = rules->legal_actions(state);
      const hr::InformationSet info(state, seat, legal);
      hr::Action action = 0;
      if (seat == 1) {
        action = program.choose(*rules, info);
        ++decisions;
      } else {
        action = other.choose(*rules, info);
      }
      const std::string text = rules->action_text(state, action);
      rules->apply(state, action);
      program.action_played(seat, text);
    }
    program.match_over(*rules, state);
  } catch (const hr::ExternalPlayerError&) {
    // a refused answer, or the program's end: what the protocol is for
  }
  rules->collect_garbage();
  return 0;
}
