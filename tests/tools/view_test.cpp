// view_test.cpp — every table a person can be shown (issue 12): each shipped ruleset's and variant's
// `describe` for every seat at every step of a few bot games, the end-of-round tables and the result of
// `play` (no --quiet). A view that fails on an observation (hidden cards read as unknown) fails here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bots.hpp"
#include "play/play.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

namespace fs = std::filesystem;

namespace {

/// Every shipped ruleset folder and variant file, sorted.
std::vector<std::string> shipped_rulesets() {
  std::vector<std::string> out;
  for (const auto& dir : fs::directory_iterator(fs::path(HOUSERULES_SOURCE_DIR) / "rulesets")) {
    if (!fs::exists(dir.path() / "ruleset.toml")) continue;
    out.push_back(dir.path().string());
    if (!fs::is_directory(dir.path() / "variants")) continue;
    for (const auto& v : fs::directory_iterator(dir.path() / "variants"))
      if (v.path().extension() == ".toml") out.push_back(v.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("views: every ruleset's table for every seat at every step of bot games", "[play][views]") {
  const auto rulesets = shipped_rulesets();
  REQUIRE(rulesets.size() >= 8);
  for (const std::string& path : rulesets) {
    auto rules = hr::load_rules(path);
    const bool long_games = path.find("lost-valley") != std::string::npos;
    const int games = long_games ? 1 : 2;
    const int seats = rules->layout().seats;
    for (int game = 0; game < games; ++game) {
      hr::GameState state = rules->new_game(static_cast<std::uint64_t>(40 + game));
      hr::Rng rng(static_cast<std::uint64_t>(7 + game));
      std::vector<hr::Action> legal;
      while (!state.over()) {
        REQUIRE(state.ply() < 20000);
        const bool look = !long_games || state.ply() % 5 == 0;
        for (int seat = 1; look && seat <= seats; ++seat) {
          INFO(path << ", game " << game << ", action " << state.ply() << ", seat " << seat);
          std::string table;
          REQUIRE_NOTHROW(table = rules->describe(state.observation(seat), seat));
          CHECK(!table.empty());
          std::istringstream lines(table);  // every ruleset's table fits a 100-column terminal
          for (std::string line; std::getline(lines, line);) {
            INFO(line);
            CHECK(line.size() <= 100);
          }
        }
        rules->legal_actions(state, legal);
        REQUIRE(!legal.empty());
        rules->apply(state, legal[rng.below(legal.size())]);
      }
    }
  }
}

TEST_CASE("views: play without --quiet shows every round's end and the result in every ruleset", "[play][views]") {
  for (const std::string& path : shipped_rulesets()) {
    auto rules = hr::load_rules(path);
    hr::PlayOptions options;
    options.ruleset = path;
    options.players.assign(static_cast<std::size_t>(rules->layout().seats), "random");
    options.seed = 11;
    std::istringstream in;
    std::ostringstream out, err;
    INFO(path << "\n" << err.str());
    REQUIRE(hr::play_command(options, in, out, err) == 0);
    const std::string text = out.str();
    CHECK(text.find("Result:") != std::string::npos);
    CHECK(text.find("at the end of the") != std::string::npos);
  }
}
