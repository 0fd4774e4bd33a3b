// limits_test.cpp — the sandbox's CPU guard and memory cap (DESIGN.md §5): a runaway or greedy hook is
// stopped with a clear error, the game is left as it was, and the same rules object keeps working.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include <lua.hpp>

#include "probe.hpp"
#include "sandbox.hpp"

using Catch::Contains;
using scripting_test::fixture;
using scripting_test::Probe;
using scripting_test::quick_options;
namespace st = scripting_test;

namespace {

/// After a stopped hook: the state is unchanged and a normal action still applies.
void check_still_works(Probe& p, const hr::GameState& before) {
  CHECK(p.state == before);
  const auto pile = p.zone("pile");
  const int size = p.state.size(pile);
  REQUIRE_NOTHROW(p.rules->apply(p.state, st::kTake));
  CHECK(p.state.size(pile) == size - 1);
  CHECK(p.state.size(p.zone("hand.1")) == 1);
  CHECK(p.eval("return 6 * 7") == "42");
}

}  // namespace

// ---- CPU ----------------------------------------------------------------------------------------------------

TEST_CASE("trick: an endless loop in a hook (while true do end)", "[sandbox][cpu]") {
  Probe p;
  const hr::GameState before = p.state;
  const auto start = std::chrono::steady_clock::now();
  try {
    p.rules->apply(p.state, st::kEndlessLoop);
    FAIL("the endless loop returned");
  } catch (const hr::ScriptError& e) {
    const std::string message = e.what();
    CHECK_THAT(message, Contains("hook 'apply'"));
    CHECK_THAT(message, Contains("ran longer than the limit of 200 ms"));
  }
  // stopped near the limit, not after some other, much later event (generous: the machine is shared)
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  check_still_works(p, before);
}

TEST_CASE("trick: an endless loop that pcall's its way around the CPU guard", "[sandbox][cpu]") {
  Probe p;
  const hr::GameState before = p.state;
  // while true do pcall(function() while true do end end) end
  CHECK_THROWS_WITH(p.rules->apply(p.state, st::kPcallLoop), Contains("hook 'apply'") && Contains("ran longer than the limit"));
  check_still_works(p, before);
}

TEST_CASE("trick: an endless loop in a read-only hook", "[sandbox][cpu]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("while true do end"), Contains("hook 'explain'") && Contains("ran longer than the limit"));
  CHECK_THROWS_WITH(p.eval("while true do pcall(function() while true do end end) end"),
                    Contains("hook 'explain'") && Contains("ran longer than the limit"));
  // a loop under pcall that returns once its pcall fails: the guard stays armed until the hook has unwound
  CHECK_THROWS_WITH(p.eval("local ok = pcall(function() while true do end end) return 'swallowed'"),
                    Contains("ran longer than the limit"));
  CHECK(p.eval("return 'fine'") == "fine");
}

TEST_CASE("trick: an endless loop while the rules load", "[sandbox][cpu]") {
  try {
    hr::load_rules(fixture("loop-at-load"), quick_options());
    FAIL("loading returned");
  } catch (const hr::LoadError& e) {
    const std::string message = e.what();
    CHECK_THAT(message, Contains("loading"));
    CHECK_THAT(message, Contains("loop-at-load/rules.lua"));
    CHECK_THAT(message, Contains("ran longer than the limit of 200 ms"));
  }
}

TEST_CASE("a hook that is merely busy for a while is not stopped", "[sandbox][cpu]") {
  // a few million instructions: well under 200 ms on any machine this runs on... but the machine is shared,
  // so allow a generous limit for this one
  hr::LoadOptions options = quick_options();
  options.hook_time_limit = std::chrono::milliseconds{5000};
  Probe slow(options);
  CHECK(slow.eval("local n = 0 for i = 1, 3000000 do n = n + i end return n") == "4500001500000");
}

TEST_CASE("the CPU guard counts CPU time: a call that waits 600 ms without using the CPU is not stopped at 200 ms",
          "[sandbox][cpu]") {
  // What a thread starved by a loaded machine looks like to the guard: wall time passes, CPU time does not. A
  // guard counting wall time armed at 200 ms and failed the call at its next instruction.
  hr::Sandbox sandbox({8u << 20, std::chrono::milliseconds{200}});
  lua_State* L = sandbox.lua();
  lua_pushcfunction(L, [](lua_State*) -> int {
    std::this_thread::sleep_for(std::chrono::milliseconds{600});
    return 0;
  });
  lua_setglobal(L, "wait_in_c");
  const char* chunk = "wait_in_c() local n = 0 for i = 1, 100 do n = n + i end return n";
  REQUIRE(luaL_loadbufferx(L, chunk, std::strlen(chunk), "@wait.lua", "t") == LUA_OK);
  REQUIRE_NOTHROW(sandbox.call("hook 'apply'", 0, 1));
  CHECK(lua_tointeger(L, -1) == 5050);
  lua_pop(L, 1);
}

// ---- memory -------------------------------------------------------------------------------------------------

TEST_CASE("trick: a string.rep bomb", "[sandbox][memory]") {
  Probe p;
  const hr::GameState before = p.state;
  CHECK_THROWS_WITH(p.rules->apply(p.state, st::kStringRepBomb),
                    Contains("hook 'apply'") && Contains("memory") && Contains("8 MiB"));
  CHECK(p.rules->lua_memory() <= (8u << 20));
  check_still_works(p, before);
}

TEST_CASE("trick: a table that grows without end", "[sandbox][memory]") {
  Probe p;
  const hr::GameState before = p.state;
  CHECK_THROWS_WITH(p.rules->apply(p.state, st::kTableBomb),
                    Contains("hook 'apply'") && Contains("memory") && Contains("8 MiB"));
  CHECK(p.rules->lua_memory() <= (8u << 20));
  check_still_works(p, before);
  // and again: the garbage of the first bomb does not make the second fail differently
  CHECK_THROWS_WITH(p.rules->apply(p.state, st::kTableBomb), Contains("memory") && Contains("8 MiB"));
  REQUIRE_NOTHROW(p.rules->apply(p.state, st::kTake));
}

TEST_CASE("trick: a string that doubles without end", "[sandbox][memory]") {
  Probe p;
  const hr::GameState before = p.state;
  CHECK_THROWS_WITH(p.rules->apply(p.state, st::kConcatBomb), Contains("memory") && Contains("8 MiB"));
  check_still_works(p, before);
}

TEST_CASE("trick: a memory bomb in a read-only hook, under pcall", "[sandbox][memory]") {
  Probe p;
  // pcall may catch the memory error (the memory is given back); the cap still held
  CHECK_THAT(p.eval("local ok, err = pcall(string.rep, 'x', 1 << 30) return tostring(ok) .. ' ' .. tostring(err)"),
             Contains("false") && Contains("memory"));
  CHECK(p.rules->lua_memory() <= (8u << 20));
  CHECK(p.eval("return #string.rep('x', 1000)") == "1000");
}

TEST_CASE("the memory limit is the one asked for", "[sandbox][memory]") {
  // the same bomb that fails under 8 MiB: a 4 MiB string fits in 64 MiB, not in 8 MiB
  hr::LoadOptions big = quick_options();
  big.memory_limit = 64u << 20;
  Probe roomy(big);
  CHECK(roomy.eval("return #string.rep('x', 4 << 20)") == std::to_string(4 << 20));
  Probe tight;
  CHECK_THROWS_WITH(tight.eval("return #string.rep('x', 9 << 20)"), Contains("memory") && Contains("8 MiB"));
}
