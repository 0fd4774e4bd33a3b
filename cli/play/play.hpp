// play.hpp — the public header of cli/play/ (the subsystem above scripting/ that plays games), included by the
// other subsystems and the front as "play/play.hpp": the `play` and `replay` commands (a whole match between humans
// at the terminal and bots), and, through the headers below, transcripts, external player programs, observations
// as JSON and the small helpers for files and shell words the commands above share.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bots.hpp"
#include "external_player.hpp"
#include "observation_json.hpp"
#include "output_path.hpp"
#include "progress.hpp"
#include "shell_word.hpp"
#include "state_folder.hpp"
#include "transcript.hpp"
#include "undo_check.hpp"

namespace hr {

/// A seat played by a person at the terminal: it sees the table of its observation (Rules::describe) and
/// the numbered legal actions, and types an action's text or number. Anything else gets a one-line
/// explanation (Rules::explain_illegal) and the prompt again, with nothing changed. `help` lists the
/// actions again; `quit`, the end of input or Ctrl-C stops the game (throws InputEnded); `undo` throws
/// UndoRequested. A single legal action is played without asking (and said so).
class HumanPlayer : public Player {
 public:
  HumanPlayer(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
  Action choose(Rules& rules, const InformationSet& info) override;
  std::string name() const override { return "human"; }
  /// Colour on (ANSI): card names in their `colour` attribute, the prompt in bold, refusals in red.
  void set_colour(bool on) { colour_ = on; }
  /// Read lines through GNU readline (line editing, history, Ctrl-R) instead of `in`: only for a terminal.
  void set_line_editing(bool on) { line_editing_ = on; }
  /// Forgets the rest of a shorthand line (after an undo).
  void clear_pending() { pending_.clear(); }
  /// Where the ruleset's rules are written (its README.md, as found: the installed copy for an installed
  /// binary), which `help` names; empty when the ruleset has none.
  void set_rules_page(std::string path) { rules_page_ = std::move(path); }

 private:
  /// One line typed after `prompt`; false at the end of input.
  bool read_line(const std::string& prompt, std::string& line);
  std::istream& in_;
  std::ostream& out_;
  bool colour_ = false;
  bool line_editing_ = false;
  std::string rules_page_;
  /// The rest of a shorthand the person typed (Rules::shorthand): played one at a time, each checked against
  /// the legal actions of its own position; the first that is not legal drops the rest.
  std::vector<std::string> pending_;
};

/// The person stopped the game (end of input, `quit` or Ctrl-C).
class InputEnded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The person typed `undo`: the game goes back to their previous decision (play_command).
class UndoRequested : public std::runtime_error {
 public:
  UndoRequested() : std::runtime_error("undo") {}
};

struct PlayOptions {
  std::string ruleset = "lost-cities";  ///< id or path
  /// One per seat: human, random, greedy...; empty = human in seat 1, greedy in the others. With `resume`: the
  /// seats' players instead of the transcript header's; required when the header names a cmd: program (a
  /// transcript never starts a program by itself).
  std::vector<std::string> players;
  std::uint64_t seed = 1;
  std::string log;                      ///< transcript file, or empty
  /// `log` is a file of the user's state folder (new_state_log) kept so that an unfinished game can be resumed:
  /// the stop message names it, and it is removed when the game ends with a result.
  bool kept_log = false;
  bool quiet = false;                   ///< only the result
  std::vector<std::string> overrides;   ///< `--set name=value` parameters, recorded in the transcript header
  bool colour = false;                  ///< ANSI colours (cmd_play: stdout is a terminal and NO_COLOR unset)
  bool line_editing = false;            ///< readline at the prompt (cmd_play: stdin is a terminal)
  std::string resume;                   ///< a transcript to continue (its game, players and seed; log appended)
};

/// Whether to colour the output: `out_is_terminal` and the NO_COLOR environment variable unset or empty
/// (https://no-color.org).
bool colour_wanted(bool out_is_terminal);

/// Splits "greedy,random,ismcts:iterations=500" at the commas (empty parts kept: they are reported as
/// unknown players).
std::vector<std::string> split_player_list(const std::string& text);

/// A fresh game seed from the operating system's entropy (std::random_device), below 2^32 so that it is
/// short to type and exact in every JSON reader. `play` uses it when no --seed is given, and prints it.
std::uint64_t fresh_seed();

/// `state` with every component revealed to every seat: the position players look at when a round ends and all
/// hands are shown (`play`'s end-of-round table and score breakdown, scenario files' expect.score_breakdown).
GameState every_card_revealed(GameState state);

/// A seat's player could not be made (an unknown name, bad bot options, a program that cannot start): what() says
/// why, seat() which seat (1-based).
class SeatPlayerError : public std::invalid_argument {
 public:
  SeatPlayerError(int seat, const std::string& what) : std::invalid_argument(what), seat_(seat) {}
  int seat() const { return seat_; }

 private:
  int seat_;
};

/// Makes the players of a match from their names; throws SeatPlayerError naming the seat of an unknown one.
/// Bots start from the ruleset's [bots] options (Rules::bot_options of `rules`; nullptr: none).
std::vector<std::unique_ptr<Player>> make_players(const std::vector<std::string>& names, std::uint64_t seed,
                                                  std::istream& in, std::ostream& out, const Rules* rules);

/// Plays a match and prints it to `out`. Returns the exit status: 0 for a finished (or cleanly stopped)
/// game, 1 for a rules error (printed to `err`), 2 for bad options.
int play_command(const PlayOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

/// Replays a transcript, checking every action was legal and every recorded digest, legal-action count and
/// the result match. Prints the game unless quiet. Returns 0 if it reproduces, 1 naming the first action
/// that differs, 2 if the file cannot be read.
int replay_command(const std::string& file, bool quiet, std::ostream& out, std::ostream& err);

struct TurnChanges;
/// What one seat's turn changed as `viewer` saw it: its observations `before` the turn's first action and
/// `after` its last, and the turn's action `texts`; `you` when the viewer is the person at the terminal.
TurnChanges turn_changes(const GameState& before, const GameState& after, int viewer, bool you,
                         const std::vector<std::string>& texts);

/// The line `play` prints for `seat`'s turn (after "seat N (player): "): the ruleset's `turn_summary` hook
/// called on the viewer's observation `view` after the turn, else the action texts and a generic account of
/// `changes` (cards the viewer drew, known cards moved, per-seat counters changed). Throws ScriptError when
/// the hook fails or returns something else than a string or nil.
std::string turn_summary_text(Rules& rules, const GameState& view, int seat, const TurnChanges& changes);

struct Transcript;
/// The replay of replay_command once `t` is read (from `file`, named in messages) and its rules loaded.
int replay_transcript(const std::string& file, const Transcript& t, Rules& rules, bool quiet, std::ostream& out,
                      std::ostream& err);

}  // namespace hr
