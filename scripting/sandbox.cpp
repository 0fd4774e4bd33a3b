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

#include <lua.hpp>

#include "ruleset.hpp"

namespace hr {

namespace {

// ---- memory cap -------------------------------------------------------------------------------------------

void* capped_alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  auto* sandbox = static_cast<Sandbox*>(ud);
  const std::size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    sandbox->used_ -= old;
    std::free(ptr);
    return nullptr;
  }
  if (nsize > old && sandbox->used_ + (nsize - old) > sandbox->limits().memory_bytes) return nullptr;
  void* block = std::realloc(ptr, nsize);
  if (!block) return nullptr;
  sandbox->used_ = sandbox->used_ - old + nsize;
  return block;
}

// ---- CPU guard --------------------------------------------------------------------------------------------

void cpu_hook(lua_State* L, lua_Debug*) {
  Sandbox* sandbox = Sandbox::from(L);
  if (sandbox->call_depth_.load(std::memory_order_relaxed) == 0 ||
      sandbox->armed_serial_.load(std::memory_order_relaxed) != sandbox->call_serial_.load(std::memory_order_relaxed)) {
    lua_sethook(L, nullptr, 0, 0);  // armed for a call that has already finished
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

/// One thread for the whole process. Every `tick` it looks at each sandbox in a call: a call whose serial
/// number has not changed for longer than the sandbox's limit gets the count hook armed. The hot path
/// pays one atomic increment per call and never reads a clock.
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog watchdog;
    return watchdog;
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
  };
  static constexpr std::chrono::milliseconds tick{25};

  void run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      wake_.wait_for(lock, tick);
      for (Entry& e : watched_) {
        Sandbox* s = e.sandbox;
        const std::uint64_t serial = s->call_serial_.load(std::memory_order_relaxed);
        if (s->call_depth_.load(std::memory_order_relaxed) == 0 || serial != e.serial) {
          e.serial = serial;
          e.running = std::chrono::milliseconds{0};
          continue;
        }
        e.running += tick;
        if (e.running >= s->limits().hook_time && s->armed_serial_.load() != serial) {
          s->armed_serial_.store(serial);
          lua_sethook(s->lua(), cpu_hook, LUA_MASKCOUNT, 1);  // documented as safe to call asynchronously
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
  const char* chunkname = luaL_optstring(L, 2, "=(load)");
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

int sandbox_print(lua_State* L) {
  std::string line;
  const int n = lua_gettop(L);
  for (int i = 1; i <= n; ++i) {
    if (i > 1) line += '\t';
    line += luaL_tolstring(L, i, nullptr);
    lua_pop(L, 1);
  }
  std::fprintf(stderr, "[lua] %s\n", line.c_str());
  return 0;
}

bool valid_module_name(const char* name) {
  if (!*name) return false;
  for (const char* p = name; *p; ++p)
    if (!(std::isalnum(static_cast<unsigned char>(*p)) || *p == '_' || *p == '-' || *p == '.')) return false;
  return std::strstr(name, "..") == nullptr && name[0] != '.';
}

int sandbox_require(lua_State* L) {
  const char* name = luaL_checkstring(L, 1);
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
    if (!std::filesystem::is_regular_file(file)) continue;
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
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

int message_handler(lua_State* L) {
  const char* message = lua_tostring(L, 1);
  if (!message) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
    message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  luaL_traceback(L, L, message, 1);
  return 1;
}

}  // namespace

constexpr int kMessageHandlerSlot = 1;  // stack index of message_handler, pushed first

Sandbox* Sandbox::from(lua_State* L) { return *static_cast<Sandbox**>(lua_getextraspace(L)); }

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
  Watchdog::instance().add(this);
}

Sandbox::~Sandbox() {
  Watchdog::instance().remove(this);
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
  lua_pushcfunction(L, sandbox_load);
  lua_setfield(L, -2, "load");
  lua_pushcfunction(L, sandbox_pairs);
  lua_setfield(L, -2, "pairs");
  lua_pushcfunction(L, sandbox_next);
  lua_setfield(L, -2, "next");
  lua_pushcfunction(L, sandbox_rawset);
  lua_setfield(L, -2, "rawset");
  lua_pushcfunction(L, sandbox_print);
  lua_setfield(L, -2, "print");
  lua_pushcfunction(L, sandbox_require);
  lua_setfield(L, -2, "require");
  lua_getfield(L, -1, LUA_STRLIBNAME);
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_pop(L, 1);
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
  std::ifstream in(file, std::ios::binary);
  if (!in) throw LoadError(display_path(file) + ": cannot open the file");
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
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
  call_serial_.store(serial, std::memory_order_relaxed);
  call_depth_.store(depth + 1, std::memory_order_relaxed);
  const int status = lua_pcall(L, nargs, nresults, kMessageHandlerSlot);
  call_depth_.store(depth, std::memory_order_relaxed);
  call_serial_.store(serial + 1, std::memory_order_relaxed);
  current_hook_ = outer_hook;
  if (lua_gethook(L)) lua_sethook(L, nullptr, 0, 0);
  if (status == LUA_OK) return;
  std::string message;
  if (status == LUA_ERRMEM) {
    message = std::string(what) + " ran out of memory: the sandbox allows " +
              std::to_string(limits_.memory_bytes >> 20) + " MiB per Lua state";
  } else {
    const char* text = lua_tostring(L, -1);
    message = std::string(what) + " failed: " + (text ? text : "(error object is not a string)");
  }
  lua_pop(L, 1);
  throw ScriptError(message);
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
