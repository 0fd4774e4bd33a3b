// cmd_play.cpp — `houserules play` and `replay`.
#include <algorithm>
#include <iostream>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "arguments.hpp"
#include "commands.hpp"
#include "play/play.hpp"
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
      "  houserules play --resume game.jsonl                           continue a stopped game\n"
      "  houserules play --resume game.jsonl --players human,cmd:./bot   ... naming its program again (never run from a file)\n"
      "Without --seed each game gets a fresh seed, printed at the start and written in the transcript.\n"
      "At the prompt: an action or its number, 'undo', 'help', 'quit' (Ctrl-C also stops; the log can be resumed).\n"
      "Without --log, a game with a person at this terminal is kept in $XDG_STATE_HOME/houserules (default\n"
      "~/.local/state/houserules) until it is over; quitting prints the --resume command.\n"
      "Colour when stdout is a terminal, unless NO_COLOR is set.");
  auto* ruleset_option = play_cmd->add_option("ruleset", play->ruleset,
                                              "Ruleset id (see `houserules list`) or path to a ruleset folder");
  play_cmd->add_option("--players", *players_text,
                       "Comma-separated player per seat: human, random, greedy, ismcts[:key=value...] or cmd:[time=SECONDS:]PROGRAM (default: human in seat 1, greedy in the others)");
  auto* seed_option = play_cmd->add_option("--seed", play->seed,
                                           "Seed of the game's random number generator (same seed, same game; default: a fresh one)")
                             ->check(seed_check());
  play_cmd->add_option("--log", play->log, "Write the transcript to this file (JSON Lines)");
  play_cmd->add_flag("--quiet", play->quiet, "Print only the result");
  add_set_option(*play_cmd, play->overrides);
  auto* resume_option = play_cmd->add_option("--resume", play->resume,
                       "Continue the stopped or interrupted game of this transcript (its ruleset, players and seed; "
                       "the moves are appended to it). A cmd: program is never started from a transcript: name it "
                       "again with --players")->check(CLI::ExistingFile);
  play_cmd->callback([&status, play, players_text, seed_option, resume_option, ruleset_option] {
    if (ruleset_option->count() == 0 && resume_option->count() == 0) {
      std::cerr << "error: play: give a ruleset (e.g. houserules play lost-cities) or --resume <transcript>\n";
      status = 2;
      return;
    }
    if (ruleset_option->count() > 0 && resume_option->count() > 0) {
      std::cerr << "error: --resume takes the ruleset from the transcript: leave out the ruleset\n";
      status = 2;
      return;
    }
    if (!players_text->empty()) play->players = split_player_list(*players_text);
    if (seed_option->count() == 0) play->seed = fresh_seed();
    play->colour = colour_wanted(isatty(STDOUT_FILENO) != 0);
    play->line_editing = isatty(STDIN_FILENO) != 0;
    if (resume_option->count() > 0 && (seed_option->count() > 0 || !play->log.empty())) {
      std::cerr << "error: --resume takes the seed and log from the transcript: leave out --seed and --log\n";
      status = 2;
      return;
    }
    // A game with a person at this terminal and no --log is kept in the state folder, so that `quit` or a closed
    // terminal never throws it away (the stop message says how to resume it; removed once the game is over).
    const bool person = play->players.empty() ||
                        std::find(play->players.begin(), play->players.end(), "human") != play->players.end();
    if (resume_option->count() == 0 && play->log.empty() && person && play->line_editing) {
      try {
        play->log = new_state_log(play->seed);
        play->kept_log = true;
      } catch (const std::exception& e) {
        std::cerr << "warning: this game cannot be kept for --resume (" << e.what() << "); give --log FILE to keep it\n";
      }
    }
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
