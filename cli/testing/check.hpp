// check.hpp — `houserules check`: random playouts of a ruleset that check, after every action, the contracts
// the kernel and the tools rely on. It serves every ruleset and variant: it uses only hr::Rules.
//
// Checked after every action of N random games (random players in every seat):
//  * conservation: GameState::check_invariants (every component in exactly one place, ...);
//  * a legal action exists while the game is not over, and none once it is over;
//  * every legal action has its own text (docs/writing-rules.md: texts name actions in transcripts);
//  * an illegal action (a code outside the legal set) is refused by apply_checked with IllegalAction and
//    changes nothing; a legal action whose hook fails is reported, and must change nothing either;
//  * the ruleset's own invariants (Rules::invariant_violation, the optional `invariants(game)` hook);
//  * the game ends within --max-plies actions;
//  * at the end of the game, the transcript (the action texts) replays from the seed through parse_action to
//    the same state digest after every action, the same final state and the same result.
// Game g (0-based) uses seed S + g and the players of `houserules play --players random,...,random --seed
// S+g`, so a failing game is reproduced by `houserules check <ruleset> --games 1 --seed S+g` or watched with
// that play command.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace hr {

struct CheckOptions {
  std::string ruleset;               ///< id, id/variant or path, as given on the command line
  int games = 200;                   ///< random games to play
  std::uint64_t seed = 1;            ///< game g uses seed + g
  int players = 0;                   ///< seats (0 = the ruleset's default)
  std::int64_t max_plies = 100000;   ///< a game still running after this many actions is a violation
  int max_reports = 10;              ///< violations printed in full (every violating game is counted)
  bool verbose = false;              ///< a line per game
  bool all_player_counts = false;    ///< check every seat count the ruleset allows, `games` games each
  std::vector<std::string> overrides;  ///< `--set name=value` parameters (LoadOptions::overrides)
  bool json = false;                 ///< print one JSON document on `out` (docs/cli.md) instead of text
  /// -1: the games done on `err` as a bar (ProgressBar) when it is a terminal, nothing in a pipe; 0: none
  /// (--no-progress)
  int progress = -1;
};

/// Runs the check. Prints each violation (seed, action number, what failed, the commands that reproduce it)
/// and a closing summary to `out`; load errors (file and line, as the loader gives them) to `err`.
/// Returns 0 when every game passed every check, 1 when any violation was found, 2 when the ruleset cannot
/// be loaded or the options are wrong (with all_player_counts: the worst status of the seat counts).
/// With options.json, `out` receives only the JSON document: {"ruleset", "status", "runs": [{"seats", "games",
/// "seed", "actions", "seconds", "failed", "violations": [...]}]} (docs/cli.md).
int check_command(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hr
