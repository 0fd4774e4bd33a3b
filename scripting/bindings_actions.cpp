// bindings_actions.cpp — the `actions` hook's `out` list, kept in a kernel buffer, and the internal
// random-playout driver.
//
// Binds no script-visible name: the metamethods of the buffered `out` list (__index, __len, __newindex),
// create_actions_out, unbuffer_out, and playout_run (run(actions, apply, game, out, limit), reachable only
// from the kernel's playouts).
//
// Invariants: while the list is buffered, the table holds nothing and impl.out_buffer holds its entries
// (entry i at [i - 1], no holes), so #out, out[k] and the kernel's reads agree; a write through the table
// makes it a plain table holding the buffer's entries, for good (unbuffer_out). playout_run plays each ply as
// Rules::apply does (the seat to move and the phase to both hooks, the ply counted after apply, the action
// drawn with rng.below), `actions` may neither change the game nor draw random numbers, and errors name the
// hook that raised them.
#include <cstdint>
#include <vector>

#include "binding_args.hpp"

namespace hr {

using bindings::Impl;

// ---- the `actions` hook's `out` list, buffered ----

namespace {

// The metamethods of the buffered `out` list (the table holds nothing: every read, `#` and write comes here).
// out[k]: entry k of the buffer (a float key with an integer value, as a table would take it), else nil.
int out_index(lua_State* L) {
  const Impl& impl = Impl::from(L);
  int is_integer = 0;
  const lua_Integer k = lua_type(L, 2) == LUA_TNUMBER ? lua_tointegerx(L, 2, &is_integer) : 0;
  if (is_integer && k >= 1 && k <= static_cast<lua_Integer>(impl.out_buffer.size()))
    lua_pushinteger(L, impl.out_buffer[static_cast<std::size_t>(k - 1)]);
  else
    lua_pushnil(L);
  return 1;
}
// #out: the number of entries (the buffer has no holes, so this is the table's border too).
int out_len(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(Impl::from(L).out_buffer.size()));
  return 1;
}
// out[k] = v: the list becomes a plain table holding the buffer's entries, then takes the write (raw).
int out_newindex(lua_State* L) {
  lua_settop(L, 3);
  if (lua_isnil(L, 2)) return luaL_error(L, "index is nil");  // as the table would say, at the caller's line
  if (lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) != lua_tonumber(L, 2)) return luaL_error(L, "index is NaN");
  unbuffer_out(L);
  lua_rawset(L, 1);
  return 0;
}

}  // namespace

void create_actions_out(lua_State* L, Impl& impl) {
  lua_createtable(L, 256, 0);  // presized: making it plain writes up to 256 entries without allocating
  lua_createtable(L, 0, 3);
  const luaL_Reg metamethods[] = {
      {"__index", out_index}, {"__newindex", out_newindex}, {"__len", out_len}, {nullptr, nullptr}};
  luaL_setfuncs(L, metamethods, 0);
  lua_setmetatable(L, -2);
  impl.out_table = lua_topointer(L, -1);
  impl.out_buffered = true;
  impl.out_buffer.clear();
  impl.out_buffer.reserve(256);
  impl.sandbox.set_buffered_table(impl.out_table, unbuffer_out);
  impl.actions_out_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

int unbuffer_out(lua_State* L) {
  Impl& impl = Impl::from(L);
  if (!impl.out_buffered) return 0;
  luaL_checkstack(L, 2, "making the actions list plain");
  // Plain first: if a write below fails (memory), the table is what the script sees and the kernel reads.
  impl.out_buffered = false;
  impl.sandbox.set_buffered_table(nullptr, nullptr);
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.actions_out_ref);
  lua_pushnil(L);
  lua_setmetatable(L, -2);
  lua_Integer i = 0;
  for (const lua_Integer value : impl.out_buffer) {
    lua_pushinteger(L, value);
    lua_rawseti(L, -2, ++i);
  }
  lua_pop(L, 1);
  impl.out_buffer.clear();
  return 0;
}

// ---- the random-playout driver (internal: not reachable from scripts) ----

// run(actions, apply, game, out, limit) -> plies, ended: plays random legal actions until the round or the game
// ends or `limit` plies were played (ended = true), or no action is legal (false). Called once per round inside
// one protected call (Sandbox::call); the hooks are called unprotected from here, which costs a fraction of a
// protected call per hook: a Lua error unwinds to that protected call (Lua is built as C++: it throws, so the
// frames between run destructors). Like Rules::apply, each ply gives the hooks the seat to move and the phase,
// and is counted after `apply`; the action is drawn as Rules::random_playout does (rng.below), and only the
// chosen entry of the list is read. As on the per-action path, `actions` may not change the game nor draw
// random numbers, and errors name the hook that raised them.
int playout_run(lua_State* L) {
  IMPL;
  GameBinding& binding = *impl.binding;
  GameState& s = *binding.state;
  Rng& rng = *impl.playout_rng;
  constexpr int kActions = 1, kApply = 2, kGame = 3, kOut = 4;
  const lua_Integer limit = lua_tointeger(L, 5);
  lua_settop(L, kOut);
  lua_Integer plies = 0;
  while (plies < limit) {
    binding.writable = false;
    binding.hook = "actions";
    impl.sandbox.set_random_source(nullptr);
    lua_pushvalue(L, kActions);
    lua_pushvalue(L, kGame);
    lua_pushvalue(L, kOut);
    lua_pushinteger(L, s.to_move());
    lua_pushinteger(L, s.phase());
    lua_call(L, 4, 1);
    int list = kOut;  // the list to pick from: `out` filled by the hook, or a list it returned
    lua_Integer n = 0;
    if (lua_isinteger(L, -1)) {
      n = lua_tointeger(L, -1);
      if (n < 0) return luaL_error(L, "hook 'actions' returned a count that is not a whole number >= 0");
      lua_settop(L, kOut);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      return luaL_error(L, "hook 'actions' returned a count that is not a whole number >= 0");
    } else if (lua_istable(L, -1)) {
      if (lua_rawequal(L, -1, kOut)) return luaL_error(L, "%s", kOutReturned);  // (the same refusal as generate_actions)
      n = static_cast<lua_Integer>(lua_rawlen(L, -1));
      list = kOut + 1;
    } else {
      return luaL_error(L, "hook 'actions' must return a list of actions (integers), or fill its second argument and "
                           "return the count; it returned a %s", luaL_typename(L, -1));
    }
    if (n == 0) {
      lua_pushinteger(L, plies);
      lua_pushboolean(L, 0);
      return 2;
    }
    const auto i = static_cast<lua_Integer>(rng.below(static_cast<std::uint64_t>(n))) + 1;
    lua_pushvalue(L, kApply);
    lua_pushvalue(L, kGame);
    if (n > ScriptedRules::kMaxActions)
      return luaL_error(L, "hook 'actions' offered %I actions; the limit is %I", n, ScriptedRules::kMaxActions);
    if (list == kOut && impl.out_buffered) {  // the entries the batch methods appended: no C API call to read one
      std::vector<lua_Integer>& buffer = impl.out_buffer;
      if (i > static_cast<lua_Integer>(buffer.size()))
        return luaL_error(L, "hook 'actions': entry %d is not an integer action", static_cast<int>(i));
      lua_pushinteger(L, buffer[static_cast<std::size_t>(i - 1)]);
      if (impl.clear_action_lists) {  // as on the per-action path
        if (n < static_cast<lua_Integer>(buffer.size())) unbuffer_out(L);  // entries past n stay: a plain table
        else buffer.clear();
      }
    } else if (lua_rawgeti(L, list, i) != LUA_TNUMBER || !lua_isinteger(L, -1)) {
      return luaL_error(L, "hook 'actions': entry %d is not an integer action", static_cast<int>(i));
    }
    if (list == kOut && impl.clear_action_lists && !impl.out_buffered)  // as on the per-action path
      for (lua_Integer k = 1; k <= n; ++k) lua_pushnil(L), lua_rawseti(L, kOut, k);
    lua_pushinteger(L, s.to_move());
    lua_pushinteger(L, s.phase());
    binding.writable = true;
    binding.hook = "apply";
    impl.sandbox.set_random_source(&s.rng());
    lua_call(L, 4, 0);
    lua_settop(L, kOut);
    s.count_ply();
    ++plies;
    if (s.round_end_requested() || s.over()) break;
  }
  lua_pushinteger(L, plies);
  lua_pushboolean(L, 1);
  return 2;
}

}  // namespace hr
