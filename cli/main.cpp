// main.cpp — the `houserules` command: list, play, replay, test.
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "play.hpp"
#include "ruleset.hpp"
#include "scenario.hpp"

namespace {

int list_command() {
  try {
    const auto rulesets = hr::list_rulesets();
    if (rulesets.empty()) {
      std::cout << "No rulesets found. Searched:";
      for (const auto& dir : hr::ruleset_search_path()) std::cout << ' ' << dir.string();
      std::cout << '\n';
      return 0;
    }
    for (const auto& info : rulesets) {
      const std::string players = info.min_players == info.max_players
                                      ? std::to_string(info.min_players)
                                      : std::to_string(info.min_players) + "-" + std::to_string(info.max_players);
      std::cout << fmt::format("{:<22} {:<32} {} players  {}\n", info.id, info.name, players, info.summary);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}

std::vector<std::string> split_players(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"houserules: play, test and simulate card and tile games whose rules are Lua scripts.\n"
               "Rulesets are found in the built-in rulesets/ folder and in the folders listed in HOUSERULES_PATH."};
  app.set_version_flag("--version", "houserules 0.1.0");
  app.require_subcommand(1);

  auto* list = app.add_subcommand("list", "List the rulesets found, one line each");

  hr::PlayOptions play;
  std::string players_text;
  auto* play_cmd = app.add_subcommand("play", "Play a whole match: humans at this terminal, bots, or both");
  play_cmd->add_option("ruleset", play.ruleset, "Ruleset id (see `houserules list`) or path to a ruleset folder")->required();
  play_cmd->add_option("--players", players_text,
                       "Comma-separated player per seat: human, random or greedy (default: greedy in every seat)");
  play_cmd->add_option("--seed", play.seed, "Seed of the game's random number generator (same seed, same game)")
      ->capture_default_str();
  play_cmd->add_option("--log", play.log, "Write the transcript to this file (JSON Lines)");
  play_cmd->add_flag("--quiet", play.quiet, "Print only the result");

  std::string replay_file;
  bool replay_quiet = false;
  auto* replay_cmd = app.add_subcommand("replay", "Replay a transcript and check that it reproduces exactly");
  replay_cmd->add_option("file", replay_file, "Transcript written by `play --log`")->required()->check(CLI::ExistingFile);
  replay_cmd->add_flag("--quiet", replay_quiet, "Print only the result and errors");

  std::vector<std::string> test_paths;
  hr::ScenarioOptions scenario_options;
  auto* test_cmd = app.add_subcommand("test", "Run scenario test files (TOML) and print `N passed, M failed`");
  test_cmd->add_option("paths", test_paths, "Scenario files or folders (searched for *.toml)")->required();
  test_cmd->add_flag("--verbose,-v", scenario_options.verbose, "Also list the scenarios that pass");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (*list) return list_command();
  if (*play_cmd) {
    if (!players_text.empty()) play.players = split_players(players_text);
    return hr::play_command(play, std::cin, std::cout, std::cerr);
  }
  if (*replay_cmd) return hr::replay_command(replay_file, replay_quiet, std::cout, std::cerr);
  if (*test_cmd) return hr::run_scenario_tests(test_paths, std::cout, scenario_options);
  return 0;
}
