// simulate_test.cpp — the statistics and the reproducibility of `houserules simulate` / `merge`: the Wilson
// interval against published values, shared wins, seat rotation, shards that partition the games, identical
// records whatever the thread count, and a merge of shards equal to the unsharded summary byte for byte.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ruleset.hpp"
#include "scripted_rules.hpp"
#include "simulate.hpp"

namespace {

using hr::Experiment;
using hr::GameRecord;

Experiment lost_cities(std::int64_t games, std::vector<std::string> players = {"random", "greedy"}) {
  Experiment e;
  e.ruleset = "lost-cities";
  e.ruleset_id = "lost-cities";
  e.seats = 2;
  e.players = std::move(players);
  e.seed = 42;
  e.games = games;
  return e;
}

/// A temporary file removed at the end of the test.
struct TempFile {
  explicit TempFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))).string()) {}
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

}  // namespace

TEST_CASE("Wilson interval: published values", "[simulate][stats]") {
  // Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (score interval without continuity
  // correction): 81/263 -> 0.2553-0.3662, 15/148 -> 0.0624-0.1605, 0/20 -> 0-0.1611, 1/29 -> 0.0061-0.1718.
  auto check = [](double x, double n, double low, double high) {
    const hr::Interval i = hr::wilson_interval(x, n);
    CHECK(i.low == Approx(low).margin(6e-5));
    CHECK(i.high == Approx(high).margin(6e-5));
  };
  check(81, 263, 0.2553, 0.3662);
  check(15, 148, 0.0624, 0.1605);
  check(0, 20, 0.0, 0.1611);
  check(1, 29, 0.0061, 0.1718);
  // Symmetric around 1/2, and within [0, 1] at the ends.
  const hr::Interval half = hr::wilson_interval(5, 10);
  CHECK(half.low == Approx(1 - half.high));
  CHECK(hr::wilson_interval(10, 10).high == Approx(1.0));
  CHECK(hr::wilson_interval(10, 10).high <= 1.0);
  CHECK(hr::wilson_interval(0, 10).low >= 0.0);
  CHECK(hr::wilson_interval(0, 0).low == 0.0);
  CHECK(hr::wilson_interval(0, 0).high == 1.0);
}

TEST_CASE("Seat rotation puts each player setting in each seat equally often", "[simulate]") {
  Experiment e = lost_cities(6, {"a", "b", "c"});
  e.seats = 3;
  std::vector<std::vector<int>> count(3, std::vector<int>(3));
  for (std::int64_t i = 0; i < e.games; ++i) {
    const auto seating = hr::seating_of(e, i);
    std::set<int> distinct(seating.begin(), seating.end());
    REQUIRE(distinct.size() == 3);  // each setting once per game
    for (int s = 0; s < 3; ++s) ++count[static_cast<std::size_t>(seating[static_cast<std::size_t>(s)])][static_cast<std::size_t>(s)];
  }
  for (const auto& row : count)
    for (int c : row) CHECK(c == 2);
  e.fixed_seats = true;
  for (std::int64_t i = 0; i < e.games; ++i) CHECK(hr::seating_of(e, i) == std::vector<int>{0, 1, 2});
}

TEST_CASE("Shards partition the games", "[simulate]") {
  std::set<std::int64_t> all;
  std::size_t total = 0;
  for (int shard = 0; shard < 3; ++shard) {
    const auto indices = hr::shard_indices(10, shard, 3);
    total += indices.size();
    all.insert(indices.begin(), indices.end());
  }
  CHECK(total == 10);
  CHECK(all.size() == 10);
  CHECK(*all.begin() == 0);
  CHECK(*all.rbegin() == 9);
}

TEST_CASE("Statistics: shared first places count 1/m, means and deviations", "[simulate][stats]") {
  Experiment e = lost_cities(4, {"x", "y"});
  auto game = [&](std::int64_t i, std::vector<std::int64_t> scores, std::vector<int> places) {
    GameRecord r;
    r.index = i;
    r.seed = hr::game_seed(e, i);
    r.seating = hr::seating_of(e, i);
    r.scores = std::move(scores);
    r.places = std::move(places);
    r.plies = 10 * (i + 1);
    return r;
  };
  std::vector<GameRecord> records = {game(0, {10, 0}, {1, 2}),   // x in seat 1 wins
                                     game(1, {5, 5}, {1, 1}),    // a tie: half a win each
                                     game(2, {0, 20}, {2, 1}),   // y in seat 2 wins
                                     game(3, {7, 3}, {1, 2})};   // y (seat 1) wins
  const hr::Stats st = hr::compute_stats(e, records);
  REQUIRE(st.settings.size() == 2);
  CHECK(st.complete);
  CHECK(st.completed == 4);
  CHECK(st.tied == 1);
  // x: seat 1 in games 0 and 2, seat 2 in games 1 and 3: scores 10, 5, 0, 3 -> wins 1 + 0.5.
  CHECK(st.settings[0].wins == 1.5);
  CHECK(st.settings[1].wins == 2.5);
  CHECK(st.settings[0].score_mean == Approx(4.5));
  CHECK(st.settings[0].score_sd == Approx(4.2031734)); // sample sd of 10, 5, 0, 3
  CHECK(st.settings[0].place_mean == Approx((1 + 1 + 2 + 2) / 4.0));
  CHECK(st.seats[0].wins == 2.5);  // seat 1: games 0, 3 and half of 1
  CHECK(st.length_mean == Approx(25));
  CHECK(st.length_min == 10);
  CHECK(st.length_max == 40);

  records[1].error = "boom";
  records[1].scores.clear();
  records[1].places.clear();
  const hr::Stats failed = hr::compute_stats(e, records);
  CHECK(failed.completed == 3);
  REQUIRE(failed.failures.size() == 1);
  CHECK(failed.failures[0].index == 1);
  CHECK(hr::summary_text(failed).find("houserules play lost-cities --players y,x --seed " +
                                      std::to_string(hr::game_seed(e, 1))) != std::string::npos);
}

TEST_CASE("Simulated games do not depend on the thread count", "[simulate][lost-cities]") {
  const Experiment e = lost_cities(12);
  const auto indices = hr::shard_indices(e.games, 0, 1);
  const auto one = hr::run_games(e, indices, 1);
  const auto two = hr::run_games(e, indices, 2);
  const auto three = hr::run_games(e, indices, 3);
  REQUIRE(one.size() == 12);
  CHECK(one == two);
  CHECK(one == three);
  for (const auto& r : one) CHECK_FALSE(r.failed());
  // And game i is the same alone, in a Rules object that played nothing before.
  auto rules = hr::load_rules("lost-cities");
  CHECK(hr::play_game(*rules, e, 7) == one[7]);
  CHECK(hr::summary_text(hr::compute_stats(e, one)) == hr::summary_text(hr::compute_stats(e, three)));
}

TEST_CASE("Merging the shards gives the unsharded summary byte for byte", "[simulate][lost-cities]") {
  hr::SimulateOptions options;
  options.experiment = lost_cities(9);
  options.progress = 0;
  options.threads = 2;
  std::ostringstream full, err;
  REQUIRE(hr::simulate_command(options, full, err) == 0);

  TempFile a("hr-shard-a.jsonl"), b("hr-shard-b.jsonl");
  options.shard_count = 2;
  options.shard = 0;
  options.jsonl = a.path;
  std::ostringstream part;
  REQUIRE(hr::simulate_command(options, part, err) == 0);
  CHECK(part.str().find("shard 0/2") != std::string::npos);
  options.shard = 1;
  options.jsonl = b.path;
  options.threads = 1;
  REQUIRE(hr::simulate_command(options, part, err) == 0);

  std::ostringstream merged;
  REQUIRE(hr::merge_command({b.path, a.path}, "", merged, err) == 0);
  CHECK(merged.str() == full.str());

  // One shard alone is incomplete: exit 1, said in the summary.
  std::ostringstream partial, warning;
  CHECK(hr::merge_command({a.path}, "", partial, warning) == 1);
  CHECK(partial.str().find("missing 4 games") != std::string::npos);
  // A shard of another experiment is refused.
  hr::SimulateOptions other = options;
  other.experiment.seed = 43;
  TempFile c("hr-shard-c.jsonl");
  other.jsonl = c.path;
  REQUIRE(hr::simulate_command(other, part, err) == 0);
  std::ostringstream refused, why;
  CHECK(hr::merge_command({a.path, c.path}, "", refused, why) == 2);
  CHECK(why.str().find("another experiment") != std::string::npos);
}

TEST_CASE("The HTML report is self-contained and holds the charts", "[simulate][report]") {
  const Experiment e = lost_cities(6);
  const auto records = hr::run_games(e, hr::shard_indices(e.games, 0, 1), 2);
  const std::string html = hr::html_report(hr::compute_stats(e, records));
  CHECK(html.find("<svg id=\"win-rates\"") != std::string::npos);
  CHECK(html.find("<svg id=\"scores-1\"") != std::string::npos);
  CHECK(html.find("<svg id=\"scores-2\"") != std::string::npos);
  CHECK(html.find("<svg id=\"game-length\"") != std::string::npos);
  // No external asset: no src=, no href=, no url( and no link element.
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("href=") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
}
