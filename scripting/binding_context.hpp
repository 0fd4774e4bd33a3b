// binding_context.hpp — private to scripting/: what the Lua-facing C functions need to reach the kernel.
#pragma once

#include <lua.hpp>

#include "sandbox.hpp"
#include "scripted_rules.hpp"

namespace hr {

/// The one `game` userdata of a Lua state points at whichever GameState a hook call is about.
struct GameBinding {
  GameState* state = nullptr;
  bool writable = false;   ///< true in setup, start_round and apply
  const char* hook = "";   ///< the running hook, for messages
};

struct ScriptedRules::Impl {
  explicit Impl(Sandbox::Limits limits) : sandbox(limits) {}
  Sandbox sandbox;
  Layout* layout = nullptr;  // ScriptedRules::layout_
  bool declared = false;
  bool loading = true;
  GameBinding* binding = nullptr;  // inside the userdata
  int game_ref = LUA_NOREF;
  int zone_names_ref = LUA_NOREF;  // name -> zone number
  int game_methods_ref = LUA_NOREF; // the game's methods (also houserules.game)
  int api_ref = LUA_NOREF;          // the real houserules table behind its read-only proxy
  int rules_ref = LUA_NOREF;        // the final rules table (after the variants)
  int playout_ref = LUA_NOREF;      // the internal random-playout driver (ScriptedRules::random_playout)
  Rng* playout_rng = nullptr;       // the RNG the driver picks actions with
  std::vector<std::vector<ZoneId>> zone_groups;  // declare{groups=...}: constant lists of zones, 1-based ids
  int actions_out_ref = LUA_NOREF; // the reused, presized list passed to the actions hook
  int hook_setup = LUA_NOREF, hook_start_round = LUA_NOREF, hook_actions = LUA_NOREF, hook_apply = LUA_NOREF,
      hook_action_text = LUA_NOREF, hook_score = LUA_NOREF, hook_describe = LUA_NOREF, hook_explain = LUA_NOREF,
      hook_heuristic = LUA_NOREF, hook_ranks = LUA_NOREF, hook_invariants = LUA_NOREF;

  static Impl& from(lua_State* L) { return *static_cast<Impl*>(Sandbox::from(L)->owner); }
};

/// Compiles the internal random-playout driver (a Lua function) and stores its ref in `impl`.
void create_playout_driver(lua_State* L, ScriptedRules::Impl& impl);
/// Creates the table of the game's methods (stores its ref in `impl`).
void create_game_methods(lua_State* L, ScriptedRules::Impl& impl);
/// Creates the one `game` userdata, whose metatable's __index is the methods table; stores refs in `impl`.
void create_game_binding(lua_State* L, ScriptedRules::Impl& impl);
/// Pushes the `houserules` table (params, seats, declare) built from the params table on the stack top,
/// which it pops.
void push_houserules_api(lua_State* L, ScriptedRules::Impl& impl, const RulesetInfo& info);

}  // namespace hr
