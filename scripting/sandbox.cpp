// sandbox.cpp — the locked-down Lua state: allocator cap, CPU watchdog, allow-listed libraries,
// deterministic iteration, text-only loading, module loading from the ruleset's folders, freezing.
#include "sandbox.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <condition_variable>
#include <ctime>
#include <optional>

#include <pthread.h>

#include <lua.hpp>

#include "coverage.hpp"
#include "printable.hpp"
#include "ruleset.hpp"

namespace hr {

/// Replaces find, match, gmatch and gsub in the string library at `string_library` (sandbox_patterns.cpp).
void install_bounded_patterns(lua_State* L, int string_library);
/// Replaces string.rep, table.concat and table.unpack by versions bounded in C (sandbox_library.cpp).
void install_bounded_library(lua_State* L, int string_library, int table_library);

namespace {

constexpr int kBackstopExitStatus = 70;  // EX_SOFTWARE (not 124: that is timeout(1)'s)

// ---- memory cap -------------------------------------------------------------------------------------------

void* capped_alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  auto* sandbox = static_cast<Sandbox*>(ud);
  const std::size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    sandbox->used_ -= old;
    std::free(ptr);
    return nullptr;
  }
  // Inside a hook the script's cap; outside (kernel-side calls) a reserve on top that scripts cannot reach.
  const std::size_t cap = sandbox->limits().memory_bytes +
                          (sandbox->call_depth_.load(std::memory_order_relaxed) ? 0 : Sandbox::kKernelReserve);
  if (nsize > old && sandbox->used_ + (nsize - old) > cap) {
    if (sandbox->call_depth_.load(std::memory_order_relaxed)) sandbox->note_out_of_memory();
    return nullptr;
  }
  void* block = std::realloc(ptr, nsize);
  if (!block) return nullptr;
  sandbox->used_ = sandbox->used_ - old + nsize;
  return block;
}

// ---- CPU guard (and coverage) -----------------------------------------------------------------------------

// The one hook of a sandbox: line and call events go to the coverage record (set only when coverage is on),
// count events are the CPU guard.
//
// With coverage on, the line events are the CPU guard too: Lua decrements its instruction counter on every
// instruction while any hook is set, and that non-atomic decrement races the watchdog's asynchronous
// lua_sethook, which can lose the reset to 1 and leave the count hook billions of instructions away (a
// runaway loop then met the backstop instead of the limit, in about one run in seven on a loaded machine).
// Every line event therefore also checks whether the watchdog armed this call.
void sandbox_hook(lua_State* L, lua_Debug* ar) {
  Sandbox* sandbox = Sandbox::from(L);
  const bool armed_for_this_call =
      sandbox->call_depth_.load(std::memory_order_relaxed) != 0 &&
      sandbox->armed_serial_.load(std::memory_order_relaxed) == sandbox->call_serial_.load(std::memory_order_relaxed);
  if (ar->event != LUA_HOOKCOUNT) {
    if (sandbox->coverage_) sandbox->coverage_->record(L, ar);
    if (!armed_for_this_call) return;
  } else if (!armed_for_this_call) {
    sandbox->disarm();  // armed for a call that has already finished
    return;
  }
  // A hook runs in the frame of the interrupted function, so that function is level 0 (luaL_error's level 1
  // would name the line of its caller instead of the line that was running).
  luaL_where(L, 0);
  lua_pushfstring(L, "%s ran longer than the limit of %d ms and was stopped", sandbox->current_hook_,
                  static_cast<int>(sandbox->limits().hook_time.count()));
  lua_concat(L, 2);
  lua_error(L);
}

// ---- deterministic iteration -----------------------------------------------------------------------------

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

// __pairs of a read-only proxy: upvalue 1 = the real table
int read_only_pairs(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  const int real = lua_gettop(L);
  return push_sorted_iteration(L, 1, real);
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

// ---- read-only tables -------------------------------------------------------------------------------------

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

// ---- libraries --------------------------------------------------------------------------------------------

int sandbox_random(lua_State* L) {
  Sandbox* sandbox = Sandbox::from(L);
  Rng* rng = sandbox->random_source_;
  if (!rng) return luaL_error(L, "math.random draws from the game's RNG: call it inside a game hook");
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

bool valid_module_name(const char* name) {
  if (!*name) return false;
  for (const char* p = name; *p; ++p)
    if (!(std::isalnum(static_cast<unsigned char>(*p)) || *p == '_' || *p == '-' || *p == '.')) return false;
  return std::strstr(name, "..") == nullptr && name[0] != '.';
}

int sandbox_require(lua_State* L) {
  std::size_t length = 0;
  const char* name = luaL_checklstring(L, 1, &length);
  // A longer name would reach the file system as a file name past its limit (ENAMETOOLONG), and an exception
  // escaping into Lua hands the stack's top (the module cache) to the script's pcall as the error (issue 32).
  if (length > Sandbox::kMaxModuleName)
    return luaL_error(L, "require: a module name has at most %d bytes, not %d", static_cast<int>(Sandbox::kMaxModuleName),
                      static_cast<int>(length));
  if (!valid_module_name(name))
    return luaL_error(L, "require: '%s' is not a module name (letters, digits, _ - and dots only)", name);
  lua_getfield(L, LUA_REGISTRYINDEX, "houserules.modules");
  if (lua_getfield(L, -1, name) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  const int cache = lua_gettop(L);
  Sandbox* sandbox = Sandbox::from(L);
  std::string relative = name;
  std::replace(relative.begin(), relative.end(), '.', '/');
  relative += ".lua";
  for (const auto& root : sandbox->module_roots_) {
    const auto file = root / relative;
    std::error_code not_found;
    if (!std::filesystem::is_regular_file(file, not_found)) continue;  // (no exception: see above)
    // The module's real path (symbolic links resolved) must lie in the real folder, or among the built-in
    // rulesets (a link to a shipped module, as the planted-bug fixtures use): a link `lib -> /` in the
    // ruleset's folder would otherwise make every .lua file on the disk loadable.
    std::error_code ec;
    const auto real_file = std::filesystem::canonical(file, ec);
    auto under = [&](const std::filesystem::path& folder) {
      std::error_code ec2;
      const auto real_folder = std::filesystem::canonical(folder, ec2);
      const auto inside = real_file.lexically_relative(real_folder);
      return !ec2 && !inside.empty() && *inside.begin() != "..";
    };
    if (ec || !(under(root) || under(HOUSERULES_RULESETS_DIR)))
      return luaL_error(L, "require: '%s' leads outside the ruleset's folder (through a symbolic link): refused",
                        printable(Sandbox::display_path(file)).c_str());
    const std::string source = read_source(real_file).value_or("");
    const std::string chunkname = "@" + Sandbox::display_path(file);
    if (luaL_loadbufferx(L, source.data(), source.size(), chunkname.c_str(), "t") != LUA_OK) return lua_error(L);
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, cache, name);
    return 1;
  }
  std::string searched;
  for (const auto& root : sandbox->module_roots_) searched += "\n\tno file '" + Sandbox::display_path(root / relative) + "'";
  return luaL_error(L, "module '%s' not found in the ruleset's folders:%s", name, searched.c_str());
}

// The message of an error, cut to kMaxErrorBytes with control characters escaped (the script wrote it),
// then the traceback.
int message_handler(lua_State* L) {
  std::size_t length = 0;
  const char* message = lua_type(L, 1) == LUA_TSTRING || lua_type(L, 1) == LUA_TNUMBER ? lua_tolstring(L, 1, &length) : nullptr;
  std::string text;
  if (message) {
    text = printable(truncated(std::string_view(message, length), Sandbox::kMaxErrorBytes));
  } else {
    text = std::string("(error object is a ") + luaL_typename(L, 1) + " value)";
  }
  luaL_traceback(L, L, text.c_str(), 1);
  return 1;
}

}  // namespace

/// One thread for the whole process. Every `tick` it looks at each sandbox in a call: a call whose serial
/// number has not changed while its thread used more CPU time than the sandbox's limit gets the count hook
/// armed. CPU time, not wall time: on a loaded machine a starved thread may take seconds of wall time for a
/// call of milliseconds, and must not be stopped (nor ended by the backstop) for it. The hot path pays a few
/// relaxed atomic stores per call and never reads a clock.
///
/// Lifetime: every Sandbox holds a shared_ptr to it, and so does a function-local static. At exit the static's
/// reference goes first or last depending on construction order; a Sandbox kept in a static object (a cache of
/// loaded rules) can be destroyed after it, and still unregisters from a live watchdog. The last owner's
/// release joins the thread.
class Watchdog {
 public:
  static std::shared_ptr<Watchdog> shared() {
    static const std::shared_ptr<Watchdog> process_wide = std::make_shared<Watchdog>();
    return process_wide;
  }
  void add(Sandbox* sandbox) {
    std::lock_guard lock(mutex_);
    watched_.push_back(Entry{sandbox, 0, std::chrono::milliseconds{0}});
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  void remove(Sandbox* sandbox) {
    std::lock_guard lock(mutex_);
    std::erase_if(watched_, [&](const Entry& e) { return e.sandbox == sandbox; });
  }
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  struct Entry {
    Sandbox* sandbox;
    std::uint64_t serial;
    std::chrono::milliseconds running;
    std::optional<std::chrono::nanoseconds> cpu_start = std::nullopt;  // the thread's CPU time when first seen
  };

  /// The CPU time a thread has used so far, or nothing when its clock cannot be read.
  static std::optional<std::chrono::nanoseconds> thread_cpu_time(int clock) {
    timespec ts{};
    if (clock == -1 || clock_gettime(static_cast<clockid_t>(clock), &ts) != 0) return std::nullopt;
    return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
  }
  static constexpr std::chrono::milliseconds tick{25};

  /// How long an armed call may go on before the process is ended: the count hook fires at the next Lua
  /// instruction, so a call still running this long after arming is stuck in C code (a library function)
  /// or in a place no hook reaches.
  static std::chrono::milliseconds backstop(const Sandbox& s) {
    return std::max(s.limits().hook_time, std::chrono::milliseconds{2000});
  }

  /// The backstop: one line on stderr naming the hook and the script's file and line, then the process
  /// ends (a Lua state stuck in C cannot be unwound from another thread). The call's stack does not change
  /// while its C function runs, so reading it from here is safe in practice; nothing else runs after.
  [[noreturn]] static void stop_process(Sandbox& s, std::chrono::milliseconds running) {
    lua_State* L = s.lua();
    std::string where = "in C code";
    lua_Debug ar;
    for (int level = 0; level < 8 && lua_getstack(L, level, &ar); ++level) {
      if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
      where = std::string(ar.short_src) + ":" + std::to_string(ar.currentline);
      break;
    }
    std::fprintf(stderr,
                 "houserules: %s (%s) still ran %lld ms after its limit of %lld ms, inside a library call that cannot "
                 "be interrupted; the process is stopped\n",
                 printable(s.current_hook_).c_str(), printable(where).c_str(),
                 static_cast<long long>((running - s.limits().hook_time).count()),
                 static_cast<long long>(s.limits().hook_time.count()));
    std::fflush(stderr);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    std::abort();  // under libFuzzer (-DHOUSERULES_FUZZ=ON): a crash it reports, with the input that caused it saved
#else
    std::_Exit(kBackstopExitStatus);
#endif
  }

  void run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, tick);
      for (Entry& e : watched_) {
        Sandbox* s = e.sandbox;
        const std::uint64_t serial = s->call_serial_.load(std::memory_order_relaxed);
        const bool in_call = s->call_depth_.load(std::memory_order_relaxed) != 0;
        const auto cpu = in_call ? thread_cpu_time(s->cpu_clock_.load(std::memory_order_relaxed)) : std::nullopt;
        if (!in_call || serial != e.serial) {
          e.serial = serial;
          e.running = std::chrono::milliseconds{0};
          e.cpu_start = cpu;
          continue;
        }
        // the CPU time the call's thread used since the call was first seen; watchdog ticks if it cannot be read
        if (cpu && e.cpu_start)
          e.running = std::chrono::duration_cast<std::chrono::milliseconds>(*cpu - *e.cpu_start);
        else
          e.running += tick;
        if (e.running >= s->limits().hook_time && s->armed_serial_.load() != serial) {
          s->armed_serial_.store(serial);
          // documented as safe to call asynchronously
          lua_sethook(s->lua(), sandbox_hook, LUA_MASKCOUNT | s->coverage_mask(), 1);
        } else if (e.running >= s->limits().hook_time + backstop(*s)) {
          stop_process(*s, e.running);
        }
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Entry> watched_;
  std::thread thread_;
  bool stop_ = false;
};


constexpr int kMessageHandlerSlot = 1;  // stack index of message_handler, pushed first

Sandbox* Sandbox::from(lua_State* L) { return *static_cast<Sandbox**>(lua_getextraspace(L)); }

bool Sandbox::is_buffered(lua_State* L, int index) const {
  return lua_type(L, index) == LUA_TTABLE && lua_topointer(L, index) == buffered_table_;
}

void Sandbox::plain_protected(lua_State* L, int index) {
  if (!buffered_table_ || !is_buffered(L, index)) return;
  lua_pushcfunction(L, unbuffer_);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    const std::string message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error";
    lua_pop(L, 1);
    throw ScriptError("the actions list: " + message);
  }
}

std::string Sandbox::display_path(const std::filesystem::path& file) {
  std::error_code ec;
  const auto absolute = std::filesystem::absolute(file, ec);
  const auto cwd = std::filesystem::current_path(ec);
  if (!ec) {
    const auto relative = absolute.lexically_relative(cwd);
    if (!relative.empty() && *relative.begin() != "..") return relative.string();
  }
  return absolute.lexically_normal().string();
}

Sandbox::Sandbox(Limits limits) : limits_(limits) {
  L_ = lua_newstate(capped_alloc, this);
  if (!L_) throw LoadError("cannot create a Lua state (memory limit too small?)");
  *static_cast<Sandbox**>(lua_getextraspace(L_)) = this;
  // The message handler lives at the bottom of the stack for the state's whole life, so a call does not
  // push and remove it each time.
  lua_pushcfunction(L_, message_handler);
  open_libraries();
  if (CoverageRecorder::global().enabled()) {
    coverage_ = &CoverageRecorder::global();
    disarm();
  }
  watchdog_ = Watchdog::shared();
  watchdog_->add(this);
}

Sandbox::~Sandbox() {
  watchdog_->remove(this);
  lua_close(L_);
}

void Sandbox::open_libraries() {
  lua_State* L = L_;
  const luaL_Reg libraries[] = {{LUA_GNAME, luaopen_base},
                                {LUA_STRLIBNAME, luaopen_string},
                                {LUA_TABLIBNAME, luaopen_table},
                                {LUA_MATHLIBNAME, luaopen_math},
                                {LUA_UTF8LIBNAME, luaopen_utf8}};
  for (const auto& lib : libraries) {
    luaL_requiref(L, lib.name, lib.func, 1);
    lua_pop(L, 1);
  }
  lua_pushglobaltable(L);
  for (const char* name : {"dofile", "loadfile", "collectgarbage", "_VERSION"}) {
    lua_pushnil(L);
    lua_setfield(L, -2, name);
  }
  const luaL_Reg base_functions[] = {{"load", sandbox_load},         {"pairs", sandbox_pairs},
                                     {"next", sandbox_next},         {"rawset", sandbox_rawset},
                                     {"print", sandbox_print},       {"tostring", sandbox_tostring},
                                     {"rawget", sandbox_rawget},     {"rawlen", sandbox_rawlen},
                                     {"getmetatable", sandbox_getmetatable}, {nullptr, nullptr}};
  luaL_setfuncs(L, base_functions, 0);
  lua_getfield(L, -1, "setmetatable");
  lua_pushcclosure(L, sandbox_setmetatable, 1);
  lua_setfield(L, -2, "setmetatable");
  lua_getfield(L, -1, "xpcall");
  lua_pushcclosure(L, sandbox_xpcall, 1);
  lua_setfield(L, -2, "xpcall");
  lua_getfield(L, -1, LUA_TABLIBNAME);
  const luaL_Reg table_functions[] = {{"insert", sandbox_table_insert}, {"remove", sandbox_table_remove},
                                      {"move", sandbox_table_move}, {"sort", sandbox_table_sort}, {nullptr, nullptr}};
  luaL_setfuncs(L, table_functions, 0);
  lua_pop(L, 1);
  lua_pushcfunction(L, sandbox_require);
  lua_setfield(L, -2, "require");
  lua_getfield(L, -1, LUA_STRLIBNAME);
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_getfield(L, -1, "format");
  lua_pushcclosure(L, sandbox_format, 1);
  lua_setfield(L, -2, "format");
  install_bounded_patterns(L, lua_absindex(L, -1));
  lua_getfield(L, -2, LUA_TABLIBNAME);
  install_bounded_library(L, lua_absindex(L, -2), lua_absindex(L, -1));
  lua_pop(L, 2);
  lua_getfield(L, -1, LUA_MATHLIBNAME);
  lua_pushcfunction(L, sandbox_random);
  lua_setfield(L, -2, "random");
  lua_pushnil(L);
  lua_setfield(L, -2, "randomseed");
  lua_pop(L, 1);
  lua_pop(L, 1);
  // Strings share one metatable whose __index is the string library: lock it so a script cannot reach it.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_pushliteral(L, "locked");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);
  // The registry's loaded-libraries table would give access to the real library tables: empty it.
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, "houserules.modules");
}

void Sandbox::load_file(const std::filesystem::path& file) {
  const std::optional<std::string> text = read_source(file);
  if (!text) throw LoadError(display_path(file) + ": cannot open the file");
  const std::string& source = *text;
  const std::string chunkname = "@" + display_path(file);
  const int status = luaL_loadbufferx(L_, source.data(), source.size(), chunkname.c_str(), "t");
  if (status != LUA_OK) {
    std::string message = lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "cannot load";
    lua_pop(L_, 1);
    throw LoadError(message);
  }
}

void Sandbox::call(const char* what, int nargs, int nresults) {
  lua_State* L = L_;
  const char* outer_hook = current_hook_;
  current_hook_ = what;
  // Only this thread writes these; plain relaxed stores (no locked read-modify-write) are enough for the
  // watchdog, which only compares successive values.
  const std::uint64_t serial = call_serial_.load(std::memory_order_relaxed) + 1;
  const int depth = call_depth_.load(std::memory_order_relaxed);
  if (depth == 0) {  // the watchdog times the call on this thread's CPU clock
    // A thread's CPU clock id does not change while it lives: asked once per thread (-2: not yet).
    thread_local int thread_clock = -2;
    if (thread_clock == -2) {
      clockid_t clock;
      thread_clock = pthread_getcpuclockid(pthread_self(), &clock) == 0 ? static_cast<int>(clock) : -1;
    }
    cpu_clock_.store(thread_clock, std::memory_order_relaxed);
  }
  call_serial_.store(serial, std::memory_order_relaxed);
  call_depth_.store(depth + 1, std::memory_order_relaxed);
  if (depth == 0) out_of_memory_at_[0] = '\0';
  const int status = lua_pcall(L, nargs, nresults, kMessageHandlerSlot);
  call_depth_.store(depth, std::memory_order_relaxed);
  call_serial_.store(serial + 1, std::memory_order_relaxed);
  current_hook_ = outer_hook;
  if (lua_gethookmask(L) & LUA_MASKCOUNT) disarm();
  if (status == LUA_OK) return;
  std::string message;
  if (status == LUA_ERRMEM) {
    message = (out_of_memory_at_[0] ? printable(out_of_memory_at_) + ": " : std::string()) + what +
              " ran out of memory: the sandbox allows " + std::to_string(limits_.memory_bytes >> 20) +
              " MiB per Lua state";
  } else {
    std::size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    message = std::string(what) + " failed: " +
              (text ? printable(truncated(std::string_view(text, length), 4 * kMaxErrorBytes), true)
                    : std::string("(error object is not a string)"));
  }
  lua_pop(L, 1);
  throw ScriptError(message);
}

void Sandbox::note_out_of_memory() {
  // Lua runs no message handler for a memory error, so the script's line is read here, while its frames are
  // still on the stack. lua_getstack and lua_getinfo("Sl") allocate nothing (the source's short name is
  // written into the lua_Debug itself); Lua 5.4.4 keeps the old stack valid while it tries to grow it.
  lua_Debug ar;
  for (int level = 0; level < 16 && lua_getstack(L_, level, &ar); ++level) {
    if (!lua_getinfo(L_, "Sl", &ar) || ar.currentline <= 0) continue;
    std::snprintf(out_of_memory_at_, sizeof out_of_memory_at_, "%s:%d", ar.short_src, ar.currentline);
    return;
  }
  out_of_memory_at_[0] = '\0';
}

int Sandbox::coverage_mask() const { return coverage_ ? CoverageRecorder::hook_mask() : 0; }

void Sandbox::disarm() {
  if (coverage_) {
    lua_sethook(L_, sandbox_hook, coverage_mask(), 0);
  } else {
    lua_sethook(L_, nullptr, 0, 0);
  }
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
