// simulate.hpp — `houserules simulate` and `houserules merge`: many bot games of one ruleset, on several
// threads, with a summary of how each player setting fares (docs/simulation.md).
//
// Reproducibility: game i (0-based) of an experiment with seed S is played with seed derive_seed(S, i) — the
// same deal and the same bots' choices as `houserules play <ruleset> --players <seat order> --seed
// derive_seed(S, i)` — and seat rotation i mod k (k = seats), so its result depends on (S, i) only: never on
// the thread that played it, on the thread count, or on the shard. Summaries are exact integer aggregates of
// the games (StatsTally), the same whatever the order the games are counted in, so an unsharded run and the
// merge of its shards print the same summary, byte for byte; memory does not grow with the games.
//
// JSON Lines written by --jsonl (and read by merge):
//   {"type":"simulation","format":1,"ruleset":"lost-cities","ruleset_id":"lost-cities","seats":2,
//    "players":["greedy","random"],"seed":1,"games":10000,"fixed_seats":false,"max_plies":100000,"shard":[0,1]}
//   {"type":"game","index":0,"seed":123...,"seating":[0,1],"players":["greedy","random"],"scores":[40,-12],
//    "places":[1,2],"plies":612,"turns":310,"rounds":3,"actions":{"draw":300,"play":250,"discard":62}}
//                                       (+ "error":"..." for a failed game, whose scores/places are empty)
// `seating[s]` is the player setting (index into the header's players) in seat s+1; `players` the same by name.
// Since the report gained parameters and action counts the header also carries "count_actions":true, "run"
// (RunInfo: version, command line, variant chain, parameters) and the game lines "turns", "rounds" and
// "actions"; merge reads files without them as before (their figures are then left out).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "distribution.hpp"
#include "rules.hpp"

namespace hr {

/// What identifies an experiment: two runs (or shards) with equal experiments play the same games.
struct Experiment {
  std::string ruleset;               ///< as given on the command line (id, id/variant or path)
  std::string ruleset_id;            ///< Rules::id() of the loaded rules
  int seats = 0;
  std::vector<std::string> players;  ///< the player settings, one per seat (bot names)
  std::uint64_t seed = 1;
  std::int64_t games = 0;
  bool fixed_seats = false;          ///< no rotation: setting s always sits in seat s+1
  std::int64_t max_plies = 100000;   ///< a game longer than this fails (and is listed as overlong)
  std::vector<std::string> overrides;  ///< `--set name=value` parameters (LoadOptions::overrides)
  /// Mirror matches: games are played in blocks of `seats`, every game of block b on the same deal (seed
  /// derive_seed(seed, b)) with the seats rotated, so that each player setting plays that deal from every
  /// seat and the seats' luck of the deal cancels out (first-player advantage measured on equal deals).
  bool mirror = false;
  /// Count each game's actions by kind (the first word of the action's text: "play", "discard"...), for the
  /// report and `compare` (simulate and compare set it). Costs an action_text call per action.
  bool count_actions = false;
  bool operator==(const Experiment&) const = default;
};

/// The outcome of one game.
struct GameRecord {
  std::int64_t index = 0;
  std::uint64_t seed = 0;
  std::vector<int> seating;                ///< seat s (0-based) -> player setting index
  std::vector<std::int64_t> scores;        ///< match score per seat (empty if failed)
  std::vector<int> places;                 ///< place per seat, 1 = first, ties share (empty if failed)
  std::int64_t plies = 0;
  std::int64_t turns = 0;                  ///< runs of consecutive actions by one seat (a new round starts a turn)
  int rounds = 0;                          ///< the round the game ended in (1 for a one-round game)
  std::map<std::string, std::int64_t> actions;  ///< actions by kind (only with Experiment::count_actions)
  std::string error;                       ///< non-empty: the game failed (a rules error, no legal action...)
  bool failed() const { return !error.empty(); }
  /// The game hit the action cap of its experiment (a failure that says the bots can play forever).
  bool overlong(const Experiment& e) const { return failed() && plies >= e.max_plies; }
  bool operator==(const GameRecord&) const = default;
};

/// Where the rules of an experiment came from and how it was run: what the report and --json show beside the
/// figures. Not part of the experiment's identity (paths and command lines differ between the machines of a
/// sharded run) except the parameters' values, which merge checks; carried in the --jsonl header.
struct RunInfo {
  std::string version;                     ///< the houserules version that played the games ("0.1.0")
  /// The exact command lines that played the games, shell-quoted: one for a run, each shard's and then the
  /// merge's own for a merge. Empty when not known (a run from the C++ API).
  std::vector<std::string> command_lines;
  std::string ruleset_file;                ///< the base ruleset.toml (display path)
  struct Variant {
    std::string id, name, file, script;    ///< script: "" when the variant has none
    bool operator==(const Variant&) const = default;
  };
  std::vector<Variant> variants;           ///< the variant chain, innermost first
  struct Parameter {
    std::string name;                      ///< "hand_size", or "letters.yellow" for a nested key
    std::string value;                     ///< the effective value, as TOML text
    std::string default_value;             ///< the base ruleset's value ("" for a parameter a variant adds)
    std::string set_by;                    ///< "" (the ruleset's default), a variant id, or "--set name=value"
    bool changed() const { return value != default_value; }
    bool operator==(const Parameter&) const = default;
  };
  std::vector<Parameter> parameters;       ///< every effective leaf parameter, in the order `describe` lists them
  bool operator==(const RunInfo&) const = default;
};
/// The RunInfo of `experiment` (ruleset, overrides, seats filled in): the variant chain and every parameter's
/// value, default and origin, read as `describe` reads them, and this build's version. `command_line` is
/// stored as the one command line. Throws LoadError like load_rules.
RunInfo read_run_info(const Experiment& experiment, const std::string& command_line = {});
/// The command line of this process (from /proc/self/cmdline), each word shell-quoted, the program as
/// `houserules`; "" if it cannot be read.
std::string process_command_line();
/// The one `houserules simulate` command that plays the whole experiment (every game, unsharded).
std::string experiment_command(const Experiment& experiment);

/// The player setting in each seat of game `index` (rotated by index unless fixed_seats).
std::vector<int> seating_of(const Experiment& experiment, std::int64_t index);
/// The seed of game `index`: derive_seed(experiment.seed, index), or with `mirror` derive_seed(seed, index / seats).
std::uint64_t game_seed(const Experiment& experiment, std::int64_t index);
/// Plays game `index` with `rules` (loaded for experiment.seats). Never throws for a game that fails: the
/// record carries the error.
GameRecord play_game(Rules& rules, const Experiment& experiment, std::int64_t index);
/// The command that replays game `record` (`houserules play ... --seed ...`).
std::string reproduce_command(const Experiment& experiment, const GameRecord& record);

/// The game indices of shard `shard` of `count` (0-based): shard, shard + count, shard + 2 count, ...
std::vector<std::int64_t> shard_indices(std::int64_t games, int shard, int count);

/// The game indices first, first + step, ... (count of them), computed as they are played: a shard of a billion
/// games needs no list of its indices.
struct IndexRange {
  std::int64_t first = 0, step = 1, count = 0;
  std::int64_t operator[](std::int64_t i) const { return first + i * step; }
};
/// The indices of shard `shard` of `count` (0-based) as a range: shard, shard + count, ... below `games`.
IndexRange shard_range(std::int64_t games, int shard, int count);

/// The most games an experiment may have (simulate --games, compare --games). Memory does not depend on it:
/// the figures are aggregated as the games finish (StatsTally) and no record is kept per game.
constexpr std::int64_t kMaxGames = 1'000'000'000;
/// The failed games a summary keeps (those of lowest index, with their replay commands) and the overlong ones
/// alike; the others are only counted (every one is in the --jsonl file).
constexpr std::size_t kFailuresKept = 100;

/// Called from the coordinating thread about every 100 ms (and once at the end) with games done so far.
using Progress = std::function<void(std::int64_t done, std::int64_t total)>;
/// Plays the games `indices` on `threads` threads (each loads its own rules with load_rules(ruleset, seats)),
/// handing each record to `consume` on the calling thread in the order of `indices`, as the games finish (a
/// window of a few hundred records waits at most: memory does not grow with the games). Throws LoadError if the
/// rules cannot be loaded.
void stream_games(const Experiment& experiment, IndexRange indices, int threads,
                  const std::function<void(GameRecord&&)>& consume, const Progress& progress = {});
/// The records of the games `indices` in that order (stream_games into a vector: for a few games).
std::vector<GameRecord> run_games(const Experiment& experiment, const std::vector<std::int64_t>& indices, int threads,
                                  const Progress& progress = {});
/// The same over a range of indices (computed as the games are played).
std::vector<GameRecord> run_games(const Experiment& experiment, IndexRange indices, int threads,
                                  const Progress& progress = {});

/// A 95% (by default) Wilson score interval for `successes` of `n` trials (successes may be fractional: shared
/// wins). Returns {0, 1} for n = 0.
struct Interval {
  double low = 0, high = 1;
};
Interval wilson_interval(double successes, double n, double z = 1.959963984540054);

/// Everything the summary and the report show, from the records in index order.
struct Stats {
  struct Setting {
    std::string label;          ///< the bot name, with "#n" when two settings share a name
    std::int64_t games = 0;     ///< completed games (every completed game includes every setting once)
    double wins = 0;            ///< a first place shared by m seats counts 1/m
    double win_rate = 0;
    Interval interval;
    double score_mean = 0, score_sd = 0, place_mean = 0;
    double margin_mean = 0;     ///< mean of (its score minus the best other seat's score)
    std::vector<std::int64_t> places;  ///< places[p - 1]: completed games it finished p-th (ties share a place)
    Distribution scores;               ///< its score in every completed game (for the histograms)
  };
  struct Seat {
    double wins = 0, win_rate = 0, score_mean = 0;
    double margin_mean = 0;     ///< mean of (the seat's score minus the best other seat's score)
    Interval interval;
    std::vector<std::int64_t> places;  ///< places[p - 1]: completed games this seat finished p-th
  };
  /// Mean, sample sd, min and max of integer values (all 0 when there are none).
  struct Spread {
    double mean = 0, sd = 0;
    std::int64_t min = 0, max = 0;
  };
  /// The actions of one kind (the first word of their text) over the completed games.
  struct ActionKind {
    std::string kind;
    std::int64_t total = 0;
    Distribution per_game;               ///< its count in every completed game (0 where it did not occur)
    double mean = 0;                     ///< per game
  };
  Experiment experiment;
  std::int64_t recorded = 0;    ///< games in the records (all of them, or a shard's, or a partial merge's)
  std::int64_t completed = 0;
  std::int64_t tied = 0;        ///< completed games whose first place is shared
  bool complete = false;        ///< the records are exactly the games 0..games-1
  std::string slice;            ///< "" for a complete run; else what the records are ("shard 1/4", ...)
  std::vector<Setting> settings;
  std::vector<Seat> seats;
  double length_mean = 0, length_sd = 0;
  std::int64_t length_min = 0, length_max = 0;
  Distribution lengths;               ///< plies of every completed game
  Distribution turns, rounds;         ///< of every completed game
  Distribution margins;               ///< per completed game: the winner's score minus the runner-up's (0 for one seat)
  Spread turn_spread, round_spread, margin_spread;
  bool actions_counted = false;       ///< the experiment counted actions (Experiment::count_actions)
  std::int64_t action_total = 0;
  std::vector<ActionKind> actions;    ///< by kind, sorted by kind
  RunInfo run;                        ///< set by the caller (simulate, merge); not computed from the records
  std::int64_t failed = 0;            ///< failed games (all of them)
  std::int64_t overlong_count = 0;    ///< failed games that hit the action cap (max_plies)
  std::vector<GameRecord> failures;   ///< the kFailuresKept failed games of lowest index
  std::vector<GameRecord> overlong;   ///< the kFailuresKept overlong games of lowest index (also in `failures`)
  /// Failed games by reason: the error's first line, or "not over after N actions (--max-plies)" (at most 100
  /// reasons; the others count as "other errors").
  std::map<std::string, std::int64_t> failure_reasons;
};

/// The figures of an experiment gathered one game at a time, in any order, in memory that does not grow with the
/// games (distributions, exact integer sums, the first failures): the same Stats whatever the order the games
/// come in, so any thread count and any sharding give the same summary, byte for byte.
class StatsTally {
 public:
  explicit StatsTally(const Experiment& experiment);
  /// Counts game `record` (completed or failed).
  void add(const GameRecord& record);
  std::int64_t recorded() const { return recorded_; }
  std::int64_t failed() const { return st_.failed; }
  /// The figures; `complete`: the games added are exactly games 0..games-1 of the experiment; `slice` as Stats.
  Stats finish(bool complete, const std::string& slice = {}) const;

 private:
  Stats st_;
  std::int64_t recorded_ = 0;
  std::vector<std::int64_t> win_units_, seat_win_units_, place_sum_, setting_margin_sum_, seat_margin_sum_;
  std::vector<Distribution> seat_scores_;
  std::map<std::string, Distribution> action_counts_;  // kind -> its count in the completed games where it occurred
};

/// The figures of `records` (the games of `experiment`, a few: tests and small runs); `complete` when they are
/// exactly the games 0..games-1 in order.
Stats compute_stats(const Experiment& experiment, const std::vector<GameRecord>& records, const std::string& slice = {});
/// The summary table (docs/simulation.md explains each figure). Depends only on the experiment and records.
std::string summary_text(const Stats& stats);
/// The end of a report page: a script that records in <body data-rendered-charts/-bars> how many SVG charts
/// were laid out with a size and how many bars were drawn (what the headless-browser tests read), then
/// </body></html>.
std::string html_report_end();
/// "1st", "2nd", "3rd", "4th", ... "11th", "21st".
std::string ordinal(int n);
/// `text` with & < > " escaped for HTML.
std::string html_escape(const std::string& text);
/// A self-contained HTML page (inline SVG and CSS, no external assets): the experiment (ruleset, variant
/// chain, version, command lines, seeds, bots per seat), the parameter table (values that differ from the
/// ruleset's defaults marked, --set overrides named), per-player and per-seat tables (win rate with its
/// Wilson interval, mean score, mean margin, places), win rates against the fair share, charts with axis
/// ticks and a zero line (scores, margins, length in turns, rounds and actions), action counts by kind,
/// overlong and failed games with the command replaying each, and the summary as printed.
std::string html_report(const Stats& stats);

/// One series of a histogram: integer values drawn as bars of one colour.
struct HistogramSeries {
  const Distribution* values = nullptr;  ///< how many games had each value
  std::string name;       ///< shown in the bars' titles ("A", a bot's name) and the legend; "" for none
  std::string css_class;  ///< added to the bars' class ("a", "b"), for a colour set by the page's CSS
  std::string fill;       ///< the bars' fill colour ("" = from the CSS class)
};
/// An SVG histogram (class "chart histogram") of one or more series side by side over their shared range
/// (extended to 0 when `include_zero`), at most 40 bins of whole units, with tick marks and labels on both
/// axes (round numbers), axis labels, and a dashed zero line (class "zero") when 0 is inside the range.
/// `range`, when given, is included in the range too (histograms that must share one range).
std::string histogram_svg(const std::string& id, const std::vector<HistogramSeries>& series,
                          const std::string& x_label, bool include_zero = false,
                          std::optional<std::pair<std::int64_t, std::int64_t>> range = std::nullopt);
/// About `count` round tick values (steps of 1, 2 or 5 times a power of ten, integers) covering [lo, hi].
std::vector<std::int64_t> nice_ticks(std::int64_t lo, std::int64_t hi, int count = 5);

/// The summary as the JSON document of `simulate --json` and `merge --json` (docs/cli.md).
std::string stats_json(const Stats& stats);

/// JSON Lines (format in the header comment).
std::string experiment_json_line(const Experiment& experiment, int shard, int shard_count);
/// The same with the run's RunInfo as "run" (what simulate --jsonl writes, so that merge can report it).
std::string experiment_json_line(const Experiment& experiment, int shard, int shard_count, const RunInfo& run);
/// RunInfo as JSON (the header's "run", and "run" in --json) and back (throws nlohmann::json::exception).
nlohmann::json run_info_json(const RunInfo& run);
RunInfo run_info_from_json(const nlohmann::json& doc);
std::string game_json_line(const Experiment& experiment, const GameRecord& record);

struct SimulateOptions {
  std::string command_line;  ///< the exact command line, for the report and --json ("" = not shown)
  Experiment experiment;     ///< ruleset, players, seed, games, fixed_seats, max_plies (seats/id filled in)
  int threads = 0;           ///< 0 = every core
  std::string jsonl;         ///< file for one line per game
  std::string report;        ///< HTML report file
  int shard = 0, shard_count = 1;
  int progress = -1;         ///< -1: a bar when stderr is a terminal, plain lines otherwise; 0: none; 1: bar
  bool json = false;         ///< the summary as one JSON document (stats_json) instead of text
  bool count_actions = true; ///< count actions by kind (--no-action-counts: off, for speed)
};
/// `houserules simulate`: the summary to `out`, progress and timing to `err`. Returns 0, 1 if a game
/// failed, 2 for bad options or a ruleset that cannot be loaded.
int simulate_command(SimulateOptions options, std::ostream& out, std::ostream& err);
/// `houserules merge`: combines JSONL files of shards of one experiment into its summary (and report).
/// Returns 0, 1 if a game failed or games are missing, 2 for unreadable or mismatched files.
/// `command_line`: merge's own, added after the shards' in RunInfo::command_lines.
int merge_command(const std::vector<std::string>& files, const std::string& report, std::ostream& out,
                  std::ostream& err, bool json = false, const std::string& command_line = {});

}  // namespace hr
