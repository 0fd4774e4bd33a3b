// bindings_api.cpp — the load-time `houserules` table a ruleset's scripts see (reference:
// docs/writing-rules.md).
//
// Binds houserules.params, seats, ruleset, declare (bindings_declare.cpp), game (the game's methods, to bind
// to locals), encoding (a registry of action kinds and phases, scripting/encoding.lua) and words. The later
// fields (components, zones, zone_names, groups, maps, boards, phases) are set by declare.
//
// Invariants: houserules.game is the same methods table as the game's __index, read-only; encoding compiles
// its prelude on the first call only, so a ruleset that does not use it has the Lua heap it had before it
// existed; words runs in linear time on any text.
#include <cctype>
#include <string>

#include "binding_args.hpp"
#include "encoding_lua.hpp"
#include "ruleset.hpp"

namespace hr {

using bindings::Impl;

namespace {

/// houserules.encoding() -> a new registry: calls the constructor scripting/encoding.lua returns, compiled
/// on the first call and kept in the closure's upvalue. Errors (memory) are raised as Lua errors.
int houserules_encoding(lua_State* L) {
  if (lua_isnil(L, lua_upvalueindex(1))) {
    if (luaL_loadbufferx(L, kEncodingLua, sizeof kEncodingLua - 1, "=[houserules encoding]", "t") != LUA_OK)
      return lua_error(L);
    lua_call(L, 0, 1);
    lua_replace(L, lua_upvalueindex(1));
  }
  lua_settop(L, 0);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_call(L, 0, 1);
  return 1;
}

/// houserules.words(text [, max]) -> {word...} or nil: the runs of non-blank characters of `text` (a string,
/// else a Lua error), lower-cased, in order; nil when there are more than `max` (default: no limit). Linear in
/// the length of `text`, in C: for the `explain` and `shorthand` hooks, which read what a person typed (a Lua
/// pattern with optional blank runs backtracks quadratically over a long run of blanks, issue 18).
int houserules_words(lua_State* L) {
  std::size_t length = 0;
  const char* text = luaL_checklstring(L, 1, &length);
  const lua_Integer max = luaL_optinteger(L, 2, LUA_MAXINTEGER);
  lua_settop(L, 2);
  lua_newtable(L);
  lua_Integer count = 0;
  std::string word;
  for (std::size_t i = 0; i <= length; ++i) {
    const bool blank = i == length || std::isspace(static_cast<unsigned char>(text[i]));
    if (!blank) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
      continue;
    }
    if (word.empty()) continue;
    if (++count > max) {
      lua_pushnil(L);
      return 1;
    }
    lua_pushlstring(L, word.data(), word.size());
    lua_rawseti(L, 3, count);
    word.clear();
  }
  return 1;
}

}  // namespace

void push_houserules_api(lua_State* L, Impl& impl, const RulesetInfo& info) {
  const int params = lua_gettop(L);
  lua_createtable(L, 0, 5);
  lua_pushvalue(L, params);
  lua_setfield(L, -2, "params");
  lua_pushinteger(L, impl.layout->seats);
  lua_setfield(L, -2, "seats");
  lua_pushstring(L, info.id.c_str());
  lua_setfield(L, -2, "ruleset");
  lua_pushvalue(L, -1);
  impl.api_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushcfunction(L, bindings::houserules_declare);
  lua_setfield(L, -2, "declare");
  lua_pushcfunction(L, bindings::houserules_name_phase);
  lua_setfield(L, -2, "name_phase");
  // The game's methods, so that hot code can bind them to locals: `local top = houserules.game.top`,
  // then `top(game, zone)` skips the method look-up of `game:top(zone)`.
  create_game_methods(L, impl);
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.game_methods_ref);
  Sandbox::from(L)->make_read_only(1);
  lua_setfield(L, -2, "game");
  // houserules.encoding(): a registry of action kinds and phases by name (scripting/encoding.lua), compiled
  // on its first call, so that a ruleset that does not use it has the same Lua heap as before it existed.
  lua_pushnil(L);
  lua_pushcclosure(L, houserules_encoding, 1);
  lua_setfield(L, -2, "encoding");
  lua_pushcfunction(L, houserules_words);
  lua_setfield(L, -2, "words");
  lua_remove(L, params);
}

}  // namespace hr
