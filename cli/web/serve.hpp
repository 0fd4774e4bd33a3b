// serve.hpp — `houserules serve`: a local web server (127.0.0.1 only) with one self-contained page (cli/web/page/,
// embedded in the binary) to play any ruleset against bots, undo, download the transcript, and step through a
// transcript. The JSON API and its limits are in docs/serve.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
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

/// The limits of one server (docs/serve.md, "Security").
struct ServerBudget {
  std::size_t memory_bytes = std::size_t{1} << 30;  ///< the games' and replays' Lua heaps together (1 GiB)
  std::chrono::milliseconds request_time{10000};    ///< one request's work, checked between actions (10 s)
};

/// The games and replays the server holds, and every API operation on them, without HTTP (so tests and the
/// routes share it). Thread-safe with one lock per game or replay: a call locks only the session it names (its
/// Lua state serves one thread at a time), so a slow game holds up no other request; the list of sessions has its
/// own short-held lock. Holds at most kMaxSessions games and replays together, and at most budget.memory_bytes of
/// Lua heap together: past either, the sessions used longest ago and idle are evicted first.
class GameServer {
 public:
  static constexpr std::size_t kMaxSessions = 64;
  static constexpr std::size_t kMaxPlies = 100000;  ///< a game or replay longer than this is refused
  static constexpr std::int64_t kMaxBotIterations = 100000;  ///< ismcts `iterations` from the page: 1 to this
  static constexpr std::int64_t kMaxBotTimeMs = 10000;       ///< ismcts `time_ms` from the page: 0 to this

  explicit GameServer(ServerBudget budget = {});
  ~GameServer();

  /// One API request on this thread: its time budget starts now; at its end the session it locked is released,
  /// its Lua heap recorded and the memory budget enforced (evicting the oldest idle sessions). The HTTP routes make
  /// one per request; a call without one runs without a time budget and releases its session at the next call.
  class Request {
   public:
    explicit Request(GameServer& server);
    ~Request();
    Request(const Request&) = delete;
    Request& operator=(const Request&) = delete;

   private:
    GameServer& server_;
  };
  /// The Lua heap of every session held now, in bytes (for tests and the memory budget).
  std::size_t lua_memory() const;
  /// The number of games and replays held now.
  std::size_t sessions() const;
  /// The server's limits.
  const ServerBudget& budget() const { return budget_; }

  /// GET /api/rulesets: every ruleset with its variants: [{id, name, summary, min_players, max_players,
  /// default_players, variants: [{id, name, description}]}].
  nlohmann::json rulesets() const;
  /// POST /api/games {ruleset, players: ["human", "greedy", ...], seed?}: a new game; returns game_json(seat 0).
  /// 400 for a missing or wrongly typed field (json_fields.hpp), an unknown player or a bot setting past the
  /// bounds (kMaxBotIterations, kMaxBotTimeMs; check_bot_setting), 403 for a path outside the ruleset folders, 422 when the
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
  /// Checks a player setting from the page against the server's bounds: for ismcts, the ruleset's [bots] options
  /// and the setting's together must give `iterations` from 1 to kMaxBotIterations and `time_ms` from 0 to
  /// kMaxBotTimeMs. Throws ApiError 400 naming the option and its bound.
  static void check_bot_setting(const std::string& setting, const std::string& ruleset_options);

 private:
  struct Session;
  struct Lease;
  Session& find(const std::string& id, bool replay);
  Session& add(std::unique_ptr<Session> session);
  void release();
  void enforce_budget();
  bool out_of_time() const;
  nlohmann::json game_json(Session& s, int seat);
  void run_history(Session& s, std::size_t count);
  void bot_move(Session& s);
  static thread_local std::unique_ptr<Lease> t_lease;  // the session this thread's request holds, its deadline
  ServerBudget budget_;
  mutable std::mutex mutex_;                      // guards sessions_ and next_id_ (never held during game work)
  std::list<std::shared_ptr<Session>> sessions_;  // most recently used first
  std::uint64_t next_id_ = 1;
  std::uint64_t id_salt_;
};

struct ServeOptions {
  int port = 8080;          ///< 0 = any free port
  std::size_t memory_mib = 1024;  ///< ServerBudget::memory_bytes in MiB
  int request_seconds = 10;       ///< ServerBudget::request_time in seconds
  bool open = false;        ///< open the page in the default browser (xdg-open)
  std::string replay;       ///< a transcript to show at start, or empty
};

/// What the HTTP layer accepts (docs/serve.md, "Security").
struct RouteOptions {
  /// The accepted values of the Host header (the address and port the server listens on: "127.0.0.1:8080",
  /// "localhost:8080", "[::1]:8080"); a request with another Host, or with an Origin that is not "http://" + one
  /// of them, gets 403 with a JSON error naming the header.
  std::vector<std::string> hosts;
  std::string start_replay;  ///< the id of the --replay transcript, or empty
};

/// The hosts serve accepts when it listens on 127.0.0.1:`port` (RouteOptions::hosts).
std::vector<std::string> loopback_hosts(int port);

/// Adds the page and the JSON API (docs/serve.md) to `server`: every request's Host and Origin are checked
/// (RouteOptions::hosts), every answer carries the page's Content-Security-Policy, every error is JSON, and every
/// API call goes to `games` (which locks only the session it names). Shared by serve_command and the HTTP fuzz
/// target (tests/fuzz/fuzz_http.cpp). Defined in http_routes.cpp.
void add_routes(httplib::Server& server, GameServer& games, const RouteOptions& options);

/// Runs the server until it is stopped (Ctrl-C). Prints "Serving on http://127.0.0.1:<port>/" first (flushed).
/// Returns 2 when the port cannot be bound or the replay file cannot be read.
int serve_command(const ServeOptions& options);


}  // namespace hr
