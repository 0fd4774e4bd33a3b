// bench_bots.cpp — what a search bot costs: milliseconds per ismcts move, iterations per second, the cost
// of the pieces of an iteration (copying a GameState, determinizing, legal actions + apply, the heuristic,
// a random playout), and the size of a GameState in bytes. Win rates are measured with `houserules
// simulate` (docs/bots.md); this program times moves on one thread.
//
// It plays `--games` single rounds of the ruleset (default: tests/fixtures/lost-cities-one-round.toml),
// the bot (`--bot`, default "ismcts") against `--opponent` (default "greedy"), seats alternating, and times
// every decision of the bot that has more than one legal action. Figures are medians (per move) or totals.
// Not a test: it asserts nothing about time (DESIGN.md §8), CTest does not run it.
//
//   bench_bots [--ruleset ID|PATH] [--games N] [--bot SPEC] [--opponent SPEC] [--seed S] [--copies N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "allocation_counter.hpp"
#include "bots.hpp"
#include "ismcts.hpp"
#include "rng.hpp"
#include "rules.hpp"
#include "scripted_rules.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string ruleset = HOUSERULES_SOURCE_DIR "/tests/fixtures/lost-cities-one-round.toml";
  int games = 10;
  std::string bot = "ismcts";
  std::string opponent = "greedy";
  std::uint64_t seed = 1;
  int copies = 200000;
};

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

[[noreturn]] void usage(const std::string& why) {
  fmt::print(stderr, "bench_bots: {}\nusage: bench_bots [--ruleset ID|PATH] [--games N] [--bot SPEC] "
                     "[--opponent SPEC] [--seed S] [--copies N]\n", why);
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

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  std::unique_ptr<hr::ScriptedRules> rules;
  try {
    rules = hr::load_rules(opt.ruleset);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_bots: cannot load ruleset '{}': {}\n", opt.ruleset, e.what());
    return 1;
  }
  fmt::print("bench_bots: {} ({}), one thread, seed {}\n", rules->id(), opt.ruleset, opt.seed);

  // ---- moves ----
  std::vector<double> move_ms;
  std::int64_t iterations = 0, rollout_plies = 0, nodes = 0;
  double search_seconds = 0;
  double score_bot = 0, score_opp = 0, wins = 0;
  hr::GameState middle;  // a position from the middle of the first game, for the copy figures
  try {
    for (int g = 0; g < opt.games; ++g) {
      const int bot_seat = 1 + g % 2;
      auto bot = hr::make_bot(opt.bot, hr::derive_seed(opt.seed + 1, static_cast<std::uint64_t>(g)));
      auto opp = hr::make_bot(opt.opponent, hr::derive_seed(opt.seed + 2, static_cast<std::uint64_t>(g)));
      if (!bot || !opp) usage("unknown bot " + (bot ? opt.opponent : opt.bot));
      auto* search = dynamic_cast<hr::IsmctsPlayer*>(bot.get());
      hr::GameState state = rules->new_game(hr::derive_seed(opt.seed, static_cast<std::uint64_t>(g)));
      const int round = state.round();
      std::vector<hr::Action> legal;
      while (!state.over() && state.round() == round) {
        rules->legal_actions(state, legal);
        const int seat = state.to_move();
        if (g == 0 && state.ply() == 40) middle = state;
        if (seat == bot_seat) {
          const auto t = Clock::now();
          const hr::Action a = bot->choose(*rules, hr::InformationSet(state, seat, legal));
          const double s = seconds_since(t);
          if (legal.size() > 1) {
            move_ms.push_back(s * 1e3);
            if (search) {
              iterations += search->last_stats().iterations;
              rollout_plies += search->last_stats().rollout_plies;
              nodes += search->last_stats().nodes;
              search_seconds += search->last_stats().seconds;
            }
          }
          rules->apply(state, a);
        } else {
          rules->apply(state, opp->choose(*rules, hr::InformationSet(state, seat, legal)));
        }
      }
      const auto& scores = state.round_scores().at(static_cast<std::size_t>(round - 1));
      const double mine = static_cast<double>(scores[static_cast<std::size_t>(bot_seat - 1)]);
      const double theirs = static_cast<double>(scores[static_cast<std::size_t>(2 - bot_seat)]);
      score_bot += mine, score_opp += theirs;
      wins += mine > theirs ? 1 : mine == theirs ? 0.5 : 0;
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_bots: a game failed: {}\n", e.what());
    return 1;
  }
  const double n = opt.games;
  fmt::print("  {} vs {}: {} rounds, seats alternating; {} timed moves (more than one legal action)\n", opt.bot,
             opt.opponent, opt.games, move_ms.size());
  fmt::print("  ms per move: median {:.1f}, p90 {:.1f}, max {:.1f}, mean {:.1f}\n", quantile(move_ms, 0.5),
             quantile(move_ms, 0.9), quantile(move_ms, 1.0),
             move_ms.empty() ? 0.0 : [&] { double t = 0; for (double x : move_ms) t += x; return t / move_ms.size(); }());
  if (iterations > 0)
    fmt::print("  iterations/s {:.0f}; per iteration: {:.2f} rollout plies, {:.2f} tree nodes per move's iteration\n",
               static_cast<double>(iterations) / search_seconds, static_cast<double>(rollout_plies) / iterations,
               static_cast<double>(nodes) / iterations);
  fmt::print("  rounds won {:.1f}/{} ({:.1f}%), mean score {:.1f} vs {:.1f} (small sample: use `houserules simulate`)\n",
             wins, opt.games, 100 * wins / n, score_bot / n, score_opp / n);

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
