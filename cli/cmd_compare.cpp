// cmd_compare.cpp — `houserules compare A B` (cli/simulation/compare.hpp, docs/simulation.md "Comparing two rulesets").
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "simulation/simulation.hpp"
#include "play/play.hpp"

namespace hr {

void register_compare_command(CLI::App& app, int& status) {
  auto options = std::make_shared<CompareOptions>();
  auto players = std::make_shared<std::string>();
  auto no_progress = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand(
      "compare", "Simulate two rulesets (a ruleset and a variant, or two variants) on the same deals with the same "
                 "bots and report what changed, with confidence intervals and verdicts");
  cmd->add_option("a", options->a, "Ruleset A: id, id/variant or path (the reference)")->required();
  cmd->add_option("b", options->b, "Ruleset B: id, id/variant or path (the house rule)")->required();
  cmd->add_option("--players", *players, "Comma-separated bot settings, one per seat: random, greedy, ismcts[:key=value...]")
      ->required();
  cmd->add_option("--games", options->games, "Games for each ruleset (rounded up to a multiple of the seat count)")
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "Seed: deal b of both rulesets uses derive_seed(seed, b)")->capture_default_str();
  cmd->add_option("--threads", options->threads, "Threads (default: every core); results do not depend on it");
  cmd->add_option("--max-plies", options->max_plies, "A game not over after this many actions fails")->capture_default_str();
  cmd->add_option("--report", options->report, "Write a self-contained HTML report to this file");
  cmd->add_flag("--json", options->json, "Print one JSON document (docs/simulation.md) instead of the table");
  cmd->add_flag("--no-progress", *no_progress, "No progress bar on stderr (it is shown only when stderr is a terminal)");
  cmd->footer(
      "Examples:\n"
      "  houserules compare lost-cities lost-cities/nothing-in-hand --players greedy,greedy --games 2000\n"
      "  houserules compare lost-cities examples/wager-bonus/wager-bonus.toml --players greedy,random --report c.html\n"
      "  houserules compare lost-cities-board lost-cities-board/short-game --players greedy,greedy --json > c.json\n"
      "Every deal is played once from every seat (mirror matches), for A and for B with the same seeds. A figure\n"
      "is marked significant when the 95% interval of its change excludes 0. Exit status: 0, 1 if a game failed,\n"
      "2 for bad input.");
  cmd->callback([&status, options, players, no_progress] {
    options->players = split_player_list(*players);
    if (*no_progress) options->progress = 0;
    options->command = process_command_line();
    status = compare_command(*options, std::cout, std::cerr);
  });
}

}  // namespace hr
