// play.cpp — match driver, human prompt, replay.
#include "play.hpp"

#include <fstream>
#include <random>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "external_player.hpp"
#include "input_line.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"
#include "sandbox.hpp"
#include "transcript.hpp"

namespace hr {

namespace {

/// `play` and `replay` stop a game still running after this many actions, as `simulate` and `check` do by
/// default (--max-plies): rules whose round never ends would otherwise play forever.
constexpr std::int64_t kMaxPlies = 100000;

std::string too_long(const GameState& state) {
  return fmt::format("the game is not over after {} actions (the limit, as simulate's --max-plies): a round that "
                     "never ends?", state.ply());
}

std::string lower(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

/// Prints a match as it goes: actions of one seat's turn on one line, a summary at each round's end.
class MatchPrinter {
 public:
  MatchPrinter(std::ostream& out, Rules& rules, const std::vector<std::string>& names, bool quiet)
      : out_(out), rules_(rules), names_(names), quiet_(quiet) {}

  void action(int seat, const std::string& text) {
    if (quiet_) return;
    if (seat != line_seat_) flush();
    line_seat_ = seat;
    line_ += (line_.empty() ? "" : ", ") + text;
  }

  void flush() {
    if (!line_.empty()) out_ << fmt::format("  seat {} ({}): {}\n", line_seat_, names_[line_seat_ - 1], line_);
    line_.clear();
    line_seat_ = 0;
  }

  void round_start(int round) {
    if (!quiet_) out_ << fmt::format("Round {} of {}\n", round, rules_.layout().rounds);
  }

  /// `after` is the state after the round's last action; `final_position` the round's last table, before
  /// it was closed (when a new round has begun, `after` already shows its deal). The table is drawn for `viewer` (the first human
  /// seat, else seat 1) with every card revealed, as players show their hands when a round is over.
  void round_end(const GameState& after, const GameState& final_position, int viewer) {
    flush();
    if (quiet_) return;
    const auto& scores = after.round_scores().back();
    std::string round_text, totals;
    for (std::size_t s = 0; s < scores.size(); ++s) {
      round_text += fmt::format("{}seat {} {}", s ? ", " : "", s + 1, scores[s]);
      totals += fmt::format("{}seat {} {}", s ? ", " : "", s + 1, after.match_scores()[s]);
    }
    out_ << fmt::format("Round {} over: {} | match totals: {}\n", after.round_scores().size(), round_text, totals);
    GameState shown = final_position;
    for (std::size_t c = 0; c < shown.layout().components.size(); ++c)
      shown.reveal(static_cast<ComponentId>(c), shown.layout().all_seats_mask());
    out_ << fmt::format("Table at the end of the round (as seat {} sees it, every card revealed):\n", viewer)
         << rules_.describe(shown.observation(viewer), viewer) << '\n';
  }

  void result(const GameState& state) {
    flush();
    const auto ranks = rules_.ranks(state);
    std::string text;
    for (std::size_t s = 0; s < ranks.size(); ++s)
      text += fmt::format("{}seat {} ({}) {} [place {}]", s ? ", " : "", s + 1, names_[s], state.match_scores()[s], ranks[s]);
    out_ << "Result: " << text << '\n';
  }

 private:
  std::ostream& out_;
  Rules& rules_;
  const std::vector<std::string>& names_;
  bool quiet_;
  int line_seat_ = 0;
  std::string line_;
};

}  // namespace

Action HumanPlayer::choose(Rules& rules, const InformationSet& info) {
  const GameState view = info.observation();
  const auto legal = info.legal();
  std::vector<std::string> texts;
  for (Action a : legal) texts.push_back(rules.action_text(view, a));
  auto list_actions = [&] {
    out_ << "Legal actions:";
    for (std::size_t i = 0; i < texts.size(); ++i)
      out_ << (i % 6 == 0 ? "\n  " : "   ") << fmt::format("{:>2}) {:<12}", i + 1, texts[i]);
    out_ << "\n";
  };
  if (!pending_.empty()) {
    const std::string next = pending_.front();
    pending_.erase(pending_.begin());
    const std::string wanted = normalized_action_text(next);
    for (std::size_t i = 0; i < texts.size(); ++i)
      if (normalized_action_text(texts[i]) == wanted) {
        out_ << fmt::format("seat {}> ({})\n", info.seat(), texts[i]);
        return legal[i];
      }
    out_ << fmt::format("The rest of your line stops at '{}': {}\n", next, rules.explain_illegal(view, next));
    pending_.clear();
  }
  out_ << '\n' << rules.describe(view, info.seat());
  list_actions();
  while (true) {
    out_ << fmt::format("seat {}> ", info.seat()) << std::flush;
    std::string line;
    if (!read_bounded_line(in_, line)) throw InputEnded("end of input");
    const InputLine normalized = normalize_input_line(line);  // before any rules code sees it (issue 18)
    if (!normalized) {
      out_ << "Not understood: " << normalized.error << ".\n";
      continue;
    }
    const std::string& input = normalized.text;
    if (input.empty()) continue;
    if (lower(input) == "help" || input == "?") {
      out_ << "Type an action as listed (e.g. '" << texts.front() << "') or its number; 'quit' stops the game.\n";
      list_actions();
      continue;
    }
    if (lower(input) == "quit") throw InputEnded("quit");
    if (input.find_first_not_of("0123456789") == std::string::npos) {
      const auto number = input.size() > 6 ? 0 : std::stoul(input);
      if (number >= 1 && number <= texts.size()) return legal[number - 1];
      out_ << fmt::format("There is no action number {}: choose 1 to {}.\n", input, texts.size());
      continue;
    }
    std::string wanted;
    for (char ch : lower(input)) {
      if (std::isspace(static_cast<unsigned char>(ch))) {
        if (!wanted.empty() && wanted.back() != ' ') wanted += ' ';
      } else {
        wanted += ch;
      }
    }
    for (std::size_t i = 0; i < texts.size(); ++i)
      if (lower(texts[i]) == wanted) return legal[i];
    // a shorthand for several actions (e.g. "buy horse whisky whisky"): its first action now, the rest queued
    auto steps = rules.shorthand(view, input);
    if (steps.size() >= 2) {
      const std::string first = normalized_action_text(steps.front());
      for (std::size_t i = 0; i < texts.size(); ++i)
        if (normalized_action_text(texts[i]) == first) {
          pending_.assign(steps.begin() + 1, steps.end());
          return legal[i];
        }
      out_ << "Not legal: " << rules.explain_illegal(view, steps.front()) << "\n";
      continue;
    }
    out_ << "Not legal: " << rules.explain_illegal(view, input) << "\n";
  }
}

std::vector<std::string> split_player_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::uint64_t fresh_seed() {
  std::random_device device;
  return device();  // 32 bits
}

std::vector<std::unique_ptr<Player>> make_players(const std::vector<std::string>& names, std::uint64_t seed,
                                                  std::istream& in, std::ostream& out) {
  std::vector<std::unique_ptr<Player>> players;
  for (std::size_t s = 0; s < names.size(); ++s) {
    if (names[s] == "human") {
      players.push_back(std::make_unique<HumanPlayer>(in, out));
      continue;
    }
    if (is_external_player(names[s])) {  // cmd:PROGRAM (docs/external-players.md)
      players.push_back(std::make_unique<ExternalPlayer>(names[s], static_cast<int>(s) + 1));
      continue;
    }
    auto bot = make_bot(names[s], derive_seed(seed, 1000 + s));
    if (!bot) throw std::invalid_argument("unknown player '" + names[s] + "' (choose human, random, greedy, ismcts[:key=value...] or cmd:PROGRAM)");
    players.push_back(std::move(bot));
  }
  return players;
}

int play_command(const PlayOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
  std::unique_ptr<ScriptedRules> rules;
  try {
    LoadOptions load;
    load.seats = static_cast<int>(options.players.size());
    load.overrides = options.overrides;
    rules = load_rules(options.ruleset, load);
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return 2;
  }
  std::vector<std::string> names = options.players;
  if (names.empty()) {  // no --players: you in seat 1, greedy bots in the others
    names.assign(static_cast<std::size_t>(rules->layout().seats), "greedy");
    names.front() = "human";
  }
  std::vector<std::unique_ptr<Player>> players;
  try {
    players = make_players(names, options.seed, in, out);
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return 2;
  }
  std::ofstream log_file;
  std::unique_ptr<TranscriptWriter> log;
  if (!options.log.empty()) {
    log_file.open(options.log);
    if (!log_file) {
      err << "error: cannot write the transcript file " << cut_for_message(options.log) << '\n';
      return 2;
    }
    log = std::make_unique<TranscriptWriter>(log_file, options.log);
    log->header(options.ruleset, rules->layout().seats, options.seed, names, rules->params_json(), options.overrides,
                rules->id());
  }
  if (!options.quiet) {
    out << fmt::format("{} ({}), seed {}:", printable(rules->info().name), printable(rules->id()), options.seed);
    for (std::size_t s = 0; s < names.size(); ++s) out << fmt::format(" seat {} = {}", s + 1, names[s]);
    out << '\n';
  }
  MatchPrinter printer(out, *rules, names, options.quiet);
  GameState state;
  try {
    state = rules->new_game(options.seed);
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return 1;
  }
  printer.round_start(state.round());
  std::vector<Action> legal;
  GameState round_end_position;
  int viewer = 1;  // the end-of-round table is drawn for the first human seat, else seat 1
  for (std::size_t s = names.size(); s-- > 0;)
    if (names[s] == "human") viewer = static_cast<int>(s) + 1;
  try {
    while (!state.over()) {
      if (state.ply() >= kMaxPlies) throw RulesError(too_long(state));
      rules->legal_actions(state, legal);
      if (legal.empty())
        throw RulesError(fmt::format("seat {} has no legal action but the game is not over (a bug in the rules)", state.to_move()));
      const int seat = state.to_move();
      const int round = state.round();
      if (names[static_cast<std::size_t>(seat - 1)] == "human") printer.flush();  // show the others' moves first
      const Action action = players[static_cast<std::size_t>(seat - 1)]->choose(*rules, InformationSet(state, seat, legal));
      const std::string text = rules->action_text(state, action);
      rules->apply(state, action, &round_end_position);
      if (log) log->action(state, round, seat, text, legal.size());
      for (auto& p : players) if (p->follows_moves()) p->action_played(seat, text);  // external programs' seats
      printer.action(seat, text);
      if (state.round() != round || state.over()) {
        printer.round_end(state, round_end_position, viewer);
        if (!state.over()) printer.round_start(state.round());
      }
    }
  } catch (const InputEnded& e) {
    printer.flush();
    out << "\nThe game stops here (" << e.what() << ") after " << state.ply() << " actions.\n";
    if (log) log->stopped(e.what(), state);
    return 0;
  } catch (const std::exception& e) {
    printer.flush();
    err << "error: " << e.what() << '\n';
    if (log) log->stopped(std::string("error: ") + e.what(), state);
    return 1;
  }
  try {
    for (auto& p : players) p->match_over(*rules, state);
    printer.result(state);
    if (log) log->result(*rules, state);
  } catch (const std::exception& e) {  // the ranks hook failed or gave invalid places
    err << "error: " << e.what() << '\n';
    if (log) log->stopped(std::string("error: ") + e.what(), state);
    return 1;
  }
  return 0;
}

int replay_command(const std::string& file, bool quiet, std::ostream& out, std::ostream& err) {
  Transcript t;
  std::unique_ptr<ScriptedRules> rules;
  try {
    t = read_transcript(file);
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return 2;
  }
  try {
    rules = load_transcript_rules(file, t);  // its ruleset, seats and --set; its parameters checked
  } catch (const std::exception& e) {  // names the file and the header's line
    err << "error: " << e.what() << '\n';
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
  MatchPrinter printer(out, *rules, names, quiet);
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
      rules->apply(state, *action, &round_end_position);
      if (!a.digest.empty() && a.digest != digest_text(state.digest()))
        return differs(a, "the state after it differs from the recorded game (digest " + digest_text(state.digest()) +
                              ", recorded " + a.digest + ")");
      printer.action(a.seat, a.action);
      if (state.round() != round || state.over()) {
        printer.round_end(state, round_end_position, 1);
        if (!state.over()) printer.round_start(state.round());
      }
    }
  } catch (const std::exception& e) {
    printer.flush();
    err << "error: " << e.what() << '\n';
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
    err << "error: " << e.what() << '\n';
    return 1;
  }
  if (!quiet) out << "Replay reproduces the recorded game.\n";
  return 0;
}

}  // namespace hr
