// cmd_serve.cpp — `houserules serve`: the web table (cli/web/web.hpp, docs/serve.md).
#include <memory>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "web/web.hpp"

namespace hr {

void register_serve_command(CLI::App& app, int& status) {
  auto options = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand("serve", "Play, watch and step through games in a web browser (a local server)");
  cmd->footer(
      "Examples:\n"
      "  houserules serve --open                   the page at http://127.0.0.1:8080/ in your browser\n"
      "  houserules serve --port 0                 any free port (printed)\n"
      "  houserules serve --replay game.jsonl      step through a transcript of `play --log`\n"
      "The server listens on 127.0.0.1 only and reads only rulesets (built-in and HOUSERULES_PATH) and the\n"
      "--replay file, answers only requests made to that address (Host, Origin), and keeps the 64 most recent\n"
      "games and replays in memory within --memory. API and security: docs/serve.md.");
  cmd->add_option("--port", options->port, "TCP port on 127.0.0.1 (0: any free port)")->check(CLI::Range(0, 65535));
  cmd->add_option("--memory", options->memory_mib,
                  "MiB of Lua heap the games and replays may hold together; past it the oldest idle ones are evicted")
      ->check(CLI::Range(128, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--request-time", options->request_seconds,
                  "Seconds of work one request may take: bot moves, drawing and replaying stop between steps past it")
      ->check(CLI::Range(1, 600))
      ->capture_default_str();
  cmd->add_flag("--open", options->open, "Open the page in the default browser (xdg-open)");
  cmd->add_option("--replay", options->replay, "A transcript (JSON Lines) to show at start")->check(CLI::ExistingFile);
  cmd->callback([&status, options] { status = serve_command(*options); });
}

}  // namespace hr
