// replay.cpp — `houserules replay` (play.hpp: replay_command, replay_transcript): a transcript's game played
// again from its seed, each action checked for legality and each recorded digest, legal-action count and the
// result compared; and the same check for the actions of a transcript `play --resume` continues.
#include "replay.hpp"

#include <fmt/format.h>

#include "input_line.hpp"
#include "match_printer.hpp"
#include "play.hpp"
#include "scripted_rules.hpp"
#include "terminal_style.hpp"

namespace hr {

std::string too_long(const GameState& state) {
  return fmt::format("the game is not over after {} actions (the limit, as simulate's --max-plies): a round that "
                     "never ends?", state.ply());
}

void replay_for_resume(const std::string& file, const Transcript& t, Rules& rules, GameState& state) {
  for (const TranscriptAction& a : t.actions) {
    auto fail = [&](const std::string& what) {
      return TranscriptError(fmt::format("{}:{}: action {} ('{}'): {}", file, a.line, a.ply, cut_for_message(a.action), what));
    };
    if (state.over()) throw fail("the game is already over");
    if (a.seat != state.to_move()) throw fail(fmt::format("seat {} is to move", state.to_move()));
    const InputLine text = normalize_input_line(a.action);
    const auto action = text ? rules.parse_action(state, text.text) : std::nullopt;
    if (!action) throw fail("not legal in the replayed game");
    rules.apply(state, *action);
    if (!a.digest.empty() && a.digest != digest_text(state.digest())) throw fail("the state after it differs");
  }
}

int replay_command(const std::string& file, bool quiet, std::ostream& out, std::ostream& err) {
  Transcript t;
  std::unique_ptr<ScriptedRules> rules;
  try {
    t = read_transcript(file);
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  }
  try {
    rules = load_transcript_rules(file, t);  // its ruleset, seats and --set; its parameters checked
  } catch (const std::exception& e) {  // names the file and the header's line
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  }
  return replay_transcript(file, t, *rules, quiet, out, err);
}

int replay_transcript(const std::string& file, const Transcript& t, Rules& rules_ref, bool quiet, std::ostream& out,
                      std::ostream& err) {
  Rules* rules = &rules_ref;
  std::vector<std::string> names = t.players;
  names.resize(static_cast<std::size_t>(rules->layout().seats), "?");
  if (!quiet) out << fmt::format("Replaying {} ({}), seed {}, {} actions\n", file, rules->id(), t.seed, t.actions.size());
  int viewer = 1;  // as play: the first human seat, else seat 1
  for (std::size_t s = names.size(); s-- > 0;)
    if (names[s] == "human") viewer = static_cast<int>(s) + 1;
  MatchPrinter printer(out, *rules, names, quiet, viewer, false);
  GameState state;
  std::vector<Action> legal;
  GameState round_end_position;
  auto differs = [&](const TranscriptAction& a, const std::string& what) {
    printer.flush();
    err << fmt::format("{}:{}: action {} (seat {}: '{}') differs: {}\n", file, a.line, a.ply, a.seat,
                      cut_for_message(a.action), what);
    return 1;
  };
  try {
    state = rules->new_game(t.seed);
    printer.round_start(state.round());
    for (const TranscriptAction& a : t.actions) {
      if (state.over()) return differs(a, "the replayed game is already over");
      if (state.ply() >= kMaxPlies) throw RulesError(too_long(state));
      if (a.seat != state.to_move()) return differs(a, fmt::format("seat {} is to move in the replayed game", state.to_move()));
      rules->legal_actions(state, legal);
      if (a.legal >= 0 && static_cast<std::size_t>(a.legal) != legal.size())
        return differs(a, fmt::format("the recorded game had {} legal actions, the replayed game has {}", a.legal, legal.size()));
      const InputLine text = normalize_input_line(a.action);
      if (!text) return differs(a, "not an action: " + text.error);
      const auto action = rules->parse_action(state, text.text);
      if (!action) return differs(a, "not legal in the replayed game: " + rules->explain_illegal(state, text.text));
      const int round = state.round();
      printer.before(state);
      rules->apply(state, *action, &round_end_position);
      if (!a.digest.empty() && a.digest != digest_text(state.digest()))
        return differs(a, "the state after it differs from the recorded game (digest " + digest_text(state.digest()) +
                              ", recorded " + a.digest + ")");
      const bool round_over = state.round() != round || state.over();
      printer.action(a.seat, a.action, round_over ? round_end_position : state);
      if (round_over) {
        printer.round_end(state, round_end_position);
        if (!state.over()) printer.round_start(state.round());
      }
    }
  } catch (const std::exception& e) {
    printer.flush();
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 1;
  }
  printer.flush();
  if (!t.stopped_reason.empty()) {
    if (!quiet) out << "The recorded game was stopped (" << t.stopped_reason << "); replayed up to there.\n";
    return 0;
  }
  if (!t.has_result) {
    err << file << ": truncated transcript: no result line after " << t.actions.size() << " actions\n";
    return 1;
  }
  if (!state.over()) {
    err << file << ": the transcript ends but the replayed game is not over\n";
    return 1;
  }
  if (state.match_scores() != t.match_scores) {
    err << file << ": the replayed match scores differ from the recorded result\n";
    return 1;
  }
  try {
    printer.result(state);
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 1;
  }
  if (!quiet) out << "Replay reproduces the recorded game.\n";
  return 0;
}

}  // namespace hr
