// bench_lost_cities.cpp — how fast the scripted Lost Cities plays compared with the native C++ reference.
//
// Plays random-vs-random matches (3 rounds each; the seeds' "une partie" is one round) on one thread with
// the scripted ruleset and with hr::NativeLostCities, from the same seeds, and prints matches/s, rounds/s
// and plies/s of each (medians over the repetitions) and the ratio native/scripted. Both must play the
// same games: a checksum of the final digests of all matches is compared and printed.
// Not a test: it asserts nothing about time (DESIGN.md §8), CTest does not run it.
//
//   bench_lost_cities [--games N] [--repeat R] [--ruleset ID|PATH] [--seed S]
//     --games N     matches per run (default 500; each match is 3 rounds)
//     --repeat R    timed runs of each implementation (default 5), after one untimed warm-up run
//     --ruleset X   the scripted ruleset to load (default: the built-in "lost-cities")
//     --seed S      base seed (default 1): match i uses derive_seed(S, i), its random players derive_seed(S+1, i)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "lost_cities_native.hpp"
#include "rng.hpp"
#include "rules.hpp"
#include "scripted_rules.hpp"

namespace {

struct Options {
  int games = 500;
  int repeat = 5;
  std::string ruleset = "lost-cities";
  std::uint64_t seed = 1;
};

struct Run {
  double seconds = 0;
  std::int64_t matches = 0;
  std::int64_t rounds = 0;
  std::int64_t plies = 0;
  std::uint64_t checksum = 0;  // over the final digests, in match order
};

/// Plays `games` random-vs-random matches. The random player draws uniformly from the legal actions with
/// its own Rng; the legal-action vector is reused, no InformationSet or state copy is made per ply.
Run play(hr::Rules& rules, int games, std::uint64_t seed) {
  Run run;
  std::vector<hr::Action> legal;
  legal.reserve(64);
  hr::GameState state;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < games; ++i) {
    state = rules.new_game(hr::derive_seed(seed, static_cast<std::uint64_t>(i)));
    hr::Rng player(hr::derive_seed(seed + 1, static_cast<std::uint64_t>(i)));
    while (!state.over()) {
      rules.legal_actions(state, legal);
      rules.apply(state, legal[player.below(legal.size())]);
    }
    ++run.matches;
    run.rounds += static_cast<std::int64_t>(state.round_scores().size());
    run.plies += state.ply();
    run.checksum = (run.checksum ^ state.digest()) * 0x100000001b3ULL;
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

struct Rates {
  double matches, rounds, plies;  // per second, medians
};

Rates rates(const std::vector<Run>& runs) {
  std::vector<double> m, r, p;
  for (const Run& run : runs) {
    m.push_back(static_cast<double>(run.matches) / run.seconds);
    r.push_back(static_cast<double>(run.rounds) / run.seconds);
    p.push_back(static_cast<double>(run.plies) / run.seconds);
  }
  return {median(m), median(r), median(p)};
}

[[noreturn]] void usage(const char* why) {
  fmt::print(stderr, "bench_lost_cities: {}\nusage: bench_lost_cities [--games N] [--repeat R] [--ruleset ID|PATH] "
                     "[--seed S]\n", why);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") usage("random-vs-random matches, scripted against native");
    if (i + 1 >= argc) usage(("missing value after " + std::string(arg)).c_str());
    const char* value = argv[++i];
    try {
      if (arg == "--games") o.games = std::stoi(value);
      else if (arg == "--repeat") o.repeat = std::stoi(value);
      else if (arg == "--ruleset") o.ruleset = value;
      else if (arg == "--seed") o.seed = std::stoull(value);
      else usage(("unknown option " + std::string(arg)).c_str());
    } catch (const std::logic_error&) {
      usage(("bad value for " + std::string(arg)).c_str());
    }
  }
  if (o.games < 1 || o.repeat < 1) usage("--games and --repeat must be at least 1");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  std::unique_ptr<hr::ScriptedRules> scripted;
  try {
    scripted = hr::load_rules(opt.ruleset);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_lost_cities: cannot load ruleset '{}': {}\n", opt.ruleset, e.what());
    return 1;
  }
  hr::NativeLostCities native;

  fmt::print("bench_lost_cities: random vs random, one thread, seed {}\n", opt.seed);
  fmt::print("  scripted: {} ({})\n", scripted->id(), scripted->info().entry.string());
  fmt::print("  native:   {}\n", native.id());
  fmt::print("  N = {} matches per run (3 rounds each), {} timed runs per implementation after a warm-up; "
             "figures are medians\n", opt.games, opt.repeat);

  std::vector<Run> runs_s, runs_n;
  try {
    const int warm = std::max(1, opt.games / 10);
    play(*scripted, warm, opt.seed);
    play(native, warm, opt.seed);
    for (int r = 0; r < opt.repeat; ++r) {  // interleaved, so a busy moment of the machine hits both
      runs_s.push_back(play(*scripted, opt.games, opt.seed));
      runs_n.push_back(play(native, opt.games, opt.seed));
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_lost_cities: a match failed: {}\n", e.what());
    return 1;
  }

  const Rates s = rates(runs_s);
  const Rates n = rates(runs_n);
  fmt::print("\n  {:<10} {:>12} {:>12} {:>14} {:>16}\n", "", "matches/s", "rounds/s", "plies/s", "plies per match");
  fmt::print("  {:<10} {:>12.1f} {:>12.1f} {:>14.0f} {:>16.1f}\n", "scripted", s.matches, s.rounds, s.plies,
             static_cast<double>(runs_s[0].plies) / static_cast<double>(runs_s[0].matches));
  fmt::print("  {:<10} {:>12.1f} {:>12.1f} {:>14.0f} {:>16.1f}\n", "native", n.matches, n.rounds, n.plies,
             static_cast<double>(runs_n[0].plies) / static_cast<double>(runs_n[0].matches));
  fmt::print("\n  ratio native/scripted (median matches/s): {:.1f}x\n", n.matches / s.matches);
  fmt::print("  run times (s), scripted:");
  for (const Run& r : runs_s) fmt::print(" {:.3f}", r.seconds);
  fmt::print("\n  run times (s), native:  ");
  for (const Run& r : runs_n) fmt::print(" {:.3f}", r.seconds);
  const bool same = runs_s[0].checksum == runs_n[0].checksum && runs_s[0].plies == runs_n[0].plies;
  fmt::print("\n  same games (digest checksum {:016x} vs {:016x}): {}\n", runs_s[0].checksum, runs_n[0].checksum,
             same ? "yes" : "NO");
  return same ? 0 : 3;
}
