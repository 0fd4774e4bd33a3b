// cmd_check.cpp — `houserules check`: random playouts checking the rules' contracts (cli/testing/check.hpp).
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "testing/testing.hpp"
#include "arguments.hpp"
#include "commands.hpp"

namespace hr {

void register_check_command(CLI::App& app, int& status) {
  auto options = std::make_shared<CheckOptions>();
  auto coverage = std::make_shared<CoverageOptions>();
  auto* check = app.add_subcommand(
      "check",
      "Play random games checking after every action: conservation, legal actions, unique action texts, illegal "
      "and failing actions change nothing, the ruleset's invariants, replay from the seed");
  check->footer(
      "Examples:\n"
      "  houserules check lost-cities                         200 random games of a ruleset\n"
      "  houserules check lost-cities/three-player --games 50 --seed 9\n"
      "  houserules check ./my-rule/my-rule.toml --all-player-counts   a house rule at every number of seats\n"
      "Exit status: 0 every game passed, 1 a violation was found, 2 the ruleset or an option is wrong.");
  check->add_option("ruleset", options->ruleset, "Ruleset id (see `houserules list`), id/variant, or path")->required();
  check->add_option("--games", options->games, "Number of random games")->capture_default_str()->check(positive_check());
  check->add_option("--seed", options->seed, "Seed of the first game (game g uses seed + g - 1)")
      ->capture_default_str()
      ->check(seed_check());
  check->add_option("--players", options->players, "Number of seats (default: the ruleset's)");
  check->add_flag("--all-player-counts", options->all_player_counts,
                  "Check every number of seats the ruleset allows (--games games each)");
  check->add_option("--max-plies", options->max_plies, "A game not over after this many actions is a violation")
      ->capture_default_str();
  check->add_option("--max-reports", options->max_reports, "Violations printed in full")->capture_default_str();
  check->add_flag("--verbose,-v", options->verbose, "A line for each game that passes");
  check->add_flag_callback("--no-progress", [options] { options->progress = 0; },
                           "No progress bar on stderr (it is shown only when stderr is a terminal)");
  add_coverage_options(*check, *coverage);
  add_set_option(*check, options->overrides);
  add_json_flag(*check, options->json);
  check->callback([&status, options, coverage] {
    start_coverage(*coverage);
    status = check_command(*options, std::cout, std::cerr);
    if (!finish_coverage(*coverage, "houserules_check", options->json ? std::cerr : std::cout, std::cerr) && status == 0)
      status = 2;
  });
}

}  // namespace hr
