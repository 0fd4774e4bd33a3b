// main.cpp — the `houserules` command. Each subcommand lives in cli/cmd_*.cpp (see commands.hpp).
// Exit codes (docs/cli.md): 0 ok, 1 a check failed, 2 bad input — parse errors included (CLI11's own codes,
// 105 and up, are not used).
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "arguments.hpp"
#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"houserules: play, test and simulate card and tile games whose rules are Lua scripts.\n"
               "Rulesets are found in the built-in rulesets/ folder and in the folders listed in HOUSERULES_PATH."};
  app.name("houserules");
  app.set_version_flag("--version", "houserules " HOUSERULES_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Examples:\n"
      "  houserules list                                   the rulesets and variants found\n"
      "  houserules play lost-cities                       you against a greedy bot\n"
      "  houserules simulate lost-cities --players greedy,random --games 200\n"
      "Run `houserules COMMAND --help` for a command's options. Exit status: 0 ok, 1 a check failed, 2 bad input.\n");
  int status = 0;
  hr::register_ruleset_commands(app, status);
  hr::register_play_commands(app, status);
  hr::register_test_command(app, status);
  hr::register_check_command(app, status);
  hr::register_simulate_commands(app, status);
  hr::register_mutate_command(app, status);
  hr::register_compare_command(app, status);
  hr::register_serve_command(app, status);
  // `houserules` alone and `houserules help` list the commands; `houserules help COMMAND` is COMMAND --help.
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc == 1 || (first == "help" && argc == 2)) {
    std::cout << app.help();
    return hr::kExitOk;
  }
  if (first == "help") {
    try {
      std::cout << app.get_subcommand(argv[2])->help("houserules");
      return hr::kExitOk;
    } catch (const CLI::OptionNotFound&) {
      std::cerr << "error: no command '" << argv[2] << "'\n";
      const std::string hint = hr::did_you_mean(app, 2, const_cast<const char* const*>(argv + 1));
      if (!hint.empty()) std::cerr << hint << '\n';
      return hr::kExitBadInput;
    }
  }
  // The command: the first word that is not an option. An unknown one is named as such (CLI11 would say
  // "A subcommand is required"), with the closest command.
  CLI::App* command = nullptr;
  for (int i = 1; i < argc && !command; ++i) {
    const std::string word = argv[i];
    if (word.starts_with("-")) continue;
    try {
      command = app.get_subcommand(word);
    } catch (const CLI::OptionNotFound&) {
      std::cerr << "error: no command '" << word << "'\n" << hr::did_you_mean(app, argc, argv) << '\n';
      return hr::kExitBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string hint = hr::did_you_mean(app, argc, argv);
    std::cerr << "error: " << e.what() << '\n';
    if (!hint.empty()) std::cerr << hint << '\n';
    else if (command) std::cerr << "Run `houserules " << command->get_name() << " --help` for its options and examples.\n";
    else std::cerr << "Run `houserules --help` for the commands.\n";
    return hr::kExitBadInput;
  }
  return status;
}
