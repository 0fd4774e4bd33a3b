// sandbox.cpp — the locked-down Lua state itself (sandbox.hpp): the allocator cap, creating the state and
// installing its libraries (the replaced functions live in sandbox_base.cpp, sandbox_iteration.cpp,
// sandbox_read_only.cpp, sandbox_table.cpp, sandbox_require.cpp, sandbox_patterns.cpp, sandbox_library.cpp),
// loading a text chunk, and calling into Lua with the message handler, the CPU guard's serial numbers
// (sandbox_watchdog.cpp) and the memory error's line.
#include "sandbox.hpp"

#include <cstdlib>
#include <cstring>
#include <optional>

#include <pthread.h>

#include <lua.hpp>

#include "coverage.hpp"
#include "printable.hpp"
#include "ruleset.hpp"
#include "sandbox_functions.hpp"
#include "sandbox_watchdog.hpp"

namespace hr {

namespace {

// ---- memory cap -------------------------------------------------------------------------------------------

void* capped_alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  auto* sandbox = static_cast<Sandbox*>(ud);
  const std::size_t old = ptr ? osize : 0;
  BlockPool& pool = sandbox->pool_;
  if (nsize == 0) {
    sandbox->used_ -= old;
    if (ptr && BlockPool::pooled(osize)) pool.release(ptr, osize);
    else std::free(ptr);
    return nullptr;
  }
  // Inside a hook the script's cap; outside (kernel-side calls) a reserve on top that scripts cannot reach.
  const std::size_t cap = sandbox->limits().memory_bytes +
                          (sandbox->call_depth_.load(std::memory_order_relaxed) ? 0 : Sandbox::kKernelReserve);
  if (nsize > old && sandbox->used_ + (nsize - old) > cap) {
    if (sandbox->call_depth_.load(std::memory_order_relaxed)) sandbox->note_out_of_memory();
    return nullptr;
  }
  // Small blocks from the pool, large ones from malloc; a block that changes sides is copied (what Lua keeps).
  void* block;
  if (!ptr) {
    block = BlockPool::pooled(nsize) ? pool.allocate(nsize) : std::malloc(nsize);
  } else if (!BlockPool::pooled(osize) && !BlockPool::pooled(nsize)) {
    block = std::realloc(ptr, nsize);
  } else if (BlockPool::pooled(osize) && BlockPool::pooled(nsize) && BlockPool::same_class(osize, nsize)) {
    block = ptr;
  } else {
    block = BlockPool::pooled(nsize) ? pool.allocate(nsize) : std::malloc(nsize);
    if (!block) {
      // Lua counts on a block that shrinks never failing: keep the old one, larger than asked (only when no slab
      // can be had). Freed later under its new size, it goes to that size's class, which it fits; a malloc block
      // kept so then stays in the pool for reuse and is not freed with it (after a failed malloc only).
      if (nsize <= osize) {
        sandbox->used_ = sandbox->used_ - old + nsize;
        return ptr;
      }
      return nullptr;
    }
    std::memcpy(block, ptr, osize < nsize ? osize : nsize);
    if (BlockPool::pooled(osize)) pool.release(ptr, osize);
    else std::free(ptr);
  }
  if (!block) return nullptr;
  sandbox->used_ = sandbox->used_ - old + nsize;
  return block;
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

}  // namespace hr
