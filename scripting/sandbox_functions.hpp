// sandbox_functions.hpp — private to scripting/sandbox*.cpp: the C functions Sandbox::open_libraries
// (sandbox.cpp) installs in place of Lua's own, each defined in the file of its idea, and the one helper two of
// those files share. Nothing outside the sandbox's files includes it.
#pragma once

#include <lua.hpp>

namespace hr {

/// Replaces find, match, gmatch and gsub in the string library at `string_library` (sandbox_patterns.cpp).
void install_bounded_patterns(lua_State* L, int string_library);
/// Replaces string.rep, table.concat and table.unpack by versions bounded in C (sandbox_library.cpp).
void install_bounded_library(lua_State* L, int string_library, int table_library);

// pairs and next in a fixed key order (sandbox_iteration.cpp)
int sandbox_pairs(lua_State* L);
int sandbox_next(lua_State* L);
/// Pushes the deterministic iterator triple for the table at index t (keys of `source`, values via t).
int push_sorted_iteration(lua_State* L, int t, int source);

// rawset refusing read-only tables (sandbox_read_only.cpp)
int sandbox_rawset(lua_State* L);

// the base, math and string functions made deterministic (sandbox_base.cpp)
int sandbox_random(lua_State* L);
int sandbox_load(lua_State* L);
int sandbox_tostring(lua_State* L);
int sandbox_print(lua_State* L);
int sandbox_setmetatable(lua_State* L);
int sandbox_rawget(lua_State* L);
int sandbox_rawlen(lua_State* L);
int sandbox_getmetatable(lua_State* L);
int sandbox_xpcall(lua_State* L);
int sandbox_format(lua_State* L);

// table.insert, remove, move and sort, bounded (sandbox_table.cpp)
int sandbox_table_insert(lua_State* L);
int sandbox_table_remove(lua_State* L);
int sandbox_table_move(lua_State* L);
int sandbox_table_sort(lua_State* L);

// require from the ruleset's folders (sandbox_require.cpp)
int sandbox_require(lua_State* L);

}  // namespace hr
