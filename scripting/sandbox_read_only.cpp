// sandbox_read_only.cpp — read-only tables in the sandbox (sandbox.hpp, "freeze"): the proxy that refuses
// writes (its metatable hidden and marked __frozen), `rawset` refusing it too, and Sandbox::freeze and
// make_read_only, which lock the globals and the library tables once the rules are loaded.
#include <lua.hpp>

#include "sandbox.hpp"
#include "sandbox_functions.hpp"

namespace hr {

namespace {

// __pairs of a read-only proxy: upvalue 1 = the real table
int read_only_pairs(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  const int real = lua_gettop(L);
  return push_sorted_iteration(L, 1, real);
}

int refuse_write(lua_State* L) {
  if (lua_type(L, 2) == LUA_TSTRING)
    return luaL_error(L, "attempt to change read-only field '%s' (rules keep their state in the game)", lua_tostring(L, 2));
  return luaL_error(L, "attempt to change a read-only table (rules keep their state in the game)");
}

int read_only_len(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, lua_upvalueindex(1))));
  return 1;
}

bool is_frozen(lua_State* L, int index) {
  if (!lua_getmetatable(L, index)) return false;
  lua_getfield(L, -1, "__frozen");
  const bool frozen = lua_toboolean(L, -1);
  lua_pop(L, 2);
  return frozen;
}

/// Pushes the metatable of a read-only view of the table at `backing` (an absolute index): reads go to it
/// (__index, __len, __pairs in the fixed order), writes raise an error, the metatable is hidden and marked
/// __frozen (so rawset refuses the view too).
void push_read_only_metatable(lua_State* L, int backing) {
  lua_createtable(L, 0, 6);
  lua_pushvalue(L, backing);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, refuse_write);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, backing);
  lua_pushcclosure(L, read_only_len, 1);
  lua_setfield(L, -2, "__len");
  lua_pushvalue(L, backing);
  lua_pushcclosure(L, read_only_pairs, 1);
  lua_setfield(L, -2, "__pairs");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "__frozen");
  lua_pushliteral(L, "read-only");
  lua_setfield(L, -2, "__metatable");
}

// Turns the table at the top of the stack into (a proxy of) itself that refuses writes. For the globals
// table the table itself stays (the registry and chunks' _ENV refer to it): its contents move to a hidden
// table that becomes its __index.
void freeze_in_place(lua_State* L) {
  const int t = lua_gettop(L);
  lua_newtable(L);  // the hidden copy
  const int hidden = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, hidden);
  }
  // clear t
  lua_pushnil(L);
  while (lua_next(L, hidden)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, t);
  }
  push_read_only_metatable(L, hidden);
  lua_setmetatable(L, t);
  lua_settop(L, t);
}

}  // namespace

int sandbox_rawset(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  Sandbox::from(L)->plain(L, 1);
  if (is_frozen(L, 1)) return refuse_write(L);
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 1;
}

void Sandbox::freeze() {
  lua_State* L = L_;
  lua_pushglobaltable(L);
  for (const char* lib : {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME}) {
    if (lua_getfield(L, -1, lib) == LUA_TTABLE) {
      // Replace the library by a read-only proxy; the string metatable keeps the (now unreachable) original.
      make_read_only(1);
      lua_setfield(L, -2, lib);
    } else {
      lua_pop(L, 1);
    }
  }
  freeze_in_place(L);
  lua_pop(L, 1);
}

void Sandbox::make_read_only(int depth) {
  lua_State* L = L_;
  const int t = lua_gettop(L);
  if (!lua_istable(L, t) || is_frozen(L, t)) return;
  if (depth > 1) {
    lua_pushnil(L);
    while (lua_next(L, t)) {
      if (lua_istable(L, -1)) {
        make_read_only(depth - 1);
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, t);
      } else {
        lua_pop(L, 1);
      }
    }
  }
  lua_newtable(L);  // the proxy
  push_read_only_metatable(L, t);
  lua_setmetatable(L, -2);
  lua_replace(L, t);
}

}  // namespace hr
