// exit_order_probe.cpp — a Sandbox kept in a static object that is destroyed after the watchdog's own
// process-wide reference at exit (issue 18: the fuzz targets' rules caches did this). The cache below is
// constructed before any Sandbox exists, so static destruction runs it after the watchdog's static: the
// Sandbox then unregisters from a watchdog its shared ownership keeps alive. Before the fix this was a heap
// use-after-free in Watchdog::remove, which the sanitized suite (tests/sanitize.sh) reports; in a plain build
// the probe checks that the exit completes and a hook still runs normally under the watchdog.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

#include <lua.hpp>

#include "sandbox.hpp"

namespace {

std::map<int, std::unique_ptr<hr::Sandbox>>& cache() {
  static std::map<int, std::unique_ptr<hr::Sandbox>> sandboxes;  // constructed empty, before any Sandbox
  return sandboxes;
}

}  // namespace

int main() {
  cache();
  for (int i = 0; i < 3; ++i) {
    auto sandbox = std::make_unique<hr::Sandbox>(hr::Sandbox::Limits{8u << 20, std::chrono::milliseconds{200}});
    const char* chunk = "local n = 0 for i = 1, 1000 do n = n + i end return n";
    if (luaL_loadbufferx(sandbox->lua(), chunk, std::strlen(chunk), "=probe", "t") != LUA_OK) return 2;
    sandbox->call("hook 'probe'", 0, 1);
    if (lua_tointeger(sandbox->lua(), -1) != 500500) return 3;
    lua_pop(sandbox->lua(), 1);
    cache().emplace(i, std::move(sandbox));
  }
  std::puts("exit_order_probe: 3 cached sandboxes, destroyed at exit after the watchdog's static reference");
  return 0;
}
