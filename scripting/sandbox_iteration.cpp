// sandbox_iteration.cpp — deterministic iteration in the sandbox (sandbox.hpp, "pairs and next"): `pairs` and
// `next` visit keys in a fixed order (numbers ascending, then strings bytewise, then false, true), and refuse
// key types whose order would follow memory addresses.
#include <algorithm>
#include <cstring>
#include <vector>

#include <lua.hpp>

#include "sandbox.hpp"
#include "sandbox_functions.hpp"

namespace hr {

namespace {

int key_class(lua_State* L, int index) {
  switch (lua_type(L, index)) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return -1;
  }
}

/// Pushes an array of t's keys (t at index `t`) in the fixed order; raises a Lua error for keys that have
/// no stable order.
void push_sorted_keys(lua_State* L, int t) {
  t = lua_absindex(L, t);
  lua_newtable(L);
  const int keys = lua_gettop(L);
  lua_Integer n = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    if (key_class(L, -1) < 0)
      luaL_error(L, "pairs: a table with %s keys has no fixed iteration order (it would follow memory "
                 "addresses); use numbers or strings as keys", luaL_typename(L, -1));
    lua_pushvalue(L, -1);
    lua_rawseti(L, keys, ++n);
  }
  // Insertion sort is fine for small tables; use a std::sort over stack indices for larger ones.
  std::vector<int> order(static_cast<std::size_t>(n));
  for (lua_Integer i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = static_cast<int>(i + 1);
  auto less = [&](int a, int b) {
    lua_rawgeti(L, keys, a);
    lua_rawgeti(L, keys, b);
    const int ca = key_class(L, -2), cb = key_class(L, -1);
    bool result;
    if (ca != cb) {
      result = ca < cb;
    } else if (ca == 2) {
      result = !lua_toboolean(L, -2) && lua_toboolean(L, -1);
    } else if (ca == 1) {
      std::size_t la, lb;
      const char* sa = lua_tolstring(L, -2, &la);
      const char* sb = lua_tolstring(L, -1, &lb);
      const int c = std::memcmp(sa, sb, std::min(la, lb));
      result = c < 0 || (c == 0 && la < lb);
    } else {
      result = lua_compare(L, -2, -1, LUA_OPLT);
    }
    lua_pop(L, 2);
    return result;
  };
  std::sort(order.begin(), order.end(), less);
  lua_createtable(L, static_cast<int>(n), 0);
  for (lua_Integer i = 0; i < n; ++i) {
    lua_rawgeti(L, keys, order[static_cast<std::size_t>(i)]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_remove(L, keys);
}

// iterator(state, control): upvalue 1 = sorted keys, upvalue 2 = position, upvalue 3 = the table
int sorted_pairs_step(lua_State* L) {
  lua_Integer position = lua_tointeger(L, lua_upvalueindex(2)) + 1;
  lua_pushinteger(L, position);
  lua_replace(L, lua_upvalueindex(2));
  if (lua_rawgeti(L, lua_upvalueindex(1), position) == LUA_TNIL) return 1;
  lua_pushvalue(L, -1);
  lua_gettable(L, lua_upvalueindex(3));  // honours __index: read-only proxies iterate their contents
  return 2;
}

}  // namespace

/// Pushes the deterministic iterator triple for the table at index t (keys of `source`, values via t).
int push_sorted_iteration(lua_State* L, int t, int source) {
  t = lua_absindex(L, t);
  push_sorted_keys(L, source);
  lua_pushinteger(L, 0);
  lua_pushvalue(L, t);
  lua_pushcclosure(L, sorted_pairs_step, 3);
  lua_pushvalue(L, t);
  lua_pushnil(L);
  return 3;
}

int sandbox_pairs(lua_State* L) {
  luaL_checkany(L, 1);
  Sandbox::from(L)->plain(L, 1);
  if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
    lua_pushvalue(L, 1);
    lua_call(L, 1, 3);
    return 3;
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  return push_sorted_iteration(L, 1, 1);
}

int sandbox_next(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  Sandbox::from(L)->plain(L, 1);
  lua_settop(L, 2);
  push_sorted_keys(L, 1);
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 3));
  lua_Integer i = 1;
  if (!lua_isnil(L, 2)) {
    for (i = 1; i <= n; ++i) {
      lua_rawgeti(L, 3, i);
      const bool found = lua_rawequal(L, -1, 2);
      lua_pop(L, 1);
      if (found) break;
    }
    if (i > n) return luaL_error(L, "invalid key to 'next'");
    ++i;
  }
  if (i > n) {
    lua_pushnil(L);
    return 1;
  }
  lua_rawgeti(L, 3, i);
  lua_pushvalue(L, -1);
  lua_rawget(L, 1);
  return 2;
}

}  // namespace hr
