// bench_lost_cities.cpp — how fast the scripted Lost Cities plays compared with the native C++ reference.
//
// Plays random-vs-random matches (3 rounds each; the seeds' "une partie", a game, is one round) on one thread
// with the scripted ruleset and with hr::NativeLostCities, from the same seeds, two ways:
//   playout  Rules::random_playout: the kernel's random playout (inside the Lua VM for the script), as search
//            rollouts use it;
//   per-ply  a C++ loop calling legal_actions and apply for every action, as bots deciding move by move do.
//   limit    a plain C++ Lost Cities playout with no kernel (LimitLostCities below) that plays the very same
//            games (same Rng, shuffle, deal and legal-action order); every path is printed as a multiple of its
//            time per ply ("x the limit"). Before timing, it is checked to play the same action sequences and
//            round scores as native and scripted for matches 0..4 (exit 3 otherwise).
// Times are the thread's CPU time (not wall time). It prints games (rounds)/s, matches/s and plies/s of each (medians over the repetitions) and the ratios
// native/scripted. All four must play the same games: a checksum of the final digests is compared.
// With --only SERIES (a prefix of a series name: "native per-ply", "scripted playout", "limit"...) it plays that
// one series once, without warm-up, for callgrind (`--toggle-collect='*::play(hr::Rules*'`).
// Not a test: it asserts nothing about time (DESIGN.md §8), CTest does not run it.
//
// With --baseline it also plays a second copy of the ruleset (e.g. the ruleset before a change, copied out of
// the tree) in the same interleaved runs, and prints the rate of the change against it; with --variant, a
// variant of it (by default tests/bench/generic-may-play.toml: rules.may_play replaced by a function calling
// the base one, so the hooks take their generic path and play the same games) and its time a ply as a multiple
// of the base's ("x the base"). Then the same for the board game, Rivals and Lost Valley (--others).
//
//   bench_lost_cities [--games N] [--repeat R] [--ruleset ID|PATH] [--seed S] [--baseline PATH] [--variant PATH]
//     --games N     matches per run (default 500; each match is 3 rounds)
//     --repeat R    timed runs of each implementation (default 5), after one untimed warm-up run
//     --ruleset X   the scripted ruleset to load (default: the built-in "lost-cities")
//     --seed S      base seed (default 1): match i uses derive_seed(S, i), its random players derive_seed(S+1, i)
//     --baseline X  a reference ruleset to time in the same runs (must play the same games)
//     --variant X   a variant to time in the same runs ("none" for none; default the generic-may-play one)
//     --others N    matches per run for the other games' rows (default --games / 10; 0 for none): the board game,
//                   Rivals and Lost Valley (Lost Valley plays N / 10, at least 1), each base ruleset and a variant
//                   of it replacing one named rule with a function that asks the base one
//                   (tests/bench/generic-<rule>.toml: the same games), timed in the same interleaved runs and
//                   printed as ns a ply and as the variant's time a ply over its base's
//     --only S      one series alone (see above; the other games' series are named "<game> base per-ply",
//                   "<game> variant playout"...)
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
  std::string only;  // --only: time just the series whose name starts with this (for callgrind)
  int others = -1;   // --others: matches per run of the other games' base and variant rows (-1: derived from --games)
};

struct Run {
  double seconds = 0;
  std::int64_t matches = 0;
  std::int64_t rounds = 0;
  std::int64_t plies = 0;
  std::uint64_t checksum = 0;  // over the final digests, in match order
};

enum class Mode { Playout, PerPly, Limit };

/// The limit: Lost Cities random vs random written directly in C++, with no kernel, no GameState and no
/// virtual call, playing the very same games as the kernel paths (the same Rng and seeds, the same shuffle of the
/// deck in card-number order, the same round-robin deal from the top, the same legal actions in the same order,
/// the same action codes: NativeLostCities's header gives the contract). Cards are 0..59 (colour c / 12; the
/// first three of a colour are wagers, then 2..10); a column keeps only what scoring and the play rule need.
/// main() checks, for a few seeds, that it plays the same actions and scores as the kernel's paths.
class LimitLostCities {
 public:
  static constexpr int kCards = 60, kColours = 5, kHand = 8, kRounds = 3;

  struct Match {
    std::int64_t plies = 0, rounds = 0;
    std::int64_t totals[3] = {0, 0, 0};  // [seat]
  };

  /// One match from `seed`, the random players drawing from `player`. With `log`, every action's code is
  /// appended to it; with `scores`, each round's two scores (seat 1, seat 2).
  Match play(std::uint64_t seed, hr::Rng& player, std::vector<std::int32_t>* log = nullptr,
             std::vector<std::int64_t>* scores = nullptr) {
    Match m;
    game_ = hr::Rng(seed);
    round_ = 1;
    start_round(m);
    std::int32_t legal[32];
    for (;;) {
      const int n = legal_actions(legal);
      const std::int32_t action = legal[player.below(static_cast<std::uint64_t>(n))];
      if (log) log->push_back(action);
      ++m.plies;
      if (!apply(action)) continue;
      // The last deck card was drawn: the round ends at once.
      std::int64_t s[3] = {0, score(1), score(2)};
      m.totals[1] += s[1];
      m.totals[2] += s[2];
      ++m.rounds;
      if (scores) scores->insert(scores->end(), {s[1], s[2]});
      if (round_ == kRounds) return m;
      ++round_;
      start_round(m);
    }
  }

 private:
  static int colour(int c) { return c / 12; }
  static int value(int c) { return c % 12 < 3 ? 0 : c % 12 - 1; }

  void start_round(const Match& m) {
    for (int c = 0; c < kCards; ++c) deck_[c] = static_cast<std::uint8_t>(c);
    game_.shuffle(std::span<std::uint8_t>(deck_, kCards));
    deck_n_ = kCards;
    hand_n_[1] = hand_n_[2] = 0;
    for (int r = 0; r < kHand; ++r)
      for (int seat = 1; seat <= 2; ++seat) hand_[seat][hand_n_[seat]++] = deck_[--deck_n_];
    for (auto& seat : column_)
      for (Column& col : seat) col = Column{};
    for (int& n : discard_n_) n = 0;
    phase_ = 0;
    to_move_ = round_ == 1 ? 1 : (m.totals[2] > m.totals[1] ? 2 : 1);
  }

  /// The legal actions in the kernel's order; returns their number.
  int legal_actions(std::int32_t* out) const {
    int n = 0;
    if (phase_ == 0) {
      const Column* cols = column_[to_move_];
      std::int32_t discards[kHand + 1];
      int d = 0;
      unsigned wagers_seen = 0;
      for (int i = 0; i < hand_n_[to_move_]; ++i) {
        const int c = hand_[to_move_][i], v = value(c), k = colour(c);
        if (v == 0) {
          if (wagers_seen >> k & 1u) continue;
          wagers_seen |= 1u << k;
        }
        const Column& col = cols[k];
        if (col.cards == 0 || (v == 0 ? col.top == 0 : v > col.top)) out[n++] = c + 1;
        discards[d++] = 100 + c + 1;
      }
      for (int i = 0; i < d; ++i) out[n++] = discards[i];
    } else {
      if (deck_n_ > 0) out[n++] = 200;
      for (int k = 1; k <= kColours; ++k)
        if (discard_n_[k - 1] > 0 && k != phase_ - 10) out[n++] = 200 + k;
    }
    return n;
  }

  void take_from_hand(int c) {
    std::uint8_t* h = hand_[to_move_];
    int i = 0;
    while (h[i] != c) ++i;
    for (const int n = --hand_n_[to_move_]; i < n; ++i) h[i] = h[i + 1];
  }

  /// Applies `action` for the seat to move; true when it drew the last card of the deck (the round is over).
  bool apply(std::int32_t action) {
    if (action <= kCards) {
      const int c = action - 1, v = value(c);
      take_from_hand(c);
      Column& col = column_[to_move_][colour(c)];
      ++col.cards;
      col.top = v;
      (v == 0 ? col.wagers : col.sum) += v == 0 ? 1 : v;
      phase_ = 10;
      return false;
    }
    if (action <= 100 + kCards) {
      const int c = action - 101;
      take_from_hand(c);
      discard_[colour(c)][discard_n_[colour(c)]++] = static_cast<std::uint8_t>(c);
      phase_ = 10 + colour(c) + 1;
      return false;
    }
    const int pile = action - 201;
    hand_[to_move_][hand_n_[to_move_]++] = pile < 0 ? deck_[--deck_n_] : discard_[pile][--discard_n_[pile]];
    phase_ = 0;
    to_move_ = 3 - to_move_;
    return deck_n_ == 0;
  }

  std::int64_t score(int seat) const {
    std::int64_t total = 0;
    for (const Column& col : column_[seat])
      if (col.cards) total += (col.sum - 20) * (1 + col.wagers) + (col.cards >= 8 ? 20 : 0);
    return total;
  }

  struct Column {
    int cards = 0, top = 0, sum = 0, wagers = 0;
  };
  hr::Rng game_;
  std::uint8_t deck_[kCards]{};
  int deck_n_ = 0;
  std::uint8_t hand_[3][kCards]{};
  int hand_n_[3]{};
  Column column_[3][kColours]{};
  std::uint8_t discard_[kColours][kCards]{};
  int discard_n_[kColours]{};
  int to_move_ = 1, phase_ = 0, round_ = 1;
};

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
Run play(hr::Rules* rules, Mode mode, int games, std::uint64_t seed) {
  Run run;
  std::vector<hr::Action> legal;
  legal.reserve(64);
  hr::GameState state;
  LimitLostCities limit;
  const double start = thread_seconds();
  for (int i = 0; i < games; ++i) {
    hr::Rng player(hr::derive_seed(seed + 1, static_cast<std::uint64_t>(i)));
    if (mode == Mode::Limit) {
      const auto m = limit.play(hr::derive_seed(seed, static_cast<std::uint64_t>(i)), player);
      ++run.matches;
      run.rounds += m.rounds;
      run.plies += m.plies;
      run.checksum = (run.checksum ^ static_cast<std::uint64_t>(m.totals[1] * 1000 + m.totals[2])) * 0x100000001b3ULL;
      continue;
    }
    state = rules->new_game(hr::derive_seed(seed, static_cast<std::uint64_t>(i)));
    if (mode == Mode::Playout) {
      rules->random_playout(state, player, INT64_MAX);
    } else {
      while (!state.over()) {
        rules->legal_actions(state, legal);
        rules->apply(state, legal[player.below(legal.size())]);
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

/// Whether the limit plays the same games as `rules` (per-ply loop) for matches 0..count-1 of `seed`: the same
/// action codes in the same order and the same round scores. Prints the first difference.
bool limit_plays_the_same(hr::Rules& rules, int count, std::uint64_t seed) {
  LimitLostCities limit;
  std::vector<hr::Action> legal;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t game_seed = hr::derive_seed(seed, static_cast<std::uint64_t>(i));
    const std::uint64_t player_seed = hr::derive_seed(seed + 1, static_cast<std::uint64_t>(i));
    std::vector<std::int32_t> ours, theirs;
    std::vector<std::int64_t> our_scores, their_scores;
    hr::Rng player(player_seed);
    limit.play(game_seed, player, &ours, &our_scores);
    hr::Rng other(player_seed);
    hr::GameState state = rules.new_game(game_seed);
    while (!state.over()) {
      rules.legal_actions(state, legal);
      theirs.push_back(legal[other.below(legal.size())]);
      rules.apply(state, theirs.back());
    }
    for (const auto& round : state.round_scores()) their_scores.insert(their_scores.end(), round.begin(), round.end());
    if (ours != theirs || our_scores != their_scores) {
      std::size_t k = 0;
      while (k < ours.size() && k < theirs.size() && ours[k] == theirs[k]) ++k;
      fmt::print(stderr, "bench_lost_cities: the limit and {} differ in match {} at ply {} ({} plies against {})\n",
                 rules.id(), i, k + 1, ours.size(), theirs.size());
      return false;
    }
  }
  return true;
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
                     "[--seed S] [--baseline PATH] [--variant PATH|none] [--others N] [--only SERIES]\n", why);
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
      else if (arg == "--only") o.only = value;
      else if (arg == "--others") o.others = std::stoi(value);
      else usage(("unknown option " + std::string(arg)).c_str());
    } catch (const std::logic_error&) {
      usage(("bad value for " + std::string(arg)).c_str());
    }
  }
  if (o.games < 1 || o.repeat < 1) usage("--games and --repeat must be at least 1");
  return o;
}


/// The other games' rows (--others): for each of the board game, Rivals and Lost Valley, the base ruleset and a
/// variant replacing one named rule with a function that asks the base one (so the same games are played), both
/// paths, timed in interleaved runs after a warm-up. Prints ns a ply and the variant's time a ply over its base's
/// (the multiple a house rule pays), and whether the variant played the same games (digests and plies). With
/// `only`, plays the series named by that prefix once (for callgrind). Returns 0, or 1 when a ruleset does not
/// load or a match fails, 3 when a variant played other games than its base.
int other_games(const Options& opt) {
  struct Game {
    const char* name;     // as the rows name it
    const char* base;     // the base ruleset's id
    const char* variant;  // the variant, under tests/bench/
    const char* rule;     // the rule it replaces
    int divisor;          // the matches per run are --others / divisor (Lost Valley's are long)
  };
  const Game games[] = {{"board", "lost-cities-board", "generic-may-follow.toml", "may_follow", 1},
                        {"rivals", "lost-cities-rivals", "generic-may-add.toml", "may_add", 1},
                        {"valley", "lost-valley", "generic-may-move-along.toml", "may_move_along", 10}};
  const int per_run = opt.others >= 0 ? opt.others : std::max(1, opt.games / 10);
  if (per_run == 0) return 0;
  struct Row {
    std::string name;
    std::unique_ptr<hr::ScriptedRules> rules;
    Mode mode;
    int matches;
    std::vector<Run> runs;
  };
  std::vector<Row> rows;
  for (const Game& g : games) {
    try {
      for (int k = 0; k < 2; ++k) {  // (one copy of each ruleset per mode: a row owns its rules)
        const Mode mode = k == 0 ? Mode::Playout : Mode::PerPly;
        const std::string suffix = k == 0 ? " playout" : " per-ply";
        const int matches = std::max(1, per_run / g.divisor);
        rows.push_back({std::string(g.name) + " base" + suffix, hr::load_rules(g.base), mode, matches, {}});
        rows.push_back({std::string(g.name) + " variant" + suffix,
                        hr::load_rules(std::string(HOUSERULES_SOURCE_DIR "/tests/bench/") + g.variant), mode, matches, {}});
      }
    } catch (const std::exception& e) {
      fmt::print(stderr, "bench_lost_cities: cannot load {} or its variant: {}\n", g.base, e.what());
      return 1;
    }
  }
  try {
    if (!opt.only.empty()) {
      for (auto& x : rows)
        if (x.name.rfind(opt.only, 0) == 0) {
          const Run run = play(x.rules.get(), x.mode, x.matches, opt.seed);
          fmt::print("  {}: {} plies in {} matches, {:.3f} s\n", x.name, run.plies, run.matches, run.seconds);
        }
      return 0;
    }
    for (auto& x : rows) play(x.rules.get(), x.mode, std::max(1, x.matches / 10), opt.seed);
    for (int r = 0; r < opt.repeat; ++r)
      for (auto& x : rows) x.runs.push_back(play(x.rules.get(), x.mode, x.matches, opt.seed));
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_lost_cities: a match of another game failed: {}\n", e.what());
    return 1;
  }
  fmt::print("\n  the other games, each against a variant replacing one named rule with a function asking the base one\n"
             "  (the same games; --others {} matches per run, Lost Valley a tenth; medians of {} runs; target: a variant\n"
             "  within 1.5x its base):\n", per_run, opt.repeat);
  fmt::print("\n  {:<24} {:>10} {:>14} {:>11} {:>16}\n", "", "matches", "plies/s", "ns/ply", "x the base");
  bool same = true;
  for (std::size_t i = 0; i < rows.size(); i += 2) {
    const Rates base = rates(rows[i].runs), variant = rates(rows[i + 1].runs);
    const bool same_games = rows[i].runs[0].checksum == rows[i + 1].runs[0].checksum && rows[i].runs[0].plies == rows[i + 1].runs[0].plies;
    same = same && same_games;
    fmt::print("  {:<24} {:>10} {:>14.0f} {:>11.1f}\n", rows[i].name, rows[i].matches, base.plies, 1e9 / base.plies);
    fmt::print("  {:<24} {:>10} {:>14.0f} {:>11.1f} {:>15.2f}x{}\n", rows[i + 1].name, rows[i + 1].matches, variant.plies,
               1e9 / variant.plies, base.plies / variant.plies, same_games ? "" : "  OTHER GAMES");
  }
  for (const Game& g : games) fmt::print("  {} variant: rules.{} replaced (tests/bench/{})\n", g.name, g.rule, g.variant);
  fmt::print("  the variants played the same games as their bases (digests and plies): {}\n", same ? "yes" : "NO");
  return same ? 0 : 3;
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
    std::string name;
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
  series.push_back({"limit (plain C++)", nullptr, Mode::Limit, {}});
  const std::size_t limit_index = series.size() - 1;
  constexpr int kSameGames = 5;
  const bool limit_same = limit_plays_the_same(native, kSameGames, opt.seed) && limit_plays_the_same(*scripted, kSameGames, opt.seed);
  fmt::print("  the limit plays the same actions and scores as native and scripted (matches 0..{}): {}\n", kSameGames - 1,
             limit_same ? "yes" : "NO");
  if (!limit_same) return 3;
  if (!opt.only.empty()) {  // one path alone, no warm-up: its instructions per ply under callgrind
    for (auto& x : series)
      if (x.name.rfind(opt.only, 0) == 0) {
        const Run run = play(x.rules, x.mode, opt.games, opt.seed);
        fmt::print("  {}: {} plies in {} matches, {:.3f} s\n", x.name, run.plies, run.matches, run.seconds);
      }
    return other_games(opt);
  }
  try {
    const int warm = std::max(1, opt.games / 10);
    for (auto& x : series) play(x.rules, x.mode, warm, opt.seed);
    for (int r = 0; r < opt.repeat; ++r)  // interleaved, so a busy moment of the machine hits all of them
      for (auto& x : series) x.runs.push_back(play(x.rules, x.mode, opt.games, opt.seed));
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_lost_cities: a match failed: {}\n", e.what());
    return 1;
  }

  fmt::print("\n  {:<18} {:>12} {:>12} {:>14} {:>11} {:>12}\n", "", "games/s", "matches/s", "plies/s", "ns/ply",
             "x the limit");
  std::vector<Rates> r;
  for (const auto& x : series) r.push_back(rates(x.runs));
  for (std::size_t i = 0; i < series.size(); ++i)
    fmt::print("  {:<18} {:>12.0f} {:>12.1f} {:>14.0f} {:>11.1f} {:>11.2f}x\n", series[i].name, r[i].rounds,
               r[i].matches, r[i].plies, 1e9 / r[i].plies, r[limit_index].plies / r[i].plies);
  fmt::print("\n  x the limit: the limit's median plies/s over the path's (the time of a ply as a multiple of the limit's);"
             "\n  the limit is the plain C++ playout of the same games, no kernel ({:.1f} plies per game)\n",
             static_cast<double>(series[limit_index].runs[0].plies) / static_cast<double>(series[limit_index].runs[0].rounds));
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
    fmt::print("  variant x the base (its time a ply over the scripted base's, target <= 1.5x): playout {:.2f}x, "
               "per-ply {:.2f}x; same games as the base: {}\n",
               r[0].plies / r[next].plies, r[1].plies / r[next + 1].plies,
               series[next].runs[0].checksum == series[0].runs[0].checksum &&
                       series[next].runs[0].plies == series[0].runs[0].plies ? "yes" : "NO");
  {
    const auto x_limit = [&](std::size_t i) { return r[limit_index].plies / r[i].plies; };
    fmt::print("  targets (x the limit, issue 36): scripted playout {:.2f}x (<= 5), scripted per-ply {:.2f}x (<= 6), "
               "native per-ply {:.2f}x (<= 1.5)\n", x_limit(0), x_limit(1), x_limit(3));
  }
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
  const int others = other_games(opt);
  return !same ? 3 : others;
}
