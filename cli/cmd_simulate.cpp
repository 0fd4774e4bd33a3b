// cmd_simulate.cpp — `houserules simulate` and `houserules merge` (cli/simulation/simulate.hpp, docs/simulation.md).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "play/play.hpp"
#include "simulation/simulation.hpp"

namespace hr {

namespace {

/// Parses "i/N" (0 <= i < N). Returns false if malformed.
bool parse_shard(const std::string& text, int& shard, int& count) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return false;
  try {
    std::size_t used = 0;
    shard = std::stoi(text.substr(0, slash), &used);
    if (used != slash) return false;
    count = std::stoi(text.substr(slash + 1), &used);
    return used == text.size() - slash - 1;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

void register_simulate_commands(CLI::App& app, int& status) {
  auto options = std::make_shared<SimulateOptions>();
  auto players = std::make_shared<std::string>();
  auto shard = std::make_shared<std::string>();
  auto no_progress = std::make_shared<bool>(false);
  options->experiment.games = 1000;
  auto* sim = app.add_subcommand(
      "simulate", "Play many bot games on several threads and summarise each player setting (docs/simulation.md)");
  sim->footer(
      "Examples:\n"
      "  houserules simulate lost-cities --players greedy,random --games 1000\n"
      "  houserules simulate lost-cities --players ismcts,greedy --games 200 --report r.html --jsonl games.jsonl\n"
      "  houserules simulate lost-cities --players greedy,random --shard 0/4 --jsonl part0.jsonl   (then `merge`)\n"
      "Exit status: 0, 1 if a game failed (each is listed with the command that replays it), 2 bad input.");
  sim->add_option("ruleset", options->experiment.ruleset, "Ruleset id, id/variant, or path")->required();
  sim->add_option("--games", options->experiment.games, "Number of games")->capture_default_str()->check(positive_check());
  sim->add_option("--players", *players, "Comma-separated player settings, one per seat: random, greedy, ismcts[:key=value...], cmd:[time=SECONDS:]PROGRAM")->required();
  sim->add_option("--seed", options->experiment.seed, "Seed of the experiment (game i uses derive_seed(seed, i))")
      ->capture_default_str()
      ->check(seed_check());
  sim->add_option("--threads", options->threads, "Threads (default: every core); results do not depend on it")
      ->check(positive_check());
  sim->add_flag("--fixed-seats", options->experiment.fixed_seats,
                "Do not rotate seats: player setting n always sits in seat n");
  sim->add_flag("--mirror", options->experiment.mirror,
                "Mirror matches: each deal is played once from every seat (seats rotated on the same deal), so "
                "the luck of the deal cancels out of the seats' win rates");
  sim->add_option("--jsonl", options->jsonl, "Write one JSON line per game to this file (input of `merge`)");
  sim->add_option("--report", options->report, "Write a self-contained HTML report to this file");
  sim->add_option("--shard", *shard,
                  "Play only slice i of N (0 <= i < N): games i, i+N, i+2N...; combine the --jsonl files with merge");
  sim->add_option("--max-plies", options->experiment.max_plies, "A game not over after this many actions fails")
      ->capture_default_str();
  sim->add_flag("--no-progress", *no_progress, "No progress bar or progress lines");
  auto no_action_counts = std::make_shared<bool>(false);
  sim->add_flag("--no-action-counts", *no_action_counts,
                "Do not count actions by kind (faster: counting reads each action's text, 3.5x the CPU time of "
                "random-vs-random games)");
  add_set_option(*sim, options->experiment.overrides);
  add_json_flag(*sim, options->json);
  sim->callback([&status, options, players, shard, no_progress, no_action_counts] {
    options->experiment.players = split_player_list(*players);
    if (!shard->empty() && !parse_shard(*shard, options->shard, options->shard_count)) {
      std::cerr << "error: --shard " << *shard << ": give i/N, e.g. --shard 0/4\n";
      status = 2;
      return;
    }
    if (*no_progress) options->progress = 0;
    if (*no_action_counts) options->count_actions = false;
    options->command_line = process_command_line();
    status = simulate_command(*options, std::cout, std::cerr);
  });

  auto files = std::make_shared<std::vector<std::string>>();
  auto report = std::make_shared<std::string>();
  auto* merge = app.add_subcommand(
      "merge", "Combine the --jsonl files of the shards of one simulation into its summary (as if run unsharded)");
  merge->footer(
      "Examples:\n"
      "  houserules merge part0.jsonl part1.jsonl part2.jsonl part3.jsonl    the summary of the whole simulation\n"
      "  houserules merge parts/*.jsonl --report r.html\n"
      "Exit status: 0, 1 if a game failed or games are missing, 2 unreadable or mismatched files.");
  merge->add_option("files", *files, "JSONL files written by simulate --jsonl")->required()->check(CLI::ExistingFile);
  merge->add_option("--report", *report, "Write the HTML report of the merged games to this file");
  auto merge_json = std::make_shared<bool>(false);
  add_json_flag(*merge, *merge_json);
  merge->callback([&status, files, report, merge_json] {
    status = merge_command(*files, *report, std::cout, std::cerr, *merge_json, process_command_line());
  });
}

}  // namespace hr
