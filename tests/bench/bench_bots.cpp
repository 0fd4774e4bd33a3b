// bench_bots.cpp — what a search bot costs: milliseconds per ismcts move, iterations per second, the cost
// of the pieces of an iteration (copying a GameState, determinizing, legal actions + apply, the heuristic,
// a random playout), and the size of a GameState in bytes. Win rates are measured with `houserules
// simulate` (docs/bots.md); this program times moves on one thread.
//
// It plays `--games` single rounds of the ruleset (default: tests/fixtures/lost-cities-one-round.toml),
// the bot (`--bot`, default "ismcts", with the ruleset's own [bots] options first) against `--opponent`
// (default "greedy") in every other seat, the bot's seat rotating, and times every decision of the bot that
// has more than one legal action. `--moves N` stops once N moves are timed. `--ruleset all` does it for every
// ruleset found (the built-in ones and HOUSERULES_PATH's), one line each, the figures for every ruleset, Lost
// Cities first and every median as a multiple of Lost Cities' ("x LC": the same bot setting, the same sitting).
// Figures are medians (per move) or totals. Not a test: it asserts nothing about time (DESIGN.md §8), CTest
// does not run it.
//
//   bench_bots [--ruleset ID|PATH|all] [--games N] [--moves N] [--bot SPEC] [--opponent SPEC] [--seed S] [--copies N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <time.h>

#include <fmt/core.h>

#include "allocation_counter.hpp"
#include "bots.hpp"
#include "ismcts.hpp"
#include "rng.hpp"
#include "ruleset.hpp"
#include "rules.hpp"
#include "scripted_rules.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string ruleset = HOUSERULES_SOURCE_DIR "/tests/fixtures/lost-cities-one-round.toml";
  int games = 10;
  int moves = 0;  // > 0: stop once this many moves are timed (games may then be cut short)
  std::string bot = "ismcts";
  std::string opponent = "greedy";
  std::uint64_t seed = 1;
  int copies = 200000;
};

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// The CPU time this thread has used, in seconds: what a move costs whatever else runs on the machine (on a loaded
/// machine the wall clock counts the time the thread waited for a core).
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

[[noreturn]] void usage(const std::string& why) {
  fmt::print(stderr, "bench_bots: {}\nusage: bench_bots [--ruleset ID|PATH|all] [--games N] [--moves N] [--bot SPEC] "
                     "[--opponent SPEC] [--seed S] [--copies N]\n"
                     "examples:\n"
                     "  bench_bots                                   ismcts against greedy, 10 rounds of Lost Cities\n"
                     "  bench_bots --ruleset all --moves 60          every ruleset: ms a move of its ismcts\n"
                     "  bench_bots --ruleset lost-valley --bot ismcts:iterations=1000 --moves 10\n", why);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") usage("times bot moves and state copies");
    if (i + 1 >= argc) usage("missing value after " + std::string(arg));
    const char* value = argv[++i];
    try {
      if (arg == "--ruleset") o.ruleset = value;
      else if (arg == "--games") o.games = std::stoi(value);
      else if (arg == "--moves") o.moves = std::stoi(value);
      else if (arg == "--bot") o.bot = value;
      else if (arg == "--opponent") o.opponent = value;
      else if (arg == "--seed") o.seed = std::stoull(value);
      else if (arg == "--copies") o.copies = std::stoi(value);
      else usage("unknown option " + std::string(arg));
    } catch (const std::logic_error&) {
      usage("bad value for " + std::string(arg));
    }
  }
  if (o.games < 1 || o.copies < 1) usage("--games and --copies must be at least 1");
  if (o.moves < 0) usage("--moves must be 0 (no limit) or more");
  return o;
}

/// ns per call of `f`, the median of 5 runs of `n` calls.
template <class F>
double ns_per_call(int n, F&& f) {
  std::vector<double> runs;
  for (int r = 0; r < 5; ++r) {
    const auto t = Clock::now();
    for (int i = 0; i < n; ++i) f();
    runs.push_back(seconds_since(t) * 1e9 / n);
  }
  return quantile(runs, 0.5);
}

/// What timing the bot's moves in one ruleset found.
struct MoveFigures {
  std::vector<double> move_ms;  // one entry per timed move (wall clock)
  std::vector<double> cpu_ms;   // the same moves, the thread's CPU time
  std::int64_t iterations = 0, rollout_plies = 0, nodes = 0;
  double search_seconds = 0;
  double score_bot = 0, score_best_other = 0, wins = 0;
  int rounds = 0;               // rounds played to their end
  std::string setting;          // --bot, and the ruleset's [bots] options it comes after
};

/// Plays single rounds (the first round of a match) of `rules`, the bot in seat 1 + g % seats of round g and the
/// opponent in the others, until opt.games rounds are over or opt.moves moves are timed. `middle` receives the
/// position at ply 40 of the first round. Throws what the rules or the bots throw.
MoveFigures time_moves(hr::ScriptedRules& rules, const Options& opt, hr::GameState* middle) {
  MoveFigures f;
  const int seats = rules.layout().seats;
  for (int g = 0; g < opt.games; ++g) {
    if (opt.moves > 0 && static_cast<int>(f.move_ms.size()) >= opt.moves) break;
    const int bot_seat = 1 + g % seats;
    auto bot = hr::make_bot(opt.bot, hr::derive_seed(opt.seed + 1, static_cast<std::uint64_t>(g)), &rules);
    if (!bot) usage("unknown bot " + opt.bot);
    std::vector<std::unique_ptr<hr::Player>> others;  // indexed by seat - 1 (the bot's own entry unused)
    for (int s = 1, k = 0; s <= seats; ++s) {
      const std::uint64_t stream = opt.seed + 2 + static_cast<std::uint64_t>(s == bot_seat ? seats : k++);
      others.push_back(hr::make_bot(opt.opponent, hr::derive_seed(stream, static_cast<std::uint64_t>(g)), &rules));
      if (!others.back()) usage("unknown bot " + opt.opponent);
    }
    auto* search = dynamic_cast<hr::IsmctsPlayer*>(bot.get());
    if (f.setting.empty()) {
      const std::string ruleset_options = rules.bot_options(opt.bot.substr(0, opt.bot.find(':')));
      f.setting = ruleset_options.empty() ? opt.bot : opt.bot + " after [bots] " + ruleset_options;
    }
    hr::GameState state = rules.new_game(hr::derive_seed(opt.seed, static_cast<std::uint64_t>(g)));
    const int round = state.round();
    std::vector<hr::Action> legal;
    bool cut = false;
    while (!state.over() && state.round() == round) {
      rules.legal_actions(state, legal);
      const int seat = state.to_move();
      if (g == 0 && state.ply() == 40 && middle != nullptr) *middle = state;
      if (seat == bot_seat) {
        const auto t = Clock::now();
        const double cpu = thread_cpu_seconds();
        const hr::Action a = bot->choose(rules, hr::InformationSet(state, seat, legal));
        const double sec = seconds_since(t), cpu_sec = thread_cpu_seconds() - cpu;
        if (legal.size() > 1) {
          f.move_ms.push_back(sec * 1e3);
          f.cpu_ms.push_back(cpu_sec * 1e3);
          if (search) {
            f.iterations += search->last_stats().iterations;
            f.rollout_plies += search->last_stats().rollout_plies;
            f.nodes += search->last_stats().nodes;
            f.search_seconds += search->last_stats().seconds;
          }
          if (opt.moves > 0 && static_cast<int>(f.move_ms.size()) >= opt.moves) {
            cut = true;
            break;
          }
        }
        rules.apply(state, a);
      } else {
        rules.apply(state, others[static_cast<std::size_t>(seat - 1)]->choose(rules, hr::InformationSet(state, seat, legal)));
      }
    }
    if (cut) break;
    const auto& scores = state.round_scores().at(static_cast<std::size_t>(round - 1));
    const double mine = static_cast<double>(scores[static_cast<std::size_t>(bot_seat - 1)]);
    double best_other = -1e300;
    int tied = 1;
    for (int s = 1; s <= seats; ++s) {
      if (s == bot_seat) continue;
      const double v = static_cast<double>(scores[static_cast<std::size_t>(s - 1)]);
      if (v > best_other) best_other = v, tied = 1;
      else if (v == best_other) ++tied;
    }
    f.score_bot += mine, f.score_best_other += best_other;
    f.wins += mine > best_other ? 1 : mine == best_other ? 1.0 / (tied + 1) : 0;
    ++f.rounds;
  }
  return f;
}

double mean_of(const std::vector<double>& v) {
  double t = 0;
  for (double x : v) t += x;
  return v.empty() ? 0.0 : t / static_cast<double>(v.size());
}

/// The ruleset whose ms a move the others are compared with (`--ruleset all`'s "x LC" column).
constexpr const char* kReferenceRuleset = "lost-cities";

/// `--ruleset all`: one line per ruleset found, Lost Cities first, each with its median ms a move (wall clock, then
/// the thread's CPU time) as a multiple of Lost Cities' in the same run ("-" when Lost Cities is not found or timed
/// no move). On a loaded machine the CPU ratio is the one to read: the wall clock adds the waits for a core.
int all_rulesets(const Options& opt) {
  std::vector<std::string> problems;
  const std::vector<hr::RulesetInfo> found = hr::list_rulesets(&problems);
  for (const std::string& p : problems) fmt::print(stderr, "bench_bots: skipped: {}\n", p);
  fmt::print("bench_bots: every ruleset, {} against {}, one thread, seed {}, at most {} rounds{}\n", opt.bot,
             opt.opponent, opt.seed, opt.games, opt.moves > 0 ? fmt::format(" or {} timed moves", opt.moves) : "");
  fmt::print("{:<22} {:>5} {:<50} {:>6} {:>9} {:>8} {:>9} {:>8} {:>9} {:>9} {:>12}\n", "ruleset", "seats", "bot setting",
             "moves", "median ms", "x LC", "CPU ms", "x LC", "p90 ms", "max ms", "iterations/s");
  // The reference of the ratio column: Lost Cities' median ms a move in this run (timed first, whatever the order
  // the rulesets are found in), so every ruleset reads as a multiple of the card game's search in the same sitting.
  std::vector<hr::RulesetInfo> order;
  for (const hr::RulesetInfo& info : found)
    if (info.id == kReferenceRuleset) order.push_back(info);
  for (const hr::RulesetInfo& info : found)
    if (info.id != kReferenceRuleset) order.push_back(info);
  double reference_ms = 0, reference_cpu_ms = 0;
  int status = 0;
  for (const hr::RulesetInfo& info : order) {
    try {
      auto rules = hr::load_rules(info.id);
      const MoveFigures f = time_moves(*rules, opt, nullptr);
      const double median = quantile(f.move_ms, 0.5), cpu_median = quantile(f.cpu_ms, 0.5);
      if (info.id == kReferenceRuleset) reference_ms = median, reference_cpu_ms = cpu_median;
      const auto ratio = [](double x, double reference) {
        return reference > 0 ? fmt::format("{:.2f}x", x / reference) : std::string("-");
      };
      fmt::print("{:<22} {:>5} {:<50} {:>6} {:>9.1f} {:>8} {:>9.1f} {:>8} {:>9.1f} {:>9.1f} {:>12.0f}\n", info.id,
                 rules->layout().seats, f.setting, f.move_ms.size(), median, ratio(median, reference_ms), cpu_median,
                 ratio(cpu_median, reference_cpu_ms),
                 quantile(f.move_ms, 0.9), quantile(f.move_ms, 1.0),
                 f.search_seconds > 0 ? static_cast<double>(f.iterations) / f.search_seconds : 0.0);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      fmt::print(stderr, "bench_bots: {}: {}\n", info.id, e.what());
      status = 1;
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  if (opt.ruleset == "all") return all_rulesets(opt);
  std::unique_ptr<hr::ScriptedRules> rules;
  try {
    rules = hr::load_rules(opt.ruleset);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_bots: cannot load ruleset '{}': {}\n", opt.ruleset, e.what());
    return 1;
  }
  fmt::print("bench_bots: {} ({}), one thread, seed {}\n", rules->id(), opt.ruleset, opt.seed);

  // ---- moves ----
  hr::GameState middle;  // a position from the middle of the first game, for the copy figures
  MoveFigures f;
  try {
    f = time_moves(*rules, opt, &middle);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_bots: a game failed: {}\n", e.what());
    return 1;
  }
  const std::vector<double>& move_ms = f.move_ms;
  fmt::print("  {} vs {}: {} rounds over, the bot's seat rotating; {} timed moves (more than one legal action)\n",
             f.setting, opt.opponent, f.rounds, move_ms.size());
  fmt::print("  ms per move: median {:.1f}, p90 {:.1f}, max {:.1f}, mean {:.1f}; CPU ms per move: median {:.1f}\n",
             quantile(move_ms, 0.5), quantile(move_ms, 0.9), quantile(move_ms, 1.0), mean_of(move_ms),
             quantile(f.cpu_ms, 0.5));
  if (f.iterations > 0)
    fmt::print("  iterations/s {:.0f}; per iteration: {:.2f} rollout plies, {:.2f} tree nodes per move's iteration\n",
               static_cast<double>(f.iterations) / f.search_seconds, static_cast<double>(f.rollout_plies) / f.iterations,
               static_cast<double>(f.nodes) / f.iterations);
  if (f.rounds > 0)
    fmt::print("  rounds won {:.1f}/{} ({:.1f}%), mean score {:.1f} vs the best other {:.1f} (small sample: use "
               "`houserules simulate`)\n",
               f.wins, f.rounds, 100 * f.wins / f.rounds, f.score_bot / f.rounds, f.score_best_other / f.rounds);

  // ---- the pieces of an iteration, on the position at ply 40 of the first game ----
  if (middle.ply() != 40) {
    fmt::print("  (the first game was shorter than 40 plies: no copy figures)\n");
    return 0;
  }
  const int seat = middle.to_move();
  const std::size_t before = hr_bench::allocated_bytes();
  hr::GameState fresh = middle;
  const std::size_t heap = hr_bench::allocated_bytes() - before;
  fmt::print("\n  GameState at ply 40: sizeof {} bytes + {} bytes on the heap = {} bytes per copy\n",
             sizeof(hr::GameState), heap, sizeof(hr::GameState) + heap);
  hr::GameState target = middle;
  volatile std::uint64_t sink = 0;
  const double assign_ns = ns_per_call(opt.copies, [&] {
    target = middle;  // buffers reused: no allocation
    sink = sink + target.ply();
  });
  const double construct_ns = ns_per_call(opt.copies, [&] {
    hr::GameState copy = middle;  // allocates every buffer
    sink = sink + copy.ply();
  });
  hr::Rng rng(opt.seed);
  const double determinize_ns = ns_per_call(opt.copies / 4, [&] {
    hr::GameState d = middle.determinized(seat, rng);
    sink = sink + d.ply();
  });
  std::vector<hr::Action> legal;
  rules->legal_actions(middle, legal);
  const double legal_ns = ns_per_call(opt.copies / 4, [&] { rules->legal_actions(middle, legal); });
  const hr::Action first = legal.front();
  const double apply_ns = ns_per_call(opt.copies / 4, [&] {
    target = middle;
    rules->apply(target, first);
  }) - assign_ns;
  double heuristic_ns = 0;
  if (rules->heuristic(middle, seat))
    heuristic_ns = ns_per_call(opt.copies / 4, [&] { sink = sink + static_cast<std::uint64_t>(*rules->heuristic(middle, seat)); });
  const double score_ns = ns_per_call(opt.copies / 4, [&] { sink = sink + static_cast<std::uint64_t>(rules->score(middle, seat)); });
  std::int64_t playout_plies = 0;
  const double playout_ns = ns_per_call(200, [&] {
    target = middle;
    playout_plies += rules->random_playout(target, rng, 100000);
  }) - assign_ns;
  fmt::print("  copy (assignment into an existing state)  {:8.0f} ns\n", assign_ns);
  fmt::print("  copy (a new state: allocates)             {:8.0f} ns\n", construct_ns);
  fmt::print("  determinized(seat)                        {:8.0f} ns\n", determinize_ns);
  fmt::print("  legal_actions ({} actions)                {:8.0f} ns\n", legal.size(), legal_ns);
  fmt::print("  apply (one action, with its undo log)     {:7.0f} ns\n", apply_ns);
  fmt::print("  score hook                                {:8.0f} ns\n", score_ns);
  if (heuristic_ns > 0) fmt::print("  heuristic hook                            {:8.0f} ns\n", heuristic_ns);
  fmt::print("  random playout to the end (avg {:.0f} plies) {:7.0f} ns\n",
             static_cast<double>(playout_plies) / (5 * 200), playout_ns);
  return sink == 42 ? 3 : 0;
}
