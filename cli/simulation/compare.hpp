// compare.hpp — `houserules compare A B`: what a house rule changes in the balance of a game. A and B (a ruleset
// and a variant, or two variants) are simulated with the same bots and the same deal seeds, in mirror matches
// (every deal played once from every seat), and every figure is compared with a 95% confidence interval and a
// plain-language verdict (docs/simulation.md, "Comparing two rulesets").
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "simulate.hpp"

namespace hr {

/// A figure with its 95% confidence interval.
struct Estimate {
  double value = 0, low = 0, high = 0;
};

/// One figure measured in A and in B, and the change B - A.
struct MetricComparison {
  std::string key;          ///< stable name for programs: "first_player_advantage", "win_rate/greedy", ...
  std::string label;        ///< for people: "first-player advantage", "win rate of greedy", ...
  bool percent = false;     ///< a share (printed as a percentage; the change in percentage points)
  bool signed_value = false;  ///< printed with its sign (an advantage: +3.1%)
  Estimate a, b;            ///< each with its own 95% interval
  Estimate change;          ///< b - a, with the 95% interval of the difference
  bool significant = false; ///< the interval of the change excludes 0
  std::string verdict;      ///< one sentence: "first-player advantage rose from +3.10% to +7.40% (...): significant"
};

/// The whole comparison: both simulations and every figure compared.
struct Comparison {
  /// The two simulations (Experiment::mirror set), their figures over the paired games only: the mirror blocks
  /// (the games of one deal) that every game of completed on both sides. Their `failures` and `overlong` list
  /// every failed game of the side all the same.
  Stats a, b;
  std::int64_t paired = 0;                   ///< games each side in the figures (whole mirror blocks)
  std::int64_t left_out = 0;                 ///< games each side left out because one of its block failed somewhere
  std::vector<MetricComparison> metrics;     ///< in a fixed order: balance, scores, margins, length, actions
};

/// Difference of two proportions (successes may be fractional) with Newcombe's hybrid score interval
/// (method 10: built from the two Wilson intervals), 95%.
Estimate proportion_change(double successes_a, double n_a, double successes_b, double n_b);
/// Difference of two means (Welch: the interval is change +- 1.96 sqrt(var_a/n_a + var_b/n_b)), 95%.
Estimate mean_change(const std::vector<double>& a, const std::vector<double>& b);
/// The same from two distributions (exact sums: the same figure whatever the order of the games).
Estimate mean_change(const Distribution& a, const Distribution& b);

/// A comparison gathered one mirror block at a time (the games of one deal, played from every seat, on A and on
/// B), in memory that does not grow with the games: every game counts in its side's failures and counts, and the
/// figures use only the blocks that completed on both sides (the pairs). Blocks may come in any order.
class ComparisonTally {
 public:
  /// Throws std::invalid_argument if the players or seat counts of `a` and `b` differ.
  ComparisonTally(const Experiment& a, const Experiment& b);
  /// One block: the games of the same indices (and deal) in A and in B.
  void add_block(const std::vector<GameRecord>& a, const std::vector<GameRecord>& b);
  Comparison finish() const;

 private:
  StatsTally all_a_, all_b_, paired_a_, paired_b_;
};

/// Compares two simulations played on the same seeds with the same players (throws std::invalid_argument
/// if their players or seat counts differ). `records_*` in index order, as run_games returns them.
Comparison compare_simulations(const Experiment& a, const std::vector<GameRecord>& records_a, const Experiment& b,
                               const std::vector<GameRecord>& records_b);

/// Why the games of one side failed: "none", or "8 failed: 8 not over after 100000 actions (--max-plies)", other
/// errors by their first line ("2 failed: 1 not over after ...; 1 seat 2 has no legal action ...").
std::string failure_summary(const Stats& side);

/// The comparison as a table and verdicts (significant changes first).
std::string comparison_text(const Comparison& comparison);
/// The comparison as one JSON document (schema in docs/simulation.md).
std::string comparison_json(const Comparison& comparison);
/// A self-contained HTML page: the figures with their intervals drawn around a zero line, the margin, length
/// and score distributions of A and B side by side with axis ticks, per-seat tables, overlong or failed games.
std::string comparison_html(const Comparison& comparison, const std::string& command);

struct CompareOptions {
  std::string a, b;                  ///< ruleset ids, id/variant or paths
  std::vector<std::string> players;  ///< bot settings, one per seat
  std::uint64_t seed = 1;
  std::int64_t games = 1000;         ///< per ruleset; rounded up to a whole number of mirror blocks (seats)
  int threads = 0;                   ///< 0 = every core
  std::int64_t max_plies = 100000;
  std::string report;                ///< HTML file ("" = none)
  bool json = false;                 ///< the JSON document on stdout instead of the text
  int progress = -1;                 ///< -1: a bar on stderr when it is a terminal, nothing in a pipe; 0: none
  std::string command;               ///< the command line, for the report
};
/// `houserules compare`: returns 0, 1 if a game failed, 2 for bad options or a ruleset that cannot be loaded.
int compare_command(const CompareOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hr
