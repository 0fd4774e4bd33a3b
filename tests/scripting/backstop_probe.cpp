// backstop_probe.cpp — a process for the watchdog's backstop test (tests/scripting/hostile_cli_test.sh): a
// hook stuck in C code, where the CPU guard's count hook never fires, must end the process with one line
// naming the hook, the script's file and line, and exit status 70.
#include <chrono>
#include <cstring>

#include <lua.hpp>

#include "sandbox.hpp"

int main() {
  hr::Sandbox sandbox({8u << 20, std::chrono::milliseconds{200}});
  lua_State* L = sandbox.lua();
  lua_pushcfunction(L, [](lua_State*) -> int {
    volatile unsigned long spins = 0;
    for (;;) spins = spins + 1;  // a library function that never returns
  });
  lua_setglobal(L, "stuck_in_c");
  const char* chunk = "local x = 1\nstuck_in_c()\n";
  if (luaL_loadbufferx(L, chunk, std::strlen(chunk), "@backstop.lua", "t") != LUA_OK) return 2;
  sandbox.call("hook 'apply'", 0, 0);
  return 0;  // never reached
}
