// cmd_play.cpp — `houserules play` and `replay`.
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "play.hpp"
#include "ruleset.hpp"

namespace hr {

void register_play_commands(CLI::App& app, int& status) {
  auto play = std::make_shared<PlayOptions>();
  auto players_text = std::make_shared<std::string>();
  auto* play_cmd = app.add_subcommand("play", "Play a whole match: humans at this terminal, bots, or both");
  play_cmd->footer(
      "Examples:\n"
      "  houserules play lost-cities                                  you (seat 1) against a greedy bot\n"
      "  houserules play lost-cities --players greedy,random --seed 7 two bots, a reproducible game\n"
      "  houserules play lost-cities/three-player --players human,greedy,ismcts --log game.jsonl\n"
      "  houserules play lost-cities --players cmd:\"python3 mybot.py\",greedy   your program in seat 1 (docs/external-players.md)\n"
      "Without --seed each game gets a fresh seed, printed at the start and written in the transcript.");
  play_cmd->add_option("ruleset", play->ruleset, "Ruleset id (see `houserules list`) or path to a ruleset folder")
      ->required();
  play_cmd->add_option("--players", *players_text,
                       "Comma-separated player per seat: human, random, greedy, ismcts[:key=value...] or cmd:[time=SECONDS:]PROGRAM (default: human in seat 1, greedy in the others)");
  auto* seed_option = play_cmd->add_option("--seed", play->seed,
                                           "Seed of the game's random number generator (same seed, same game; default: a fresh one)")
                             ->check(seed_check());
  play_cmd->add_option("--log", play->log, "Write the transcript to this file (JSON Lines)");
  play_cmd->add_flag("--quiet", play->quiet, "Print only the result");
  add_set_option(*play_cmd, play->overrides);
  play_cmd->callback([&status, play, players_text, seed_option] {
    if (!players_text->empty()) play->players = split_player_list(*players_text);
    if (seed_option->count() == 0) play->seed = fresh_seed();
    status = play_command(*play, std::cin, std::cout, std::cerr);
  });

  auto replay_file = std::make_shared<std::string>();
  auto replay_quiet = std::make_shared<bool>(false);
  auto* replay_cmd = app.add_subcommand("replay", "Replay a transcript and check that it reproduces exactly");
  replay_cmd->footer(
      "Examples:\n"
      "  houserules replay game.jsonl                  replay a game written by `play --log`, showing every action\n"
      "  houserules replay game.jsonl --quiet          only the result; exit 1 naming the first action that differs\n"
      "The ruleset is the transcript's (its id, or its file relative to the transcript); its parameters must match.");
  replay_cmd->add_option("file", *replay_file, "Transcript written by `play --log`")->required()->check(CLI::ExistingFile);
  replay_cmd->add_flag("--quiet", *replay_quiet, "Print only the result and errors");
  replay_cmd->callback([&status, replay_file, replay_quiet] {
    status = replay_command(*replay_file, *replay_quiet, std::cout, std::cerr);
  });
}

}  // namespace hr
