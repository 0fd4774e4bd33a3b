// serve.cpp — `houserules serve`: the game sessions (GameServer) and the HTTP routes over them (cpp-httplib).
#include "serve.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <httplib.h>

#include "bots.hpp"
#include "input_line.hpp"
#include "play/play.hpp"
#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"
#include "web_assets.hpp"
#include "web_view.hpp"

namespace hr {

using nlohmann::json;

namespace {

/// Replays keep the position after every kCheckpoint-th action, so that showing action k replays at most
/// kCheckpoint - 1 actions.
constexpr std::size_t kCheckpoint = 32;

/// One step of a game's history.
struct Step {
  std::string text;
  int seat = 0;
  int round = 0;
  std::size_t legal = 0;
  std::int64_t ply = 0;
  Action action = 0;
  std::vector<std::int64_t> round_scores;  ///< non-empty when the step ended a round: that round's scores
};

json log_json(const std::vector<Step>& steps) {
  json log = json::array();
  for (const Step& s : steps) {
    json entry = {{"ply", s.ply}, {"seat", s.seat}, {"round", s.round}, {"action", s.text}};
    if (!s.round_scores.empty()) entry["round_scores"] = s.round_scores;
    log.push_back(std::move(entry));
  }
  return log;
}

std::string string_field(const json& request, const char* key) {
  if (!request.is_object() || !request.contains(key) || !request[key].is_string())
    throw ApiError(400, fmt::format("the request needs '{}' (a string)", key));
  return request[key].get<std::string>();
}

std::unique_ptr<ScriptedRules> load_for_api(const std::string& ruleset, int seats) {
  try {
    LoadOptions load;
    load.seats = seats;
    return load_rules(ruleset, load);
  } catch (const std::exception& e) {
    throw ApiError(422, e.what());
  }
}

/// The [view] table of the TOML file `file` as JSON ({} when it has none or does not parse).
json view_table_json(const std::filesystem::path& file) {
  try {
    const toml::table doc = toml::parse_file(file.string());
    const toml::table* view = doc["view"].as_table();
    if (!view) return json::object();
    std::ostringstream text;
    text << toml::json_formatter{*view};
    return json::parse(text.str());
  } catch (const std::exception&) {
    return json::object();
  }
}

/// The drawing hints of a ruleset: the [view] table of its base ruleset.toml with each variant's [view] merged over
/// it, parent first (tables key by key, other values replaced); {} when there is none. Hints never stop a game: a
/// file that does not parse adds nothing. docs/serve.md lists the keys the page reads.
json hints_json(const RulesetInfo& info) {
  json hints = view_table_json(info.dir / "ruleset.toml");
  for (const VariantInfo& v : info.variants) hints.merge_patch(view_table_json(v.file));
  return hints;
}

/// The view of `state` for the page: web_view_json plus the scenes of the ruleset's draw_component hook.
json view_json(ScriptedRules& rules, const GameState& state) {
  json view = web_view_json(rules, state);
  add_scenes(view, rules, state);
  return view;
}

bool inside(const std::filesystem::path& path, const std::filesystem::path& dir) {
  const auto rel = path.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

struct GameServer::Session {
  std::string id;
  bool is_replay = false;
  std::string ruleset;  // as given: id or path
  std::vector<std::string> players;
  std::uint64_t seed = 0;
  std::unique_ptr<ScriptedRules> rules;
  std::vector<std::unique_ptr<Player>> bots;  // nullptr for a human seat
  GameState state;
  std::vector<Step> history;
  std::string error;  // the last rules error of a bot's move, shown on the page
  json hints;         // the ruleset's [view] table (hints_json), read once
  // replays
  std::string file;
  std::vector<GameState> checkpoints;  // position after 0, kCheckpoint, 2 kCheckpoint... actions
  std::size_t playable = 0;            // actions that replay (the rest follow a divergence)
  std::string divergence;              // why action playable + 1 does not replay, or empty
  std::vector<std::string> recorded;   // every action text of the transcript (log beside the board)
  std::vector<int> recorded_seats;

  bool human(int seat) const { return seat >= 1 && static_cast<std::size_t>(seat) <= bots.size() && !bots[static_cast<std::size_t>(seat - 1)]; }
};

GameServer::GameServer() : id_salt_(std::random_device{}()) {}
GameServer::~GameServer() = default;

json GameServer::rulesets() const {
  json out = json::array();
  for (const RulesetInfo& info : list_rulesets()) {
    json variants = json::array();
    for (const VariantInfo& v : list_variants(info))
      variants.push_back({{"id", info.id + "/" + v.id}, {"name", v.name}, {"description", v.description}});
    out.push_back({{"id", info.id},
                   {"name", info.name},
                   {"summary", info.summary},
                   {"min_players", info.min_players},
                   {"max_players", info.max_players},
                   {"default_players", info.default_players},
                   {"variants", variants}});
  }
  return out;
}

namespace {

/// Whether `path` lies inside one of the ruleset folders (built-in and HOUSERULES_PATH), symbolic links resolved.
bool in_ruleset_folders(const std::filesystem::path& path) {
  std::error_code ec;
  const auto real = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  if (ec) return false;
  for (const auto& dir : ruleset_search_path()) {
    const auto root = std::filesystem::weakly_canonical(dir, ec);
    if (!ec && inside(real, root)) return true;
  }
  return false;
}

}  // namespace

void GameServer::check_ruleset_allowed(const std::string& ruleset) const {
  if (ruleset.empty()) throw ApiError(400, "no ruleset given");
  bool known = false;
  for (const RulesetInfo& info : list_rulesets()) {
    if (ruleset == info.id) known = true;
    if (!known && ruleset.starts_with(info.id + "/"))
      for (const VariantInfo& v : list_variants(info))
        if (ruleset == info.id + "/" + v.id) known = true;
  }
  if (!known && !in_ruleset_folders(ruleset))
    throw ApiError(403, fmt::format("'{}' is neither a ruleset id nor a file inside the ruleset folders (the built-in "
                                    "rulesets/ and HOUSERULES_PATH); serve reads no other file",
                                    cut_for_message(ruleset)));
  // The chain of `extends` too: every variant file and the base ruleset must lie in the folders, each checked
  // before the loader opens it (ScopedReadCheck), so a file outside is refused unread and no script runs.
  const std::function<void(const std::filesystem::path&)> only_inside = [&](const std::filesystem::path& file) {
    if (!in_ruleset_folders(file))
      throw ApiError(403, fmt::format("'{}' extends {}, which is outside the ruleset folders (the built-in rulesets/ "
                                      "and HOUSERULES_PATH); serve reads no other file",
                                      cut_for_message(ruleset), Sandbox::display_path(file)));
  };
  RulesetInfo info;
  try {
    ScopedReadCheck guard(only_inside);
    info = find_ruleset(ruleset);
  } catch (const ApiError&) {
    throw;
  } catch (const std::exception& e) {
    throw ApiError(422, e.what());
  }
  std::vector<std::filesystem::path> files{info.dir / "ruleset.toml"};
  for (const VariantInfo& v : info.variants) files.push_back(v.file);
  for (const auto& file : files)
    if (!in_ruleset_folders(file))
      throw ApiError(403, fmt::format("'{}' extends {}, which is outside the ruleset folders (the built-in rulesets/ "
                                      "and HOUSERULES_PATH); serve reads no other file",
                                      cut_for_message(ruleset), Sandbox::display_path(file)));
}

GameServer::Session& GameServer::add(std::unique_ptr<Session> session) {
  session->id = fmt::format("{}{:x}{:x}", session->is_replay ? 'r' : 'g', next_id_++, id_salt_ & 0xFFFFFF);
  while (sessions_.size() >= kMaxSessions) sessions_.pop_back();  // the one used longest ago
  sessions_.push_front(std::move(session));
  return *sessions_.front();
}

GameServer::Session& GameServer::find(const std::string& id, bool replay) {
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
    if ((*it)->id == id && (*it)->is_replay == replay) {
      sessions_.splice(sessions_.begin(), sessions_, it);  // most recently used first
      return *sessions_.front();
    }
  throw ApiError(404, fmt::format("no {} '{}' (the server keeps the {} most recent games and replays; it may have "
                                  "been restarted)", replay ? "replay" : "game", cut_for_message(id), kMaxSessions));
}

json GameServer::new_game(const json& request) {
  const std::string ruleset = string_field(request, "ruleset");
  check_ruleset_allowed(ruleset);
  std::vector<std::string> players;
  if (request.contains("players")) {
    if (!request["players"].is_array()) throw ApiError(400, "'players' must be a list of player names");
    for (const json& p : request["players"]) {
      if (!p.is_string()) throw ApiError(400, "'players' must be a list of player names");
      players.push_back(p.get<std::string>());
    }
  }
  if (players.size() > static_cast<std::size_t>(kMaxSeats)) throw ApiError(400, fmt::format("at most {} players", kMaxSeats));
  std::uint64_t seed = 0;
  if (request.contains("seed") && !request["seed"].is_null()) {
    if (!request["seed"].is_number_unsigned()) throw ApiError(400, "'seed' must be a whole number from 0");
    seed = request["seed"].get<std::uint64_t>();
  } else {
    seed = fresh_seed();
  }
  auto s = std::make_unique<Session>();
  s->ruleset = ruleset;
  s->seed = seed;
  s->rules = load_for_api(ruleset, static_cast<int>(players.size()));
  s->hints = hints_json(s->rules->info());
  if (players.empty()) {
    players.assign(static_cast<std::size_t>(s->rules->layout().seats), "greedy");
    players.front() = "human";
  }
  s->players = players;
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (players[i] == "human") {
      s->bots.push_back(nullptr);
      continue;
    }
    std::unique_ptr<Player> bot;
    try {
      bot = make_bot(players[i], derive_seed(seed, 1000 + i), s->rules.get());
    } catch (const std::exception& e) {
      throw ApiError(400, e.what());
    }
    if (!bot) throw ApiError(400, fmt::format("unknown player '{}' (choose human, random, greedy or ismcts[:key=value...])",
                                              cut_for_message(players[i])));
    s->bots.push_back(std::move(bot));
  }
  try {
    s->state = s->rules->new_game(seed);
  } catch (const std::exception& e) {
    throw ApiError(422, e.what());
  }
  Session& added = add(std::move(s));
  return game_json(added, 0);
}

json GameServer::game(const std::string& id, int seat) { return game_json(find(id, false), seat); }

json GameServer::game_json(Session& s, int seat) {
  const int seats = s.rules->layout().seats;
  if (seat < 0 || seat > seats) throw ApiError(400, fmt::format("seat {} does not exist (1 to {})", seat, seats));
  if (seat == 0) {
    if (s.human(s.state.to_move()) && !s.state.over()) seat = s.state.to_move();
    for (int i = seats; i >= 1 && seat == 0; --i)
      if (s.human(i)) seat = i;
    for (int i = 1; i <= seats; ++i)
      if (s.human(i) && seat == 0) seat = i;
  }
  // Over, or bots only: the whole table, as players show their hands at the end.
  const bool everything = s.state.over() || seat == 0;
  const GameState view = everything ? s.state : s.state.observation(seat);
  json legal = json::array();
  if (!s.state.over() && seat == s.state.to_move() && s.human(seat))
    for (const Action a : s.rules->legal_actions(s.state)) legal.push_back(s.rules->action_text(s.state, a));
  bool can_undo = false;
  for (const Step& step : s.history) can_undo = can_undo || s.human(step.seat);
  json out = {{"id", s.id},
              {"ruleset", s.ruleset},
              {"name", s.rules->info().name},
              {"players", s.players},
              {"seed", s.seed},
              {"seat", seat},
              {"view", view_json(*s.rules, view)},
              {"legal", legal},
              {"log", log_json(s.history)},
              {"can_undo", can_undo},
              {"bot_to_move", !s.state.over() && !s.human(s.state.to_move())},
              {"error", s.error},
              {"hints", s.hints}};
  if (s.state.over()) out["result"] = {{"match_scores", s.state.match_scores()}, {"ranks", s.rules->ranks(s.state)}};
  return out;
}

namespace {

/// Applies `action` for the seat to move and records it in `history`. Throws RulesError (state unchanged).
void apply_step(Rules& rules, GameState& state, std::vector<Step>& history, Action action, std::size_t legal) {
  if (history.size() >= GameServer::kMaxPlies)
    throw RulesError(fmt::format("the game is not over after {} actions (the server's limit)", history.size()));
  Step step;
  step.seat = state.to_move();
  step.round = state.round();
  step.text = rules.action_text(state, action);
  step.legal = legal;
  step.action = action;
  rules.apply(state, action);
  step.ply = state.ply();
  if (state.round() != step.round || state.over())
    if (!state.round_scores().empty()) step.round_scores = state.round_scores().back();
  history.push_back(std::move(step));
}

}  // namespace

json GameServer::play(const std::string& id, const json& request) {
  Session& s = find(id, false);
  if (!request.is_object()) throw ApiError(400, "the request must be a JSON object {seat, action} or {seat, index}");
  const int seat = request.contains("seat") && request["seat"].is_number_integer() ? request["seat"].get<int>() : s.state.to_move();
  if (s.state.over()) throw ApiError(409, "the game is over");
  if (seat != s.state.to_move()) throw ApiError(409, fmt::format("it is seat {}'s turn, not seat {}'s", s.state.to_move(), seat));
  if (!s.human(seat)) throw ApiError(409, fmt::format("seat {} is played by a bot", seat));
  const auto legal = s.rules->legal_actions(s.state);
  Action action = 0;
  if (request.contains("index")) {
    if (!request["index"].is_number_integer()) throw ApiError(400, "'index' must be a whole number");
    const auto index = request["index"].get<std::int64_t>();
    if (index < 0 || static_cast<std::size_t>(index) >= legal.size())
      throw ApiError(422, fmt::format("there is no action number {}: choose 0 to {}", index, legal.size() - 1));
    action = legal[static_cast<std::size_t>(index)];
  } else {
    const InputLine text = normalize_input_line(string_field(request, "action"));
    if (!text) throw ApiError(400, "not understood: " + text.error);
    const auto parsed = s.rules->parse_action(s.state, text.text);
    if (!parsed) {
      std::string why;
      try {
        why = s.rules->explain_illegal(s.state, text.text);
      } catch (const std::exception& e) {
        why = e.what();
      }
      throw ApiError(422, "not legal: " + why);
    }
    action = *parsed;
  }
  try {
    apply_step(*s.rules, s.state, s.history, action, legal.size());
  } catch (const std::exception& e) {
    throw ApiError(422, std::string("rules error (the game is unchanged): ") + e.what());
  }
  s.error.clear();
  return game_json(s, seat);
}

json GameServer::bot_step(const std::string& id, bool until_human) {
  Session& s = find(id, false);
  if (s.state.over()) throw ApiError(409, "the game is over");
  const int seat = s.state.to_move();
  if (s.human(seat)) throw ApiError(409, fmt::format("seat {} (a person) is to move, not a bot", seat));
  do {
    bot_move(s);
  } while (until_human && !s.state.over() && !s.human(s.state.to_move()));
  return game_json(s, 0);
}

void GameServer::bot_move(Session& s) {
  const int seat = s.state.to_move();
  try {
    const auto legal = s.rules->legal_actions(s.state);
    if (legal.empty()) throw RulesError(fmt::format("seat {} has no legal action but the game is not over (a bug in the rules)", seat));
    const Action a = s.bots[static_cast<std::size_t>(seat - 1)]->choose(*s.rules, InformationSet(s.state, seat, legal));
    apply_step(*s.rules, s.state, s.history, a, legal.size());
    s.error.clear();
  } catch (const std::exception& e) {
    s.error = std::string("rules error (the game is unchanged): ") + e.what();
    throw ApiError(422, s.error);
  }
}

void GameServer::run_history(Session& s, std::size_t count) {
  GameState state = s.rules->new_game(s.seed);
  std::vector<Step> history;
  for (std::size_t i = 0; i < count; ++i) {
    const auto legal = s.rules->legal_actions(state);
    apply_step(*s.rules, state, history, s.history[i].action, legal.size());
  }
  s.state = std::move(state);
  s.history = std::move(history);
}

json GameServer::undo(const std::string& id, const json& request) {
  Session& s = find(id, false);
  int seat = 0;
  if (request.is_object() && request.contains("seat") && request["seat"].is_number_integer()) seat = request["seat"].get<int>();
  std::size_t keep = s.history.size();
  while (keep > 0 && !(seat ? s.history[keep - 1].seat == seat : s.human(s.history[keep - 1].seat))) --keep;
  if (keep == 0) throw ApiError(409, "nothing to undo: no decision of a person yet");
  const GameState now = s.state;
  const std::vector<Step> played = s.history;
  try {
    run_history(s, keep - 1);
  } catch (const std::exception& e) {
    throw ApiError(422, std::string("rules error while replaying the game from its seed: ") + e.what());
  }
  // Not past a card that seat has seen since (it would choose again knowing it): refused, the game unchanged.
  if (const std::string refusal = undo_refusal(s.state, now, played[keep - 1].seat); !refusal.empty()) {
    s.state = now;
    s.history = played;
    throw ApiError(409, refusal);
  }
  s.error.clear();
  return game_json(s, seat);
}

std::string GameServer::transcript(const std::string& id) {
  Session& s = find(id, false);
  std::ostringstream out;
  TranscriptWriter writer(out);
  writer.header(s.ruleset, s.rules->layout().seats, s.seed, s.players, s.rules->params_json());
  GameState state = s.rules->new_game(s.seed);
  for (const Step& step : s.history) {
    s.rules->apply(state, step.action);
    writer.action(state, step.round, step.seat, step.text, step.legal);
  }
  if (state.over())
    writer.result(*s.rules, state);
  else
    writer.stopped("in progress in houserules serve", state);
  return out.str();
}

json GameServer::new_replay(const std::string& text, const std::string& name) {
  Transcript t;
  try {
    std::istringstream in(text);
    t = read_transcript(in, name);
  } catch (const std::exception& e) {
    throw ApiError(400, e.what());
  }
  if (t.actions.size() > kMaxPlies) throw ApiError(413, fmt::format("the transcript has more than {} actions", kMaxPlies));
  check_ruleset_allowed(t.ruleset);
  auto s = std::make_unique<Session>();
  s->is_replay = true;
  s->ruleset = t.ruleset;
  s->players = t.players;
  s->seed = t.seed;
  s->file = name;
  s->rules = load_for_api(t.ruleset, t.seats);
  s->hints = hints_json(s->rules->info());
  s->players.resize(static_cast<std::size_t>(s->rules->layout().seats), "?");
  for (const TranscriptAction& a : t.actions) {
    s->recorded.push_back(a.action);
    s->recorded_seats.push_back(a.seat);
  }
  try {
    s->state = s->rules->new_game(t.seed);
  } catch (const std::exception& e) {
    throw ApiError(422, e.what());
  }
  // Replay it all once, as `replay` does: the first action that differs stops it, and is shown on the board.
  GameState state = s->state;
  s->checkpoints.push_back(state);
  for (const TranscriptAction& a : t.actions) {
    auto differs = [&](const std::string& what) {
      s->divergence = fmt::format("{}:{}: action {} (seat {}: '{}') differs: {}", name, a.line, a.ply, a.seat,
                                  cut_for_message(a.action), what);
    };
    if (state.over()) { differs("the replayed game is already over"); break; }
    if (a.seat != state.to_move()) { differs(fmt::format("seat {} is to move in the replayed game", state.to_move())); break; }
    try {
      const auto legal = s->rules->legal_actions(state);
      if (a.legal >= 0 && static_cast<std::size_t>(a.legal) != legal.size()) {
        differs(fmt::format("the recorded game had {} legal actions, the replayed game has {}", a.legal, legal.size()));
        break;
      }
      const InputLine line = normalize_input_line(a.action);
      const auto action = line ? s->rules->parse_action(state, line.text) : std::nullopt;
      if (!action) { differs("not legal in the replayed game: " + (line ? s->rules->explain_illegal(state, line.text) : line.error)); break; }
      apply_step(*s->rules, state, s->history, *action, legal.size());
      if (!a.digest.empty() && a.digest != digest_text(state.digest())) {
        s->history.pop_back();
        differs("the state after it differs from the recorded game (digest " + digest_text(state.digest()) + ", recorded " + a.digest + ")");
        break;
      }
    } catch (const std::exception& e) {
      differs(std::string("rules error: ") + e.what());
      break;
    }
    if (s->history.size() % kCheckpoint == 0) s->checkpoints.push_back(state);
  }
  s->playable = s->history.size();
  if (s->divergence.empty() && s->playable == t.actions.size() && t.has_result && state.match_scores() != t.match_scores)
    s->divergence = name + ": the replayed match scores differ from the recorded result";
  Session& added = add(std::move(s));
  return replay(added.id, 0);
}

json GameServer::replay(const std::string& id, std::int64_t at) {
  Session& s = find(id, true);
  if (at < 0 || static_cast<std::size_t>(at) > s.playable)
    throw ApiError(400, fmt::format("'at' must be between 0 and {} (the actions that replay)", s.playable));
  const auto k = static_cast<std::size_t>(at);
  GameState state = s.checkpoints[k / kCheckpoint];
  for (std::size_t i = k / kCheckpoint * kCheckpoint; i < k; ++i) s.rules->apply(state, s.history[i].action);
  json log = log_json(s.history);
  for (std::size_t i = s.playable; i < s.recorded.size(); ++i)
    log.push_back({{"ply", i + 1}, {"seat", s.recorded_seats[i]}, {"action", s.recorded[i]}, {"unplayed", true}});
  json out = {{"id", s.id},         {"ruleset", s.ruleset}, {"name", s.rules->info().name},
              {"file", s.file},     {"players", s.players}, {"seed", s.seed},
              {"at", at},           {"total", s.playable},  {"recorded", s.recorded.size()},
              {"log", log},         {"view", view_json(*s.rules, state)},
              {"hints", s.hints}};
  if (!s.divergence.empty()) out["divergence"] = {{"at", s.playable + 1}, {"message", s.divergence}};
  return out;
}

// ---- HTTP ------------------------------------------------------------------------------------------------

namespace {

json parse_body(const httplib::Request& req) {
  if (req.body.empty()) return json::object();
  try {
    return json::parse(req.body);
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

}  // namespace

void add_routes(httplib::Server& server, GameServer& games, std::mutex& mutex, const std::string& start_replay) {
  server.set_payload_max_length(8u << 20);
  // Every API call holds the one mutex: a Lua state serves one thread at a time.
  auto api = [&](auto fn) {
    return [&, fn](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mutex);
      try {
        fn(req, res);
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
  server.Get("/api/start", api([&](const httplib::Request&, httplib::Response& res) {
    send_json(res, {{"replay", start_replay.empty() ? json(nullptr) : json(start_replay)}, {"max_sessions", GameServer::kMaxSessions}});
  }));
  server.Get("/api/rulesets", api([&](const httplib::Request&, httplib::Response& res) { send_json(res, games.rulesets()); }));
  server.Post("/api/games", api([&](const httplib::Request& req, httplib::Response& res) {
    send_json(res, games.new_game(parse_body(req)), 201);
  }));
  server.Get(R"(/api/games/([A-Za-z0-9]+))", api([&](const httplib::Request& req, httplib::Response& res) {
    send_json(res, games.game(req.matches[1], int_param(req, "seat", 0)));
  }));
  server.Post(R"(/api/games/([A-Za-z0-9]+)/play)", api([&](const httplib::Request& req, httplib::Response& res) {
    send_json(res, games.play(req.matches[1], parse_body(req)));
  }));
  server.Post(R"(/api/games/([A-Za-z0-9]+)/bot)", api([&](const httplib::Request& req, httplib::Response& res) {
    const json body = parse_body(req);
    send_json(res, games.bot_step(req.matches[1], body.is_object() && body.value("until_human", false)));
  }));
  server.Post(R"(/api/games/([A-Za-z0-9]+)/undo)", api([&](const httplib::Request& req, httplib::Response& res) {
    send_json(res, games.undo(req.matches[1], parse_body(req)));
  }));
  server.Get(R"(/api/games/([A-Za-z0-9]+)/transcript)", api([&](const httplib::Request& req, httplib::Response& res) {
    const std::string id = req.matches[1];
    res.set_content(games.transcript(id), "application/x-ndjson");
    res.set_header("Content-Disposition", "attachment; filename=\"" + id + ".jsonl\"");
  }));
  server.Post("/api/replays", api([&](const httplib::Request& req, httplib::Response& res) {
    const std::string name = req.has_param("name") ? cut_for_message(req.get_param_value("name")) : "transcript";
    send_json(res, games.new_replay(req.body, name), 201);
  }));
  server.Get(R"(/api/replays/([A-Za-z0-9]+))", api([&](const httplib::Request& req, httplib::Response& res) {
    send_json(res, games.replay(req.matches[1], int_param(req, "at", 0)));
  }));
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (res.status == 404 && res.body.empty())
      send_json(res, {{"error", "no such page or API call: " + req.method + " " + cut_for_message(req.path)}}, 404);
  });
}

int serve_command(const ServeOptions& options) {
  GameServer games;
  std::mutex mutex;
  std::string start_replay;
  if (!options.replay.empty()) {
    std::ifstream in(options.replay);
    if (!in) {
      std::cerr << "error: cannot open the transcript " << options.replay << '\n';
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    try {
      start_replay = games.new_replay(text.str(), options.replay)["id"].get<std::string>();
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << '\n';
      return 2;
    }
  }
  httplib::Server server;
  add_routes(server, games, mutex, start_replay);
  const char* host = "127.0.0.1";  // never another interface: the page plays with files of this machine
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(host);
  } else if (!server.bind_to_port(host, port)) {
    port = -1;
  }
  if (port < 0) {
    std::cerr << "error: cannot listen on " << host << ":" << options.port << " (in use? try --port 0 for any free port)\n";
    return 2;
  }
  const std::string url = fmt::format("http://{}:{}/", host, port);
  std::cout << "Serving on " << url << (start_replay.empty() ? "" : "#replay=" + start_replay) << " (Ctrl-C stops)"
            << std::endl;
  if (options.open) {
    const std::string command = "xdg-open '" + url + "' >/dev/null 2>&1 &";
    if (std::system(command.c_str()) != 0) std::cout << "Open " << url << " in your browser.\n";
  }
  server.listen_after_bind();
  return 0;
}

}  // namespace hr
