// scenario.hpp — the scenario-test runner behind `houserules test`.
//
// A scenario file (TOML) names a ruleset and holds [[scenario]] tables. Each scenario starts a new game,
// rearranges zones, plays actions and checks expectations:
//
//   ruleset = "lost-cities"     # an id, or a ruleset folder: relative to this file if it starts with '.' or
//                               # contains '/'
//   # players = 2               # optional seat count (LoadOptions::seats; default: the ruleset's)
//   # variant = "three-player"  # optional: the ruleset's variant (rulesets/<id>/variants/<name>.toml)
//   [[scenario]]
//   name = "..."                # required
//   seed = 1                    # optional, default 1
//   previous_rounds = [[10, 5]] # optional: scores of rounds already played, recorded in order with
//                               # GameState::close_round right after the setup (the deal is kept): the scenario
//                               # starts in round len+1 with these totals (the ruleset's start_round is not
//                               # called again, so set to_move yourself if it matters)
//   to_move = 1                 # optional: the seat to move once the zones are set
//   phase = "draw"              # optional: the phase to start in, a declared name (declare{phases=...}) or a number
//   actions = ["play Y9", "draw deck"]   # optional: applied in order; each must be legal
//   [scenario.zones]            # optional: after setup, each listed zone holds exactly these cards, bottom to
//   "expedition.1.yellow" = ["Y5", "Y8"] # top; a name takes the lowest-numbered copy this scenario has not
//                               # placed yet, from wherever it is; unlisted cards of the zone go to `box`
//   counters = { vp = [10, 0], crossed = 2 }   # optional: counter values after setup, one per seat (an array)
//                               # or the supply's (an integer)
//   [scenario.figures]          # optional: "<kind>.<owner>" ("<kind>" for owner 0) = the places of those figures
//   "explorer.1" = ["path.red 9"]   # in figure order, "<track> <space>" or "off"; the ones not listed go off
//   "adventurer.2" = ["path.red 3", "path.blue 1"]   # the board
//   [scenario.tiles]            # optional: each listed track holds exactly these tiles (space = name); the tiles
//   "path.yellow" = { 2 = "arrow", 3 = "VP10" }   # that lay on it go to `box`; a name takes a copy as in zones
//   [scenario.board.valley]     # optional, a lattice board (docs/boards.md), set after zones, figures and tracks:
//   tiles = { "0,0 r0" = "start" }  # with tiles: exactly these tiles ("<anchor> r<rotation>" = name), others to box
//   lying = { "face 4,7u" = ["gold"], "edge 4,7-5,7" = [], "vertex 4,7" = ["ice"] }  # each listed site holds
//   face_down = { "face 3,2d" = ["gold", "gold"] }  # exactly these, bottom to top (face_down: known to nobody)
//   marks = { explored = { "4,7" = 1 }, canal = { "4,7-5,7" = 2 } }  # mark values at these sites
//   figures = { "prospector.1" = "vertex 4,7" }  # as [scenario.figures], places "vertex ..." / "face ..."
//   (In [scenario.figures] a board place is written "<board> vertex 4,7".)
//   [scenario.expect]           # all optional, checked after the actions
//   scores = [18, 0]            # Rules::score of each seat in the current round
//   match_scores = [18, 0]      # GameState::match_scores (totals of the finished rounds)
//   round_scores = [[18, 0]]    # GameState::round_scores (one array per finished round)
//   ranks = [1, 2]              # Rules::ranks (1 = first, ties share a place)
//   over = false                # whether the match is over
//   to_move = 2                 # the seat to move
//   phase = "play"              # the phase (a declared name or a number)
//   round = 1                   # the current round
//   legal = ["draw deck"]       # action texts legal for the seat to move
//   illegal = ["draw Y"]        # action texts not legal for the seat to move
//   error = "you do not hold"   # the LAST action must be rejected with a message containing this text, and
//                               # leave the state unchanged
//   sizes = { "hand.1" = 8 }    # number of cards in each listed zone
//   counters = { vp = [15, 0] } # counter values, as in the setup
//   figures = { "adventurer.1" = ["path.red 4"] }   # the places on the board of those figures, in any order
//                               # ("off" entries are ignored: the others of that kind and owner are off the board)
//   tiles = { "path.yellow" = { 2 = "arrow" } }     # exactly these tiles on each listed track
//   heuristic = { 1 = 23.52 }   # Rules::heuristic of each listed seat, within 0.001
//   describe = { 1 = "Pile 1" } # Rules::describe of the seat's observation contains the text
//   score_breakdown = { 1 = "wagers x2" }  # the score_breakdown hook's lines for the seat contain the text
//   turn_summary = { 2 = "played Y7" }     # the line `play` prints for the last turn, as seat 2 saw it, contains it
//                               # (every card revealed, as `play` shows them at the end of a round)
//   violation = "breaks"        # Rules::invariant_violation contains this text; false: it is empty
//   [scenario.expect.board.valley]  # tiles: each listed placement holds that tile (others are not checked);
//   free = ["4,7u"]             # faces without a tile; lying: exact contents of each listed site; marks, figures
//   [scenario.expect.zones]     # exact contents of each listed zone, bottom to top
//   "discard.yellow" = ["Y4"]
//   [scenario.expect.sees.2]    # what seat 2's observation shows of each listed zone, bottom to top, "?" for
//   "hand.1" = ["?", "?"]       # a card it cannot see
//
// Every position a scenario plays an action from, and its last position when it lists legal or illegal texts,
// must give each legal action its own text (as `houserules check` requires); two alike fail the scenario naming
// both. The reference for users is
// docs/writing-rules.md, "Scenario tests".
//
// Unknown keys and wrong types are errors naming the file and line.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace hr {

class ScriptedRules;

/// Rulesets loaded by run_scenario_tests (and their load errors), by ruleset and player count. One run keeps
/// its own; a caller that runs many files one call at a time (the fuzz target) passes one to keep them.
struct LoadedRulesets {
  LoadedRulesets();
  ~LoadedRulesets();
  std::map<std::string, std::unique_ptr<ScriptedRules>> rules;
  std::map<std::string, std::string> errors;
};

/// The outcome of one test of run_scenario_tests: a scenario, a golden game, or a file that could not be run
/// (which counts as one failed test). For `houserules test --json` and `--junit`.
struct TestCaseResult {
  std::string file;     ///< the scenario or golden file, as found
  std::string name;     ///< the scenario's name; "golden game" for a golden file; "(file)" for a file that failed whole
  int line = 0;         ///< its line in the file (0 when not known)
  bool passed = false;
  std::string message;  ///< why it failed: one line, "<file>:<line>: ..." for a scenario; empty when it passed
  double seconds = 0;   ///< wall time it took
};

/// Options of run_scenario_tests.
struct ScenarioOptions {
  bool verbose = false;  ///< also print `ok <file> '<name>'` for each scenario that passes
  bool update = false;   ///< re-record the golden transcripts found instead of checking them (cli/testing/golden.hpp)
  LoadedRulesets* loaded = nullptr;  ///< rulesets kept across calls; nullptr: this call's own
  std::vector<TestCaseResult>* results = nullptr;  ///< when given, receives every test's outcome, in run order
};

/// Runs the scenario tests of every file in `files_or_folders` (a folder: every *.toml file below it,
/// recursively, in sorted order; a file: that file, whatever its extension).
///
/// Prints `FAIL <file>:<line> '<name>': <reason>` for each failing scenario (the reason on one line),
/// `FAIL <file>:<line>:<column>: <message>` for a file that cannot be parsed, `FAIL <file>:<line>: <message>`
/// for a file whose header is wrong or whose ruleset cannot be loaded (each such file counts as one
/// failure), with `verbose` also `ok <file> '<name>'` for each passing scenario, and finally the line
/// `N passed, M failed`. Loaded rulesets are cached per (ruleset, players) for the whole run.
///
/// Golden transcripts (*.jsonl in a folder named `golden`, cli/testing/golden.hpp) found in the folders, or given as
/// files, are replayed too (re-recorded with `update`), each counting as one passed or failed test.
///
/// Returns 0 if at least one scenario ran and none failed, 1 otherwise.
int run_scenario_tests(const std::vector<std::string>& files_or_folders, std::ostream& out,
                       const ScenarioOptions& options);

/// The test files run_scenario_tests finds in `folder`: its scenario files (sorted), then its golden
/// transcripts (sorted), appended to `files`. False (with `ec` set) when the folder cannot be read.
bool list_test_files(const std::filesystem::path& folder, std::vector<std::filesystem::path>& files,
                     std::error_code& ec);

}  // namespace hr
