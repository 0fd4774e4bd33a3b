// serve.hpp — `houserules serve`: a web server (127.0.0.1 by default; --host for friends on a network, each seat
// with its secret link) with one self-contained page (cli/web/page/, embedded in the binary) to play any ruleset
// against bots or friends, undo, download the transcript, and step through a transcript. The JSON API and its
// limits are in docs/serve.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
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

/// What a request without a seat key (header X-Seat-Key) may do at a game (docs/serve.md, "Friends at one table").
enum class Keyless {
  trusted,    ///< everything, as the person at this machine (the default on 127.0.0.1): any seat's view, hot seat
  spectator,  ///< see the public table only (common_view: what every seat sees alike); act for no seat (--host)
  refused,    ///< nothing: 403 (--private)
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

  explicit GameServer(ServerBudget budget = {}, Keyless keyless = Keyless::trusted);
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
  /// What a request without a seat key may do.
  Keyless keyless() const { return keyless_; }

  // Seat keys. Every human seat of a game has a secret key (seat_links.hpp), given only to the game's creator (the
  // answer of new_game, `links`). The `key` argument of the calls below is the request's X-Seat-Key header, or
  // empty. A request with seat s's key sees only seat s's observation and acts only for seat s; one without a key
  // is treated as keyless() says. A key that is not one of the game's gets 403, as does any seat or action the
  // caller may not see or take (nothing is changed). While a game is running, a caller that is not trusted does
  // not get its seed (`seed` is "hidden") nor its transcript: the seed deals every hidden card.

  /// GET /api/rulesets: every ruleset with its variants: [{id, name, summary, min_players, max_players,
  /// default_players, variants: [{id, name, description}]}].
  nlohmann::json rulesets() const;
  /// GET /api/rulesets/<id>/rules: the README.md of the ruleset `id` (an id `rulesets()` lists, not a path), its
  /// rules as text. ApiError 404 for an id not listed or a ruleset without a README inside the ruleset folders.
  std::string rules_page(const std::string& id) const;
  /// POST /api/games {ruleset, players: ["human", "greedy", ...], seed?}: a new game; returns game_json(seat 0)
  /// (when keyless() is not trusted: the first human seat's view) plus `links`: [{seat, key}] for every human
  /// seat. 400 for a missing or wrongly typed field (json_fields.hpp), an unknown player or a bot setting past the
  /// bounds (kMaxBotIterations, kMaxBotTimeMs; check_bot_setting), or a seed chosen for a game of several people
  /// when keyless() is not trusted (its chooser would know every hand); 403 for a path outside the ruleset
  /// folders, 422 when the ruleset does not load or its setup fails.
  nlohmann::json new_game(const nlohmann::json& request);
  /// GET /api/games/{id}?seat=N: the game as seat N sees it (N = 0: the key's seat; without a key, trusted: the
  /// seat to move if human, else the first human seat; spectator: the public table, `seat` 0): {id, ruleset, name,
  /// players, seed, seat, version, view (web_view_json), legal: [texts] (only when seat N is to move and human),
  /// log: [{ply, seat, action}], result?, can_undo}. 404 for an unknown game; 403 for a seat the key is not (or
  /// any seat without a key unless trusted).
  /// With `at` (0 to the number of actions; -1: now): the table after that many actions, as this viewer saw it
  /// then (a seat: its observation of that state), with "at" and "total" and no legal action; 400 past the end.
  nlohmann::json game(const std::string& id, int seat, const std::string& key = {}, int at = -1);
  /// GET /api/games/{id}/version: {version, over} without waiting for the game's lock (the page polls it and
  /// asks for the game when the version changed). The version counts the changes (actions, undos). 403 without
  /// a key when keyless() is refused, or with a key not of this game.
  nlohmann::json version(const std::string& id, const std::string& key = {});
  /// POST /api/games/{id}/play {seat, action: text} or {seat, index: i (0-based in legal)}: plays it for the
  /// human seat to move (the key's seat; `seat` may only name it). 403 for another seat or without a key unless
  /// trusted; 409 when it is not that seat's turn (or a bot's), 422 with the rules' explanation when the action is
  /// not legal or a rules hook fails (the game is unchanged).
  nlohmann::json play(const std::string& id, const nlohmann::json& request, const std::string& key = {});
  /// POST /api/games/{id}/bot {until_human?}: the bot to move plays one action (with until_human: every bot
  /// action until a person is to move or the game is over). Any seat's key (or trusted) may ask. 409 when a person
  /// is to move or it is over; 422 with the message when a rules hook fails (that action is not played; the page
  /// shows it).
  nlohmann::json bot_step(const std::string& id, bool until_human = false, const std::string& key = {});
  /// POST /api/games/{id}/undo {seat?}: takes back the actions since the last decision of a human seat (that
  /// seat's, when given), included, by replaying the game from its seed. 409 when there is none. With a key: only
  /// the key's own decision (403 for `seat` naming another), and 409 when another person has decided since (an
  /// undo would take their move back too).
  nlohmann::json undo(const std::string& id, const nlohmann::json& request, const std::string& key = {});
  /// GET /api/games/{id}/transcript: the JSON Lines transcript, as `play --log` writes it. 403 while the game runs
  /// for a caller that is not trusted (the transcript holds the seed).
  std::string transcript(const std::string& id, const std::string& key = {});
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
  nlohmann::json game_json(Session& s, int seat, int caller, int at = -1);
  int caller_of(const Session& s, const std::string& key) const;
  void run_history(Session& s, std::size_t count);
  void bot_move(Session& s, const std::function<void()>& moved);
  void changed(Session& s);
  static thread_local std::unique_ptr<Lease> t_lease;  // the session this thread's request holds, its deadline
  ServerBudget budget_;
  Keyless keyless_;
  mutable std::mutex mutex_;                      // guards sessions_ and next_id_ (never held during game work)
  std::list<std::shared_ptr<Session>> sessions_;  // most recently used first
  std::uint64_t next_id_ = 1;
  std::uint64_t id_salt_;
};

struct ServeOptions {
  std::string host = "127.0.0.1";  ///< the address to listen on (--host)
  bool shared = false;      ///< --host, --public-url or --private given: a table for friends (Keyless::spectator)
  bool private_tables = false;     ///< --private: without a seat link nothing is seen (Keyless::refused)
  std::vector<std::string> public_urls;  ///< --public-url: the addresses people type (a TLS reverse proxy's)
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
  /// Further accepted values of the Origin header (scheme://host[:port], e.g. "https://games.example.org" of a TLS
  /// reverse proxy: --public-url).
  std::vector<std::string> origins;
  std::string start_replay;  ///< the id of the --replay transcript, or empty
  /// Where the seat links of a new game are printed (serve's standard output), or nullptr; `link_base` starts them
  /// ("http://192.168.1.5:8080/"). Printed for a game of two people or more, or for every game when `shared`.
  std::ostream* print_links = nullptr;
  std::string link_base;
  bool shared = false;  ///< told to the page (GET /api/start): a seat link is needed to see a hand and to act
};

/// The hosts serve accepts when it listens on 127.0.0.1:`port` (RouteOptions::hosts).
std::vector<std::string> loopback_hosts(int port);
/// The hosts serve accepts when it listens on `address`:`port` (--host): that address with the port ("[...]" around
/// an IPv6 one); for a loopback address the loopback names too; for 0.0.0.0 or :: (every interface) the loopback
/// names, the machine's host name and the address of each of its interfaces (getifaddrs). Defined in listen_hosts.cpp.
std::vector<std::string> listen_hosts(const std::string& address, int port);
/// The Host value ("games.example.org", "example.org:8443") and the Origin ("https://games.example.org") of a
/// public URL (--public-url); throws std::invalid_argument naming what is wrong when it is not http(s)://host[:port][/].
std::pair<std::string, std::string> public_url_host_origin(const std::string& url);

/// Adds the page and the JSON API (docs/serve.md) to `server`: every request's Host and Origin are checked
/// (RouteOptions::hosts), every answer carries the page's Content-Security-Policy, every error is JSON, and every
/// API call goes to `games` (which locks only the session it names). Shared by serve_command and the HTTP fuzz
/// target (tests/fuzz/fuzz_http.cpp). Defined in http_routes.cpp.
void add_routes(httplib::Server& server, GameServer& games, const RouteOptions& options);

/// Runs the server until it is stopped (Ctrl-C). Prints "Serving on http://127.0.0.1:<port>/" first (flushed).
/// Returns 2 when the port cannot be bound or the replay file cannot be read.
int serve_command(const ServeOptions& options);


}  // namespace hr
