// schema_test.cpp — parameter values that passed the [schema] but ended in a multi-line Lua traceback at load
// (issue 18, found by trying each parameter of the shipped rulesets at -1, 0, 1, 10^6, empty and longer lists):
// the schemas now refuse them with one line naming the variant file and line and the parameter. Also the
// schema's list and table rules themselves (min_items, max_items, items, entries_in, per_value, per_seat).
#include <catch2/catch.hpp>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "ruleset.hpp"
#include "scripted_rules.hpp"
#include "bots.hpp"
#include "ismcts.hpp"

using Catch::Contains;
namespace fs = std::filesystem;

namespace {

/// Writes a variant of the shipped ruleset `id` with `params` (TOML lines, the first on line 3) to a fresh
/// temporary file; returns its path.
std::string variant(const std::string& id, const std::string& params) {
  static int count = 0;
  const fs::path dir = fs::temp_directory_path() / ("hr-schema-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / (id + "-" + std::to_string(++count) + ".toml");
  std::ofstream(file) << "extends = \"" << (fs::path(HOUSERULES_TEST_DIR) / ".." / "rulesets" / id).string()
                      << "\"\n[params]\n" << params << "\n";
  return file.string();
}

/// The one-line LoadError of loading `file` with `seats` players (0: the default).
std::string load_error(const std::string& file, int seats = 0) {
  try {
    hr::LoadOptions options;
    options.seats = seats;
    hr::load_rules(file, options);
  } catch (const hr::LoadError& e) {
    return e.what();
  }
  FAIL("no LoadError for " << file);
  return {};
}

}  // namespace

/// Each variant of a shipped ruleset (`params` from line 3) must fail to load with exactly
/// "<variant file>:<message>". Every one of these values loaded past the old schemas and ended in a Lua traceback.
static void check_refused(const std::vector<std::array<std::string, 3>>& cases) {
  for (const auto& c : cases) {
    INFO(c[0] << ": " << c[1]);
    const std::string file = variant(c[0], c[1]);
    CHECK(load_error(file) == file + c[2]);
  }
}

TEST_CASE("lost-cities: colours without a letter, and teams that do not fit the seats, are refused by the schema",
          "[schema][issue18]") {
  check_refused({
      {"lost-cities", R"(colours = ["yellow", "blue", "zzz"])", ":3: parameter 'colours' has 'zzz', which 'letters' has no entry for"},
      {"lost-cities", "teams = [1]", ":3: parameter 'teams' has 1 entry, but 2 players play: give one per seat, or none"},
      {"lost-cities", "teams = [1, 9]", ":3: parameter 'teams' entry 2 = 9 is above its maximum 2"},
      {"lost-cities", "teams = [0, 0]", ":3: parameter 'teams' entry 1 = 0 is below its minimum 1"},
      {"lost-cities", "colours = [\"red\"]", ":3: parameter 'colours' has 1 entry, fewer than its minimum 2"},
      // 5 x (3 + 97) cards: past the action encoding's 99
      {"lost-cities", "max_value = 98", ":3: parameter 'max_value' = 98 is above its maximum 14"},
  });
}

TEST_CASE("lost-cities-rivals: copies and footprints need one entry per value; colours and starting wagers are bounded",
          "[schema][issue18]") {
  check_refused({
      {"lost-cities-rivals", "copies = [2]",
       ":3: parameter 'copies' has 1 entry, but needs one per value from min_value = 2 to max_value = 10 (9)"},
      {"lost-cities-rivals", "copies = [1, 1, 1, 1, 1, 1, 1, 1, 100000]", ":3: parameter 'copies' entry 9 = 100000 is above its maximum 4"},
      {"lost-cities-rivals", "colours = []", ":3: parameter 'colours' has 0 entries, fewer than its minimum 4"},
      {"lost-cities-rivals", R"(colours = ["yellow", "blue", "white", "green", "red", "purple"])",
       ":3: parameter 'colours' has 6 entries, more than its maximum 5"},
      {"lost-cities-rivals", "starting_wagers_per_colour = 0", ":3: parameter 'starting_wagers_per_colour' = 0 is below its minimum 2"},
  });
  // copies and footprints keep their 9 entries: one too many for min_value = 3 (named where copies is set)
  CHECK_THAT(load_error(variant("lost-cities-rivals", "min_value = 3")),
             Contains("parameter 'copies' has 9 entries, but needs one per value from min_value = 3"));
}

TEST_CASE("lost-cities-board: steps, tiles and tile spaces are bounded", "[schema][issue18]") {
  check_refused({
      {"lost-cities-board", "steps = []", ":3: parameter 'steps' has 0 entries, fewer than its minimum 9"},
      {"lost-cities-board", "artifacts = 1000000", ":3: parameter 'artifacts' = 1000000 is above its maximum 25"},
      // a table of lists: the entry out of range is named, at the line of the variant that set it
      {"lost-cities-board", "direction = \"either\"\ntile_spaces.yellow = [2, 30]",
       ":4: parameter 'tile_spaces' entry 'yellow' 2 = 30 is above its maximum 9"},
      {"lost-cities-board", "max_value = 1000000", ":3: parameter 'max_value' = 1000000 is above its maximum 10"},
  });
}

TEST_CASE("values inside the schema's new limits still load and play", "[schema][issue18]") {
  for (const auto& [id, params] : std::vector<std::pair<std::string, std::string>>{
           {"lost-cities", "teams = [1, 2]\nmax_value = 14\ncolours = [\"red\", \"blue\"]"},
           {"lost-cities-rivals", "min_value = 3\ncopies = [2, 2, 2, 1, 1, 1, 1, 1]\nfootprints = [1, 1, 1, 2, 2, 2, 2, 2]"},
           {"lost-cities-board", "steps = [-20, -15, -10, 5, 10, 15, 30, 35, 50, 60]\nartifacts = 25"}}) {
    INFO(id << ": " << params);
    auto rules = hr::load_rules(variant(id, params));
    hr::GameState state = rules->new_game(3);
    hr::Rng rng(5);
    rules->random_playout(state, rng, 400);
    CHECK(state.ply() > 0);
  }
}

TEST_CASE("[bots]: a ruleset's default search options, inherited, replaced by a variant, checked at load", "[bots]") {
  // Rivals' ruleset.toml sets ismcts = "expand=greedy"; a player setting's options come after it.
  auto rivals = hr::load_rules("lost-cities-rivals");
  CHECK(rivals->bot_options("ismcts") == "expand=greedy");
  auto plain = hr::make_bot("ismcts", 1, rivals.get());
  CHECK(dynamic_cast<hr::IsmctsPlayer&>(*plain).options().expand == hr::IsmctsOptions::Expand::Greedy);
  auto own = hr::make_bot("ismcts:expand=random:iterations=50", 1, rivals.get());
  CHECK(dynamic_cast<hr::IsmctsPlayer&>(*own).options().expand == hr::IsmctsOptions::Expand::Random);
  CHECK(dynamic_cast<hr::IsmctsPlayer&>(*own).options().iterations == 50);
  // Lost Cities sets nothing: the kernel's defaults.
  auto cards = hr::load_rules("lost-cities");
  CHECK(cards->bot_options("ismcts").empty());
  CHECK_FALSE(dynamic_cast<hr::IsmctsPlayer&>(*hr::make_bot("ismcts", 1, cards.get())).options().expand.has_value());
  // The board game values a sample past an expedition's end by the heuristic (its artifact chips carry over).
  auto board = hr::load_rules("lost-cities-board");
  CHECK(board->bot_options("ismcts") == "round_end=heuristic");
  CHECK(dynamic_cast<hr::IsmctsPlayer&>(*hr::make_bot("ismcts", 1, board.get())).options().round_end ==
        hr::IsmctsOptions::RoundEnd::Heuristic);
  CHECK(hr::load_rules("lost-cities-board/ascending-descending")->bot_options("ismcts") == "round_end=heuristic");
  // A variant inherits the entry, or replaces it.
  CHECK(hr::load_rules(variant("lost-cities-rivals", "coins = 36"))->bot_options("ismcts") == "expand=greedy");
  CHECK(hr::load_rules(variant("lost-cities-rivals", "[bots]\nismcts = \"iterations=200\""))->bot_options("ismcts") ==
        "iterations=200");
  // Bad entries are refused at load, naming the file and line.
  using Catch::Matchers::Contains;
  using Catch::Matchers::EndsWith;
  const std::string bad_option = variant("lost-cities", "[bots]\nismcts = \"expand=best\"");
  CHECK_THAT(load_error(bad_option), Contains(bad_option + ":4:") && Contains("expand=best") && Contains("random or greedy"));
  CHECK_THAT(load_error(variant("lost-cities", "[bots]\ngreedy = \"x\"")), EndsWith(":4: [bots] 'greedy': only ismcts takes options"));
  CHECK_THAT(load_error(variant("lost-cities", "[bots]\nismcts = 3")), Contains(":4: [bots] ismcts must be a string"));
}
