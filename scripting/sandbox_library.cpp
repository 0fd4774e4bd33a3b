// sandbox_library.cpp — the library functions of the sandbox that would otherwise loop in C past every limit
// (issue 32): string.rep, table.concat and table.unpack, replaced by bounded versions with the same results.
//
// The CPU guard is a count hook: it fires between Lua instructions, never inside a C function. A C function
// whose loop runs long without allocating (string.rep('', math.maxinteger): 2^63 copies of nothing) is stopped
// by neither the guard nor the memory cap, and met the watchdog's backstop, which ends the whole process. The
// audit of the libraries the sandbox opens (base, string, table, math, utf8), docs/writing-rules.md "The
// sandbox":
//   * string.rep: replaced here. An empty result is returned at once; a result past the memory cap is refused
//     before any copy (the message gives its size and the cap).
//   * table.concat: replaced here. A range of more than Sandbox::kMaxTableLength elements is refused (each
//     element may come from an __index metamethod written in C, e.g. rawlen, which the guard does not see).
//   * table.unpack: replaced here, with the same bound (Lua's own stops at its stack limit, 10^6 values, but
//     each through __index).
//   * table.insert/remove/move/sort (sandbox_table.cpp) and find/match/gmatch/gsub (sandbox_patterns.cpp): bounded.
//   * string.byte, utf8.codepoint: bounded by the string's length and Lua's stack limit ("string slice too
//     long"); string.char, utf8.char, select: by the number of arguments (the stack limit); utf8.len,
//     utf8.offset, string.reverse/lower/upper, string.format (widths of at most 2 digits in Lua 5.4),
//     string.pack/unpack/packsize: by the lengths of their strings, which the memory cap bounds; the rest of
//     math and the base library run in constant time or call back into Lua (where the guard fires).
#include <cstring>

#include <lua.hpp>

#include "sandbox.hpp"
#include "sandbox_functions.hpp"

namespace hr {

namespace {

/// string.rep(s, n [, sep]): as Lua's, without its loop over empty copies, and with the result's size checked
/// against the memory cap before anything is copied.
int sandbox_string_rep(lua_State* L) {
  std::size_t length = 0, separator_length = 0;
  const char* s = luaL_checklstring(L, 1, &length);
  const lua_Integer n = luaL_checkinteger(L, 2);
  const char* separator = luaL_optlstring(L, 3, "", &separator_length);
  if (n <= 0 || length + separator_length == 0) {  // Lua's loop would copy nothing n times
    lua_pushliteral(L, "");
    return 1;
  }
  const auto copies = static_cast<unsigned long long>(n);
  const std::size_t cap = Sandbox::from(L)->limits().memory_bytes;
  // total = n * length + (n - 1) * separator_length, computed without overflow
  const unsigned long long unit = length + separator_length;
  if (unit > cap || copies > (cap + separator_length) / unit)
    return luaL_error(L, "string.rep: a result of %I copies of %I bytes is past the sandbox's memory limit of %I MiB",
                      n, static_cast<lua_Integer>(length), static_cast<lua_Integer>(cap >> 20));
  const std::size_t total = static_cast<std::size_t>(copies * length + (copies - 1) * separator_length);
  luaL_Buffer b;
  char* p = luaL_buffinitsize(L, &b, total);
  for (unsigned long long i = 0; i < copies; ++i) {
    if (i > 0 && separator_length) std::memcpy(p, separator, separator_length), p += separator_length;
    if (length) std::memcpy(p, s, length), p += length;
  }
  luaL_pushresultsize(&b, total);
  return 1;
}

/// The range [i, j] of table.concat and table.unpack, refused past kMaxTableLength elements.
void check_range(lua_State* L, lua_Integer i, lua_Integer j, const char* function) {
  if (i > j) return;
  const auto count = static_cast<unsigned long long>(j) - static_cast<unsigned long long>(i) + 1;  // (wraps to 0 only for the full range)
  if (count == 0 || count > static_cast<unsigned long long>(Sandbox::kMaxTableLength))
    luaL_error(L, "%s: a range of %I to %I is past the sandbox's limit of %I elements", function, i, j,
               static_cast<lua_Integer>(Sandbox::kMaxTableLength));
}

/// table.concat(t [, sep [, i [, j]]]): as Lua's (the same checks and messages), with the range bounded.
int sandbox_table_concat(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  std::size_t separator_length = 0;
  const char* separator = luaL_optlstring(L, 2, "", &separator_length);
  const lua_Integer first = luaL_optinteger(L, 3, 1);
  const lua_Integer last = lua_isnoneornil(L, 4) ? luaL_len(L, 1) : luaL_checkinteger(L, 4);
  check_range(L, first, last, "table.concat");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (lua_Integer i = first; i <= last; ++i) {
    lua_geti(L, 1, i);
    if (!lua_isstring(L, -1))
      luaL_error(L, "invalid value (at index %I) in table for 'concat'", i);
    luaL_addvalue(&b);
    if (i == last) break;  // (never past last: last may be math.maxinteger)
    luaL_addlstring(&b, separator, separator_length);
  }
  luaL_pushresult(&b);
  return 1;
}

/// table.unpack(t [, i [, j]]): as Lua's, with the range bounded.
int sandbox_table_unpack(lua_State* L) {
  const lua_Integer first = luaL_optinteger(L, 2, 1);
  const lua_Integer last = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
  if (first > last) return 0;
  check_range(L, first, last, "table.unpack");
  const auto n = static_cast<int>(last - first + 1);
  if (!lua_checkstack(L, n)) return luaL_error(L, "too many results to unpack");
  for (int k = 0; k < n; ++k) lua_geti(L, 1, first + k);
  return n;
}

}  // namespace

/// Replaces string.rep (in the library table at `string_library`), table.concat and table.unpack (at
/// `table_library`) by the bounded versions above.
void install_bounded_library(lua_State* L, int string_library, int table_library) {
  lua_pushcfunction(L, sandbox_string_rep);
  lua_setfield(L, string_library, "rep");
  lua_pushcfunction(L, sandbox_table_concat);
  lua_setfield(L, table_library, "concat");
  lua_pushcfunction(L, sandbox_table_unpack);
  lua_setfield(L, table_library, "unpack");
}

}  // namespace hr
