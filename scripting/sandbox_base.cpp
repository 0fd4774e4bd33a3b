// sandbox_base.cpp — the functions of Lua's base, math and string libraries the sandbox replaces so that a
// script stays deterministic and inside its limits: math.random from the game's RNG, `load` of text only,
// tostring, print and string.format without memory addresses (print within its budget), setmetatable without
// finalizers or weak tables, rawget/rawlen/getmetatable that see the buffered actions list as the script
// does, and xpcall whose handler does not outlive the CPU guard.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include <lua.hpp>

#include "printable.hpp"
#include "sandbox.hpp"
#include "sandbox_functions.hpp"

namespace hr {

namespace {

/// Pushes the text of the value at `index` as tostring shows it in the sandbox: numbers, strings, booleans
/// and nil as Lua writes them, a value with a __tostring metamethod by it, anything else by its type alone
/// ("table", "function"): Lua's "table: 0x55d0c3a0" would tell the heap's address, which differs from run
/// to run, so the same seed could play another game.
const char* push_text(lua_State* L, int index, std::size_t* length = nullptr) {
  index = lua_absindex(L, index);
  switch (lua_type(L, index)) {
    case LUA_TNUMBER: case LUA_TSTRING: case LUA_TBOOLEAN: case LUA_TNIL:
      return luaL_tolstring(L, index, length);
    default:
      break;
  }
  if (luaL_getmetafield(L, index, "__tostring") != LUA_TNIL) {
    lua_pop(L, 1);
    return luaL_tolstring(L, index, length);
  }
  lua_pushstring(L, luaL_typename(L, index));
  return lua_tolstring(L, -1, length);
}

// The message handler xpcall installs in place of the script's (upvalue 1): once the CPU guard has stopped
// the call, the script's handler is not run (Lua runs message handlers with hooks off after a hook's error,
// so a handler that loops would never be stopped).
int guarded_message_handler(lua_State* L) {
  Sandbox* sandbox = Sandbox::from(L);
  if (sandbox->armed_serial_.load(std::memory_order_relaxed) == sandbox->call_serial_.load(std::memory_order_relaxed))
    return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

}  // namespace

int sandbox_random(lua_State* L) {
  Sandbox* sandbox = Sandbox::from(L);
  Rng* rng = sandbox->random_source_;
  if (!rng) return luaL_error(L, "math.random draws from the game's RNG: call it inside a game hook");
  ++sandbox->random_draws_;
  lua_Integer low, up;
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, rng->unit());
      return 1;
    case 1:
      low = 1;
      up = luaL_checkinteger(L, 1);
      if (up == 0) {  // math.random(0): a random integer with all bits
        lua_pushinteger(L, static_cast<lua_Integer>(rng->next()));
        return 1;
      }
      break;
    case 2:
      low = luaL_checkinteger(L, 1);
      up = luaL_checkinteger(L, 2);
      break;
    default: return luaL_error(L, "wrong number of arguments");
  }
  luaL_argcheck(L, low <= up, lua_gettop(L), "interval is empty");
  lua_pushinteger(L, rng->between(low, up));
  return 1;
}

int sandbox_load(lua_State* L) {
  std::size_t length;
  const char* text = lua_tolstring(L, 1, &length);
  if (!text) return luaL_error(L, "load: the sandbox loads only strings of Lua source text");
  // The chunk's name appears in error messages and tracebacks: no control characters (a newline would
  // start a fake line on the terminal).
  const std::string chunkname_text = printable(luaL_optstring(L, 2, "=(load)"));
  const char* chunkname = chunkname_text.c_str();
  const char* mode = luaL_optstring(L, 3, "t");
  if (std::strcmp(mode, "t") != 0) return luaL_error(L, "load: only text chunks (mode \"t\") are allowed");
  const bool has_env = !lua_isnone(L, 4);
  const int status = luaL_loadbufferx(L, text, length, chunkname, "t");
  if (status != LUA_OK) {
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
  }
  if (has_env) {
    lua_pushvalue(L, 4);
    if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  }
  return 1;
}

int sandbox_tostring(lua_State* L) {
  luaL_checkany(L, 1);
  push_text(L, 1);
  return 1;
}

int sandbox_print(lua_State* L) {
  Sandbox* sandbox = Sandbox::from(L);
  if (sandbox->printed_ >= Sandbox::kPrintBudget) return 0;
  std::string line;
  const int n = lua_gettop(L);
  for (int i = 1; i <= n && line.size() < Sandbox::kPrintBudget; ++i) {
    if (i > 1) line += '\t';
    std::size_t length;
    const char* text = push_text(L, i, &length);
    line.append(text, std::min(length, Sandbox::kPrintBudget));
    lua_pop(L, 1);
  }
  const std::size_t left = Sandbox::kPrintBudget - sandbox->printed_;
  if (line.size() > left) line.resize(left);
  sandbox->printed_ += line.size();
  std::fprintf(stderr, "[lua] %s\n", printable(line).c_str());
  if (sandbox->printed_ >= Sandbox::kPrintBudget)
    std::fprintf(stderr, "[lua] (print has written %zu bytes, its limit: nothing more is printed)\n",
                 Sandbox::kPrintBudget);
  return 0;
}

// setmetatable(t, mt) without finalizers or weak tables.
int sandbox_setmetatable(lua_State* L) {
  if (lua_istable(L, 1)) Sandbox::from(L)->plain(L, 1);
  if (lua_istable(L, 2)) {
    for (const char* field : {"__gc", "__mode"}) {
      if (lua_rawget(L, (lua_pushstring(L, field), 2)) != LUA_TNIL)
        return luaL_error(L, "setmetatable: %s is not allowed in the sandbox (%s)", field,
                          field[2] == 'g' ? "a finalizer would run in whatever hook triggers the collector, or after "
                                            "the game, outside every limit"
                                          : "weak tables show when the collector runs, which differs from run to run");
      lua_pop(L, 1);
    }
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

// rawget, rawlen and getmetatable as Lua's base library has them (the same checks and messages), but the
// buffered table (Sandbox::set_buffered_table) is made plain first, so they see what the script sees.
int sandbox_rawget(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  Sandbox::from(L)->plain(L, 1);
  lua_rawget(L, 1);
  return 1;
}

int sandbox_rawlen(lua_State* L) {
  const int type = lua_type(L, 1);
  luaL_argexpected(L, type == LUA_TTABLE || type == LUA_TSTRING, 1, "table or string");
  if (type == LUA_TTABLE) Sandbox::from(L)->plain(L, 1);
  lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, 1)));
  return 1;
}

int sandbox_getmetatable(lua_State* L) {
  luaL_checkany(L, 1);
  if (lua_istable(L, 1)) Sandbox::from(L)->plain(L, 1);
  if (!lua_getmetatable(L, 1)) {
    lua_pushnil(L);
    return 1;
  }
  luaL_getmetafield(L, 1, "__metatable");  // the protected field when there is one, else the metatable
  return 1;
}

// xpcall(f, handler, ...): upvalue 1 = Lua's xpcall.
int sandbox_xpcall(lua_State* L) {
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, guarded_message_handler, 1);
  lua_replace(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// string.format without %p (an address), and with %s showing tables and functions as tostring does here.
// Upvalue 1 = Lua's string.format.
int sandbox_format(lua_State* L) {
  std::size_t length;
  const char* format = luaL_checklstring(L, 1, &length);
  int argument = 1;
  for (std::size_t i = 0; i < length; ++i) {
    if (format[i] != '%') continue;
    if (++i < length && format[i] == '%') continue;
    while (i < length && std::strchr("-+ #0123456789.", format[i])) ++i;
    if (i >= length) break;  // Lua's format reports the error
    ++argument;
    if (format[i] == 'p')
      return luaL_error(L, "string.format: %%p is not available in the sandbox (it shows a memory address)");
    if (format[i] == 's' && argument <= lua_gettop(L) && !lua_isstring(L, argument)) {
      push_text(L, argument);
      lua_replace(L, argument);
    }
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

}  // namespace hr
