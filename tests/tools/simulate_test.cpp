// simulate_test.cpp — the statistics and the reproducibility of `houserules simulate` / `merge`: the Wilson
// interval against published values, shared wins, seat rotation, shards that partition the games, identical
// records whatever the thread count, and a merge of shards equal to the unsharded summary byte for byte.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ruleset.hpp"
#include "scripted_rules.hpp"
#include "simulation/simulation.hpp"

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

/// A completed game `i` of `e` with these scores and places (its seed and seating those of game i).
GameRecord finished_game(const Experiment& e, std::int64_t i, std::vector<std::int64_t> scores, std::vector<int> places) {
  GameRecord r;
  r.index = i;
  r.seed = hr::game_seed(e, i);
  r.seating = hr::seating_of(e, i);
  r.scores = std::move(scores);
  r.places = std::move(places);
  return r;
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
    GameRecord r = finished_game(e, i, std::move(scores), std::move(places));
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

TEST_CASE("Merge refuses a game twice without keeping the games: shards that overlap, lines out of order",
          "[simulate][lost-cities]") {
  // merge counts each game as it reads it (issue 37), so it finds a duplicate from the files' structure: each
  // file is one shard with its games in index order, and two shards of different counts may not share a game.
  hr::SimulateOptions options;
  options.experiment = lost_cities(8);
  options.progress = 0;
  options.threads = 2;
  std::ostringstream out, err;
  TempFile half("hr-overlap-half.jsonl"), quarter("hr-overlap-quarter.jsonl"), odd("hr-overlap-odd.jsonl");
  options.shard_count = 2;
  options.shard = 0;
  options.jsonl = half.path;
  REQUIRE(hr::simulate_command(options, out, err) == 0);
  options.shard_count = 4;
  options.shard = 2;  // games 2 and 6: also in shard 0/2
  options.jsonl = quarter.path;
  REQUIRE(hr::simulate_command(options, out, err) == 0);
  std::ostringstream refused, why;
  CHECK(hr::merge_command({half.path, quarter.path}, "", refused, why) == 2);
  CHECK(why.str().find("shard 2/4 and shard 0/2 of " + half.path + " share games (game 2 is in both)") !=
        std::string::npos);
  // Shard 1/4 (games 1, 5) shares none with 0/2: merged, 4 games missing.
  options.shard = 1;
  options.jsonl = odd.path;
  REQUIRE(hr::simulate_command(options, out, err) == 0);
  std::ostringstream partial, warning;
  CHECK(hr::merge_command({half.path, odd.path}, "", partial, warning) == 1);
  CHECK(partial.str().find("missing 2 games") != std::string::npos);
  // A file whose lines are swapped (game 4 before game 0) or repeated is refused, naming the line.
  std::string header, first, second;
  {
    std::ifstream in(half.path);
    std::getline(in, header);
    std::getline(in, first);
    std::getline(in, second);
  }
  for (const auto& [lines, expected] : {std::pair{header + "\n" + second + "\n" + first + "\n",
                                                  std::string(":3: game 0 after game 2")},
                                        std::pair{header + "\n" + first + "\n" + first + "\n",
                                                  std::string(":3: game 0 appears twice")}}) {
    std::ofstream(half.path, std::ios::trunc) << lines;
    std::ostringstream bad, bad_why;
    CHECK(hr::merge_command({half.path}, "", bad, bad_why) == 2);
    CHECK(bad_why.str().find(half.path + expected) != std::string::npos);
  }
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

TEST_CASE("Statistics: places, margins, turns, rounds and action counts", "[simulate][stats]") {
  Experiment e = lost_cities(4, {"x", "y", "z"});
  e.seats = 3;
  e.count_actions = true;
  auto game = [&](std::int64_t i, std::vector<std::int64_t> scores, std::vector<int> places, std::int64_t turns,
                  int rounds, std::map<std::string, std::int64_t> actions) {
    GameRecord r = finished_game(e, i, std::move(scores), std::move(places));
    r.plies = 10;
    r.turns = turns;
    r.rounds = rounds;
    r.actions = std::move(actions);
    return r;
  };
  // Seats rotate: game i has setting (s + i) mod 3 in seat s + 1.
  std::vector<GameRecord> records = {
      game(0, {10, 4, 1}, {1, 2, 3}, 6, 1, {{"play", 5}, {"draw", 5}}),   // x 1st (+6), y 2nd (-6), z 3rd (-9)
      game(1, {3, 3, -2}, {1, 1, 3}, 7, 2, {{"play", 4}, {"draw", 5}, {"pass", 1}}),  // y, z share 1st; x 3rd
      game(2, {0, 0, 0}, {1, 1, 1}, 5, 1, {{"draw", 10}}),                 // a three-way tie
      game(3, {-1, 8, 2}, {3, 1, 2}, 9, 3, {{"play", 10}})};               // x 3rd (-9), y 1st (+6), z 2nd (-6)
  records[2].error = "boom";  // failed: left out of everything below
  records[2].scores.clear();
  records[2].places.clear();
  const hr::Stats st = hr::compute_stats(e, records);
  REQUIRE(st.completed == 3);
  // Places: every seat's and every setting's places add up to the completed games.
  for (const auto& seat : st.seats) {
    REQUIRE(seat.places.size() == 3);
    CHECK(seat.places[0] + seat.places[1] + seat.places[2] == st.completed);
  }
  for (const auto& s : st.settings) CHECK(s.places[0] + s.places[1] + s.places[2] == st.completed);
  CHECK(st.seats[0].places == std::vector<std::int64_t>{2, 0, 1});  // seat 1: 1st, 1st (tied), 3rd
  CHECK(st.seats[1].places == std::vector<std::int64_t>{2, 1, 0});
  CHECK(st.seats[2].places == std::vector<std::int64_t>{0, 1, 2});
  // Game 0: x y z in seats 1-3; game 1: y z x; game 3: x y z again.
  CHECK(st.settings[0].places == std::vector<std::int64_t>{1, 0, 2});  // x
  CHECK(st.settings[1].places == std::vector<std::int64_t>{2, 1, 0});  // y: 2nd, tied 1st, 1st
  // Margins: the winner's score minus the runner-up's (a tie gives 0), and each seat's own score minus the
  // best other seat's.
  CHECK(st.margins.counts() == std::map<std::int64_t, std::int64_t>{{0, 1}, {6, 2}});  // 6, 0, 6
  CHECK(st.margin_spread.mean == Approx(4.0));
  CHECK(st.margin_spread.min == 0);
  CHECK(st.margin_spread.max == 6);
  CHECK(st.seats[0].margin_mean == Approx((6 + 0 - 9) / 3.0));
  CHECK(st.settings[0].margin_mean == Approx((6 - 5 - 9) / 3.0));  // x: 10 - 4, -2 - 3, -1 - 8
  // Lengths in turns and rounds, per completed game.
  CHECK(st.turns.counts() == std::map<std::int64_t, std::int64_t>{{6, 1}, {7, 1}, {9, 1}});
  CHECK(st.rounds.counts() == std::map<std::int64_t, std::int64_t>{{1, 1}, {2, 1}, {3, 1}});
  CHECK(st.round_spread.max == 3);
  // Actions by kind, per completed game, 0 where a kind did not occur; sorted by kind.
  REQUIRE(st.actions.size() == 3);
  CHECK(st.actions[0].kind == "draw");
  CHECK(st.actions[0].per_game.counts() == std::map<std::int64_t, std::int64_t>{{0, 1}, {5, 2}});  // 5, 5, 0
  CHECK(st.actions[1].kind == "pass");
  CHECK(st.actions[1].per_game.counts() == std::map<std::int64_t, std::int64_t>{{0, 2}, {1, 1}});  // 0, 1, 0
  CHECK(st.actions[2].kind == "play");
  CHECK(st.actions[2].total == 19);
  CHECK(st.action_total == 30);
  // The summary says them.
  const std::string text = hr::summary_text(st);
  CHECK(text.find("  seat 1: wins 50.00% [") != std::string::npos);  // 1 + 1/2 of 3 games
  CHECK(text.find("places 1st 2, 2nd 0, 3rd 1") != std::string::npos);
  CHECK(text.find("Winning margin (the winner's score minus the runner-up's): mean 4.0, sd 3.5, min 0, max 6") !=
        std::string::npos);
  CHECK(text.find("draw 3.3 (33.33%) pass 0.3 (3.33%) play 6.3 (63.33%)") != std::string::npos);
}

TEST_CASE("Wilson interval of a seat's shared wins on a known case", "[simulate][stats]") {
  // 2.5 wins of 4 (one tie): p = 0.625, 95% Wilson interval [0.21943, 0.90810] (computed from the closed form
  // (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.959964); 7 of 10: [0.39678, 0.89221].
  CHECK(hr::wilson_interval(7, 10).low == Approx(0.39678).margin(1e-5));
  CHECK(hr::wilson_interval(7, 10).high == Approx(0.89221).margin(1e-5));
  Experiment e = lost_cities(4, {"x", "y"});
  std::vector<GameRecord> records;
  const std::vector<std::vector<int>> places = {{1, 2}, {1, 1}, {1, 2}, {2, 1}};
  for (std::int64_t i = 0; i < 4; ++i) {
    const auto& p = places[static_cast<std::size_t>(i)];
    records.push_back(finished_game(e, i, {p[0] == 1 ? 5 : 0, p[1] == 1 ? 5 : 0}, p));
  }
  const hr::Stats st = hr::compute_stats(e, records);
  CHECK(st.seats[0].wins == 2.5);
  CHECK(st.seats[0].interval.low == Approx(0.21943).margin(1e-5));
  CHECK(st.seats[0].interval.high == Approx(0.90810).margin(1e-5));
  CHECK(st.seats[1].interval.low == Approx(0.09190).margin(1e-5));  // 1.5 of 4
  CHECK(st.seats[1].interval.high == Approx(0.78057).margin(1e-5));
}

TEST_CASE("Axis ticks are round numbers covering the range", "[simulate][report]") {
  CHECK(hr::nice_ticks(0, 10, 5) == std::vector<std::int64_t>{0, 2, 4, 6, 8, 10});
  CHECK(hr::nice_ticks(-37, 120, 6) == std::vector<std::int64_t>{0, 50, 100});  // step 50 >= 157 / 6
  CHECK(hr::nice_ticks(3, 4, 5) == std::vector<std::int64_t>{3, 4});
  CHECK(hr::nice_ticks(5, 5, 5) == std::vector<std::int64_t>{5});
  CHECK(hr::nice_ticks(-250, 250, 4) == std::vector<std::int64_t>{-200, 0, 200});
  CHECK(hr::nice_ticks(-9, 9, 6) == std::vector<std::int64_t>{-5, 0, 5});
  // A histogram: ticks on both axes, a zero line when 0 is in range, none when it is not.
  auto distribution = [](std::vector<std::int64_t> list) {  // the histograms take the games' distribution
    hr::Distribution d;
    for (auto v : list) d.add(v);
    return d;
  };
  const hr::Distribution values = distribution({-5, 0, 3, 3, 12});
  const std::string svg = hr::histogram_svg("h", {{&values, "", "", "#000"}}, "score");
  CHECK(svg.find("class=\"zero\"") != std::string::npos);
  CHECK(svg.find(">-5</text>") != std::string::npos);  // ticks -5, 0, 5, 10 (step 5 >= 17 / 6)
  CHECK(svg.find(">10</text>") != std::string::npos);
  CHECK(svg.find("class=\"tick-mark\"") != std::string::npos);
  const hr::Distribution positive = distribution({5, 9});
  CHECK(hr::histogram_svg("p", {{&positive, "", "", "#000"}}, "turns").find("class=\"zero\"") == std::string::npos);
  CHECK(hr::histogram_svg("p", {{&positive, "", "", "#000"}}, "turns", true).find("class=\"zero\"") != std::string::npos);
}

TEST_CASE("The run info names the variant chain, every parameter, its default and --set overrides", "[simulate][report]") {
  Experiment e = lost_cities(2);
  e.ruleset = "lost-cities/three-player";
  e.seats = 3;
  e.overrides = {"hand_size=6"};
  const hr::RunInfo run = hr::read_run_info(e, "houserules simulate ...");
  CHECK(!run.version.empty());
  CHECK(run.command_lines == std::vector<std::string>{"houserules simulate ..."});
  REQUIRE(run.variants.size() == 1);
  CHECK(run.variants[0].id == "three-player");
  CHECK(run.variants[0].file.find("three-player.toml") != std::string::npos);
  const hr::RunInfo::Parameter* hand = nullptr;
  const hr::RunInfo::Parameter* bonus = nullptr;
  const hr::RunInfo::Parameter* cost = nullptr;
  for (const auto& p : run.parameters) {
    if (p.name == "hand_size") hand = &p;
    if (p.name == "bonus") bonus = &p;
    if (p.name == "expedition_cost") cost = &p;
  }
  REQUIRE(hand);
  CHECK(hand->value == "6");  // the variant says 7, --set comes last
  CHECK(hand->default_value == "8");
  CHECK(hand->set_by == "--set hand_size=6");
  CHECK(hand->changed());
  REQUIRE(cost);
  CHECK(cost->value == "17");
  CHECK(cost->default_value == "20");
  CHECK(cost->set_by == "variant three-player");
  REQUIRE(bonus);
  CHECK_FALSE(bonus->changed());
  CHECK(bonus->set_by.empty());
  // JSON round trip (the --jsonl header carries it for merge).
  CHECK(hr::run_info_from_json(hr::run_info_json(run)) == run);
  CHECK(hr::experiment_command(e) ==
        "houserules simulate lost-cities/three-player --players random,greedy --games 2 --seed 42 --set hand_size=6");
}

TEST_CASE("The merged report equals the single-run report but for the command lines", "[simulate][report][lost-cities]") {
  hr::SimulateOptions options;
  options.experiment = lost_cities(6);
  options.experiment.overrides = {"hand_size=7"};
  options.progress = 0;
  options.threads = 2;
  options.command_line = "houserules simulate (the whole run)";
  TempFile full_report("hr-report-full.html"), merged_report("hr-report-merged.html");
  options.report = full_report.path;
  std::ostringstream full, err;
  REQUIRE(hr::simulate_command(options, full, err) == 0);
  CHECK(full.str().find("hand_size = 7 (default 8; set by --set hand_size=7)") != std::string::npos);
  CHECK(full.str().find("Actions per game by kind") != std::string::npos);
  TempFile a("hr-rshard-a.jsonl"), b("hr-rshard-b.jsonl"), c("hr-rshard-c.jsonl");
  options.report.clear();
  options.shard_count = 3;
  const std::string* paths[] = {&a.path, &b.path, &c.path};
  for (int shard = 0; shard < 3; ++shard) {
    options.shard = shard;
    options.jsonl = *paths[shard];
    options.command_line = "houserules simulate (shard " + std::to_string(shard) + ")";
    std::ostringstream part;
    REQUIRE(hr::simulate_command(options, part, err) == 0);
  }
  std::ostringstream merged;
  REQUIRE(hr::merge_command({c.path, a.path, b.path}, merged_report.path, merged, err, false, "houserules merge (3)") == 0);
  CHECK(merged.str() == full.str());
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const std::string single = read(full_report.path), joined = read(merged_report.path);
  auto without_command_lines = [](std::string html) {
    const auto start = html.find("<tr id=\"command-line\">");
    REQUIRE(start != std::string::npos);
    return html.erase(start, html.find('\n', start) - start);
  };
  CHECK(without_command_lines(single) == without_command_lines(joined));
  CHECK(single.find("houserules simulate (the whole run)") != std::string::npos);
  // The merge lists each shard's command line in shard order, then its own.
  const auto s0 = joined.find("(shard 0)"), s1 = joined.find("(shard 1)"), s2 = joined.find("(shard 2)");
  const auto m = joined.find("houserules merge (3)");
  CHECK(s0 < s1);
  CHECK(s1 < s2);
  CHECK(s2 < m);
  CHECK(m != std::string::npos);
  CHECK(joined.find("<tr class=\"parameter changed\"><td>hand_size</td>") != std::string::npos);
}
