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
      "  houserules serve --host 192.168.1.5       friends on your network: New game with several 'human'\n"
      "                                            seats gives each seat a secret link to send its player\n"
      "  houserules serve --public-url https://games.example.org --private\n"
      "                                            behind a TLS reverse proxy; no link, nothing seen\n"
      "By default the server listens on 127.0.0.1 only. It reads only rulesets (built-in and HOUSERULES_PATH)\n"
      "and the --replay file, answers only requests made to its address (Host, Origin), and keeps the 64 most\n"
      "recent games and replays in memory within --memory. With --host, --public-url or --private, each person's\n"
      "seat link shows only that seat's hand and acts only for it; a page without a link sees the public table\n"
      "(nothing with --private). Friends, links, proxies, API and security: docs/serve.md.");
  cmd->add_option("--port", options->port, "TCP port (0: any free port)")->check(CLI::Range(0, 65535));
  auto* host = cmd->add_option("--host", options->host,
                               "Address to listen on: 127.0.0.1 (default), an address of this machine on your network, or "
                               "0.0.0.0 for every interface; given, a seat link is needed to see a hand or act")
                   ->capture_default_str();
  cmd->add_option("--public-url", options->public_urls,
                  "The address people open when a reverse proxy (TLS) is in front, e.g. https://games.example.org: "
                  "its Host and Origin are accepted and the seat links use it (repeatable)");
  cmd->add_flag("--private", options->private_tables, "Without a seat link a page sees nothing (403), not even the public table");
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
  cmd->callback([&status, options, host] {
    options->shared = host->count() > 0 || !options->public_urls.empty() || options->private_tables;
    status = serve_command(*options);
  });
}

}  // namespace hr
