// play.cpp — `houserules play` (play.hpp): the players of a match made from their names, and the match itself
// (play_command): a new game or one resumed from its transcript (replay.cpp), the loop of turns with undo, the
// transcript written as it goes, and Ctrl-C (interrupt.cpp). The prompt is human_player.cpp; what is printed,
// match_printer.cpp.
#include "play.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <span>
#include <sstream>

#include <fmt/format.h>

#include "external_player.hpp"
#include "input_line.hpp"
#include "interrupt.hpp"
#include "match_printer.hpp"
#include "replay.hpp"
#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"
#include "terminal_style.hpp"
#include "transcript.hpp"

#ifdef HOUSERULES_HAVE_READLINE
#include <cstdio>
#include <readline/readline.h>
#endif

namespace hr {

bool colour_wanted(bool out_is_terminal) {
  const char* no_colour = std::getenv("NO_COLOR");
  return out_is_terminal && (no_colour == nullptr || *no_colour == '\0');
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

GameState every_card_revealed(GameState state) {
  for (std::size_t c = 0; c < state.layout().components.size(); ++c)
    state.reveal(static_cast<ComponentId>(c), state.layout().all_seats_mask());
  return state;
}

std::uint64_t fresh_seed() {
  std::random_device device;
  return device();  // 32 bits
}

std::vector<std::unique_ptr<Player>> make_players(const std::vector<std::string>& names, std::uint64_t seed,
                                                  std::istream& in, std::ostream& out, const Rules* rules) {
  std::vector<std::unique_ptr<Player>> players;
  for (std::size_t s = 0; s < names.size(); ++s) try {
    if (names[s] == "human") {
      auto human = std::make_unique<HumanPlayer>(in, out);
      if (const auto* scripted = dynamic_cast<const ScriptedRules*>(rules)) {  // `help` names the rules' README
        std::error_code ignored;
        const auto page = scripted->info().dir / "README.md";
        if (std::filesystem::is_regular_file(page, ignored)) human->set_rules_page(page.string());
      }
      players.push_back(std::move(human));
      continue;
    }
    if (is_external_player(names[s])) {  // cmd:PROGRAM (docs/external-players.md)
      players.push_back(std::make_unique<ExternalPlayer>(names[s], static_cast<int>(s) + 1));
      continue;
    }
    auto bot = make_bot(names[s], derive_seed(seed, 1000 + s), rules);
    if (!bot) throw std::invalid_argument("unknown player '" + printable(cut_for_message(names[s])) + "' (choose human, random, greedy, ismcts[:key=value...] or cmd:PROGRAM)");
    players.push_back(std::move(bot));
  } catch (const SeatPlayerError&) {
    throw;
  } catch (const std::exception& e) {
    throw SeatPlayerError(static_cast<int>(s) + 1, e.what());
  }
  return players;
}

int play_command(const PlayOptions& options_in, std::istream& in, std::ostream& out, std::ostream& err) {
  PlayOptions options = options_in;
  Transcript resumed;
  if (!options.resume.empty()) {  // the game, its players and its seed come from the transcript
    try {
      resumed = read_transcript(options.resume);
    } catch (const std::exception& e) {
      err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
      return 2;
    }
    if (resumed.has_result) {
      err << "error: " << cut_for_message(options.resume) << ": the game is over (it has a result line): nothing to resume\n";
      return 2;
    }
    options.ruleset = resumed.ruleset;
    options.seed = resumed.seed;
    options.log = options.resume;
    options.kept_log = false;
    if (options_in.players.empty()) {  // the header's players; a program only when the command line names it
      const std::string at = fmt::format("{}:{}: ", cut_for_message(options.resume), resumed.header_line);
      if (resumed.players.size() != static_cast<std::size_t>(resumed.seats)) {
        err << "error: " << at << fmt::format("header players: {} players for {} seats\n", resumed.players.size(), resumed.seats);
        return 2;
      }
      for (std::size_t s = 0; s < resumed.players.size(); ++s) {
        const std::string& name = resumed.players[s];
        const std::string where = fmt::format("{}header players[{}] (seat {}): ", at, s, s + 1);
        if (is_external_player(name)) {
          err << "error: " << where << "the program " << printable(cut_for_message(name, 80))
              << " is not started from a transcript (it could be anyone's command): name seat " << s + 1
              << "'s player again on the command line, e.g. --resume " << cut_for_message(options.resume)
              << " --players " << (s == 0 ? "cmd:PROGRAM,..." : "...,cmd:PROGRAM") << "\n";
          return 2;
        }
      }
      options.players = resumed.players;
    } else if (options_in.players.size() != static_cast<std::size_t>(resumed.seats)) {
      err << "error: --players names " << options_in.players.size() << " players but the game of "
          << cut_for_message(options.resume) << " has " << resumed.seats << " seats\n";
      return 2;
    }
  }
  std::unique_ptr<ScriptedRules> rules;
  try {
    if (!options.resume.empty()) {  // the rules as replay finds them: path, id, seats, --set, parameters checked
      options.overrides = resumed.overrides;
      rules = load_transcript_rules(options.resume, resumed);
    } else {
      if (!options.players.empty()) {  // a seat count the ruleset does not take: name the file and --players
        const RulesetInfo info = find_ruleset(options.ruleset);
        const int seats = static_cast<int>(options.players.size());
        if (seats < info.min_players || seats > info.max_players) {
          const std::string range = std::to_string(info.min_players) +
                                    (info.max_players > info.min_players ? " to " + std::to_string(info.max_players) : "");
          const std::string what = info.variants.empty() ? printable(cut_for_message(options.ruleset))
                                                         : printable(cut_for_message(info.variants.back().file.string()));
          std::string example = "human";
          for (int s = 1; s < info.min_players; ++s) example += ",greedy";
          err << fmt::format("error: {} ({}) is played by {} players, not {}: give --players {} names, one per seat "
                             "(e.g. --players {})\n", what, printable(info.id), range, seats, range, example);
          return 2;
        }
      }
      LoadOptions load;
      load.seats = static_cast<int>(options.players.size());
      load.overrides = options.overrides;
      rules = load_rules(options.ruleset, load);
    }
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  }
  std::vector<std::string> names = options.players;
  if (names.empty()) {  // no --players: you in seat 1, greedy bots in the others
    names.assign(static_cast<std::size_t>(rules->layout().seats), "greedy");
    names.front() = "human";
  }
  std::vector<std::unique_ptr<Player>> players;
  try {
    players = make_players(names, options.seed, in, out, rules.get());
  } catch (const SeatPlayerError& e) {
    if (!options.resume.empty() && options_in.players.empty())  // the header's player: name the file and line
      err << fmt::format("error: {}:{}: header players[{}] (seat {}): {}\n", cut_for_message(options.resume),
                         resumed.header_line, e.seat() - 1, e.seat(), e.what());
    else
      err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  }
  int humans = 0;
  for (auto& p : players)
    if (auto* human = dynamic_cast<HumanPlayer*>(p.get())) {
      ++humans;
      human->set_colour(options.colour);
#ifdef HOUSERULES_HAVE_READLINE
      human->set_line_editing(options.line_editing);
#endif
    }
#ifdef HOUSERULES_HAVE_READLINE
  if (options.line_editing) {
    rl_catch_signals = 0;
    rl_getc_function = read_key_or_interrupt;
  }
#endif
  GameState state;
  try {
    state = rules->new_game(options.seed);
    if (!options.resume.empty()) replay_for_resume(options.resume, resumed, *rules, state);
  } catch (const TranscriptError& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 1;
  }
  std::ofstream log_file;
  std::unique_ptr<TranscriptWriter> log;
  if (!options.log.empty()) {
    log_file.open(options.log, options.resume.empty() ? std::ios::out : std::ios::app);
    if (!log_file) {
      err << "error: cannot write the transcript file " << cut_for_message(options.log) << '\n';
      return 2;
    }
    log = std::make_unique<TranscriptWriter>(log_file, options.log);
    if (options.resume.empty())
      log->header(options.ruleset, rules->layout().seats, options.seed, names, rules->params_json(), options.overrides,
                  rules->id());
    else
      log->resumed(state);
  }
  if (!options.quiet) {
    std::string heading = fmt::format("{} ({}), seed {}:", printable(rules->info().name), printable(rules->id()), options.seed);
    for (std::size_t s = 0; s < names.size(); ++s) heading += fmt::format(" seat {} = {}", s + 1, names[s]);
    const auto lines = wrap_words(heading, 0, line_width(out), 2);  // 100 columns, or the terminal's width
    for (const auto& line : lines) out << line << '\n';
    if (!options.resume.empty())
      out << fmt::format("Resuming {} after its {} actions.\n", cut_for_message(options.resume), state.ply());
  }
  int viewer = 1;  // the end-of-round table and the turn summaries are for the first human seat, else seat 1
  for (std::size_t s = names.size(); s-- > 0;)
    if (names[s] == "human") viewer = static_cast<int>(s) + 1;
  MatchPrinter printer(out, *rules, names, options.quiet, viewer, options.colour);
  if (humans >= 2) {  // people taking turns at one terminal: each is told only what its seat may see
    std::vector<int> people;
    for (std::size_t s = 0; s < names.size(); ++s)
      if (names[s] == "human") people.push_back(static_cast<int>(s) + 1);
    printer.hide_between(people);
  }
  if (!options.quiet && state.ply() == 0) printer.round_start(state.round());
  std::vector<Action> legal;
  GameState round_end_position;
  std::vector<GameState> decisions;  // the state before each human decision, for `undo`
  int last_human = 0;                // with two humans at one terminal: who had the screen last
  InterruptGuard guard;
  try {
    while (!state.over()) {
      if (interrupted()) throw InputEnded("interrupted (Ctrl-C)");
      if (state.ply() >= kMaxPlies) throw RulesError(too_long(state));
      rules->legal_actions(state, legal);
      if (legal.empty())
        throw RulesError(fmt::format("seat {} has no legal action but the game is not over (a bug in the rules)", state.to_move()));
      const int seat = state.to_move();
      const int round = state.round();
      const bool human = names[static_cast<std::size_t>(seat - 1)] == "human";
      printer.before(state);  // a new seat's turn: the last one's line is printed first
      if (human) {
        if (humans >= 2 && last_human != seat && !options.quiet) {  // hide the other hand: pass the terminal
          // A terminal: clear the screen and its scrollback (ESC[3J), where the last seat's hand still is.
          const char* clear = options.line_editing ? "\033[H\033[2J\033[3J" : "";
          out << clear << fmt::format("Pass the terminal to seat {} and press Enter.", seat) << std::flush;
          std::string ignored;
          if (!read_bounded_line(in, ignored)) throw InputEnded("end of input");
          if (interrupted()) throw InputEnded("interrupted (Ctrl-C)");
          out << clear << (*clear ? "" : "\n");
        }
        if (humans >= 2) printer.catch_up(seat);  // what happened since its last turn, as this seat sees it
        last_human = seat;
        if (legal.size() > 1) decisions.push_back(state);  // a forced action is no decision to go back to
      }
      Action action;
      try {
        action = players[static_cast<std::size_t>(seat - 1)]->choose(*rules, InformationSet(state, seat, legal));
      } catch (const UndoRequested&) {
        printer.flush();
        decisions.pop_back();  // this decision's position (pushed again when the loop comes back to it)
        if (humans >= 2 || decisions.empty()) {
          out << (humans >= 2 ? "Undo is only for a game against bots.\n" : "Nothing to undo: this is your first decision.\n");
          continue;
        }
        // Going back past a card you have since seen would let you choose again knowing it: refused, with the reason.
        if (const std::string refusal = undo_refusal(decisions.back(), state, seat); !refusal.empty()) {
          out << refusal << '\n';
          continue;
        }
        state = decisions.back();
        decisions.pop_back();
        for (auto& p : players)
          if (auto* h = dynamic_cast<HumanPlayer*>(p.get())) h->clear_pending();
        if (log) log->undo(state);
        printer.flush();
        out << fmt::format("Undone: back to your decision at action {}.\n", state.ply() + 1);
        last_human = seat;
        continue;
      }
      const std::string text = rules->action_text(state, action);
      rules->apply(state, action, &round_end_position);
      if (log) log->action(state, round, seat, text, legal.size());
      for (auto& p : players) if (p->follows_moves()) p->action_played(seat, text);  // external programs' seats
      const bool round_over = state.round() != round || state.over();
      printer.action(seat, text, round_over ? round_end_position : state);
      if (round_over) {
        printer.round_end(state, round_end_position);
        if (!state.over()) printer.round_start(state.round());
      }
    }
  } catch (const InputEnded& e) {
    printer.flush();
    out << "\nThe game stops here (" << e.what() << ") after " << state.ply() << " actions.\n";
    if (log) {
      log->stopped(e.what(), state);
      out << (options.kept_log ? "The game is kept in " + printable(shell_word(options.log)) + ".\n" : std::string())
          << "Resume with: houserules play --resume " << printable(shell_word(options.log)) << '\n';
    }
    return 0;
  } catch (const std::exception& e) {
    printer.flush();
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    if (log) log->stopped(std::string("error: ") + e.what(), state);
    return 1;
  }
  try {
    for (auto& p : players) p->match_over(*rules, state);
    printer.result(state);
    if (log) log->result(*rules, state);
    if (options.kept_log) {  // a finished game cannot be resumed: the state folder keeps only unfinished ones
      log.reset();
      log_file.close();
      std::remove(options.log.c_str());
    }
  } catch (const std::exception& e) {  // the ranks hook failed or gave invalid places
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    if (log) log->stopped(std::string("error: ") + e.what(), state);
    return 1;
  }
  return 0;
}

}  // namespace hr
