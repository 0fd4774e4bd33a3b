// scripted_rules.cpp — hr::Rules over a Lua rules script: loading, hook calls, result checking.
#include "scripted_rules.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "binding_context.hpp"
#include "printable.hpp"
#include "scene.hpp"
#include "toml_util.hpp"

namespace hr {

namespace {

void push_toml(lua_State* L, const toml::node& node) {
  if (auto t = node.as_table()) {
    lua_createtable(L, 0, static_cast<int>(t->size()));
    for (const auto& [key, value] : *t) {
      push_toml(L, value);
      lua_setfield(L, -2, std::string(key.str()).c_str());
    }
  } else if (auto a = node.as_array()) {
    lua_createtable(L, static_cast<int>(a->size()), 0);
    lua_Integer i = 0;
    for (const auto& value : *a) {
      push_toml(L, value);
      lua_rawseti(L, -2, ++i);
    }
  } else if (auto s = node.as_string()) {
    lua_pushstring(L, s->get().c_str());
  } else if (auto i = node.as_integer()) {
    lua_pushinteger(L, i->get());
  } else if (auto f = node.as_floating_point()) {
    lua_pushnumber(L, f->get());
  } else if (auto b = node.as_boolean()) {
    lua_pushboolean(L, b->get());
  } else {
    lua_pushstring(L, "(date/time)");  // dates have no use in rules; kept as text
  }
}

nlohmann::json toml_to_json(const toml::node& node) {
  if (auto t = node.as_table()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, value] : *t) out[std::string(key.str())] = toml_to_json(value);
    return out;
  }
  if (auto a = node.as_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& value : *a) out.push_back(toml_to_json(value));
    return out;
  }
  if (auto s = node.as_string()) return s->get();
  if (auto i = node.as_integer()) return i->get();
  if (auto f = node.as_floating_point()) return f->get();
  if (auto b = node.as_boolean()) return b->get();
  return nullptr;
}

/// Binds a state to the game userdata for the duration of one hook call.
class Binding {
 public:
  Binding(ScriptedRules::Impl& impl, const GameState& state, bool writable, const char* hook) : impl_(impl) {
    impl.binding->state = const_cast<GameState*>(&state);
    impl.binding->writable = writable;
    impl.binding->hook = hook;
    impl.sandbox.set_random_source(writable ? &const_cast<GameState&>(state).rng() : nullptr);
  }
  ~Binding() {
    impl_.binding->state = nullptr;
    impl_.binding->writable = false;
    impl_.sandbox.set_random_source(nullptr);
  }
  Binding(const Binding&) = delete;
  Binding& operator=(const Binding&) = delete;

 private:
  ScriptedRules::Impl& impl_;
};

/// The integer at `index`, strictly: a Lua integer (not 3.0, not "3").
bool strict_integer(lua_State* L, int index, lua_Integer& out) {
  if (!lua_isinteger(L, index)) return false;
  out = lua_tointeger(L, index);
  return true;
}

/// The string a hook returned (at the top, popped), checked against `limit` bytes. Action texts are names
/// (no control characters at all); other texts have their control characters escaped, newlines kept where
/// `multi_line`.
std::string hook_text(lua_State* L, const char* hook, std::size_t limit, bool multi_line) {
  std::size_t length = 0;
  const char* text = lua_tolstring(L, -1, &length);
  const std::string value(text, length);
  lua_pop(L, 1);
  if (length > limit)
    throw ScriptError(std::string("hook '") + hook + "' returned a text of " + std::to_string(length) +
                      " bytes; the limit is " + std::to_string(limit));
  return printable(value, multi_line);
}

/// Whether `source`, a file name as a Lua traceback shows it (cut to "...tail" when long), names `file`.
bool same_source(std::string_view source, std::string_view file) {
  if (source.substr(0, 3) == "...") return file.ends_with(source.substr(3));
  return source == file;
}

/// The error of variant script `file` while it loads (`error`: Sandbox::call's "<what> failed: message" and
/// the traceback), as "file:line: message" alone: the line in the variant (from the traceback when the error
/// was raised in the parent's code the variant called), without the parent's frames (issue 32).
std::string variant_error(const std::string& error, const std::string& what, const std::string& file) {
  std::string message = error;
  if (const std::string prefix = what + " failed: "; message.starts_with(prefix)) message.erase(0, prefix.size());
  std::string trace;
  if (const auto cut = message.find("\nstack traceback:"); cut != std::string::npos) {
    trace = message.substr(cut);
    message.erase(cut);
  }
  const auto colon = message.find(':');
  if (colon != std::string::npos && same_source(std::string_view(message).substr(0, colon), file)) {
    return file + message.substr(colon);  // (the file's whole name, where Lua cut a long one)
  }
  std::istringstream lines(trace);
  for (std::string line; std::getline(lines, line);) {  // "\tv.lua:7: in main chunk"
    const auto start = line.find_first_not_of('\t');
    if (start == std::string::npos) continue;
    const auto at = line.find(':', start);
    if (at == std::string::npos) continue;
    const auto end = line.find(':', at + 1);
    const std::string number = end == std::string::npos ? "" : line.substr(at + 1, end - at - 1);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) continue;
    if (same_source(std::string_view(line).substr(start, at - start), file)) return file + ":" + number + ": " + message;
  }
  return message;
}

/// Where the hook with registry reference `hook` is defined ("rulesets/x/rules.lua:12"): the file and line that
/// the messages about what a hook returned name (its error has none: it returned, it did not raise).
std::string hook_defined_at(lua_State* L, int hook) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, hook);
  lua_Debug ar{};
  std::string at = "(unknown file)";
  if (lua_getinfo(L, ">S", &ar) && ar.source && ar.source[0] == '@')
    at = printable(std::string(ar.source + 1)) + ":" + std::to_string(ar.linedefined);
  return at;
}

void push_hook(lua_State* L, const ScriptedRules::Impl& impl, int hook) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, hook);
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.game_ref);
}

}  // namespace

ScriptedRules::ScriptedRules(const RulesetInfo& info, const LoadOptions& options)
    : info_(info), impl_(std::make_unique<Impl>(Sandbox::Limits{options.memory_limit, options.hook_time_limit})) {
  Impl& impl = *impl_;
  impl.layout = &layout_;
  impl.sandbox.owner = &impl;
  impl.clear_action_lists = options.clear_action_lists;
  impl.check_remembered = options.check_remembered_answers;
  for (const VariantInfo& v : info.variants) impl.additions.insert(impl.additions.end(), v.additions.begin(), v.additions.end());
  // require() looks in the newest variant's folder first, then its parents', then the base ruleset's.
  std::vector<std::filesystem::path> roots;
  for (auto v = info.variants.rbegin(); v != info.variants.rend(); ++v) {
    const auto dir = v->file.parent_path();
    if (std::find(roots.begin(), roots.end(), dir) == roots.end()) roots.push_back(dir);
  }
  if (std::find(roots.begin(), roots.end(), info.dir) == roots.end()) roots.push_back(info.dir);
  impl.sandbox.set_module_roots(roots);
  lua_State* L = impl.sandbox.lua();
  layout_.seats = options.seats ? options.seats : info.default_players;
  if (layout_.seats < info.min_players || layout_.seats > info.max_players)
    throw LoadError(info.id + " is played by " + std::to_string(info.min_players) +
                    (info.max_players > info.min_players ? " to " + std::to_string(info.max_players) : std::string()) +
                    " players, not " + std::to_string(layout_.seats));

  const toml::table params_table = effective_params(info, nullptr, layout_.seats);
  params_json_ = toml_to_json(params_table).dump();
  push_toml(L, params_table);
  impl.sandbox.make_read_only();
  push_houserules_api(L, impl, info);
  impl.sandbox.make_read_only(1);
  lua_setglobal(L, "houserules");

  impl.sandbox.load_file(info.entry);
  const std::string loading = "loading " + Sandbox::display_path(info.entry);
  try {
    impl.sandbox.call(loading.c_str(), 0, 1);
  } catch (const ScriptError& e) {
    throw LoadError(e.what());
  }
  if (!lua_istable(L, -1))
    throw LoadError(Sandbox::display_path(info.entry) + " must return its rules table (it returned a " +
                    luaL_typename(L, -1) + ")");
  // Each variant script receives the rules so far and returns the changed rules (innermost variant first).
  for (const VariantInfo& variant : info.variants) {
    if (variant.script.empty()) continue;
    impl.sandbox.load_file(variant.script);
    lua_insert(L, -2);  // the chunk below the parent's rules, its one argument
    const std::string what = "loading " + Sandbox::display_path(variant.script);
    try {
      impl.sandbox.call(what.c_str(), 1, 1);
    } catch (const ScriptError& e) {
      throw LoadError(variant_error(e.what(), what, Sandbox::display_path(variant.script)));
    }
    if (!lua_istable(L, -1))
      throw LoadError(Sandbox::display_path(variant.script) + " must return the changed rules table (it returned a " +
                      luaL_typename(L, -1) + "); start it with `local rules = ...` and end it with `return rules`");
  }
  impl.loading = false;
  if (!impl.declared)
    throw LoadError(Sandbox::display_path(info.entry) +
                    " must call houserules.declare{components=..., zones=...} while it loads");
  const int rules = lua_gettop(L);
  std::string missing;
  auto hook = [&](const char* name, int& ref, bool required) {
    const int type = lua_getfield(L, rules, name);
    if (type == LUA_TFUNCTION) {
      ref = luaL_ref(L, LUA_REGISTRYINDEX);
      hook_names_.emplace_back(name);
      return;
    }
    if (type != LUA_TNIL)
      throw LoadError(Sandbox::display_path(info.entry) + ": rules." + name + " must be a function, not a " +
                      luaL_typename(L, -1));
    lua_pop(L, 1);
    if (required) missing += std::string(missing.empty() ? "" : ", ") + name;
  };
  hook("setup", impl.hook_setup, false);
  hook("start_round", impl.hook_start_round, true);
  hook("actions", impl.hook_actions, true);
  hook("apply", impl.hook_apply, true);
  hook("action_text", impl.hook_action_text, true);
  hook("score", impl.hook_score, true);
  hook("describe", impl.hook_describe, false);
  hook("explain", impl.hook_explain, false);
  hook("heuristic", impl.hook_heuristic, false);
  hook("ranks", impl.hook_ranks, false);
  hook("invariants", impl.hook_invariants, false);
  hook("shorthand", impl.hook_shorthand, false);
  hook("score_breakdown", impl.hook_score_breakdown, false);
  hook("draw_component", impl.hook_draw, false);
  hook("turn_summary", impl.hook_turn_summary, false);
  if (!missing.empty())
    throw LoadError(Sandbox::display_path(info.entry) + ": the rules table lacks the required hooks: " + missing);
  static const char* const kHooks[] = {"setup", "start_round", "actions", "apply", "action_text", "score",
                                       "describe", "explain", "heuristic", "ranks", "invariants",
                                       "score_breakdown", "draw_component",
                                       "turn_summary"};
  lua_pushnil(L);
  while (lua_next(L, rules)) {  // the named rules: every other function of the table (sorted below)
    if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TFUNCTION) {
      const std::string name = lua_tostring(L, -2);
      if (std::none_of(std::begin(kHooks), std::end(kHooks), [&](const char* h) { return name == h; }))
        rule_functions_.push_back(name);
    }
    lua_pop(L, 1);
  }
  std::sort(rule_functions_.begin(), rule_functions_.end());
  impl.rules_ref = luaL_ref(L, LUA_REGISTRYINDEX);  // pops the rules table
  create_game_binding(L, impl);
  create_actions_out(L, impl);
  impl.sandbox.freeze();
}

ScriptedRules::~ScriptedRules() = default;

std::size_t ScriptedRules::lua_memory() const { return impl_->sandbox.memory_used(); }

void ScriptedRules::setup(GameState& state) {
  if (impl_->hook_setup == LUA_NOREF) return;
  Binding bound(*impl_, state, true, "setup");
  push_hook(impl_->sandbox.lua(), *impl_, impl_->hook_setup);
  impl_->sandbox.call("hook 'setup'", 1, 0);
}

void ScriptedRules::start_round(GameState& state) {
  Binding bound(*impl_, state, true, "start_round");
  push_hook(impl_->sandbox.lua(), *impl_, impl_->hook_start_round);
  impl_->sandbox.call("hook 'start_round'", 1, 0);
}

void ScriptedRules::generate_actions(const GameState& state, std::vector<Action>& out) {
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, false, "actions");
  push_hook(L, *impl_, impl_->hook_actions);
  // The hook may fill this reused list and return the count (no table is allocated or grown per call),
  // or return a list of its own.
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl_->actions_out_ref);
  lua_pushinteger(L, state.to_move());  // the seat to move and the phase: what the hook reads first
  lua_pushinteger(L, state.phase());
  impl_->sandbox.call("hook 'actions'", 4, 1);
  lua_Integer n;
  bool filled = false;
  if (lua_type(L, -1) == LUA_TNUMBER) {
    const bool is_integer = strict_integer(L, -1, n);
    lua_pop(L, 1);
    if (!is_integer || n < 0) throw ScriptError("hook 'actions' returned a count that is not a whole number >= 0");
    if (impl_->out_buffered) return read_buffered_actions(n, out);
    lua_rawgeti(L, LUA_REGISTRYINDEX, impl_->actions_out_ref);
    filled = true;
  } else if (lua_istable(L, -1)) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, impl_->actions_out_ref);
    const bool itself = lua_rawequal(L, -1, -2);
    lua_pop(L, 1);
    if (itself) {  // its length counts entries this call did not keep (issue 35: the filter-in-place trap)
      lua_pop(L, 1);
      throw ScriptError(kOutReturned);
    }
    n = static_cast<lua_Integer>(lua_rawlen(L, -1));
  } else {
    const std::string type = luaL_typename(L, -1);
    lua_pop(L, 1);
    throw ScriptError("hook 'actions' must return a list of actions (integers), or fill its second argument and "
                      "return the count; it returned a " + type);
  }
  if (n > kMaxActions) {
    lua_pop(L, 1);
    throw ScriptError("hook 'actions' offered " + std::to_string(n) + " actions; the limit is " +
                      std::to_string(kMaxActions));
  }
  out.resize(static_cast<std::size_t>(n));
  const int list = lua_gettop(L);
  if (!lua_checkstack(L, 33)) throw ScriptError("hook 'actions': out of Lua stack space");
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_Integer action = 0;
    lua_rawgeti(L, list, i);  // popped all at once below
    if (!strict_integer(L, -1, action) || action < INT32_MIN || action > INT32_MAX) {
      lua_settop(L, list - 1);
      throw ScriptError("hook 'actions': entry " + std::to_string(i) + " is not an integer action" +
                        (filled ? " (is the count past the entries the hook filled?)" : ""));
    }
    out[static_cast<std::size_t>(i - 1)] = static_cast<Action>(action);
    if (filled && impl_->clear_action_lists) {  // a later call's count past what it filled finds nil
      lua_pushnil(L);
      lua_rawseti(L, list, i);
    }
    if ((i & 31) == 0) lua_settop(L, list);  // stay within the stack space Lua guarantees
  }
  lua_settop(L, list - 1);
}

void ScriptedRules::read_buffered_actions(lua_Integer n, std::vector<Action>& out) {
  // Every entry of `out` is in the kernel's buffer (the batch methods appended them; a write from the script
  // would have made the list plain): the same checks as generate_actions makes on a Lua list, without a C API
  // call per entry.
  if (n > kMaxActions)
    throw ScriptError("hook 'actions' offered " + std::to_string(n) + " actions; the limit is " +
                      std::to_string(kMaxActions));
  std::vector<lua_Integer>& buffer = impl_->out_buffer;
  const auto filled = static_cast<lua_Integer>(buffer.size());
  const auto m = static_cast<std::size_t>(std::min(n, filled));  // entries 1..m are integers; past them, none
  out.resize(m);
  bool outside = false;  // an entry outside the range of an Action (the first one is found below)
  for (std::size_t i = 0; i < m; ++i) {
    const lua_Integer action = buffer[i];
    out[i] = static_cast<Action>(action);
    outside |= action < INT32_MIN || action > INT32_MAX;
  }
  if (outside || n > filled) {
    lua_Integer bad = filled + 1;
    for (std::size_t i = 0; outside && i < m; ++i)
      if (buffer[i] < INT32_MIN || buffer[i] > INT32_MAX) bad = static_cast<lua_Integer>(i + 1), outside = false;
    throw ScriptError("hook 'actions': entry " + std::to_string(bad) + " is not an integer action" +
                      " (is the count past the entries the hook filled?)");
  }
  if (impl_->clear_action_lists) {  // a later call's count past what it filled finds nothing
    if (n < filled) {  // entries past the count stay, as in a Lua list: make it one, and clear 1..n there
      lua_State* L = impl_->sandbox.lua();
      impl_->sandbox.plain_protected(L, (lua_rawgeti(L, LUA_REGISTRYINDEX, impl_->actions_out_ref), -1));
      for (lua_Integer i = 1; i <= n; ++i) lua_pushnil(L), lua_rawseti(L, -2, i);
      lua_pop(L, 1);
    } else {
      buffer.clear();
    }
  }
}

void ScriptedRules::do_apply(GameState& state, Action action) {
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, true, "apply");
  push_hook(L, *impl_, impl_->hook_apply);
  lua_pushinteger(L, action);
  lua_pushinteger(L, state.to_move());
  lua_pushinteger(L, state.phase());
  impl_->sandbox.call("hook 'apply'", 4, 0);
}

std::string ScriptedRules::action_text(const GameState& state, Action action) {
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, false, "action_text");
  push_hook(L, *impl_, impl_->hook_action_text);
  lua_pushinteger(L, action);
  impl_->sandbox.call("hook 'action_text'", 2, 1);
  if (lua_type(L, -1) != LUA_TSTRING) {
    lua_pop(L, 1);
    throw ScriptError("hook 'action_text' must return a string for action " + std::to_string(action));
  }
  std::size_t length = 0;
  const char* raw = lua_tolstring(L, -1, &length);
  const bool control = std::any_of(raw, raw + length, [](char ch) {
    return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
  });
  if (control) {
    lua_pop(L, 1);
    throw ScriptError("hook 'action_text' returned a text with a control character for action " +
                      std::to_string(action) + " (an action's text is one line a player can type)");
  }
  return hook_text(L, "action_text", kMaxActionText, false);
}

std::int64_t ScriptedRules::score(const GameState& state, int seat) {
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, false, "score");
  push_hook(L, *impl_, impl_->hook_score);
  lua_pushinteger(L, seat);
  impl_->sandbox.call("hook 'score'", 2, 1);
  lua_Integer value = 0;
  const bool is_integer = strict_integer(L, -1, value);
  const bool is_number = lua_type(L, -1) == LUA_TNUMBER;
  const lua_Number number = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!is_integer) {
    const std::string got = !is_number ? std::string() : std::isnan(number) ? " (it returned NaN)"
                                                       : std::isinf(number) ? " (it returned an infinity)"
                                                                            : " (it returned " + std::to_string(number) + ")";
    throw ScriptError(hook_defined_at(L, impl_->hook_score) + ": hook 'score' must return an integer for seat " +
                      std::to_string(seat) + got);
  }
  if (value > kMaxScore || value < -kMaxScore)
    throw ScriptError(hook_defined_at(L, impl_->hook_score) + ": hook 'score' returned " + std::to_string(value) +
                      " for seat " + std::to_string(seat) + "; a round's score is at most " +
                      std::to_string(kMaxScore) + " in size");
  return value;
}

std::optional<double> ScriptedRules::heuristic(const GameState& state, int seat) {
  if (impl_->hook_heuristic == LUA_NOREF) return std::nullopt;
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, false, "heuristic");
  push_hook(L, *impl_, impl_->hook_heuristic);
  lua_pushinteger(L, seat);
  impl_->sandbox.call("hook 'heuristic'", 2, 1);
  const bool is_number = lua_type(L, -1) == LUA_TNUMBER;
  const lua_Number value = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!is_number)
    throw ScriptError(hook_defined_at(L, impl_->hook_heuristic) + ": hook 'heuristic' must return a number for seat " +
                      std::to_string(seat));
  if (!std::isfinite(value))
    throw ScriptError(hook_defined_at(L, impl_->hook_heuristic) + ": hook 'heuristic' returned " +
                      std::string(std::isnan(value) ? "NaN" : "an infinity") +
                      " for seat " + std::to_string(seat) + " (it must be a finite number)");
  return value;
}

namespace {

/// Calls a `hook(game, seat) -> string` (describe, score_breakdown) on `state`: its multi-line text, at most
/// ScriptedRules::kMaxDescription bytes; anything but a string is a ScriptError naming the hook.
std::string seat_text_hook(ScriptedRules::Impl& impl, int hook, const char* name, const GameState& state, int seat) {
  lua_State* L = impl.sandbox.lua();
  Binding bound(impl, state, false, name);
  push_hook(L, impl, hook);
  lua_pushinteger(L, seat);
  const std::string what = std::string("hook '") + name + "'";
  impl.sandbox.call(what.c_str(), 2, 1);
  if (lua_type(L, -1) != LUA_TSTRING) {
    lua_pop(L, 1);
    throw ScriptError(what + " must return a string");
  }
  return hook_text(L, name, ScriptedRules::kMaxDescription, true);
}

}  // namespace

std::string ScriptedRules::describe(const GameState& observation, int seat) {
  if (impl_->hook_describe == LUA_NOREF) return Rules::describe(observation, seat);
  return seat_text_hook(*impl_, impl_->hook_describe, "describe", observation, seat);
}

std::optional<std::string> ScriptedRules::score_breakdown(const GameState& state, int seat) {
  if (impl_->hook_score_breakdown == LUA_NOREF) return std::nullopt;
  return seat_text_hook(*impl_, impl_->hook_score_breakdown, "score_breakdown", state, seat);
}

std::optional<std::string> ScriptedRules::draw_component(const GameState& view, ComponentId card) {
  if (impl_->hook_draw == LUA_NOREF || card >= layout_.components.size()) return std::nullopt;
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, view, false, "draw_component");
  push_hook(L, *impl_, impl_->hook_draw);
  lua_pushinteger(L, static_cast<lua_Integer>(card) + 1);
  const Component& component = layout_.components[card];
  const AttributeValue* kind = component.attribute("kind");
  if (kind && std::holds_alternative<std::string>(*kind)) lua_pushlstring(L, std::get<std::string>(*kind).data(), std::get<std::string>(*kind).size());
  else lua_pushnil(L);
  impl_->sandbox.call("hook 'draw_component'", 3, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return std::nullopt;
  }
  return read_scene(L, "hook 'draw_component'", printable(component.name) + " (card " + std::to_string(card + 1) + ")");
}

void ScriptedRules::collect_garbage() { lua_gc(impl_->sandbox.lua(), LUA_GCCOLLECT); }

bool ScriptedRules::has_turn_summary() const { return impl_->hook_turn_summary != LUA_NOREF; }

std::optional<std::string> ScriptedRules::turn_summary(const GameState& view, int seat, const TurnChanges& changes) {
  if (impl_->hook_turn_summary == LUA_NOREF) return std::nullopt;
  lua_State* L = impl_->sandbox.lua();
  // Where the hook is defined ("rulesets/x/rules.lua:12"), for the messages about what it returned.
  auto where = [&] { return hook_defined_at(L, impl_->hook_turn_summary); };
  Binding bound(*impl_, view, false, "turn_summary");
  if (!lua_checkstack(L, 8)) throw ScriptError("hook 'turn_summary': out of Lua stack space");
  push_hook(L, *impl_, impl_->hook_turn_summary);
  lua_pushinteger(L, seat);
  lua_createtable(L, 0, 5);  // turn = {viewer, you, actions, moved, counters}
  lua_pushinteger(L, changes.viewer);
  lua_setfield(L, -2, "viewer");
  lua_pushboolean(L, changes.you);
  lua_setfield(L, -2, "you");
  lua_createtable(L, static_cast<int>(changes.actions.size()), 0);
  for (std::size_t i = 0; i < changes.actions.size(); ++i) {
    lua_pushlstring(L, changes.actions[i].data(), changes.actions[i].size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "actions");
  const std::size_t moves = std::min(changes.moved.size(), TurnChanges::kMaxMoves);
  lua_createtable(L, static_cast<int>(moves), 0);
  for (std::size_t i = 0; i < moves; ++i) {
    const TurnChanges::Move& m = changes.moved[i];
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, m.card + 1);
    lua_setfield(L, -2, "card");
    if (m.from_known) {
      lua_pushinteger(L, m.from + 1);
      lua_setfield(L, -2, "from");
    }
    lua_pushinteger(L, m.to + 1);
    lua_setfield(L, -2, "to");
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "moved");
  lua_createtable(L, static_cast<int>(changes.counters.size()), 0);
  for (std::size_t i = 0; i < changes.counters.size(); ++i) {
    const TurnChanges::Counter& c = changes.counters[i];
    lua_createtable(L, 0, 4);
    lua_pushstring(L, layout_.counters.at(static_cast<std::size_t>(c.counter)).name.c_str());
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, c.owner);
    lua_setfield(L, -2, "owner");
    lua_pushinteger(L, c.before);
    lua_setfield(L, -2, "before");
    lua_pushinteger(L, c.after);
    lua_setfield(L, -2, "after");
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_setfield(L, -2, "counters");
  impl_->sandbox.call("hook 'turn_summary'", 3, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return std::nullopt;
  }
  if (lua_type(L, -1) != LUA_TSTRING) {
    const std::string type = luaL_typename(L, -1);
    lua_pop(L, 1);
    throw ScriptError("hook 'turn_summary' (" + where() + ") must return a string or nil, not a " + type);
  }
  std::size_t length = 0;
  const char* raw = lua_tolstring(L, -1, &length);
  if (std::any_of(raw, raw + length, [](char ch) { return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f; })) {
    lua_pop(L, 1);
    throw ScriptError("hook 'turn_summary' (" + where() + ") returned a text with a control character for seat " +
                      std::to_string(seat) + "'s turn (a turn's summary is one line)");
  }
  if (length > kMaxExplanation) {
    lua_pop(L, 1);
    throw ScriptError("hook 'turn_summary' (" + where() + ") returned a text of " + std::to_string(length) +
                      " bytes; the limit is " + std::to_string(kMaxExplanation));
  }
  std::string text = hook_text(L, "turn_summary", kMaxExplanation, false);
  if (text.empty()) return std::nullopt;
  return text;
}

std::string ScriptedRules::explain_illegal(const GameState& state, std::string_view text) {
  if (impl_->hook_explain == LUA_NOREF || state.over() || text.size() > kMaxExplainInput)
    return Rules::explain_illegal(state, text);
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, false, "explain");
  push_hook(L, *impl_, impl_->hook_explain);
  lua_pushlstring(L, text.data(), text.size());
  impl_->sandbox.call("hook 'explain'", 2, 1);
  std::string reason;
  if (lua_type(L, -1) == LUA_TSTRING) reason = hook_text(L, "explain", kMaxExplanation, false);
  else lua_pop(L, 1);
  return reason.empty() ? Rules::explain_illegal(state, text) : reason;
}

std::vector<std::string> ScriptedRules::shorthand(const GameState& state, std::string_view text) {
  if (impl_->hook_shorthand == LUA_NOREF || state.over() || text.size() > kMaxExplainInput) return {};
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, false, "shorthand");
  push_hook(L, *impl_, impl_->hook_shorthand);
  lua_pushlstring(L, text.data(), text.size());
  impl_->sandbox.call("hook 'shorthand'", 2, 1);
  std::vector<std::string> texts;
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return texts;
  }
  if (!lua_istable(L, -1)) {
    const std::string type = luaL_typename(L, -1);
    lua_pop(L, 1);
    throw ScriptError("hook 'shorthand' must return nil or a list of action texts, not a " + type);
  }
  impl_->sandbox.plain_protected(L, -1);
  const lua_Unsigned count = lua_rawlen(L, -1);
  if (count > kMaxShorthand) {
    lua_pop(L, 1);
    throw ScriptError(hook_defined_at(L, impl_->hook_shorthand) + ": hook 'shorthand' returned " +
                      std::to_string(count) + " texts; the limit is " + std::to_string(kMaxShorthand));
  }
  for (lua_Unsigned i = 1; i <= count; ++i) {
    if (lua_rawgeti(L, -1, static_cast<lua_Integer>(i)) != LUA_TSTRING) {
      const std::string type = luaL_typename(L, -1);
      lua_pop(L, 2);
      throw ScriptError("hook 'shorthand' returned a " + type + " at position " + std::to_string(i) +
                        ", not an action text");
    }
    texts.push_back(hook_text(L, "shorthand", kMaxActionText, false));
  }
  lua_pop(L, 1);
  return texts;
}

std::int64_t ScriptedRules::random_playout(GameState& state, Rng& rng, std::int64_t max_plies) {
  lua_State* L = impl_->sandbox.lua();
  const GameState start = state;
  std::int64_t plies = 0;
  try {
    while (!state.over() && plies < max_plies) {
      bool ended = false;
      {
        Binding bound(*impl_, state, true, "random playout");
        impl_->playout_rng = &rng;
        lua_pushcfunction(L, playout_run);
        lua_rawgeti(L, LUA_REGISTRYINDEX, impl_->hook_actions);
        lua_rawgeti(L, LUA_REGISTRYINDEX, impl_->hook_apply);
        lua_rawgeti(L, LUA_REGISTRYINDEX, impl_->game_ref);
        lua_rawgeti(L, LUA_REGISTRYINDEX, impl_->actions_out_ref);
        lua_pushinteger(L, max_plies - plies);
        impl_->sandbox.call("random playout (hooks 'actions' and 'apply')", 5, 2);
        plies += lua_tointeger(L, -2);
        ended = lua_toboolean(L, -1);
        lua_pop(L, 2);
      }
      if (!ended)
        throw RulesError("seat " + std::to_string(state.to_move()) + " has no legal action but the game is not over");
      finish_round_if_requested(state);
    }
  } catch (...) {
    state = start;
    throw;
  }
  return plies;
}

std::string ScriptedRules::invariant_violation(const GameState& state) {
  if (impl_->hook_invariants == LUA_NOREF) return {};
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, false, "invariants");
  push_hook(L, *impl_, impl_->hook_invariants);
  impl_->sandbox.call("hook 'invariants'", 1, 1);
  std::string message;
  if (lua_type(L, -1) == LUA_TSTRING) return hook_text(L, "invariants", kMaxExplanation, false);
  if (!lua_isnil(L, -1) && lua_toboolean(L, -1) == 0) message = "hook 'invariants' returned false";
  lua_pop(L, 1);
  return message;
}

std::vector<int> ScriptedRules::ranks(const GameState& state) {
  if (impl_->hook_ranks == LUA_NOREF) return Rules::ranks(state);
  lua_State* L = impl_->sandbox.lua();
  Binding bound(*impl_, state, false, "ranks");
  push_hook(L, *impl_, impl_->hook_ranks);
  impl_->sandbox.call("hook 'ranks'", 1, 1);
  // A place for each seat, 1..seats, the best being 1 (ties share a place), and nothing more.
  const int seats = layout_.seats;
  std::vector<int> out;
  if (lua_istable(L, -1)) impl_->sandbox.plain_protected(L, -1);
  bool valid = lua_istable(L, -1) && lua_rawlen(L, -1) == static_cast<lua_Unsigned>(seats);
  for (int s = 1; valid && s <= seats; ++s) {
    lua_Integer place = 0;
    lua_rawgeti(L, -1, s);
    valid = strict_integer(L, -1, place) && place >= 1 && place <= seats;
    lua_pop(L, 1);
    out.push_back(static_cast<int>(place));
  }
  lua_pop(L, 1);
  if (!valid || std::find(out.begin(), out.end(), 1) == out.end())
    throw ScriptError("hook 'ranks' must return a list of " + std::to_string(seats) +
                      " places, integers from 1 (the best) to " + std::to_string(seats) + ", with someone in place 1");
  return out;
}

}  // namespace hr
