// serve.cpp — `houserules serve`: the game sessions (GameServer) and every API operation on them; the HTTP layer
// over them is http_routes.cpp.
#include "serve.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <functional>
#include <limits>
#include <fstream>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <iostream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "bots.hpp"
#include "css_colour.hpp"
#include "input_line.hpp"
#include "ismcts.hpp"
#include "json_fields.hpp"
#include "play/play.hpp"
#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"
#include "seat_links.hpp"
#include "story.hpp"
#include "tile_previews.hpp"
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

/// The story of `steps` (story.hpp) from the deal of `seed`, as `viewer` saw it (0: the whole state).
json story_of(ScriptedRules& rules, std::uint64_t seed, const std::vector<Step>& steps, int viewer,
              const std::function<bool()>& out_of_time) {
  std::vector<StoryAction> actions;
  actions.reserve(steps.size());
  for (const Step& s : steps) actions.push_back({s.seat, s.action, s.text});
  return story_json(rules, rules.new_game(seed), actions, viewer, out_of_time);
}

json log_json(const std::vector<Step>& steps) {
  json log = json::array();
  for (const Step& s : steps) {
    json entry = {{"ply", s.ply}, {"seat", s.seat}, {"round", s.round}, {"action", s.text}};
    if (!s.round_scores.empty()) entry["round_scores"] = s.round_scores;
    log.push_back(std::move(entry));
  }
  return log;
}

/// A string field the request must have (json_fields.hpp for the type checks).
std::string required_string(const json& request, const char* key) {
  auto value = string_field(request, key);
  if (!value) throw ApiError(400, fmt::format("the request needs '{}' (a string)", key));
  return *value;
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
  check_hint_colours(hints);  // only colours reach the page's CSS (css_colour.hpp)
  return hints;
}

/// Each seat's score of the current round by the ruleset's score hook, counted on `state` as the page's viewer has
/// it: a seat's observation (cards it cannot see are unknown to the hook, so another seat's score counts only what
/// this seat sees) or the whole state. null for a seat whose score the hook could not count (it failed, e.g. on an
/// unknown card). The terminal's table shows the same (Rivals' describe: `score 18`).
json round_scores_seen(ScriptedRules& rules, const GameState& state) {
  json scores = json::array();
  for (int s = 1; s <= rules.layout().seats; ++s) {
    try {
      scores.push_back(rules.score(state, s));
    } catch (const std::exception&) {
      scores.push_back(nullptr);
    }
  }
  return scores;
}

/// The view of `state` for the page: web_view_json plus the scenes of the ruleset's draw_component hook (drawing
/// stops when `out_of_time` says the request's time budget is spent).
json view_json(ScriptedRules& rules, const GameState& state, const std::function<bool()>& out_of_time) {
  json view = web_view_json(rules, state);
  add_scenes(view, rules, state, out_of_time);
  view["scores"] = round_scores_seen(rules, state);
  return view;
}

bool inside(const std::filesystem::path& path, const std::filesystem::path& dir) {
  const auto rel = path.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

struct GameServer::Session {
  std::mutex mutex;                 // held by the request working on this session (Lease)
  std::atomic<std::size_t> heap{0};  // its Lua heap in bytes, recorded when a request releases it
  std::string id;
  bool is_replay = false;
  std::string ruleset;  // as given: id or path
  std::vector<std::string> players;
  std::uint64_t seed = 0;
  std::unique_ptr<ScriptedRules> rules;
  std::vector<std::unique_ptr<Player>> bots;  // nullptr for a human seat
  std::vector<std::string> keys;  // keys[s - 1]: seat s's secret key (empty for a bot); set before add, then read-only
  std::atomic<std::uint64_t> version{0};  // changes so far (actions, undos): read without the lock by version()
  std::atomic<bool> over{false};
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

/// The session the current request on this thread holds locked, and the request's deadline.
struct GameServer::Lease {
  GameServer* owner = nullptr;
  std::shared_ptr<Session> session;
  std::unique_lock<std::mutex> lock;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

thread_local std::unique_ptr<GameServer::Lease> GameServer::t_lease;

GameServer::GameServer(ServerBudget budget, Keyless keyless)
    : budget_(budget), keyless_(keyless), id_salt_(std::random_device{}()) {}
GameServer::~GameServer() {
  if (t_lease && t_lease->owner == this) t_lease.reset();
}

GameServer::Request::Request(GameServer& server) : server_(server) {
  server_.release();
  if (!t_lease) t_lease = std::make_unique<Lease>();
  t_lease->owner = &server_;
  t_lease->deadline = std::chrono::steady_clock::now() + server_.budget_.request_time;
}

GameServer::Request::~Request() {
  server_.release();
  if (t_lease) t_lease->deadline.reset();
}

bool GameServer::out_of_time() const {
  return t_lease && t_lease->owner == this && t_lease->deadline && std::chrono::steady_clock::now() > *t_lease->deadline;
}

void GameServer::release() {
  if (!t_lease || t_lease->owner != this || !t_lease->session) return;
  const std::shared_ptr<Session> s = std::move(t_lease->session);
  t_lease->session.reset();
  if (s->rules) s->heap = s->rules->lua_memory();
  if (t_lease->lock.owns_lock()) t_lease->lock.unlock();
  t_lease->lock = {};
  enforce_budget();
}

void GameServer::enforce_budget() {
  std::vector<std::shared_ptr<Session>> evicted;  // destroyed after the list's lock is released
  {
    std::lock_guard<std::mutex> guard(mutex_);
    std::size_t total = 0;
    for (const auto& s : sessions_) total += s->heap;
    const Session* held = t_lease && t_lease->owner == this ? t_lease->session.get() : nullptr;
    for (auto it = sessions_.end(); total > budget_.memory_bytes && it != sessions_.begin();) {
      --it;
      if (it->get() == held) continue;
      std::unique_lock<std::mutex> idle((*it)->mutex, std::try_to_lock);
      if (!idle.owns_lock()) continue;  // busy: another request works on it
      total -= (*it)->heap;
      idle.unlock();
      evicted.push_back(*it);
      it = sessions_.erase(it);
    }
  }
  if (!evicted.empty()) {
    evicted.clear();
#if defined(__GLIBC__)
    malloc_trim(0);  // give the evicted Lua heaps back to the system
#endif
  }
}

std::size_t GameServer::lua_memory() const {
  std::lock_guard<std::mutex> guard(mutex_);
  std::size_t total = 0;
  for (const auto& s : sessions_) total += s->heap;
  return total;
}

std::size_t GameServer::sessions() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return sessions_.size();
}

void GameServer::check_bot_setting(const std::string& setting, const std::string& ruleset_options) {
  const std::size_t colon = setting.find(':');
  if (setting.substr(0, colon) != "ismcts") return;
  std::string options = ruleset_options;
  if (colon != std::string::npos && colon + 1 < setting.size()) options += (options.empty() ? "" : ":") + setting.substr(colon + 1);
  IsmctsOptions parsed;
  try {
    parsed = IsmctsOptions::parse(options);
  } catch (const std::exception& e) {
    throw ApiError(400, fmt::format("player '{}': {}", cut_for_message(setting, 80), e.what()));
  }
  if (parsed.iterations < 1 || parsed.iterations > kMaxBotIterations)
    throw ApiError(400, fmt::format("player '{}': option 'iterations' must be from 1 to {} in serve (it is {})",
                                    cut_for_message(setting, 80), kMaxBotIterations, parsed.iterations));
  if (!(parsed.time_ms >= 0 && parsed.time_ms <= static_cast<double>(kMaxBotTimeMs)))
    throw ApiError(400, fmt::format("player '{}': option 'time_ms' must be from 0 to {} in serve (it is {:g})",
                                    cut_for_message(setting, 80), kMaxBotTimeMs, parsed.time_ms));
}

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

std::string GameServer::rules_page(const std::string& id) const {
  for (const RulesetInfo& info : list_rulesets()) {
    if (info.id != id) continue;
    const std::filesystem::path page = info.dir / "README.md";
    std::ifstream in(page);
    if (!in_ruleset_folders(page) || !in) break;  // a README linked from outside the folders is not read
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  throw ApiError(404, fmt::format("no rules page for '{}': not a ruleset id of /api/rulesets, or it has no README.md",
                                  cut_for_message(id, 80)));
}

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
  release();
  std::shared_ptr<Session> s(std::move(session));
  std::unique_lock<std::mutex> lock(s->mutex);
  s->heap = s->rules ? s->rules->lua_memory() : 0;
  std::vector<std::shared_ptr<Session>> dropped;  // destroyed after the list's lock is released
  {
    std::lock_guard<std::mutex> guard(mutex_);
    s->id = fmt::format("{}{:x}{:x}", s->is_replay ? 'r' : 'g', next_id_++, id_salt_ & 0xFFFFFF);
    while (sessions_.size() >= kMaxSessions) {  // the one used longest ago
      dropped.push_back(sessions_.back());
      sessions_.pop_back();
    }
    sessions_.push_front(s);
  }
  if (!t_lease) t_lease = std::make_unique<Lease>();
  t_lease->owner = this;
  t_lease->session = s;
  t_lease->lock = std::move(lock);
  dropped.clear();
  enforce_budget();
  return *s;
}

GameServer::Session& GameServer::find(const std::string& id, bool replay) {
  if (t_lease && t_lease->owner == this && t_lease->session && t_lease->session->id == id &&
      t_lease->session->is_replay == replay)
    return *t_lease->session;
  release();  // the session an earlier call on this thread held
  std::shared_ptr<Session> found;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
      if ((*it)->id == id && (*it)->is_replay == replay) {
        sessions_.splice(sessions_.begin(), sessions_, it);  // most recently used first
        found = sessions_.front();
        break;
      }
  }
  if (found) {
    std::unique_lock<std::mutex> lock(found->mutex);  // waits only for a request on this same session
    if (!t_lease) t_lease = std::make_unique<Lease>();
    t_lease->owner = this;
    t_lease->session = found;
    t_lease->lock = std::move(lock);
    return *found;
  }
  throw ApiError(404, fmt::format("no {} '{}' (the server keeps the {} most recent games and replays within its "
                                  "memory budget of {} MiB; it may have been evicted or the server restarted)",
                                  replay ? "replay" : "game", cut_for_message(id), kMaxSessions,
                                  budget_.memory_bytes >> 20));
}

json GameServer::new_game(const json& body) {
  const json& request = request_object(body, {"ruleset", "players", "seed"});
  const std::string ruleset = required_string(request, "ruleset");
  std::vector<std::string> players = string_list_field(request, "players").value_or(std::vector<std::string>{});
  const std::uint64_t seed = uint_field(request, "seed").value_or(0);
  const bool seeded = uint_field(request, "seed").has_value();
  check_ruleset_allowed(ruleset);
  if (seeded && keyless_ != Keyless::trusted && std::count(players.begin(), players.end(), "human") >= 2)
    throw ApiError(400, "a seed cannot be chosen for a game of several people on a shared server: whoever chose it "
                        "could deal the cards again and know every hand (leave 'seed' out: a fresh one is drawn)");
  if (players.size() > static_cast<std::size_t>(kMaxSeats)) throw ApiError(400, fmt::format("at most {} players", kMaxSeats));
  auto s = std::make_unique<Session>();
  s->ruleset = ruleset;
  s->seed = seeded ? seed : fresh_seed();
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
      try {
        s->keys.push_back(new_seat_key());
      } catch (const std::exception& e) {
        throw ApiError(500, e.what());
      }
      continue;
    }
    s->keys.emplace_back();
    check_bot_setting(players[i], s->rules->bot_options("ismcts"));
    std::unique_ptr<Player> bot;
    try {
      bot = make_bot(players[i], derive_seed(s->seed, 1000 + i), s->rules.get());
    } catch (const std::exception& e) {
      throw ApiError(400, e.what());
    }
    if (!bot) throw ApiError(400, fmt::format("unknown player '{}' (choose human, random, greedy or ismcts[:key=value...])",
                                              cut_for_message(players[i])));
    s->bots.push_back(std::move(bot));
  }
  try {
    s->state = s->rules->new_game(s->seed);
  } catch (const std::exception& e) {
    throw ApiError(422, e.what());
  }
  Session& added = add(std::move(s));
  int creator = 0;  // trusted: the hot seat; otherwise the creator plays the first human seat
  for (int i = 1; keyless_ != Keyless::trusted && i <= static_cast<int>(added.keys.size()) && !creator; ++i)
    if (added.human(i)) creator = i;
  json out = game_json(added, creator, creator);
  json links = json::array();
  for (std::size_t i = 0; i < added.keys.size(); ++i)
    if (!added.keys[i].empty()) links.push_back({{"seat", i + 1}, {"key", added.keys[i]}});
  out["links"] = links;
  return out;
}

json GameServer::game(const std::string& id, int seat, const std::string& key, int at) {
  Session& s = find(id, false);
  const int caller = caller_of(s, key);
  if (at >= 0 && static_cast<std::size_t>(at) > s.history.size())
    throw ApiError(400, fmt::format("at={}: the game has {} actions", at, s.history.size()));
  return game_json(s, seat, caller, at);
}

json GameServer::version(const std::string& id, const std::string& key) {
  std::shared_ptr<Session> found;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    for (auto it = sessions_.begin(); it != sessions_.end() && !found; ++it)
      if ((*it)->id == id && !(*it)->is_replay) {
        sessions_.splice(sessions_.begin(), sessions_, it);  // a game people watch stays among the recent ones
        found = sessions_.front();
      }
  }
  if (!found) {  // gone: find() says so (404); a game added meanwhile is read under its lock
    Session& s = find(id, false);
    caller_of(s, key);
    return {{"version", s.version.load()}, {"over", s.over.load()}};
  }
  caller_of(*found, key);  // keys are read-only once the game is added
  return {{"version", found->version.load()}, {"over", found->over.load()}};
}

/// The seat whose key `key` is (> 0); without a key, 0 when keyless() is trusted and -1 for a spectator. Throws
/// ApiError 403 for a key not of this game, or without a key when keyless() is refused.
int GameServer::caller_of(const Session& s, const std::string& key) const {
  if (!key.empty()) {
    const int seat = seat_of_key(key, s.keys);
    if (seat == 0)
      throw ApiError(403, "forbidden: this seat link is not one of this game's (a link opens one game's seat: ask "
                          "the person who started the game for yours)");
    return seat;
  }
  if (keyless_ == Keyless::refused)
    throw ApiError(403, "forbidden: this server's tables are private: open the game with your seat link (the "
                        "person who started the game has it)");
  return keyless_ == Keyless::trusted ? 0 : -1;
}

json GameServer::game_json(Session& s, int seat, int caller, int at) {
  const int seats = s.rules->layout().seats;
  if (seat < 0 || seat > seats) throw ApiError(400, fmt::format("seat {} does not exist (1 to {})", seat, seats));
  if (caller > 0 && seat != 0 && seat != caller)
    throw ApiError(403, fmt::format("forbidden: your link is seat {}'s: it may not see seat {}'s hand", caller, seat));
  if (caller < 0 && seat != 0)
    throw ApiError(403, fmt::format("forbidden: without a seat link you see the public table only, not seat {}'s "
                                    "hand (open the game with your seat link)", seat));
  if (caller > 0) seat = caller;
  if (seat == 0 && caller == 0) {
    if (s.human(s.state.to_move()) && !s.state.over()) seat = s.state.to_move();
    for (int i = seats; i >= 1 && seat == 0; --i)
      if (s.human(i)) seat = i;
    for (int i = 1; i <= seats; ++i)
      if (s.human(i) && seat == 0) seat = i;
  }
  // Over, or bots only: the whole table, as players show their hands at the end. A spectator: what every seat sees.
  const bool everything = s.state.over() || (seat == 0 && caller == 0);
  const auto out_of_time_now = [this] { return out_of_time(); };
  // A moment of the game (`at`: after that many actions, replayed from the seed): seen as this viewer saw it then
  // (a seat's observation of that state: what it knew at that moment, nothing shown to it later).
  const bool moment = at >= 0 && static_cast<std::size_t>(at) < s.history.size();
  GameState past;
  if (moment) {
    past = s.rules->new_game(s.seed);
    for (int i = 0; i < at; ++i) {
      if (out_of_time())
        throw ApiError(503, fmt::format("action {} could not be replayed within the server's time budget for one "
                                        "request; the game is unchanged", at));
      s.rules->apply(past, s.history[static_cast<std::size_t>(i)].action);
    }
  }
  const GameState& shown = moment ? past : s.state;
  json view_out;
  if (everything) {
    view_out = view_json(*s.rules, shown, out_of_time_now);
  } else if (seat > 0) {
    view_out = view_json(*s.rules, shown.observation(seat), out_of_time_now);
  } else {
    std::vector<json> views;
    for (int i = 1; i <= seats; ++i) views.push_back(view_json(*s.rules, shown.observation(i), out_of_time_now));
    view_out = common_view(views);
    view_out["viewer"] = 0;
    // a spectator gets no score: whether the seats' counts agree would tell whether hidden cards count
    view_out["scores"] = json::array();
    for (int i = 1; i <= seats; ++i) view_out["scores"].push_back(nullptr);
  }
  json legal = json::array();
  json previews = json::object();
  if (!moment && !s.state.over() && seat == s.state.to_move() && s.human(seat)) {
    const auto actions = s.rules->legal_actions(s.state);
    for (const Action a : actions) legal.push_back(s.rules->action_text(s.state, a));
    previews = tile_previews(*s.rules, s.state, seat, actions, out_of_time_now);  // where each `lay` would put its tile
  }
  bool can_undo = false;
  for (const Step& step : s.history) can_undo = can_undo || (caller > 0 ? step.seat == caller : caller == 0 && s.human(step.seat));
  json out = {{"id", s.id},
              {"ruleset", s.ruleset},
              {"name", s.rules->info().name},
              {"players", s.players},
              // a string (64-bit seeds lose precision as JavaScript numbers); hidden from a seat link while it plays
              {"seed", caller != 0 && !s.state.over() ? json("hidden") : json(std::to_string(s.seed))},
              {"seat", seat},
              {"version", s.version.load()},
              {"view", std::move(view_out)},
              {"legal", legal},
              {"previews", std::move(previews)},
              {"log", log_json(s.history)},
              // as this page's viewer saw the game: the whole state, its seat, or a spectator (-1: action texts only)
              {"story", story_of(*s.rules, s.seed, s.history, everything ? 0 : seat > 0 ? seat : -1, out_of_time_now)},
              {"can_undo", can_undo},
              {"bot_to_move", !s.state.over() && !s.human(s.state.to_move())},
              {"error", s.error},
              {"hints", s.hints}};
  if (s.state.over()) out["result"] = {{"match_scores", s.state.match_scores()}, {"ranks", s.rules->ranks(s.state)}};
  if (moment) out.update({{"at", at}, {"total", s.history.size()}});
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

json GameServer::play(const std::string& id, const json& body, const std::string& key) {
  const json& request = request_object(body, {"seat", "action", "index"});
  const auto seat_field = int_field(request, "seat", 1, kMaxSeats);
  const auto index_field = int_field(request, "index", 0, std::numeric_limits<std::int64_t>::max());
  const auto action_field = string_field(request, "action");
  if (!index_field && !action_field) throw ApiError(400, "the request needs 'action' (a string) or 'index' (a whole number)");
  Session& s = find(id, false);
  const int caller = caller_of(s, key);
  if (caller < 0) throw ApiError(403, "forbidden: without a seat link you may watch but not play (open the game with your seat link)");
  if (caller > 0 && seat_field && *seat_field != caller)
    throw ApiError(403, fmt::format("forbidden: your link is seat {}'s: it may not act for seat {}", caller, *seat_field));
  const int seat = caller > 0 ? caller : seat_field ? static_cast<int>(*seat_field) : s.state.to_move();
  if (s.state.over()) throw ApiError(409, "the game is over");
  if (seat != s.state.to_move()) throw ApiError(409, fmt::format("it is seat {}'s turn, not seat {}'s", s.state.to_move(), seat));
  if (!s.human(seat)) throw ApiError(409, fmt::format("seat {} is played by a bot", seat));
  const auto legal = s.rules->legal_actions(s.state);
  Action action = 0;
  if (index_field) {
    const std::int64_t index = *index_field;
    if (static_cast<std::size_t>(index) >= legal.size())
      throw ApiError(422, fmt::format("there is no action number {}: choose 0 to {}", index, legal.size() - 1));
    action = legal[static_cast<std::size_t>(index)];
  } else {
    const InputLine text = normalize_input_line(*action_field);
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
  changed(s);
  return game_json(s, seat, caller);
}

json GameServer::bot_step(const std::string& id, bool until_human, const std::string& key) {
  Session& s = find(id, false);
  const int caller = caller_of(s, key);
  bool people = false;  // a game of bots only has no seat link: anyone who sees it may move it on
  for (std::size_t i = 1; i <= s.bots.size(); ++i) people = people || s.human(static_cast<int>(i));
  if (caller < 0 && people) throw ApiError(403, "forbidden: without a seat link you may watch but not move the bots (open the game with your seat link)");
  if (s.state.over()) throw ApiError(409, "the game is over");
  const int seat = s.state.to_move();
  if (s.human(seat)) throw ApiError(409, fmt::format("seat {} (a person) is to move, not a bot", seat));
  const auto moved = [&] { changed(s); };
  do {
    bot_move(s, moved);  // the page asks again for the rest when the request's time budget is spent
  } while (until_human && !s.state.over() && !s.human(s.state.to_move()) && !out_of_time());
  return game_json(s, 0, caller);
}

void GameServer::changed(Session& s) {
  s.version.fetch_add(1);
  s.over = s.state.over();
}

void GameServer::bot_move(Session& s, const std::function<void()>& moved) {
  const int seat = s.state.to_move();
  try {
    const auto legal = s.rules->legal_actions(s.state);
    if (legal.empty()) throw RulesError(fmt::format("seat {} has no legal action but the game is not over (a bug in the rules)", seat));
    const Action a = s.bots[static_cast<std::size_t>(seat - 1)]->choose(*s.rules, InformationSet(s.state, seat, legal));
    apply_step(*s.rules, s.state, s.history, a, legal.size());
    s.error.clear();
    moved();
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

json GameServer::undo(const std::string& id, const json& request, const std::string& key) {
  Session& s = find(id, false);
  const int caller = caller_of(s, key);
  if (caller < 0) throw ApiError(403, "forbidden: without a seat link you may watch but not undo (open the game with your seat link)");
  int seat = 0;
  if (request.is_object() && request.contains("seat") && request["seat"].is_number_integer()) seat = request["seat"].get<int>();
  if (caller > 0 && seat != 0 && seat != caller)
    throw ApiError(403, fmt::format("forbidden: your link is seat {}'s: it may not undo seat {}'s move", caller, seat));
  if (caller > 0) seat = caller;
  std::size_t keep = s.history.size();
  while (keep > 0 && !(seat ? s.history[keep - 1].seat == seat : s.human(s.history[keep - 1].seat))) --keep;
  if (keep == 0) throw ApiError(409, seat ? fmt::format("nothing to undo: seat {} has made no decision yet", seat)
                                         : std::string("nothing to undo: no decision of a person yet"));
  // A seat link takes back only its own move and the bots' replies, never another person's decision.
  for (std::size_t i = keep; caller > 0 && i < s.history.size(); ++i)
    if (s.human(s.history[i].seat) && s.history[i].seat != caller)
      throw ApiError(409, fmt::format("Undo refused: seat {} has decided since your last move; an undo would take "
                                      "their move back too", s.history[i].seat));
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
  changed(s);
  return game_json(s, seat, caller);
}

std::string GameServer::transcript(const std::string& id, const std::string& key) {
  Session& s = find(id, false);
  if (caller_of(s, key) != 0 && !s.state.over())
    throw ApiError(403, "forbidden: the transcript is given when the game is over (it holds the seed, which deals "
                        "every hidden card)");
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
    if (out_of_time()) {
      s->divergence = fmt::format("{}:{}: not replayed from action {} on: the server's time budget of {} s for one "
                                  "request ran out (`houserules replay` checks the whole file)", name, a.line, a.ply,
                                  std::chrono::duration_cast<std::chrono::seconds>(budget_.request_time).count());
      break;
    }
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
              {"file", s.file},     {"players", s.players}, {"seed", std::to_string(s.seed)},
              {"at", at},           {"total", s.playable},  {"recorded", s.recorded.size()},
              {"log", log},         {"view", view_json(*s.rules, state, [this] { return out_of_time(); })},
              {"hints", s.hints},
              {"story", story_of(*s.rules, s.seed, s.history, 0, [this] { return out_of_time(); })}};
  if (!s.divergence.empty()) out["divergence"] = {{"at", s.playable + 1}, {"message", s.divergence}};
  return out;
}

}  // namespace hr
