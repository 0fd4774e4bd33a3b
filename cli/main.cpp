// main.cpp — the `houserules` command. Each subcommand lives in cli/cmd_*.cpp (see commands.hpp).
#include <CLI/CLI.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"houserules: play, test and simulate card and tile games whose rules are Lua scripts.\n"
               "Rulesets are found in the built-in rulesets/ folder and in the folders listed in HOUSERULES_PATH."};
  app.set_version_flag("--version", "houserules 0.1.0");
  app.require_subcommand(1);
  int status = 0;
  hr::register_ruleset_commands(app, status);
  hr::register_play_commands(app, status);
  hr::register_test_command(app, status);
  hr::register_check_command(app, status);
  hr::register_simulate_commands(app, status);
  hr::register_serve_command(app, status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return status;
}
