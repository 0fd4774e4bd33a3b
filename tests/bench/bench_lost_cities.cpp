// bench_lost_cities.cpp — how fast the scripted Lost Cities plays compared with the native C++ reference.
//
// Plays random-vs-random matches (3 rounds each; the seeds' "une partie", a game, is one round) on one thread
// with the scripted ruleset and with hr::NativeLostCities, from the same seeds, two ways:
//   playout  Rules::random_playout: the kernel's random playout (inside the Lua VM for the script), as search
//            rollouts use it;
//   per-ply  a C++ loop calling legal_actions and apply for every action, as bots deciding move by move do.
// Times are the thread's CPU time (not wall time). It prints games (rounds)/s, matches/s and plies/s of each (medians over the repetitions) and the ratios
// native/scripted. All four must play the same games: a checksum of the final digests is compared.
// Not a test: it asserts nothing about time (DESIGN.md §8), CTest does not run it.
//
// With --baseline it also plays a second copy of the ruleset (e.g. the ruleset before a change, copied out of
// the tree) in the same interleaved runs, and prints the rate of the change against it; with --variant, a
// variant of it (by default tests/bench/generic-may-play.toml: rules.may_play replaced by a function calling
// the base one, so the hooks take their generic path and play the same games) and its rate against the base.
//
//   bench_lost_cities [--games N] [--repeat R] [--ruleset ID|PATH] [--seed S] [--baseline PATH] [--variant PATH]
//     --games N     matches per run (default 500; each match is 3 rounds)
//     --repeat R    timed runs of each implementation (default 5), after one untimed warm-up run
//     --ruleset X   the scripted ruleset to load (default: the built-in "lost-cities")
//     --seed S      base seed (default 1): match i uses derive_seed(S, i), its random players derive_seed(S+1, i)
//     --baseline X  a reference ruleset to time in the same runs (must play the same games)
//     --variant X   a variant to time in the same runs ("none" for none; default the generic-may-play one)
#include <algorithm>
#include <ctime>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
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
  std::string baseline;
  std::string variant = HOUSERULES_SOURCE_DIR "/tests/bench/generic-may-play.toml";
};

struct Run {
  double seconds = 0;
  std::int64_t matches = 0;
  std::int64_t rounds = 0;
  std::int64_t plies = 0;
  std::uint64_t checksum = 0;  // over the final digests, in match order
};

enum class Mode { Playout, PerPly };

/// The CPU time this thread has used, in seconds: on a machine shared with other jobs, wall time counts the
/// moments the bench waits for a core, which makes two series run in turn differ by 10% and more.
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

/// Plays `games` random-vs-random matches. The random player draws uniformly from the legal actions with
/// its own Rng (one per match), so both modes play the same games; the per-ply loop reuses its vector and
/// makes no InformationSet or state copy per ply.
Run play(hr::Rules& rules, Mode mode, int games, std::uint64_t seed) {
  Run run;
  std::vector<hr::Action> legal;
  legal.reserve(64);
  hr::GameState state;
  const double start = thread_seconds();
  for (int i = 0; i < games; ++i) {
    state = rules.new_game(hr::derive_seed(seed, static_cast<std::uint64_t>(i)));
    hr::Rng player(hr::derive_seed(seed + 1, static_cast<std::uint64_t>(i)));
    if (mode == Mode::Playout) {
      rules.random_playout(state, player, INT64_MAX);
    } else {
      while (!state.over()) {
        rules.legal_actions(state, legal);
        rules.apply(state, legal[player.below(legal.size())]);
      }
    }
    ++run.matches;
    run.rounds += static_cast<std::int64_t>(state.round_scores().size());
    run.plies += state.ply();
    run.checksum = (run.checksum ^ state.digest()) * 0x100000001b3ULL;
  }
  run.seconds = thread_seconds() - start;
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
                     "[--seed S] [--baseline PATH] [--variant PATH|none]\n", why);
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
      else if (arg == "--baseline") o.baseline = value;
      else if (arg == "--variant") o.variant = value == std::string_view("none") ? "" : value;
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
  std::unique_ptr<hr::ScriptedRules> scripted, baseline, variant;
  for (auto [into, spec] : {std::pair{&scripted, &opt.ruleset}, {&baseline, &opt.baseline}, {&variant, &opt.variant}}) {
    if (spec->empty()) continue;
    try {
      *into = hr::load_rules(*spec);
    } catch (const std::exception& e) {
      fmt::print(stderr, "bench_lost_cities: cannot load ruleset '{}': {}\n", *spec, e.what());
      return 1;
    }
  }
  hr::NativeLostCities native;

  fmt::print("bench_lost_cities: random vs random, one thread, seed {}\n", opt.seed);
  fmt::print("  scripted: {} ({})\n", scripted->id(), scripted->info().entry.string());
  fmt::print("  native:   {}\n", native.id());
  if (baseline) fmt::print("  baseline: {} ({})\n", baseline->id(), baseline->info().entry.string());
  if (variant)
    fmt::print("  variant:  {} ({})\n", variant->id(),
               variant->info().variants.empty() ? variant->info().entry.string() : variant->info().variants.back().file.string());
  fmt::print("  N = {} matches per run (3 rounds each), {} timed runs per implementation after a warm-up; "
             "figures are medians\n", opt.games, opt.repeat);

  struct Series {
    const char* name;
    hr::Rules* rules;
    Mode mode;
    std::vector<Run> runs;
  };
  std::vector<Series> series = {{"scripted playout", scripted.get(), Mode::Playout, {}},
                                {"scripted per-ply", scripted.get(), Mode::PerPly, {}},
                                {"native playout", &native, Mode::Playout, {}},
                                {"native per-ply", &native, Mode::PerPly, {}}};
  if (baseline) {
    series.push_back({"baseline playout", baseline.get(), Mode::Playout, {}});
    series.push_back({"baseline per-ply", baseline.get(), Mode::PerPly, {}});
  }
  if (variant) {
    series.push_back({"variant playout", variant.get(), Mode::Playout, {}});
    series.push_back({"variant per-ply", variant.get(), Mode::PerPly, {}});
  }
  try {
    const int warm = std::max(1, opt.games / 10);
    for (auto& x : series) play(*x.rules, x.mode, warm, opt.seed);
    for (int r = 0; r < opt.repeat; ++r)  // interleaved, so a busy moment of the machine hits all of them
      for (auto& x : series) x.runs.push_back(play(*x.rules, x.mode, opt.games, opt.seed));
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_lost_cities: a match failed: {}\n", e.what());
    return 1;
  }

  fmt::print("\n  {:<18} {:>12} {:>12} {:>14} {:>16}\n", "", "games/s", "matches/s", "plies/s", "plies per game");
  std::vector<Rates> r;
  for (const auto& x : series) {
    r.push_back(rates(x.runs));
    fmt::print("  {:<18} {:>12.0f} {:>12.1f} {:>14.0f} {:>16.1f}\n", x.name, r.back().rounds, r.back().matches,
               r.back().plies, static_cast<double>(x.runs[0].plies) / static_cast<double>(x.runs[0].rounds));
  }
  fmt::print("\n  (a game is one round, the seeds' \"partie\"; a match is 3 rounds)\n");
  fmt::print("  ratio native/scripted (median games/s): playout {:.1f}x, per-ply {:.1f}x\n", r[2].rounds / r[0].rounds,
             r[3].rounds / r[1].rounds);
  std::size_t next = 4;
  if (baseline) {
    fmt::print("  scripted/baseline (median games/s): playout {:.3f}, per-ply {:.3f}\n", r[0].rounds / r[next].rounds,
               r[1].rounds / r[next + 1].rounds);
    next += 2;
  }
  if (variant)
    fmt::print("  variant/scripted (median games/s): playout {:.3f}, per-ply {:.3f}; same games as the base: {}\n",
               r[next].rounds / r[0].rounds, r[next + 1].rounds / r[1].rounds,
               series[next].runs[0].checksum == series[0].runs[0].checksum ? "yes" : "no");
  for (const auto& x : series) {
    fmt::print("  run times (s), {:<18}", x.name + std::string(":"));
    for (const Run& run : x.runs) fmt::print(" {:.3f}", run.seconds);
    fmt::print("\n");
  }
  bool same = true;
  for (std::size_t i = 0; i < (baseline ? 6u : 4u); ++i)
    same = same && series[i].runs[0].checksum == series[0].runs[0].checksum && series[i].runs[0].plies == series[0].runs[0].plies;
  fmt::print("  same games in scripted, native{} (digest checksum {:016x}): {}\n", baseline ? " and baseline" : "",
             series[0].runs[0].checksum, same ? "yes" : "NO");
  return same ? 0 : 3;
}
