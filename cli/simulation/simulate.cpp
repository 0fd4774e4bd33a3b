// simulate.cpp — bot games on several threads, their statistics, JSON Lines, shards and merge (simulate.hpp).
#include "simulate.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <tuple>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bots.hpp"
#include "play/play.hpp"
#include "rng.hpp"
#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"
#include "input_line.hpp"
#include "ordered_pool.hpp"

namespace hr {

using nlohmann::json;

namespace {

/// lcm(1..8): a first place shared by m <= kMaxSeats seats is worth kWinUnits / m units, an integer, so that
/// win counts add up exactly whatever the order.
constexpr std::int64_t kWinUnits = 840;

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::string percent(double fraction) { return fmt::format("{:.2f}%", 100.0 * fraction); }

std::string spread_text(const Stats::Spread& s) {
  return fmt::format("mean {:.1f}, sd {:.1f}, min {}, max {}", s.mean, s.sd, s.min, s.max);
}

/// "1st 512, 2nd 488".
std::string places_text(const std::vector<std::int64_t>& places) {
  std::string out;
  for (std::size_t p = 0; p < places.size(); ++p)
    out += fmt::format("{}{} {}", p ? ", " : "", ordinal(static_cast<int>(p) + 1), places[p]);
  return out;
}

/// The run's rules and version, for the summary: no path and no command line, so the summaries of a run and
/// of the merge of its shards (run anywhere) are equal. "" when unknown (files from before RunInfo).
std::string run_info_text(const RunInfo& run) {
  if (run.version.empty()) return {};
  std::string out = "Rules: ";
  if (run.variants.empty()) {
    out += "the ruleset as written";
  } else {
    out += "variant chain (innermost first)";
    for (std::size_t i = 0; i < run.variants.size(); ++i) out += (i ? " < " : " ") + run.variants[i].id;
  }
  out += fmt::format("; houserules {}\n", run.version);
  std::vector<const RunInfo::Parameter*> changed;
  for (const auto& p : run.parameters)
    if (p.changed()) changed.push_back(&p);
  if (changed.empty()) {
    out += fmt::format("Parameters: all {} at the ruleset's defaults\n", run.parameters.size());
  } else {
    out += fmt::format("Parameters that differ from the ruleset's defaults ({} of {}):\n", changed.size(),
                       run.parameters.size());
    for (const auto* p : changed)
      out += fmt::format("  {} = {} (default {}; set by {})\n", p->name, p->value,
                         p->default_value.empty() ? "none: the variant adds it" : p->default_value, p->set_by);
  }
  return out;
}

}  // namespace

std::string ordinal(int n) {
  const char* suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

RunInfo read_run_info(const Experiment& e, const std::string& command_line) {
  RunInfo run;
  run.version = HOUSERULES_VERSION;
  if (!command_line.empty()) run.command_lines.push_back(command_line);
  RulesetInfo info = find_ruleset(e.ruleset);
  info.overrides = e.overrides;
  run.ruleset_file = Sandbox::display_path(info.dir / "ruleset.toml");
  for (const auto& v : info.variants)
    run.variants.push_back({v.id, v.name, Sandbox::display_path(v.file), v.script.empty() ? "" : Sandbox::display_path(v.script)});
  std::vector<ParamOrigin> origins, defaults;
  effective_params(info, &origins, e.seats);
  RulesetInfo base = info;  // the ruleset as written: its values are the defaults
  base.variants.clear();
  base.overrides.clear();
  effective_params(base, &defaults);
  std::map<std::string, std::string> default_of;
  for (const auto& o : defaults) default_of[o.path] = o.value;
  for (const auto& o : origins) {
    RunInfo::Parameter p;
    p.name = o.path;
    p.value = o.value;
    if (const auto found = default_of.find(o.path); found != default_of.end()) p.default_value = found->second;
    if (o.line == 0) {
      p.set_by = o.file.string();  // "--set name=value"
    } else {
      for (const auto& v : info.variants)
        if (o.file.lexically_normal() == v.file.lexically_normal()) p.set_by = "variant " + v.id;
    }
    run.parameters.push_back(std::move(p));
  }
  return run;
}

std::string process_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string word, out;
  bool first = true;
  while (std::getline(in, word, '\0')) {
    if (first) word = std::filesystem::path(word).filename().string();  // the program, without its folder
    out += (first ? "" : " ") + shell_word(word);
    first = false;
  }
  return out;
}

std::string experiment_command(const Experiment& e) {
  std::string out = fmt::format("houserules simulate {} --players {} --games {} --seed {}", shell_word(e.ruleset),
                                shell_word(join(e.players, ",")), e.games, e.seed);
  if (e.fixed_seats) out += " --fixed-seats";
  if (e.mirror) out += " --mirror";
  if (e.max_plies != Experiment{}.max_plies) out += fmt::format(" --max-plies {}", e.max_plies);
  for (const auto& text : e.overrides) out += " --set " + shell_word(text);
  return out;
}

std::vector<int> seating_of(const Experiment& e, std::int64_t index) {
  const int k = e.seats;
  const int rotation = e.fixed_seats || k == 0 ? 0 : static_cast<int>(index % k);
  std::vector<int> seating(static_cast<std::size_t>(k));
  for (int s = 0; s < k; ++s) seating[static_cast<std::size_t>(s)] = (s + rotation) % k;
  return seating;
}

std::uint64_t game_seed(const Experiment& e, std::int64_t index) {
  if (e.mirror && e.seats > 0) return derive_seed(e.seed, static_cast<std::uint64_t>(index / e.seats));
  return derive_seed(e.seed, static_cast<std::uint64_t>(index));
}

GameRecord play_game(Rules& rules, const Experiment& e, std::int64_t index) {
  GameRecord r;
  r.index = index;
  r.seed = game_seed(e, index);
  r.seating = seating_of(e, index);
  std::vector<std::string> names;
  for (int j : r.seating) names.push_back(e.players[static_cast<std::size_t>(j)]);
  GameState state;
  try {
    std::istringstream no_input;
    std::ostringstream no_output;
    auto players = make_players(names, r.seed, no_input, no_output, &rules);
    state = rules.new_game(r.seed);
    const bool tell_moves = std::any_of(players.begin(), players.end(), [](const auto& p) { return p->follows_moves(); });
    std::vector<Action> legal;
    int last_seat = 0, last_round = 0;
    while (!state.over()) {
      if (state.ply() >= e.max_plies)
        throw RulesError(fmt::format("the game is not over after {} actions (--max-plies)", state.ply()));
      rules.legal_actions(state, legal);
      const int seat = state.to_move();
      if (legal.empty()) throw RulesError(fmt::format("seat {} has no legal action but the game is not over", seat));
      if (seat != last_seat || state.round() != last_round) ++r.turns;  // a turn: one seat's run of actions
      last_seat = seat;
      last_round = state.round();
      const Action action = players[static_cast<std::size_t>(seat - 1)]->choose(rules, InformationSet(state, seat, legal));
      const std::string text = tell_moves || e.count_actions ? rules.action_text(state, action) : std::string();
      if (e.count_actions) ++r.actions[text.substr(0, text.find(' '))];
      rules.apply(state, action);
      for (auto& p : players) if (p->follows_moves()) p->action_played(seat, text);  // external programs' seats
    }
    for (auto& p : players) p->match_over(rules, state);
    r.scores = state.match_scores();
    r.places = rules.ranks(state);
    if (r.places.size() != r.scores.size()) throw RulesError("ranks gave a place count that is not the seat count");
  } catch (const std::exception& ex) {
    r.error = ex.what();
    if (r.error.empty()) r.error = "error";
    r.scores.clear();
    r.places.clear();
  }
  r.plies = state.ply();
  r.rounds = state.round();
  return r;
}

std::string reproduce_command(const Experiment& e, const GameRecord& r) {
  std::vector<std::string> names;
  for (int j : r.seating) names.push_back(e.players[static_cast<std::size_t>(j)]);
  std::string sets;
  for (const auto& text : e.overrides) sets += " --set " + shell_word(text);
  return fmt::format("houserules play {} --players {} --seed {}{}", shell_word(e.ruleset), shell_word(join(names, ",")), r.seed, sets);
}

std::vector<std::int64_t> shard_indices(std::int64_t games, int shard, int count) {
  std::vector<std::int64_t> out;
  for (std::int64_t i = shard; i < games; i += count) out.push_back(i);
  return out;
}

IndexRange shard_range(std::int64_t games, int shard, int count) {
  return {shard, count, shard < games ? (games - shard + count - 1) / count : 0};
}

void stream_games(const Experiment& e, IndexRange indices, int threads, const std::function<void(GameRecord&&)>& consume,
                  const Progress& progress) {
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(indices.count, 0));
  std::function<std::function<GameRecord(std::size_t)>()> make_worker = [&e, indices] {
    LoadOptions load;
    load.seats = e.seats;
    load.overrides = e.overrides;
    std::shared_ptr<Rules> rules = load_rules(e.ruleset, load);  // one Lua state per thread
    return std::function<GameRecord(std::size_t)>([rules, &e, indices](std::size_t i) {
      return play_game(*rules, e, indices[static_cast<std::int64_t>(i)]);
    });
  };
  std::function<void(std::size_t)> tick;
  if (progress) tick = [&progress, n](std::size_t done) { progress(static_cast<std::int64_t>(done), static_cast<std::int64_t>(n)); };
  run_ordered<GameRecord>(n, threads, make_worker, consume, tick);
}

std::vector<GameRecord> run_games(const Experiment& e, IndexRange indices, int threads, const Progress& progress) {
  std::vector<GameRecord> out;
  stream_games(e, indices, threads, [&out](GameRecord&& r) { out.push_back(std::move(r)); }, progress);
  return out;
}

std::vector<GameRecord> run_games(const Experiment& e, const std::vector<std::int64_t>& indices, int threads,
                                  const Progress& progress) {
  // Plays them as a range over positions 0..n-1 and maps each record's index back.
  std::vector<GameRecord> out;
  out.reserve(indices.size());
  const auto n = static_cast<std::size_t>(indices.size());
  std::function<std::function<GameRecord(std::size_t)>()> make_worker = [&e, &indices] {
    LoadOptions load;
    load.seats = e.seats;
    load.overrides = e.overrides;
    std::shared_ptr<Rules> rules = load_rules(e.ruleset, load);
    return std::function<GameRecord(std::size_t)>([rules, &e, &indices](std::size_t i) { return play_game(*rules, e, indices[i]); });
  };
  std::function<void(std::size_t)> tick;
  if (progress) tick = [&progress, n](std::size_t done) { progress(static_cast<std::int64_t>(done), static_cast<std::int64_t>(n)); };
  run_ordered<GameRecord>(n, threads, make_worker, [&out](GameRecord&& r) { out.push_back(std::move(r)); }, tick);
  return out;
}

Interval wilson_interval(double successes, double n, double z) {
  if (n <= 0) return {0, 1};
  const double p = successes / n;
  const double z2 = z * z;
  const double denominator = 1 + z2 / n;
  const double centre = (p + z2 / (2 * n)) / denominator;
  const double half = z / denominator * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}


StatsTally::StatsTally(const Experiment& e) {
  st_.experiment = e;
  const auto k = static_cast<std::size_t>(e.seats);
  st_.settings.resize(k);
  st_.seats.resize(k);
  std::map<std::string, int> name_count, name_seen;
  for (const auto& name : e.players) ++name_count[name];
  for (std::size_t j = 0; j < k && j < e.players.size(); ++j) {
    const std::string& name = e.players[j];
    st_.settings[j].label = name_count[name] > 1 ? fmt::format("{} #{}", name, ++name_seen[name]) : name;
    st_.settings[j].places.assign(k, 0);
    st_.seats[j].places.assign(k, 0);
  }
  win_units_.assign(k, 0);
  seat_win_units_.assign(k, 0);
  place_sum_.assign(k, 0);
  setting_margin_sum_.assign(k, 0);
  seat_margin_sum_.assign(k, 0);
  seat_scores_.assign(k, Distribution());
}

namespace {

/// Keeps `r` among the kFailuresKept records of lowest index in `kept` (sorted by index).
void keep_lowest(std::vector<GameRecord>& kept, const GameRecord& r) {
  if (kept.size() >= kFailuresKept && kept.back().index < r.index) return;
  const auto at = std::upper_bound(kept.begin(), kept.end(), r.index,
                                   [](std::int64_t index, const GameRecord& g) { return index < g.index; });
  kept.insert(at, r);
  if (kept.size() > kFailuresKept) kept.pop_back();
}

}  // namespace

void StatsTally::add(const GameRecord& r) {
  const Experiment& e = st_.experiment;
  const auto k = static_cast<std::size_t>(e.seats);
  ++recorded_;
  if (r.failed()) {
    ++st_.failed;
    keep_lowest(st_.failures, r);
    std::string reason = first_line(r.error);
    if (r.overlong(e)) {
      ++st_.overlong_count;
      keep_lowest(st_.overlong, r);
      reason = fmt::format("not over after {} actions (--max-plies)", e.max_plies);
    }
    if (reason.size() > 120) reason = reason.substr(0, 117) + "...";
    if (st_.failure_reasons.size() >= 100 && !st_.failure_reasons.count(reason)) reason = "other errors";
    ++st_.failure_reasons[reason];
    return;
  }
  ++st_.completed;
  const auto firsts = std::count(r.places.begin(), r.places.end(), 1);
  if (firsts > 1) ++st_.tied;
  for (std::size_t s = 0; s < k && s < r.places.size(); ++s) {
    const auto j = static_cast<std::size_t>(r.seating[s]);
    st_.settings[j].scores.add(r.scores[s]);
    place_sum_[j] += r.places[s];
    seat_scores_[s].add(r.scores[s]);
    if (r.places[s] >= 1 && static_cast<std::size_t>(r.places[s]) <= k) {
      ++st_.settings[j].places[static_cast<std::size_t>(r.places[s] - 1)];
      ++st_.seats[s].places[static_cast<std::size_t>(r.places[s] - 1)];
    }
    if (r.places[s] == 1) {
      win_units_[j] += kWinUnits / firsts;
      seat_win_units_[s] += kWinUnits / firsts;
    }
    // The seat's margin: its score minus the best score among the others (0 when it plays alone).
    std::int64_t best_other = r.scores[s];
    bool any_other = false;
    for (std::size_t o = 0; o < r.scores.size(); ++o)
      if (o != s) {
        best_other = any_other ? std::max(best_other, r.scores[o]) : r.scores[o];
        any_other = true;
      }
    seat_margin_sum_[s] += r.scores[s] - best_other;
    setting_margin_sum_[j] += r.scores[s] - best_other;
  }
  std::int64_t best = 0, second = 0;  // the two highest scores
  for (std::size_t s = 0; s < r.scores.size(); ++s) {
    const std::int64_t v = r.scores[s];
    if (s == 0 || v > best) {
      if (s > 0) second = best;
      best = v;
    } else if (s == 1 || v > second) {
      second = v;
    }
  }
  st_.margins.add(r.scores.size() > 1 ? best - second : 0);
  st_.lengths.add(r.plies);
  st_.turns.add(r.turns);
  st_.rounds.add(r.rounds);
  for (const auto& [kind, count] : r.actions) action_counts_[kind].add(count);
}

Stats StatsTally::finish(bool complete, const std::string& slice) const {
  Stats st = st_;
  st.complete = complete;
  st.slice = slice;
  st.recorded = recorded_;
  const Experiment& e = st.experiment;
  const auto k = static_cast<std::size_t>(e.seats);
  const auto games = static_cast<double>(st.completed);
  // Exact integer sums divided once: the same figure whatever the order the games were added in.
  auto mean = [&st](std::int64_t sum) {
    return st.completed ? static_cast<double>(static_cast<long double>(sum) / static_cast<long double>(st.completed)) : 0.0;
  };
  for (std::size_t j = 0; j < k; ++j) {
    auto& s = st.settings[j];
    s.games = st.completed;
    s.wins = static_cast<double>(win_units_[j]) / kWinUnits;
    s.win_rate = st.completed ? s.wins / games : 0;
    s.interval = wilson_interval(s.wins, games);
    s.score_mean = s.scores.mean();
    s.score_sd = s.scores.sd();
    s.place_mean = st.completed ? static_cast<double>(place_sum_[j]) / games : 0;
    s.margin_mean = mean(setting_margin_sum_[j]);
    auto& seat = st.seats[j];
    seat.wins = static_cast<double>(seat_win_units_[j]) / kWinUnits;
    seat.win_rate = st.completed ? seat.wins / games : 0;
    seat.interval = wilson_interval(seat.wins, games);
    seat.score_mean = seat_scores_[j].mean();
    seat.margin_mean = mean(seat_margin_sum_[j]);
  }
  st.length_mean = st.lengths.mean();
  st.length_sd = st.lengths.sd();
  st.length_min = st.lengths.min();
  st.length_max = st.lengths.max();
  auto spread_of = [](const Distribution& d) { return Stats::Spread{d.mean(), d.sd(), d.min(), d.max()}; };
  st.turn_spread = spread_of(st.turns);
  st.round_spread = spread_of(st.rounds);
  st.margin_spread = spread_of(st.margins);
  st.actions_counted = e.count_actions;
  for (const auto& [kind, occurred] : action_counts_) {
    Stats::ActionKind a;
    a.kind = kind;
    a.per_game = occurred;
    a.per_game.add(0, st.completed - occurred.count());  // the games where it did not occur
    std::int64_t total = 0;
    for (const auto& [value, times] : occurred.counts()) total += value * times;
    a.total = total;
    a.mean = a.per_game.mean();
    st.action_total += a.total;
    st.actions.push_back(std::move(a));
  }
  return st;
}

Stats compute_stats(const Experiment& e, const std::vector<GameRecord>& records, const std::string& slice) {
  StatsTally tally(e);
  bool complete = static_cast<std::int64_t>(records.size()) == e.games;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].index != static_cast<std::int64_t>(i)) complete = false;
    tally.add(records[i]);
  }
  return tally.finish(complete, slice);
}

std::string summary_text(const Stats& st) {
  const Experiment& e = st.experiment;
  std::string out;
  out += fmt::format("Simulation of {} ({}): {} games, seed {}, players {}, {}\n", e.ruleset_id, e.ruleset, e.games,
                     e.seed, join(e.players, ","),
                     e.fixed_seats ? "fixed seats (player setting n in seat n)"
                     : e.mirror    ? "mirror matches (each deal played once from every seat: games i of a block "
                                     "of seats share a deal, setting n sits in seat n - i mod seats)"
                                   : "seats rotated (game i: setting n sits in seat n - i mod seats)");
  if (!st.slice.empty()) out += fmt::format("Only part of it: {} — {} of {} games\n", st.slice, st.recorded, e.games);
  out += run_info_text(st.run);
  out += fmt::format("{} completed games, {} failed\n\n", st.completed, st.failed);
  std::size_t width = 6;
  for (const auto& s : st.settings) width = std::max(width, s.label.size());
  out += fmt::format("{:<{}}  {:>7}  {:>9}  {:>8}  {:>18}  {:>10}  {:>8}  {:>10}\n", "player", width, "games", "wins",
                     "win rate", "95% CI (Wilson)", "mean score", "sd score", "mean place");
  for (const auto& s : st.settings)
    out += fmt::format("{:<{}}  {:>7}  {:>9.2f}  {:>8}  {:>18}  {:>10.2f}  {:>8.2f}  {:>10.3f}\n", s.label, width,
                       s.games, s.wins, percent(s.win_rate),
                       fmt::format("[{}, {}]", percent(s.interval.low), percent(s.interval.high)), s.score_mean,
                       s.score_sd, s.place_mean);
  out += fmt::format("\nWins: a first place shared by m players counts 1/m win for each; {} games ({}) had a shared "
                     "first place.\n",
                     st.tied, percent(st.completed ? static_cast<double>(st.tied) / static_cast<double>(st.completed) : 0));
  out += "Places (completed games finished 1st, 2nd...; tied players share a place):\n";
  for (const auto& s : st.settings)
    out += fmt::format("  {:<{}}  {}\n", s.label, width, places_text(s.places));
  out += fmt::format("Seats (whoever sits there; fair share {}; margin: the seat's score minus the best other "
                     "seat's):\n", percent(e.seats ? 1.0 / e.seats : 0));
  for (std::size_t s = 0; s < st.seats.size(); ++s)
    out += fmt::format("  seat {}: wins {} [{}, {}], mean score {:.2f}, mean margin {:+.2f}, places {}\n", s + 1,
                       percent(st.seats[s].win_rate), percent(st.seats[s].interval.low),
                       percent(st.seats[s].interval.high), st.seats[s].score_mean, st.seats[s].margin_mean,
                       places_text(st.seats[s].places));
  if (!st.seats.empty()) {
    const auto& first = st.seats.front();
    const double fair = 1.0 / e.seats;
    out += fmt::format("First-seat advantage: {:+.2f} points of win rate over the fair share ({}: the 95% interval "
                       "{} it)\n",
                       100.0 * (first.win_rate - fair),
                       first.interval.low > fair ? "an advantage" : first.interval.high < fair ? "a disadvantage" : "not significant",
                       first.interval.low > fair || first.interval.high < fair ? "excludes" : "includes");
  }
  out += fmt::format("Winning margin (the winner's score minus the runner-up's): {}\n", spread_text(st.margin_spread));
  out += fmt::format("Game length: mean {:.1f} plies, sd {:.1f}, min {}, max {}\n", st.length_mean, st.length_sd,
                     st.length_min, st.length_max);
  if (st.turn_spread.max > 0)  // files written before turns were recorded have none
    out += fmt::format("Game length in turns (a seat's run of actions): {}; in rounds: {}\n", spread_text(st.turn_spread),
                       spread_text(st.round_spread));
  if (st.actions_counted && st.completed > 0) {
    out += "Actions per game by kind (the first word of the action):";
    for (const auto& a : st.actions)
      out += fmt::format(" {} {:.1f} ({})", a.kind, a.mean,
                         percent(st.action_total ? static_cast<double>(a.total) / static_cast<double>(st.action_total) : 0));
    out += '\n';
  }
  if (st.overlong_count > 0) {  // bots that can play forever: worth its own line, above the failures
    std::string seeds;
    for (std::size_t i = 0; i < st.overlong.size() && i < 10; ++i) seeds += (i ? ", " : "") + std::to_string(st.overlong[i].seed);
    if (st.overlong_count > 10) seeds += ", ...";
    out += fmt::format("Overlong games: {} hit the cap of {} actions (--max-plies), seeds {}; replay the first with:\n  {}\n",
                       st.overlong_count, e.max_plies, seeds, reproduce_command(e, st.overlong.front()));
  }
  if (st.failed == 0) {
    out += "Failed games: none\n";
  } else {
    out += fmt::format("Failed games: {} (not counted above); each replays with its command:\n", st.failed);
    const std::size_t shown = std::min<std::size_t>(st.failures.size(), 20);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& r = st.failures[i];
      out += fmt::format("  game {} (seed {}, after {} actions): {}\n    {}\n", r.index, r.seed, r.plies,
                         first_line(r.error), reproduce_command(e, r));
    }
    if (static_cast<std::int64_t>(shown) < st.failed)
      out += fmt::format("  ... and {} more (see --jsonl)\n", st.failed - static_cast<std::int64_t>(shown));
  }
  return out;
}

std::string experiment_json_line(const Experiment& e, int shard, int shard_count) {
  json line = {{"type", "simulation"}, {"format", 1},         {"ruleset", e.ruleset},     {"ruleset_id", e.ruleset_id},
               {"seats", e.seats},     {"players", e.players}, {"seed", e.seed},          {"games", e.games},
               {"fixed_seats", e.fixed_seats}, {"max_plies", e.max_plies}, {"shard", {shard, shard_count}}};
  if (e.mirror) line["mirror"] = true;  // only when set: files of runs without it stay as they were
  if (!e.overrides.empty()) line["overrides"] = e.overrides;
  if (e.count_actions) line["count_actions"] = true;
  return line.dump() + '\n';
}

std::string experiment_json_line(const Experiment& e, int shard, int shard_count, const RunInfo& run) {
  std::string text = experiment_json_line(e, shard, shard_count);
  json line = json::parse(text);
  line["run"] = run_info_json(run);
  return line.dump() + '\n';
}

json run_info_json(const RunInfo& run) {
  json variants = json::array(), parameters = json::array();
  for (const auto& v : run.variants)
    variants.push_back({{"id", v.id}, {"name", v.name}, {"file", v.file}, {"script", v.script}});
  for (const auto& p : run.parameters)
    parameters.push_back({{"name", p.name}, {"value", p.value}, {"default", p.default_value}, {"set_by", p.set_by},
                          {"changed", p.changed()}});
  return {{"version", run.version}, {"command_lines", run.command_lines}, {"ruleset_file", run.ruleset_file},
          {"variants", variants}, {"parameters", parameters}};
}

RunInfo run_info_from_json(const json& doc) {
  RunInfo run;
  run.version = doc.at("version").get<std::string>();
  run.command_lines = doc.at("command_lines").get<std::vector<std::string>>();
  run.ruleset_file = doc.at("ruleset_file").get<std::string>();
  for (const auto& v : doc.at("variants"))
    run.variants.push_back({v.at("id").get<std::string>(), v.at("name").get<std::string>(), v.at("file").get<std::string>(),
                            v.at("script").get<std::string>()});
  for (const auto& p : doc.at("parameters"))
    run.parameters.push_back({p.at("name").get<std::string>(), p.at("value").get<std::string>(),
                              p.at("default").get<std::string>(), p.at("set_by").get<std::string>()});
  return run;
}

std::string stats_json(const Stats& st) {
  const Experiment& e = st.experiment;
  json settings = json::array(), seats = json::array(), failures = json::array(), overlong = json::array();
  for (const auto& s : st.settings)
    settings.push_back({{"label", s.label}, {"games", s.games}, {"wins", s.wins}, {"win_rate", s.win_rate},
                        {"interval", {s.interval.low, s.interval.high}}, {"score_mean", s.score_mean},
                        {"score_sd", s.score_sd}, {"place_mean", s.place_mean}, {"margin_mean", s.margin_mean},
                        {"places", s.places}});
  for (std::size_t i = 0; i < st.seats.size(); ++i)
    seats.push_back({{"seat", i + 1}, {"wins", st.seats[i].wins}, {"win_rate", st.seats[i].win_rate},
                     {"interval", {st.seats[i].interval.low, st.seats[i].interval.high}},
                     {"score_mean", st.seats[i].score_mean}, {"margin_mean", st.seats[i].margin_mean},
                     {"places", st.seats[i].places}});
  auto spread = [](const Stats::Spread& s) {
    return json{{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"max", s.max}};
  };
  json actions = json::object();
  for (const auto& a : st.actions) actions[a.kind] = {{"total", a.total}, {"mean", a.mean}};
  auto game = [&e](const GameRecord& r) {
    return json{{"index", r.index}, {"seed", r.seed}, {"plies", r.plies}, {"error", r.error},
                {"reproduce", reproduce_command(e, r)}};
  };
  for (const auto& r : st.failures) failures.push_back(game(r));
  for (const auto& r : st.overlong) overlong.push_back(game(r));
  const json experiment = {{"ruleset", e.ruleset}, {"ruleset_id", e.ruleset_id}, {"seats", e.seats},
                           {"players", e.players}, {"seed", e.seed}, {"games", e.games},
                           {"fixed_seats", e.fixed_seats}, {"max_plies", e.max_plies}, {"overrides", e.overrides}};
  const json doc = {{"experiment", experiment},
                    {"recorded", st.recorded},
                    {"completed", st.completed},
                    {"failed", st.failed},
                    {"overlong_count", st.overlong_count},
                    {"tied", st.tied},
                    {"complete", st.complete},
                    {"slice", st.slice},
                    {"settings", settings},
                    {"seats", seats},
                    {"length", {{"mean", st.length_mean}, {"sd", st.length_sd}, {"min", st.length_min}, {"max", st.length_max}}},
                    {"turns", spread(st.turn_spread)},
                    {"rounds", spread(st.round_spread)},
                    {"margin", spread(st.margin_spread)},
                    {"actions", st.actions_counted ? actions : json()},
                    {"run", run_info_json(st.run)},
                    {"reproduce", experiment_command(e)},
                    {"failures", failures},
                    {"overlong", overlong}};
  return doc.dump(2) + '\n';
}

std::string game_json_line(const Experiment& e, const GameRecord& r) {
  std::vector<std::string> names;
  for (int j : r.seating) names.push_back(e.players[static_cast<std::size_t>(j)]);
  json line = {{"type", "game"},       {"index", r.index},   {"seed", r.seed},     {"seating", r.seating},
               {"players", names},     {"scores", r.scores}, {"places", r.places}, {"plies", r.plies},
               {"turns", r.turns},     {"rounds", r.rounds}};
  if (e.count_actions) line["actions"] = r.actions;
  if (r.failed()) line["error"] = r.error;
  return line.dump() + '\n';
}

namespace {

bool write_file(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream o(path, std::ios::binary);
  o << text;
  if (!o.flush()) {
    err << "error: cannot write " << path << '\n';
    return false;
  }
  return true;
}

}  // namespace

int simulate_command(SimulateOptions o, std::ostream& out, std::ostream& err) {
  Experiment& e = o.experiment;
  if (e.games < 1) return err << "error: --games must be at least 1\n", 2;
  if (e.games > kMaxGames) return err << fmt::format("error: --games {}: at most {} games\n", e.games, kMaxGames), 2;
  if (o.shard_count < 1 || o.shard < 0 || o.shard >= o.shard_count)
    return err << fmt::format("error: --shard {}/{}: give i/N with 0 <= i < N\n", o.shard, o.shard_count), 2;
  const IndexRange indices = shard_range(e.games, o.shard, o.shard_count);
  if (e.players.empty()) return err << "error: --players is required (e.g. --players greedy,random)\n", 2;
  for (const auto& name : e.players) {
    try {
      if (is_external_player(name)) parse_external_player(name);  // its syntax now; it is started per game
      else if (!make_bot(name, 0))
        return err << fmt::format("error: unknown player '{}' (simulate plays bots: random, greedy, ismcts[:key=value...], cmd:PROGRAM)\n", name), 2;
    } catch (const std::invalid_argument& ex) {
      return err << "error: " << ex.what() << '\n', 2;
    }
  }
  if (e.max_plies < 1) return err << "error: --max-plies must be at least 1\n", 2;
  if (e.mirror && e.fixed_seats) return err << "error: --mirror rotates the seats on each deal; it cannot go with --fixed-seats\n", 2;
  // The output files are checked before the first game, not found unwritable after an hour of games.
  const std::pair<const char*, std::string> outputs[] = {{"--jsonl", o.jsonl}, {"--report", o.report}};
  for (const auto& output : outputs)
    if (!output.second.empty())
      if (const std::string problem = output_path_problem(output.second); !problem.empty())
        return err << "error: " << output.first << ": " << problem << '\n', 2;
  // For the report's action counts (and the --jsonl lines, so that merge has them). It costs an action_text
  // call per action: 3.5 times the CPU time of random-vs-random Lost Cities games (docs/simulation.md).
  e.count_actions = o.count_actions;
  RunInfo run;
  try {
    LoadOptions load;
    load.seats = static_cast<int>(e.players.size());
    load.overrides = e.overrides;
    auto rules = load_rules(e.ruleset, load);
    e.seats = rules->layout().seats;
    e.ruleset_id = rules->id();
    run = read_run_info(e, o.command_line);
  } catch (const std::exception& ex) {
    err << "error: " << ex.what() << '\n';
    return 2;
  }
  int threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, indices.count)));
  const bool bar = o.progress < 0 ? ProgressBar::stderr_is_terminal() : o.progress > 0;
  ProgressBar printer(err, bar, "simulate");
  Progress progress;
  if (o.progress != 0) progress = [&printer](std::int64_t done, std::int64_t total) { printer(done, total); };
  // Each game is counted as it finishes (and written to --jsonl in index order): nothing is kept per game, so
  // memory stays flat whatever --games (docs/simulation.md, "Memory").
  std::ofstream jsonl;
  if (!o.jsonl.empty()) {
    jsonl.open(o.jsonl, std::ios::binary | std::ios::trunc);
    jsonl << experiment_json_line(e, o.shard, o.shard_count, run);
    if (!jsonl) return err << "error: cannot write " << o.jsonl << '\n', 2;
  }
  StatsTally tally(e);
  const auto start = std::chrono::steady_clock::now();
  try {
    stream_games(e, indices, threads, [&](GameRecord&& r) {
      if (jsonl.is_open()) jsonl << game_json_line(e, r);
      tally.add(r);
    }, progress);
  } catch (const std::exception& ex) {
    err << "error: " << ex.what() << '\n';
    return 2;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  err << fmt::format("{} games in {:.2f} s ({:.1f} games/s) on {} thread{}\n", tally.recorded(), seconds,
                     seconds > 0 ? static_cast<double>(tally.recorded()) / seconds : 0.0, threads, threads == 1 ? "" : "s");
  if (jsonl.is_open() && !jsonl.flush()) return err << "error: cannot write " << o.jsonl << '\n', 2;
  const std::string slice = o.shard_count > 1 ? fmt::format("shard {}/{}", o.shard, o.shard_count) : std::string();
  Stats st = tally.finish(indices.count == e.games && tally.recorded() == e.games, slice);
  st.run = run;
  out << (o.json ? stats_json(st) : summary_text(st));
  if (!o.report.empty() && !write_file(o.report, html_report(st), err)) return 2;
  return st.failed == 0 ? 0 : 1;
}

namespace {

/// The smallest game index in both shard i/n and shard j/m (0 <= i < n, 0 <= j < m), or -1 when there is none:
/// x = i (mod n) and x = j (mod m) have a common solution when i = j (mod gcd(n, m)), the least one below lcm.
std::int64_t first_common_index(std::int64_t i, std::int64_t n, std::int64_t j, std::int64_t m) {
  const std::int64_t g = std::gcd(n, m);
  if ((j - i) % g != 0) return -1;
  // t with n t = j - i (mod m): t = ((j - i) / g) * inverse(n / g) mod (m / g).
  const std::int64_t mg = m / g;
  Int128 a = (n / g) % mg, b = mg, x0 = 1, x1 = 0;  // extended Euclid for the inverse of a mod b
  while (b != 0) {
    const Int128 q = a / b;
    std::tie(a, b) = std::pair<Int128, Int128>{b, a - q * b};
    std::tie(x0, x1) = std::pair<Int128, Int128>{x1, x0 - q * x1};
  }
  Int128 t = (static_cast<Int128>((j - i) / g) % mg) * (mg == 1 ? 0 : x0) % mg;
  if (t < 0) t += mg;
  return static_cast<std::int64_t>(i + static_cast<Int128>(n) * t);
}

}  // namespace

/// Whether a JSON value holds a floating-point number anywhere: simulate lines hold none, and converting one
/// such as 1e300 to an integer field is undefined behaviour.
bool has_float(const json& value) {
  if (value.is_number_float()) return true;
  if (value.is_structured())
    for (const json& item : value)
      if (has_float(item)) return true;
  return false;
}

int merge_command(const std::vector<std::string>& files, const std::string& report, std::ostream& out,
                  std::ostream& err, bool as_json, const std::string& command_line) {
  if (!report.empty())
    if (const std::string problem = output_path_problem(report); !problem.empty())
      return err << "error: --report: " << problem << '\n', 2;
  std::optional<Experiment> experiment;
  std::optional<StatsTally> tally;  // every game counted as it is read: memory does not grow with the games
  std::string first_file;
  std::set<std::pair<int, int>> shards;
  std::map<std::pair<int, int>, std::string> shard_files;  // each shard's file, to name the one it overlaps
  std::map<std::pair<int, int>, RunInfo> runs;  // by shard: the first shard's describes the merge
  std::string run_file;                        // the file of the first header with a RunInfo
  for (const auto& file : files) {
    std::ifstream in(file);
    if (!in) return err << "error: cannot open " << file << '\n', 2;
    std::string text;
    int number = 0;
    bool have_header = false;
    std::pair<int, int> shard{0, 1};   // this file's shard: its games are shard, shard + count, ...
    std::int64_t previous = -1;        // the index of the file's last game (simulate writes them in order)
    while (std::getline(in, text)) {
      ++number;
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
      const std::string at = fmt::format("{}:{}: ", file, number);
      try {
        const json line = json::parse(text);
        if (has_float(line)) return err << "error: " << at << "a number that is not an integer\n", 2;
        const std::string type = line.at("type").get<std::string>();
        if (type == "simulation") {
          if (have_header) return err << "error: " << at << "a second header\n", 2;
          have_header = true;
          Experiment e;
          e.ruleset = line.at("ruleset").get<std::string>();
          e.ruleset_id = line.at("ruleset_id").get<std::string>();
          e.seats = line.at("seats").get<int>();
          e.players = line.at("players").get<std::vector<std::string>>();
          e.seed = line.at("seed").get<std::uint64_t>();
          e.games = line.at("games").get<std::int64_t>();
          e.fixed_seats = line.at("fixed_seats").get<bool>();
          e.max_plies = line.at("max_plies").get<std::int64_t>();
          e.mirror = line.value("mirror", false);
          e.overrides = line.value("overrides", std::vector<std::string>{});
          e.count_actions = line.value("count_actions", false);
          if (e.seats < 1 || e.seats > kMaxSeats || e.players.size() != static_cast<std::size_t>(e.seats))
            return err << "error: " << at << "seats and players do not match\n", 2;
          shard = line.at("shard").get<std::pair<int, int>>();
          if (shard.second < 1 || shard.first < 0 || shard.first >= shard.second)
            return err << "error: " << at << fmt::format("shard {}/{}: not i/N with 0 <= i < N\n", shard.first, shard.second), 2;
          if (!shards.insert(shard).second)
            return err << "error: " << at << fmt::format("shard {}/{} is given twice\n", shard.first, shard.second), 2;
          // Two shards of different counts (0/2 and 0/4) share games: refused before any is read twice.
          for (const auto& [other, other_file] : shard_files)
            if (other.second != shard.second)
              if (const std::int64_t x = first_common_index(shard.first, shard.second, other.first, other.second);
                  x >= 0 && x < e.games)
                return err << "error: " << at
                           << fmt::format("shard {}/{} and shard {}/{} of {} share games (game {} is in both)\n",
                                          shard.first, shard.second, other.first, other.second, other_file, x),
                       2;
          shard_files.emplace(shard, file);
          if (line.contains("run")) {
            RunInfo run = run_info_from_json(line.at("run"));
            if (!runs.empty() && run.parameters != runs.begin()->second.parameters)
              return err << "error: " << at << "another experiment than " << run_file
                         << ": the ruleset's parameters differ (a variant or ruleset file changed between shards?)\n",
                     2;
            if (runs.empty()) run_file = file;
            runs.emplace(shard, std::move(run));
          }
          if (!experiment) {
            experiment = e;
            tally.emplace(e);
            first_file = file;
          } else if (!(*experiment == e)) {
            return err << "error: " << at << "another experiment than " << first_file
                       << " (ruleset, players, seed, games, seats and max-plies must all be equal)\n",
                   2;
          }
        } else if (type == "game") {
          if (!have_header) return err << "error: " << at << "a game before the simulation header\n", 2;
          GameRecord r;
          r.index = line.at("index").get<std::int64_t>();
          r.seed = line.at("seed").get<std::uint64_t>();
          r.seating = line.at("seating").get<std::vector<int>>();
          r.scores = line.at("scores").get<std::vector<std::int64_t>>();
          r.places = line.at("places").get<std::vector<int>>();
          r.plies = line.at("plies").get<std::int64_t>();
          r.turns = line.value("turns", std::int64_t{0});
          r.rounds = line.value("rounds", 0);
          r.actions = line.value("actions", std::map<std::string, std::int64_t>{});
          r.error = line.value("error", std::string());
          if (r.index < 0 || r.index >= experiment->games)
            return err << "error: " << at << fmt::format("game index {} is outside the experiment\n", r.index), 2;
          if (r.seating != seating_of(*experiment, r.index) || r.seed != game_seed(*experiment, r.index))
            return err << "error: " << at << "the game's seed or seating does not belong to this experiment\n", 2;
          if (!r.failed() && (r.scores.size() != static_cast<std::size_t>(experiment->seats) ||
                              r.places.size() != static_cast<std::size_t>(experiment->seats)))
            return err << "error: " << at << "scores and places need one entry per seat\n", 2;
          if (r.index == previous)
            return err << "error: " << at << "game " << r.index << " appears twice\n", 2;
          if (r.index < previous)
            return err << "error: " << at
                       << fmt::format("game {} after game {}: simulate writes a shard's games in index order\n",
                                      r.index, previous),
                   2;
          if (r.index % shard.second != shard.first)
            return err << "error: " << at
                       << fmt::format("game {} is not in shard {}/{} of the header (games {}, {}, ...)\n", r.index,
                                      shard.first, shard.second, shard.first, shard.first + shard.second),
                   2;
          previous = r.index;
          tally->add(r);
        } else {
          return err << "error: " << at << "unknown line type '" << cut_for_message(type) << "'\n", 2;
        }
      } catch (const json::exception& ex) {
        return err << "error: " << at << "not a simulate --jsonl line (" << json_error_text(ex) << ")\n", 2;
      }
    }
    if (!have_header) return err << "error: " << file << ": no simulation header\n", 2;
  }
  if (!experiment) return err << "error: no files\n", 2;
  // No game twice (in order within a file, shards that share none) and none outside: complete when all are there.
  const std::int64_t missing = experiment->games - tally->recorded();
  const bool complete = missing == 0;
  std::string slice;
  if (!complete) {
    slice = fmt::format("a merge of {} file(s) missing {} games", files.size(), missing);
    err << fmt::format("warning: {} of the experiment's {} games are missing (a shard not merged?)\n", missing,
                       experiment->games);
  }
  Stats st = tally->finish(complete, slice);
  if (!runs.empty()) {
    if (runs.size() != shards.size())
      err << "warning: some files were written before simulate recorded its parameters and command line\n";
    st.run = runs.begin()->second;
    st.run.command_lines.clear();
    for (const auto& [shard, run] : runs)
      st.run.command_lines.insert(st.run.command_lines.end(), run.command_lines.begin(), run.command_lines.end());
    if (!command_line.empty()) st.run.command_lines.push_back(command_line);
  }
  out << (as_json ? stats_json(st) : summary_text(st));
  if (!report.empty() && !write_file(report, html_report(st), err)) return 2;
  return complete && st.failed == 0 ? 0 : 1;
}

}  // namespace hr
