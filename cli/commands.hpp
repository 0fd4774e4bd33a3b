// commands.hpp — each family of `houserules` subcommands registers itself on the CLI11 app. A command's
// callback stores its exit status in `status`. Add a command: a cli/cmd_<name>.cpp with a register_*
// function declared here, and one call in main.cpp.
#pragma once

namespace CLI {
class App;
}

namespace hr {

/// play, replay (cli/cmd_play.cpp)
void register_play_commands(CLI::App& app, int& status);
/// list, describe, new (cli/cmd_rulesets.cpp)
void register_ruleset_commands(CLI::App& app, int& status);
/// test (cli/cmd_test.cpp)
void register_test_command(CLI::App& app, int& status);
/// check (cli/cmd_check.cpp)
void register_check_command(CLI::App& app, int& status);
/// simulate, merge (cli/cmd_simulate.cpp)
void register_simulate_commands(CLI::App& app, int& status);
/// mutate (cli/cmd_mutate.cpp)
void register_mutate_command(CLI::App& app, int& status);
/// compare (cli/cmd_compare.cpp)
void register_compare_command(CLI::App& app, int& status);
/// serve (cli/cmd_serve.cpp)
void register_serve_command(CLI::App& app, int& status);

}  // namespace hr
