// serve.hpp — `houserules serve`: a local web server (127.0.0.1 only) with one self-contained page (cli/web/page/,
// embedded in the binary) to play any ruleset against bots, undo, download the transcript, and step through a
// transcript. The JSON API and its limits are in docs/serve.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace CLI {
class App;
}
namespace httplib {
class Server;
}

namespace hr {

/// A request the API refuses: an HTTP status (400, 403, 404, 409, 413, 422) and a message for the person.
class ApiError : public std::runtime_error {
 public:
  ApiError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

/// The games and replays the server holds, and every API operation on them, without HTTP (so tests and the
/// routes share it). Not thread-safe: the HTTP layer serialises calls with one mutex (a Lua state serves one
/// thread at a time). Holds at most kMaxSessions games and replays together; a new one evicts the one used
/// longest ago.
class GameServer {
 public:
  static constexpr std::size_t kMaxSessions = 64;
  static constexpr std::size_t kMaxPlies = 100000;  ///< a game or replay longer than this is refused

  GameServer();
  ~GameServer();

  /// GET /api/rulesets: every ruleset with its variants: [{id, name, summary, min_players, max_players,
  /// default_players, variants: [{id, name, description}]}].
  nlohmann::json rulesets() const;
  /// POST /api/games {ruleset, players: ["human", "greedy", ...], seed?}: a new game; returns game_json(seat 0).
  /// 400 for a missing field or an unknown player, 403 for a path outside the ruleset folders, 422 when the
  /// ruleset does not load or its setup fails.
  nlohmann::json new_game(const nlohmann::json& request);
  /// GET /api/games/{id}?seat=N: the game as seat N sees it (N = 0: the seat to move if human, else the first
  /// human seat): {id, ruleset, name, players, seed, seat, view (web_view_json), legal: [texts] (only when seat N
  /// is to move and human), log: [{ply, seat, action}], result?, can_undo}. 404 for an unknown game.
  nlohmann::json game(const std::string& id, int seat);
  /// POST /api/games/{id}/play {seat, action: text} or {seat, index: i (0-based in legal)}: plays it for the
  /// human seat to move. 409 when it is not that seat's turn (or a bot's), 422 with the rules' explanation when
  /// the action is not legal or a rules hook fails (the game is unchanged).
  nlohmann::json play(const std::string& id, const nlohmann::json& request);
  /// POST /api/games/{id}/bot {until_human?}: the bot to move plays one action (with until_human: every bot
  /// action until a person is to move or the game is over). 409 when a person is to move or it is over; 422 with
  /// the message when a rules hook fails (that action is not played; the page shows it).
  nlohmann::json bot_step(const std::string& id, bool until_human = false);
  /// POST /api/games/{id}/undo {seat?}: takes back the actions since the last decision of a human seat (that
  /// seat's, when given), included, by replaying the game from its seed. 409 when there is none.
  nlohmann::json undo(const std::string& id, const nlohmann::json& request);
  /// GET /api/games/{id}/transcript: the JSON Lines transcript, as `play --log` writes it.
  std::string transcript(const std::string& id);
  /// POST /api/replays (a transcript's text): loads it for stepping; `name` names it in messages. Returns
  /// replay_json(id, 0). 400 for an unreadable transcript, 403/422 for its ruleset as new_game.
  nlohmann::json new_replay(const std::string& text, const std::string& name);
  /// GET /api/replays/{id}?at=k: the position after k actions (every card shown): {id, ruleset, name, file,
  /// players, seed, at, total, log: [{ply, seat, action}], view, divergence?: {at, message}}.
  nlohmann::json replay(const std::string& id, std::int64_t at);

  /// Checks that `ruleset` names a ruleset or variant id, or a path inside the ruleset folders (built-in and
  /// HOUSERULES_PATH); throws ApiError 403 otherwise (no other file is read).
  void check_ruleset_allowed(const std::string& ruleset) const;

 private:
  struct Session;
  Session& find(const std::string& id, bool replay);
  Session& add(std::unique_ptr<Session> session);
  nlohmann::json game_json(Session& s, int seat);
  void run_history(Session& s, std::size_t count);
  void bot_move(Session& s);
  std::list<std::unique_ptr<Session>> sessions_;  // most recently used first
  std::uint64_t next_id_ = 1;
  std::uint64_t id_salt_;
};

struct ServeOptions {
  int port = 8080;          ///< 0 = any free port
  bool open = false;        ///< open the page in the default browser (xdg-open)
  std::string replay;       ///< a transcript to show at start, or empty
};

/// Adds the page and the JSON API (docs/serve.md) to `server`: every API call locks `mutex` and goes to
/// `games`; `start_replay` is the id of the --replay transcript (or empty). Shared by serve_command and the
/// HTTP fuzz target (tests/fuzz/fuzz_http.cpp).
void add_routes(httplib::Server& server, GameServer& games, std::mutex& mutex, const std::string& start_replay);

/// Runs the server until it is stopped (Ctrl-C). Prints "Serving on http://127.0.0.1:<port>/" first (flushed).
/// Returns 2 when the port cannot be bound or the replay file cannot be read.
int serve_command(const ServeOptions& options);


}  // namespace hr
