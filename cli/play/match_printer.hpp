// match_printer.hpp — private to cli/play/: the match as `play` and `replay` print it, turn by turn
// (match_printer.cpp, beside turn_changes and turn_summary_text of play.hpp).
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "rules.hpp"
#include "state.hpp"

namespace hr {

/// Prints a match as it goes: one seat's turn on one line (wrapped at 100 columns), what it did as the viewer
/// sees it (the ruleset's turn_summary hook, else the action texts and generic_details), and at each round's end the final position with every hand revealed and
/// each seat's score broken down (the ruleset's score_breakdown hook, else the score alone).
class MatchPrinter {
 public:
  MatchPrinter(std::ostream& out, Rules& rules, const std::vector<std::string>& names, bool quiet, int viewer,
               bool colour);

  /// Two or more people at one terminal (`seats`: theirs): nothing is printed as it happens, since whoever holds
  /// the terminal may not see another seat's cards. Each turn's line is kept for each of them as that seat sees
  /// it, the round ends (every card shown) for all of them, and catch_up prints a seat's lines when it gets the
  /// terminal.
  void hide_between(std::vector<int> seats) { shared_ = std::move(seats); }

  /// Prints what happened since `seat`'s last turn, as `seat` sees it ("Since your last turn:"), once that seat
  /// holds the terminal (hide_between); nothing when nothing did.
  void catch_up(int seat);

  /// Called before each action is applied to `state`.
  void before(const GameState& state);

  /// Called after each action: `after` is the state after it (the round's final position when it ended one).
  void action(int seat, const std::string& text, const GameState& after);

  void flush();

  void round_start(int round);

  /// `after` is the state after the round's last action; `final_position` the round's last table, before
  /// it was closed (when a new round has begun, `after` already shows its deal). The table is drawn for the
  /// viewer (the first human seat, else seat 1) with every card revealed, as players show their hands when a
  /// round is over, then each seat's score of the round with its breakdown.
  void round_end(const GameState& after, const GameState& final_position);

  void result(const GameState& state);

 private:
  std::ostream& out_;
  Rules& rules_;
  const std::vector<std::string>& names_;
  bool quiet_;
  int viewer_;
  bool colour_;
  /// `seat`'s turn of `texts` as `viewer` sees it: one line of at most 100 columns (a long turn goes on under it,
  /// indented), with newline, each line's card names in colour.
  std::string turn_line(int viewer, int seat, const std::vector<std::string>& texts);

  /// Text every seat may see: printed, or kept for each seat sharing the terminal (hide_between).
  void say(const std::string& text);

  std::string word_ = "round", Word_ = "Round";  ///< what the rules call a round (ruleset.toml round_word)
  int line_seat_ = 0;
  std::vector<std::string> texts_;
  GameState before_, after_;  ///< the whole positions: each viewer's observation is taken when the line is made
  std::vector<int> shared_;   ///< the seats sharing the terminal (hide_between), or empty
  std::map<int, std::vector<std::pair<bool, std::string>>> pending_;  ///< per seat: (public?, text) not yet shown
};

}  // namespace hr
