// http_routes.cpp — the HTTP layer of `houserules serve` (cpp-httplib): the page, the JSON API over GameServer,
// and what every request and answer goes through: the Host and Origin check, the Content-Security-Policy, JSON
// errors (cpp-httplib's own 400/413/... included) and request bodies read whatever their Content-Type.
// docs/serve.md ("The JSON API", "Security").
#include <algorithm>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>

#include <fmt/format.h>
#include <httplib.h>

#include "download_name.hpp"
#include "input_line.hpp"
#include "json_fields.hpp"
#include "play/play.hpp"
#include "serve.hpp"
#include "web_assets.hpp"

namespace hr {

using nlohmann::json;

namespace {

/// The largest request body (a transcript to replay): 8 MiB.
constexpr std::size_t kMaxBody = 8u << 20;

/// Sent with every answer: the page loads nothing from outside the server (no script, style, image, font or
/// connection elsewhere), and no other site may frame it.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

json parse_body(const std::string& body) {
  if (body.empty()) return json::object();
  try {
    return json::parse(body);
  } catch (const std::exception& e) {
    throw ApiError(400, "the request body is not valid JSON (" + json_error_text(e) + ")");
  }
}

int int_param(const httplib::Request& req, const char* key, int fallback) {
  if (!req.has_param(key)) return fallback;
  const std::string text = req.get_param_value(key);
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    throw ApiError(400, fmt::format("'{}' must be a whole number", key));
  return std::stoi(text);
}

void send_json(httplib::Response& res, const json& body, int status = 200) {
  res.status = status;
  // Requests can carry any bytes (a path, a name, a transcript's text echoed in a message): invalid UTF-8 is
  // replaced (U+FFFD) instead of throwing from dump(), which in the error handler would end the server.
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

/// The message of an error answer cpp-httplib made itself (its body is empty), naming the limit or the rule.
std::string library_error_text(const httplib::Request& req, int status) {
  switch (status) {
    case 400: return "bad request: the HTTP request line, a header or the body's framing could not be read";
    case 404: return "no such page or API call: " + req.method + " " + cut_for_message(req.path);
    case 413: return fmt::format("the request body is too large: the limit is {} bytes (8 MiB)", kMaxBody);
    case 414: return "the request's path and query are too long";
    case 415: return "unsupported Content-Encoding of the request body (send it uncompressed)";
    case 416: return "the requested byte range is not satisfiable";
    case 431: return "the request's headers are too large";
    case 501: return "unsupported HTTP method: " + cut_for_message(req.method, 40);
    case 503: return "the server is busy";
    default: return fmt::format("HTTP error {}", status);
  }
}

/// Whether `origin` is one of the accepted origins (--public-url), or "http://" + an accepted host that is not the
/// host of one of them (a public URL's name is accepted with its own scheme only: https, not http).
bool origin_ok(const std::string& origin, const std::vector<std::string>& hosts, const std::vector<std::string>& origins) {
  if (std::find(origins.begin(), origins.end(), origin) != origins.end()) return true;
  for (const std::string& h : hosts) {
    const bool public_name = std::any_of(origins.begin(), origins.end(), [&](const std::string& o) { return o.ends_with("://" + h); });
    if (!public_name && origin == "http://" + h) return true;
  }
  return false;
}

/// The seat key a request carries (header X-Seat-Key; seat_links.hpp), or empty.
std::string seat_key(const httplib::Request& req) { return req.get_header_value("X-Seat-Key"); }

/// Prints the seat links of the new game `game` (the answer of GameServer::new_game) on `out`: one line per human
/// seat, `link_base` + "#game=<id>&key=<key>", for a game of two people or more, or any game when `shared`.
void print_links(std::ostream& out, const json& game, const std::string& link_base, bool shared) {
  const json& links = game["links"];
  if (links.empty() || (links.size() < 2 && !shared)) return;
  std::ostringstream text;
  text << "Game " << game["id"].get<std::string>() << " (" << game["name"].get<std::string>()
       << "): send each person their seat's link (whoever has a link sees that seat's hand and plays for it)\n";
  for (const json& l : links)
    text << "  seat " << l["seat"].get<int>() << ": " << link_base << "#game=" << game["id"].get<std::string>()
         << "&key=" << l["key"].get<std::string>() << '\n';
  static std::mutex mutex;
  std::lock_guard<std::mutex> guard(mutex);
  out << text.str() << std::flush;
}

/// Reads the whole body through `reader`, whatever its Content-Type: a form (application/x-www-form-urlencoded,
/// curl's default) is taken as it is, not parsed; multipart/form-data gives the content of its first part (curl
/// -F file=@game.jsonl). At most kMaxBody bytes. Throws ApiError with cpp-httplib's status (413 past the limit,
/// 415 an unknown Content-Encoding, 400 a broken framing) and the message naming the limit.
std::string read_body(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
  std::string body;
  bool too_large = false;
  const auto append = [&](const char* data, std::size_t n) {
    if (body.size() + n > kMaxBody) return !(too_large = true);
    body.append(data, n);
    return true;
  };
  bool ok = false;
  if (req.is_multipart_form_data()) {
    int parts = 0;
    ok = reader([&](const httplib::MultipartFormData&) { return ++parts == 1; },
                [&](const char* data, std::size_t n) { return parts == 1 && append(data, n); });
    ok = ok || parts > 1;  // the first part is read; the others are not wanted
  } else {
    ok = reader(append);
  }
  if (too_large) throw ApiError(413, library_error_text(req, 413));
  if (!ok) {
    const int status = res.status >= 400 ? res.status : 400;
    throw ApiError(status, library_error_text(req, status));
  }
  return body;
}

}  // namespace

std::vector<std::string> loopback_hosts(int port) {
  return {fmt::format("127.0.0.1:{}", port), fmt::format("localhost:{}", port), fmt::format("[::1]:{}", port)};
}

void add_routes(httplib::Server& server, GameServer& games, const RouteOptions& options) {
  server.set_payload_max_length(kMaxBody);
  const std::vector<std::string> hosts = options.hosts;
  const std::vector<std::string> origins = options.origins;
  // Every request first: a page of another site (its Origin) or a name rebound to 127.0.0.1 (its Host) gets 403
  // before any body is read or any route runs.
  server.set_pre_routing_handler([hosts, origins](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Content-Security-Policy", kContentSecurityPolicy);
    res.set_header("X-Content-Type-Options", "nosniff");
    const std::string host = req.get_header_value("Host");
    std::string why;
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end())
      why = fmt::format("header Host: '{}' is not this server ({}): the server answers only requests made to the "
                        "address it listens on", cut_for_message(host, 80), hosts.empty() ? "" : hosts.front());
    else if (req.has_header("Origin") && !origin_ok(req.get_header_value("Origin"), hosts, origins))
      why = fmt::format("header Origin: '{}' is not this server's page ({}): another site may not use the API",
                        cut_for_message(req.get_header_value("Origin"), 80), origins.empty() ? "http://" + host : origins.front());
    if (why.empty()) return httplib::Server::HandlerResponse::Unhandled;
    send_json(res, {{"error", "forbidden: " + why}}, 403);
    res.set_header("Connection", "close");
    return httplib::Server::HandlerResponse::Handled;
  });
  // Every API call: one GameServer::Request (its time budget, the session it locks, the memory budget after).
  auto api = [&games](auto fn) {
    return [&games, fn](const httplib::Request& req, httplib::Response& res) {
      try {
        GameServer::Request request(games);
        fn(req, res);
      } catch (const ApiError& e) {
        send_json(res, {{"error", e.what()}}, e.status());
      } catch (const std::exception& e) {
        send_json(res, {{"error", std::string("internal error: ") + e.what()}}, 500);
      }
    };
  };
  // POST routes read their body themselves (read_body), so that no Content-Type changes how it is read.
  auto post = [&games](auto fn) {
    return [&games, fn](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
      try {
        const std::string body = read_body(req, res, reader);
        GameServer::Request request(games);
        fn(req, res, body);
      } catch (const ApiError& e) {
        send_json(res, {{"error", e.what()}}, e.status());
      } catch (const std::exception& e) {
        send_json(res, {{"error", std::string("internal error: ") + e.what()}}, 500);
      }
    };
  };
  for (const WebAsset& asset : web_assets()) {
    const std::string path = asset.path == "/index.html" ? "/" : asset.path;
    server.Get(path, [asset](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(asset.data, asset.size), asset.mime);
      res.set_header("Cache-Control", "no-store");
    });
  }
  const std::string start_replay = options.start_replay;
  const bool shared = options.shared;
  server.Get("/api/start", api([start_replay, shared, &games](const httplib::Request&, httplib::Response& res) {
    send_json(res, {{"replay", start_replay.empty() ? json(nullptr) : json(start_replay)},
                    {"shared", shared},
                    {"max_sessions", GameServer::kMaxSessions},
                    {"sessions", games.sessions()},
                    {"lua_memory", games.lua_memory()},
                    {"memory_budget", games.budget().memory_bytes},
                    {"request_time_ms", games.budget().request_time.count()}});
  }));
  server.Get("/api/rulesets", api([&games](const httplib::Request&, httplib::Response& res) { send_json(res, games.rulesets()); }));
  // a ruleset's rules (its README.md) as text, for the page to link to (issue 38)
  server.Get(R"(/api/rulesets/([A-Za-z0-9_.-]+)/rules)", api([&games](const httplib::Request& req, httplib::Response& res) {
    res.set_content(games.rules_page(req.matches[1]), "text/plain; charset=utf-8");
  }));
  std::ostream* links_out = options.print_links;
  const std::string link_base = options.link_base;
  server.Post("/api/games", post([&games, links_out, link_base, shared](const httplib::Request&, httplib::Response& res, const std::string& body) {
    const json game = games.new_game(parse_body(body));
    if (links_out) print_links(*links_out, game, link_base, shared);
    send_json(res, game, 201);
  }));
  server.Get(R"(/api/games/([A-Za-z0-9]+))", api([&games](const httplib::Request& req, httplib::Response& res) {
    send_json(res, games.game(req.matches[1], int_param(req, "seat", 0), seat_key(req), int_param(req, "at", -1)));
  }));
  server.Get(R"(/api/games/([A-Za-z0-9]+)/version)", api([&games](const httplib::Request& req, httplib::Response& res) {
    send_json(res, games.version(req.matches[1], seat_key(req)));
  }));
  server.Post(R"(/api/games/([A-Za-z0-9]+)/play)", post([&games](const httplib::Request& req, httplib::Response& res, const std::string& body) {
    send_json(res, games.play(req.matches[1], parse_body(body), seat_key(req)));
  }));
  server.Post(R"(/api/games/([A-Za-z0-9]+)/bot)", post([&games](const httplib::Request& req, httplib::Response& res, const std::string& body) {
    const json request = parse_body(body);
    const bool until_human = bool_field(request_object(request, {"until_human"}), "until_human").value_or(false);
    send_json(res, games.bot_step(req.matches[1], until_human, seat_key(req)));
  }));
  server.Post(R"(/api/games/([A-Za-z0-9]+)/undo)", post([&games](const httplib::Request& req, httplib::Response& res, const std::string& body) {
    const json request = parse_body(body);
    int_field(request_object(request, {"seat"}), "seat", 1, kMaxSeats);  // typed before the game is looked up
    send_json(res, games.undo(req.matches[1], request, seat_key(req)));
  }));
  server.Get(R"(/api/games/([A-Za-z0-9]+)/transcript)", api([&games](const httplib::Request& req, httplib::Response& res) {
    const std::string id = req.matches[1];
    const std::string text = games.transcript(id, seat_key(req));
    res.set_content(text, "application/x-ndjson");
    res.set_header("Content-Disposition", "attachment; filename=\"" + transcript_file_name(text, id) + "\"");
  }));
  server.Post("/api/replays", post([&games](const httplib::Request& req, httplib::Response& res, const std::string& body) {
    const std::string name = req.has_param("name") ? cut_for_message(req.get_param_value("name")) : "transcript";
    send_json(res, games.new_replay(body, name), 201);
  }));
  server.Get(R"(/api/replays/([A-Za-z0-9]+))", api([&games](const httplib::Request& req, httplib::Response& res) {
    send_json(res, games.replay(req.matches[1], int_param(req, "at", 0)));
  }));
  // Every error answer is JSON: cpp-httplib's own (a bad request line, a body past the limit, an unknown path)
  // come with an empty body, filled here with the limit or the rule.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Content-Security-Policy", kContentSecurityPolicy);
    if (res.body.empty()) send_json(res, {{"error", library_error_text(req, res.status)}}, res.status);
  });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr e) {
    std::string what = "unknown";
    try {
      if (e) std::rethrow_exception(e);
    } catch (const std::exception& x) {
      what = x.what();
    } catch (...) {
    }
    send_json(res, {{"error", "internal error: " + what}}, 500);
  });
}

int serve_command(const ServeOptions& options) {
  ServerBudget budget;
  budget.memory_bytes = options.memory_mib << 20;
  budget.request_time = std::chrono::seconds(options.request_seconds);
  GameServer games(budget, options.private_tables ? Keyless::refused
                           : options.shared       ? Keyless::spectator
                                                  : Keyless::trusted);
  RouteOptions routes;
  routes.shared = options.shared;
  std::vector<std::string> public_hosts;  // accepted after the listening address's (which errors name first)
  for (const std::string& u : options.public_urls) {
    try {
      const auto [host, origin] = public_url_host_origin(u);
      public_hosts.push_back(host);
      routes.origins.push_back(origin);
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << '\n';
      return 2;
    }
  }
  if (!options.replay.empty()) {
    std::ifstream in(options.replay);
    if (!in) {
      std::cerr << "error: cannot open the transcript " << options.replay << '\n';
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    try {
      GameServer::Request request(games);
      routes.start_replay = games.new_replay(text.str(), options.replay)["id"].get<std::string>();
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << '\n';
      return 2;
    }
  }
  httplib::Server server;
  const std::string host = options.host;  // 127.0.0.1 unless --host: then seat links guard every hand
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(host);
  } else if (!server.bind_to_port(host, port)) {
    port = -1;
  }
  if (port < 0) {
    std::cerr << "error: cannot listen on " << host << ":" << options.port
              << " (in use, or not an address of this machine? try --port 0 for any free port)\n";
    return 2;
  }
  routes.hosts = listen_hosts(host, port);
  routes.hosts.insert(routes.hosts.end(), public_hosts.begin(), public_hosts.end());
  // The address a friend opens: the public URL, else the listening address (for every interface: the first
  // address of this machine that is not loopback, else its host name).
  std::string shown = host.find(':') != std::string::npos ? "[" + host + "]:" + std::to_string(port) : host + ":" + std::to_string(port);
  if (host == "0.0.0.0" || host == "::") {
    for (const std::string& h : routes.hosts)
      if (!h.starts_with("127.") && !h.starts_with("localhost:") && !h.starts_with("[::1]") && !h.starts_with("[fe80")) {
        shown = h;
        break;
      }
  }
  const std::string url = "http://" + shown + "/";
  routes.link_base = options.public_urls.empty() ? url : options.public_urls.front() + (options.public_urls.front().ends_with("/") ? "" : "/");
  routes.print_links = &std::cout;
  add_routes(server, games, routes);
  std::cout << "Serving on " << url << (routes.start_replay.empty() ? "" : "#replay=" + routes.start_replay)
            << " (Ctrl-C stops)" << std::endl;
  if (options.shared)
    std::cout << "A table for friends: each seat of a new game gets a secret link (shown on the page and printed "
                 "here); without one, a page "
              << (options.private_tables ? "sees nothing" : "sees the public table only")
              << (options.public_urls.empty() ? "" : "; links use " + routes.link_base) << std::endl;
  if (options.open) {
    const std::string command = "xdg-open '" + url + "' >/dev/null 2>&1 &";
    if (std::system(command.c_str()) != 0) std::cout << "Open " << url << " in your browser.\n";
  }
  server.listen_after_bind();
  return 0;
}

}  // namespace hr
