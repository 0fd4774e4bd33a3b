// sandbox_table.cpp — table.insert, table.remove, table.move and table.sort for the sandbox: their loops run
// in C, where the CPU guard cannot stop them, so each refuses a length past Sandbox::kMaxTableLength; and sort
// is a stable merge sort (Lua's quicksort picks its pivot from the clock), deterministic whatever the order
// function answers.
#include <algorithm>
#include <utility>

#include <lua.hpp>

#include "sandbox.hpp"
#include "sandbox_functions.hpp"

namespace hr {

namespace {

/// #t (with __len) for table.insert/remove/move/sort, refused past kMaxTableLength: those loops run in C,
/// where the CPU guard cannot stop them.
lua_Integer bounded_length(lua_State* L, int index, const char* function) {
  luaL_checktype(L, index, LUA_TTABLE);
  const lua_Integer n = luaL_len(L, index);
  if (n < 0 || n > Sandbox::kMaxTableLength)
    luaL_error(L, "%s: a length of %I is past the sandbox's limit of %I", function, n,
               static_cast<lua_Integer>(Sandbox::kMaxTableLength));
  return n;
}

}  // namespace

int sandbox_table_insert(lua_State* L) {
  const lua_Integer first_empty = bounded_length(L, 1, "table.insert") + 1;
  lua_Integer position = first_empty;
  switch (lua_gettop(L)) {
    case 2: break;
    case 3:
      position = luaL_checkinteger(L, 2);
      luaL_argcheck(L, position >= 1 && position <= first_empty, 2, "position out of bounds");
      for (lua_Integer i = first_empty; i > position; --i) {
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
      }
      break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, position);
  return 0;
}

int sandbox_table_remove(lua_State* L) {
  const lua_Integer size = bounded_length(L, 1, "table.remove");
  lua_Integer position = luaL_optinteger(L, 2, size);
  if (lua_gettop(L) >= 2 && position != size)
    luaL_argcheck(L, position >= 1 && position <= size + 1, 2, "position out of bounds");
  lua_geti(L, 1, position);
  for (; position < size; ++position) {
    lua_geti(L, 1, position + 1);
    lua_seti(L, 1, position);
  }
  lua_pushnil(L);
  lua_seti(L, 1, position);
  return 1;
}

// table.move(a1, f, e, t [, a2])
int sandbox_table_move(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const lua_Integer f = luaL_checkinteger(L, 2);
  const lua_Integer e = luaL_checkinteger(L, 3);
  const lua_Integer t = luaL_checkinteger(L, 4);
  const int target = lua_isnoneornil(L, 5) ? 1 : 5;
  luaL_checktype(L, target, LUA_TTABLE);
  if (e >= f) {
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    const lua_Integer n = e - f;  // elements to move, minus one
    if (n >= Sandbox::kMaxTableLength)
      return luaL_error(L, "table.move: %I elements are past the sandbox's limit of %I", n + 1,
                        static_cast<lua_Integer>(Sandbox::kMaxTableLength));
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n, 4, "destination wrap around");
    if (t > e || t <= f || (target != 1 && !lua_compare(L, 1, target, LUA_OPEQ))) {
      for (lua_Integer i = 0; i <= n; ++i) {
        lua_geti(L, 1, f + i);
        lua_seti(L, target, t + i);
      }
    } else {
      for (lua_Integer i = n; i >= 0; --i) {
        lua_geti(L, 1, f + i);
        lua_seti(L, target, t + i);
      }
    }
  }
  lua_pushvalue(L, target);
  return 1;
}

// table.sort(t [, less]): a stable bottom-up merge sort. Lua's quicksort picks a random pivot (from the
// clock) after an unbalanced partition, so the order of equal elements could differ from run to run; a
// merge sort is deterministic, and stays in bounds whatever the order function answers.
int sandbox_table_sort(lua_State* L) {
  const lua_Integer n = bounded_length(L, 1, "table.sort");
  const bool custom = !lua_isnoneornil(L, 2);
  if (custom) luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  if (n < 2) return 0;
  lua_createtable(L, static_cast<int>(n), 0);  // 3: the elements
  lua_createtable(L, static_cast<int>(n), 0);  // 4: the merge buffer
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_geti(L, 1, i);
    lua_rawseti(L, 3, i);
  }
  auto less = [&](lua_Integer a, lua_Integer b, int from) {  // from[b] < from[a]? (b comes first when true)
    if (custom) lua_pushvalue(L, 2);
    lua_rawgeti(L, from, b);
    lua_rawgeti(L, from, a);
    bool result;
    if (custom) {
      lua_call(L, 2, 1);
      result = lua_toboolean(L, -1);
      lua_pop(L, 1);
    } else {
      result = lua_compare(L, -2, -1, LUA_OPLT);
      lua_pop(L, 2);
    }
    return result;
  };
  int from = 3, to = 4;
  for (lua_Integer width = 1; width < n; width *= 2) {
    for (lua_Integer low = 1; low <= n; low += 2 * width) {
      const lua_Integer middle = std::min(low + width, n + 1), high = std::min(low + 2 * width, n + 1);
      lua_Integer a = low, b = middle, k = low;
      while (a < middle && b < high) {
        const lua_Integer pick = less(a, b, from) ? b++ : a++;
        lua_rawgeti(L, from, pick);
        lua_rawseti(L, to, k++);
      }
      for (; a < middle; ++a) lua_rawgeti(L, from, a), lua_rawseti(L, to, k++);
      for (; b < high; ++b) lua_rawgeti(L, from, b), lua_rawseti(L, to, k++);
    }
    std::swap(from, to);
  }
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, from, i);
    lua_seti(L, 1, i);
  }
  return 0;
}

}  // namespace hr
