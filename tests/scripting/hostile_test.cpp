// hostile_test.cpp — issue 17: house rules written by an attacker. One test per trick, named after it in the
// manner of Redis's scripting tests; each failed (hung, crashed, leaked or drifted) before its fix. The tricks
// that need a whole process (the watchdog's backstop, `play`, `test --update`, `check`) are CTest scripts:
// tests/scripting/hostile_cli_test.sh.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <lua.hpp>

#include "probe.hpp"

using Catch::Contains;
using scripting_test::fixture;
using scripting_test::Probe;
using scripting_test::quick_options;
namespace fs = std::filesystem;
namespace st = scripting_test;

namespace {

/// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
  TempDir() {
    static std::atomic<int> counter{0};
    path = fs::temp_directory_path() / ("hr-hostile-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path path;
};

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

/// Loads a variant of the probe fixture whose script (v.lua, in `dir`) is `lua`; the script gets the rules
/// as `...` and must return them.
std::unique_ptr<hr::ScriptedRules> load_variant(const TempDir& dir, const std::string& lua,
                                                const hr::LoadOptions& options = quick_options()) {
  write(dir.path / "v.toml", "extends = \"" + fixture("probe") + "\"\nscript = \"v.lua\"\n");
  write(dir.path / "v.lua", lua);
  return hr::load_rules((dir.path / "v.toml").string(), options);
}

/// A probe game (seed 1) with the rules of load_variant(lua).
struct VariantProbe {
  VariantProbe(const std::string& lua, const hr::LoadOptions& options = quick_options())
      : rules(load_variant(dir, lua, options)), state(rules->new_game(1)) {}
  TempDir dir;
  std::unique_ptr<hr::ScriptedRules> rules;
  hr::GameState state;
};

/// Runs `body` with stderr going to a file; returns what was written.
template <class F>
std::string captured_stderr(F&& body) {
  TempDir dir;
  const std::string file = (dir.path / "stderr").string();
  std::fflush(stderr);
  const int saved = ::dup(2);
  REQUIRE(std::freopen(file.c_str(), "w", stderr));
  body();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

// ---- hangs -----------------------------------------------------------------------------------------------------

TEST_CASE("trick: table.move of 2^53 elements (a loop in C)", "[sandbox][hostile]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("table.move({}, 1, 1 << 53, 1, {})"), Contains("past the sandbox's limit"));
  CHECK(p.eval("return table.concat(table.move({1, 2, 3}, 1, 3, 2), ',')") == "1,1,2,3");
  CHECK(p.eval("return table.concat(table.move({1, 2, 3}, 2, 3, 1), ',')") == "2,3,3");
  CHECK(p.eval("return table.concat(table.move({1, 2, 3}, 1, 3, 1, {9, 9, 9, 9}), ',')") == "1,2,3,9");
}

TEST_CASE("trick: table.insert into a table whose __len says 2^53", "[sandbox][hostile]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("table.insert(setmetatable({}, {__len = function() return 1 << 53 end}), 1, 'x')"),
                    Contains("past the sandbox's limit"));
  CHECK_THROWS_WITH(p.eval("table.remove(setmetatable({}, {__len = function() return 1 << 53 end}), 1)"),
                    Contains("past the sandbox's limit"));
  CHECK(p.eval("local t = {1, 2, 3}; table.insert(t, 1, 0); table.insert(t, 5); return table.concat(t, ',')") ==
        "0,1,2,3,5");
  CHECK(p.eval("local t = {1, 2, 3}; local x = table.remove(t, 1); return x .. ':' .. table.concat(t, ',')") == "1:2,3");
  CHECK(p.eval("local t = {1, 2, 3}; local x = table.remove(t); return x .. ':' .. table.concat(t, ',')") == "3:1,2");
  CHECK_THROWS_WITH(p.eval("table.insert({1}, 5, 'x')"), Contains("position out of bounds"));
}

TEST_CASE("trick: game:deal of a zone to itself (it never runs out)", "[sandbox][hostile]") {
  Probe p;
  const hr::GameState before = p.state;
  CHECK_THROWS_WITH(p.rules->apply(p.state, 40), Contains("cannot deal zone 'pile' to itself"));
  CHECK(p.state == before);
}

TEST_CASE("trick: xpcall with a message handler that loops forever", "[sandbox][hostile][cpu]") {
  Probe p;
  const auto start = std::chrono::steady_clock::now();
  // The first error is the script's own: its handler runs (and loops) until the CPU guard stops it.
  CHECK_THROWS_WITH(p.eval("return xpcall(function() error('x') end, function(e) while true do end end)"),
                    Contains("ran longer than the limit"));
  // The CPU guard's own error: Lua would run the handler with hooks off, where nothing could stop it.
  CHECK_THROWS_WITH(p.eval("while true do xpcall(function() while true do end end, function(e) while true do end end) end"),
                    Contains("ran longer than the limit"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));  // a bound, not a timing
  CHECK(p.eval("return select(2, xpcall(function() error('x', 0) end, function(e) return 'handled ' .. e end))") ==
        "handled x");
}

TEST_CASE("trick: a __gc finalizer (runs in any later hook, or loops at lua_close)", "[sandbox][hostile]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("setmetatable({}, {__gc = function() while true do end end})"), Contains("__gc is not allowed"));
  CHECK_THROWS_WITH(p.eval("setmetatable({}, {__gc = false})"), Contains("__gc is not allowed"));  // set later
  CHECK_THROWS_WITH(p.eval("setmetatable({}, {__mode = 'k'})"), Contains("__mode is not allowed"));
  CHECK(p.eval("return setmetatable({}, {__index = function() return 7 end}).x") == "7");
}

TEST_CASE("trick: an actions hook returning 2,000,000 actions", "[sandbox][hostile]") {
  Probe p;
  p.state.set_counter(p.counter("mode"), 0, -7);
  CHECK_THROWS_WITH(p.rules->legal_actions(p.state), Contains("offered 2000000 actions; the limit is 65536"));
  p.state.set_counter(p.counter("mode"), 0, -9);
  CHECK_THROWS_WITH(p.rules->legal_actions(p.state), Contains("offered 70000 actions"));
  hr::Rng rng(1);
  CHECK_THROWS_WITH(p.rules->random_playout(p.state, rng, 10), Contains("offered 70000 actions"));
}

// ---- crashes ---------------------------------------------------------------------------------------------------

TEST_CASE("trick: houserules.game.seats() while the rules load (no game bound yet)", "[sandbox][hostile]") {
  TempDir dir;
  CHECK_THROWS_WITH(load_variant(dir, "houserules.game.seats()\nreturn ..."), Contains("while a hook runs"));
  // under pcall the script goes on
  CHECK_NOTHROW(load_variant(dir, "assert(not pcall(houserules.game.seats))\nreturn ..."));
}

TEST_CASE("trick: a Lua heap filled to the last bytes while the rules load, and kept full", "[sandbox][hostile][memory]") {
  // Strings of shrinking sizes fill the heap up to the cap, held by an upvalue of the rules. One closure per
  // size, not one per string: the filled heap holds almost no garbage, so no collection later (whose timing
  // shifts with every allocation the loader makes) frees room for the hooks below.
  const std::string fill = R"(
local rules = ...
local keep, n = {}, 0
for _, size in ipairs({4096, 256, 16, 1}) do
  local function add() n = n + 1; keep[n] = string.rep("x", size) .. n end
  while pcall(add) do end
end
rules.kept = function() return #keep end
return rules)";
  TempDir dir;
  std::unique_ptr<hr::ScriptedRules> rules;
  hr::LoadOptions options = quick_options();
  options.hook_time_limit = std::chrono::seconds(30);  // filling takes a while on a loaded machine
  try {
    rules = load_variant(dir, fill, options);
  } catch (const hr::LoadError& e) {
    CHECK_THAT(e.what(), Contains("memory"));  // a clean error is fine too; an abort is not
    return;
  }
  // Hooks may fail for memory, cleanly; the kernel's own calls (explain's text) do not abort.
  hr::GameState state;
  try {
    state = rules->new_game(1);
  } catch (const hr::RulesError& e) {
    CHECK_THAT(e.what(), Contains("memory"));
    return;
  }
  try {
    rules->explain_illegal(state, std::string(2000, 'y'));
  } catch (const hr::RulesError& e) {
    CHECK_THAT(e.what(), Contains("memory"));
  }
}

TEST_CASE("trick: an error raised in ranks, or ranks returning nil", "[sandbox][hostile]") {
  {
    VariantProbe v("local rules = ...\nrules.ranks = function() error('no ranks today') end\nreturn rules");
    CHECK_THROWS_WITH(v.rules->ranks(v.state), Contains("no ranks today"));
  }
  VariantProbe v("local rules = ...\nrules.ranks = function() return nil end\nreturn rules");
  CHECK_THROWS_WITH(v.rules->ranks(v.state), Contains("hook 'ranks' must return a list of 2 places"));
}

TEST_CASE("trick: a heuristic returning NaN or an infinity", "[sandbox][hostile]") {
  for (const char* value : {"0/0", "1/0", "-1/0", "math.huge"}) {
    INFO(value);
    VariantProbe v(std::string("local rules = ...\nrules.heuristic = function() return ") + value + " end\nreturn rules");
    CHECK_THROWS_WITH(v.rules->heuristic(v.state, 1), Contains("hook 'heuristic' returned") && Contains("finite"));
  }
}

// ---- files -----------------------------------------------------------------------------------------------------

TEST_CASE("trick: require through a symbolic link to a folder outside the ruleset", "[sandbox][hostile][files]") {
  TempDir outside;
  write(outside.path / "secret.lua", "return 'the secret'");
  write(outside.path / "KEYS.lua", "API_KEY = \"hunter2\"");
  TempDir dir;
  fs::create_directory_symlink(outside.path, dir.path / "lib");
  fs::create_directory_symlink("/", dir.path / "rootdir");
  fs::create_symlink(outside.path / "secret.lua", dir.path / "linked.lua");
  write(dir.path / "inner" / "ok.lua", "return 'inside'");
  for (const char* name : {"lib.secret", "lib.KEYS", "linked"}) {
    INFO(name);
    CHECK_THROWS_WITH(load_variant(dir, std::string("require('") + name + "')\nreturn ..."),
                      Contains("leads outside the ruleset's folder"));
  }
  CHECK_THROWS_WITH(load_variant(dir, "require('rootdir.etc.hostname')\nreturn ..."), Contains("not found"));
  CHECK_NOTHROW(load_variant(dir, "assert(require('inner.ok') == 'inside')\nreturn ..."));
}

TEST_CASE("trick: script = \"/etc/passwd\" or \"../../../etc/hostname\" in a variant", "[sandbox][hostile][files]") {
  TempDir outside;
  write(outside.path / "evil.lua", "return ...");
  TempDir dir;
  fs::create_directories(dir.path / "v");
  const std::string relative = fs::relative(outside.path / "evil.lua", dir.path / "v").string();
  for (const std::string& script : {std::string("/etc/passwd"), std::string("../../../../../../../etc/hostname"),
                                    (outside.path / "evil.lua").string(), relative}) {
    INFO(script);
    write(dir.path / "v" / "v.toml", "extends = \"" + fixture("probe") + "\"\nscript = \"" + script + "\"\n");
    try {
      hr::load_rules((dir.path / "v" / "v.toml").string(), quick_options());
      FAIL("the script outside the folder was loaded");
    } catch (const hr::LoadError& e) {
      const std::string message = e.what();
      CHECK((message.find("outside the folder") != std::string::npos || message.find("does not exist") != std::string::npos));
      CHECK(message.find("root:") == std::string::npos);  // no piece of the file
    }
  }
  // A link inside the folder to a script outside is refused as well.
  fs::create_symlink(outside.path / "evil.lua", dir.path / "v" / "link.lua");
  write(dir.path / "v" / "v.toml", "extends = \"" + fixture("probe") + "\"\nscript = \"link.lua\"\n");
  CHECK_THROWS_WITH(hr::load_rules((dir.path / "v" / "v.toml").string(), quick_options()), Contains("outside the folder"));
}

// ---- memory and output -----------------------------------------------------------------------------------------

TEST_CASE("trick: a base ruleset of 20,000 cards and 20,000 zones (a 2.4 GB game state)", "[sandbox][hostile][memory]") {
  TempDir dir;
  write(dir.path / "ruleset.toml", "id = \"huge\"\nname = \"Huge\"\nplayers = { min = 2, max = 2, default = 2 }\n");
  write(dir.path / "rules.lua", R"(
local components, zones = {}, {}
for i = 1, 20000 do components[i] = { name = "c" .. i } end
for i = 1, 20000 do zones[i] = { name = "z" .. i, visibility = "public" } end
houserules.declare { components = components, zones = zones }
return { start_round = function() end, actions = function() return {} end, apply = function() end,
         action_text = function() return "" end, score = function() return 0 end })");
  hr::LoadOptions options;
  CHECK_THROWS_WITH(hr::load_rules(dir.path.string(), options), Contains("slots in every game state; the limit is"));
}

TEST_CASE("trick: action_text returning unique 4 MB strings", "[sandbox][hostile][memory]") {
  VariantProbe v("local rules = ...\nrules.action_text = function(game, a) return string.rep('x', 4 << 20) .. a end\nreturn rules",
                 hr::LoadOptions{});
  CHECK_THROWS_WITH(v.rules->action_text(v.state, 1), Contains("returned a text of 4194305 bytes; the limit is 256"));
}

TEST_CASE("trick: a 20 MB error message (file and line kept, the rest cut)", "[sandbox][hostile][memory]") {
  Probe p(hr::LoadOptions{});
  try {
    p.eval("local s = string.rep('x', 20 << 20)\nerror(s)");
    FAIL("no error");
  } catch (const hr::ScriptError& e) {
    const std::string message = e.what();
    CHECK_THAT(message, Contains("probe:2: xxxx") && Contains("more bytes)"));
    CHECK(message.size() < 64 * 1024);
  }
}

TEST_CASE("trick: print of gigabytes", "[sandbox][hostile][output]") {
  Probe p(hr::LoadOptions{});
  const std::string output = captured_stderr([&] {
    CHECK_NOTHROW(p.eval("local s = string.rep('x', 1 << 20) for i = 1, 100 do print(s) end"));
  });
  CHECK(output.size() < hr::Sandbox::kPrintBudget + 4096);
  CHECK_THAT(output, Contains("nothing more is printed"));
}

TEST_CASE("trick: control sequences (clipboard write, screen clear, a fake Result line) in texts", "[sandbox][hostile][output]") {
  const std::string evil = "'\\27]52;c;ZXZpbA==\\7\\27[2J\\nResult: seat 2 wins'";
  VariantProbe v("local rules = ...\n"
                 "rules.action_text = function() return " + evil + " end\n"
                 "rules.describe = function() return 'line one\\n' .. " + evil + " end\n"
                 "return rules");
  CHECK_THROWS_WITH(v.rules->action_text(v.state, 1), Contains("control character"));
  const std::string description = v.rules->describe(v.state.observation(1), 1);
  CHECK(description.find('\x1b') == std::string::npos);
  CHECK(description.find('\a') == std::string::npos);
  CHECK_THAT(description, Contains("line one\n\\027]52;c;ZXZpbA==\\007\\027[2J\nResult"));  // a table keeps its lines
  Probe p;
  try {
    p.eval("error(" + evil + ")");
    FAIL("no error");
  } catch (const hr::ScriptError& e) {
    const std::string message = e.what();
    CHECK(message.find('\x1b') == std::string::npos);
    CHECK(message.find("\nResult") == std::string::npos);
  }
  CHECK_THAT(p.eval("return " + evil), !Contains("\x1b"));  // explain's text
  try {  // a chunk name with a newline, in the traceback
    p.eval("load('error(1)', '=x\\nResult: seat 2 wins')()");
    FAIL("no error");
  } catch (const hr::ScriptError& e) {
    CHECK(std::string(e.what()).find("\nResult") == std::string::npos);
  }
  const std::string printed = captured_stderr([&] { p.eval("print(" + evil + ")"); });
  CHECK(printed.find('\x1b') == std::string::npos);
  CHECK(printed.find("\nResult") == std::string::npos);
}

// ---- determinism ---------------------------------------------------------------------------------------------

TEST_CASE("trick: tostring({}) and string.format('%p') show heap addresses", "[sandbox][hostile][determinism]") {
  Probe p;
  CHECK(p.eval("return tostring({})") == "table");
  CHECK(p.eval("return tostring(print)") == "function");
  CHECK(p.eval("return string.format('%s|%s|%5.2f', {}, 'x', 1)") == "table|x| 1.00");
  CHECK(p.eval("return ('%s'):format(tostring)") == "function");
  CHECK(p.eval("return tostring(setmetatable({}, {__tostring = function() return 'mine' end}))") == "mine");
  CHECK(p.eval("return tostring(setmetatable({}, {__name = 'Thing'}))") == "table");
  CHECK_THROWS_WITH(p.eval("return string.format('%p', {})"), Contains("%p is not available"));
  CHECK(p.eval("return string.format('%d%%', 5)") == "5%");
}

TEST_CASE("trick: table.sort's pivot drawn from the clock (the order of equal elements)", "[sandbox][hostile][determinism]") {
  Probe p;
  // 2,000 records with 3 distinct keys, sorted by key: a stable merge sort keeps their order among equals,
  // every time; Lua's quicksort does not (and randomizes its pivot on unbalanced partitions).
  const std::string code = R"(
local t = {}
for i = 1, 2000 do t[i] = { key = (i * 7919) % 3, i = i } end
table.sort(t, function(a, b) return a.key < b.key end)
for i = 2, #t do
  if t[i - 1].key == t[i].key and t[i - 1].i > t[i].i then return 'unstable at ' .. i end
end
local u = {5, 3, 9, 1, 3, 'x'}
table.remove(u)
table.sort(u)
local v = {3, 1, 2}
table.sort(v, function(a, b) return a > b end)
return 'stable ' .. table.concat(u, ',') .. ' ' .. table.concat(v, ','))";
  CHECK(p.eval(code) == "stable 1,3,3,5,9 3,2,1");
  CHECK_THROWS_WITH(p.eval("table.sort({1, 'x'})"), Contains("compare"));
  // an order function that answers at random stays in bounds
  CHECK_NOTHROW(p.eval("local t = {} for i = 1, 100 do t[i] = i end table.sort(t, function() return true end)"));
}

// ---- state behind the rules' back ----------------------------------------------------------------------------

TEST_CASE("trick: the batch methods writing into read-only tables (houserules.params)", "[sandbox][hostile]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("local game = ...; game:cards(1, houserules.params.colours)"), Contains("plain table"));
  CHECK_THROWS_WITH(p.eval("local game = ...; game:sizes({1, 2}, houserules.params.colours)"), Contains("plain table"));
  CHECK_THROWS_WITH(p.eval("local game = ...; game:tops({1, 2}, houserules.params.colours)"), Contains("plain table"));
  CHECK_THROWS_WITH(p.eval("local game = ...; game:append_cards(1, houserules.params.colours, 0, 0)"), Contains("plain table"));
  CHECK_THROWS_WITH(p.eval("local game = ...; game:nonempty({1}, houserules.params.colours, 0, 0)"), Contains("plain table"));
  CHECK(p.eval("return houserules.params.colours[1]") == "red");
}

TEST_CASE("trick: a score of 2^62 three times (the match total overflows)", "[sandbox][hostile]") {
  VariantProbe v("local rules = ...\nrules.score = function() return 1 << 62 end\nreturn rules");
  CHECK_THROWS_WITH(v.rules->score(v.state, 1), Contains("a round's score is at most"));
  hr::GameState s = v.state;
  const std::int64_t big[2] = {INT64_MAX - 1, 0};
  s.close_round(big);
  const std::int64_t more[2] = {5, 0};
  CHECK_THROWS_WITH(s.close_round(more), Contains("match total overflows"));
}

TEST_CASE("trick: ranks returning {0,0}, {99,-5} or {1}", "[sandbox][hostile]") {
  for (const char* places : {"{0, 0}", "{99, -5}", "{1}", "{1, 2, 3}", "{2, 2}", "{1.0, 2}", "{'1', 2}"}) {
    INFO(places);
    VariantProbe v(std::string("local rules = ...\nrules.ranks = function() return ") + places + " end\nreturn rules");
    CHECK_THROWS_WITH(v.rules->ranks(v.state), Contains("hook 'ranks' must return"));
  }
  VariantProbe v("local rules = ...\nrules.ranks = function() return {2, 1} end\nreturn rules");
  CHECK(v.rules->ranks(v.state) == std::vector<int>{2, 1});
}

TEST_CASE("trick: numeric strings and 3.0 given as integers", "[sandbox][hostile]") {
  Probe p;
  p.state.set_counter(p.counter("mode"), 0, -10);
  CHECK_THROWS_WITH(p.rules->legal_actions(p.state), Contains("is not an integer action"));
  p.state.set_counter(p.counter("mode"), 0, -11);
  CHECK_THROWS_WITH(p.rules->legal_actions(p.state), Contains("is not an integer action"));
  VariantProbe v("local rules = ...\nrules.score = function() return 3.0 end\nreturn rules");
  CHECK_THROWS_WITH(v.rules->score(v.state, 1), Contains("must return an integer"));
  VariantProbe w("local rules = ...\nrules.actions = function(game, out) out[1] = 1 return 1.0 end\nreturn rules");
  CHECK_THROWS_WITH(w.rules->legal_actions(w.state), Contains("not a whole number"));
  hr::Rng rng(1);
  CHECK_THROWS_WITH(w.rules->random_playout(w.state, rng, 10), Contains("not a whole number"));
}

TEST_CASE("trick: a count past the entries the actions hook filled (stale entries of earlier calls)", "[sandbox][hostile]") {
  hr::LoadOptions options = quick_options();
  options.clear_action_lists = true;  // as `houserules check` loads rules
  Probe p(options);
  p.state.set_counter(p.counter("mode"), 0, -8);
  const int pile = p.state.size(p.zone("pile"));
  REQUIRE(pile % 2 == 0);
  CHECK(p.rules->legal_actions(p.state).size() == 2);  // filled
  p.state.set_counter(p.counter("mode"), 0, 0);
  p.rules->apply(p.state, st::kTake);
  p.state.set_counter(p.counter("mode"), 0, -8);
  CHECK_THROWS_WITH(p.rules->legal_actions(p.state), Contains("is the count past the entries the hook filled?"));
  hr::Rng rng(1);
  CHECK_THROWS_WITH(p.rules->random_playout(p.state, rng, 10), Contains("is not an integer action"));
}

// ---- pattern functions on a step budget ----------------------------------------------------------------------

TEST_CASE("trick: string.find exponential backtracking", "[sandbox][hostile][cpu]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("return string.find(('a'):rep(40), ('a*'):rep(40) .. 'b')"), Contains("more than 16777216 steps"));
  CHECK_THROWS_WITH(p.eval("return ('a'):rep(40):match(('a-'):rep(40) .. 'b')"), Contains("steps"));
  CHECK_THROWS_WITH(p.eval("return (('a'):rep(40):gsub(('a?'):rep(40) .. 'b', ''))"), Contains("steps"));
  CHECK_THROWS_WITH(p.eval("for x in ('a'):rep(40):gmatch(('a*'):rep(40) .. 'b') do end"), Contains("steps"));
}

TEST_CASE("trick: string.find of '.-.-b' in 1 MB of 'a'", "[sandbox][hostile][cpu]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("return string.find(('a'):rep(1 << 20), '.-.-b')"), Contains("steps"));
}

TEST_CASE("trick: a plain find of a 1 MB needle in 24 MB", "[sandbox][hostile][cpu]") {
  Probe p(hr::LoadOptions{});
  // A two-way search: linear in the haystack whatever the needle.
  CHECK(p.eval("return tostring(string.find(('a'):rep(24 << 20), ('a'):rep(1 << 20) .. 'b', 1, true))") == "nil");
  CHECK(p.eval("return tostring(string.find(('a'):rep(24 << 20), 'b' .. ('a'):rep(1 << 20), 1, true))") == "nil");
  CHECK(p.eval("return select(2, string.find(('a'):rep(3 << 20) .. 'b', ('a'):rep(1 << 20) .. 'b', 1, true))") ==
        std::to_string((3 << 20) + 1));
}

TEST_CASE("the sandbox's pattern functions give Lua 5.4's results", "[sandbox][patterns]") {
  // Each line runs in the sandbox and in a plain Lua state; the printed results must be equal.
  const char* cases[] = {
      "string.find('hello world', 'o w')", "string.find('hello world', 'o', 6)", "string.find('hello', 'l+')",
      "string.find('hello', '')", "string.find('hello', '', 10)", "string.find('hello', '', 6)",
      "string.find('hello', 'h', -10)", "string.find('hello', 'l', -2)", "string.find('a.b', '.', 1, true)",
      "string.find('a+b', '+', 1, true)", "string.find('abc', '[b-c]+')", "string.find('x = 10', '(%w+)%s*=%s*(%d+)')",
      "string.match('  key = value  ', '^%s*(%S+)%s*=%s*(.-)%s*$')", "string.match('hello', '()ll()')",
      "string.match('THE (quick) fox', '%((%a+)%)')", "string.match('f(a(b)c)d', '%b()')",
      "string.match('THE (quick) fox', '%f[%a]%a+')", "string.match('hello', '(h)(e)(l)(l)(o)')",
      "string.match('abcabc', '(abc)%1')", "string.match('aaa', 'a-b')", "string.match('aaab', 'a-b')",
      "string.match('[]', '[]]')", "string.match('a]b', '[^]]+')", "string.match('a-b', '[a%-]+')",
      "string.match('x^y', 'x^y')", "string.match('^x', '^^x')", "string.match('a$b', 'a$b')",
      "string.match('ab', 'b$')", "string.match('ab', 'a$')", "string.match('caf\\195\\169', '[\\128-\\255]+')",
      "string.match('play R7', '^%s*(%a+)%s+(%u)(%d+)%s*$')", "string.match('', '.*')", "string.match('abc', '.-')",
      "string.match('a1b2', '%d?%a')", "string.match('x', '%D')", "string.match('hello world', '%w+', 3)",
      "string.gsub('hello world', 'o', '0')", "string.gsub('hello world', 'o', '0', 1)",
      "string.gsub('hello', '', '-')", "string.gsub('abc', '%w', '%0%0')", "string.gsub('abc', '(%w)', '<%1>')",
      "string.gsub('hello world', '(%w+)', {hello = 'HI'})", "string.gsub('a b c', '%a', function(c) return c:upper() end)",
      "string.gsub('a b', '%a', function() return nil end)", "string.gsub('abc', '^a', 'X')", "string.gsub('aaa', 'a*', '-')",
      "string.gsub('x1y22', '%d+', '%%')", "string.gsub('one two', '(%w+) (%w+)', '%2 %1')", "string.gsub('abc', 'b', 5)",
      "(function() local t = {} for k, v in string.gmatch('a=1, b=2', '(%w+)=(%w+)') do t[#t+1] = k .. v end return table.concat(t, ';') end)()",
      "(function() local t = {} for w in string.gmatch('one two  three', '%a+') do t[#t+1] = w end return table.concat(t, ',') end)()",
      "(function() local t = {} for w in string.gmatch('abc', '') do t[#t+1] = '.' end return #t end)()",
      "(function() local t = {} for a, b in string.gmatch('abcd', '()(.)') do t[#t+1] = a .. b end return table.concat(t) end)()",
      "(function() local t = {} for w in string.gmatch('hello world', '%a+', 3) do t[#t+1] = w end return table.concat(t, ',') end)()",
      "(function() local t = {} for w in string.gmatch('x^y^z', '^%a') do t[#t+1] = w end return table.concat(t, ',') end)()",
      "pcall(string.find, 'a', '%')", "pcall(string.find, 'a', '[a')", "pcall(string.find, 'a', '(a')",
      "pcall(string.find, 'a', 'a)')", "pcall(string.find, 'a', '%1')", "pcall(string.find, 'a', '%b')",
      "pcall(string.find, 'a', '%fa')", "pcall(string.gsub, 'a', 'a', '%2')", "pcall(string.gsub, 'a', 'a', '%x')",
      "pcall(string.gsub, 'a', 'a', {a = {}})",
      "pcall(string.match, 'a', ('(a)'):rep(33))", "pcall(string.gsub, 'abc', '(b)', '%0%1%2')",
  };
  lua_State* plain = luaL_newstate();
  luaL_openlibs(plain);
  Probe p;
  for (const char* expression : cases) {
    INFO(expression);
    const std::string code = std::string("local r = table.pack(") + expression +
                             ") local out = {} for i = 1, r.n do local v = r[i] "
                             "out[i] = type(v) == 'string' and ('%q'):format(v) or tostring(v) end "
                             "return table.concat(out, ' | ')";
    REQUIRE(luaL_dostring(plain, code.c_str()) == LUA_OK);
    const std::string expected = lua_tostring(plain, -1);
    lua_pop(plain, 1);
    CHECK(p.eval(code) == expected);
  }
  lua_close(plain);
  // (argument errors name the function '?' in the sandbox, whose registry has no loaded-libraries table)
  CHECK_THROWS_WITH(p.eval("string.gsub('a', 'a', true)"), Contains("string/function/table expected, got boolean"));
}

// ---- the actions hook's `out` list in the kernel's buffer (issue 13) -------------------------------------------
// While only the batch methods (game:nonempty, game:append_cards) fill `out`, its entries live in the kernel's
// buffer and the kernel reads them from there; anything else a script does with the list must see, and leave,
// what a plain table would.

namespace {

/// A variant of the probe whose actions hook is `body` (Lua statements ending in a return), with `G` the zone
/// groups; at the start of a game the pile holds every card, the hands and the table nothing.
std::string actions_variant(const std::string& body) {
  return "local rules = ...\nlocal G = houserules.groups\nrules.actions = function(game, out, seat, phase)\n" + body +
         "\nend\nreturn rules";
}

}  // namespace

TEST_CASE("the actions list: batch appends and direct writes mixed, in either order", "[sandbox][hostile][out]") {
  // everywhere = pile, hand.1, hand.2, table: with a card on the table, nonempty gives positions 1 and 4
  VariantProbe after(actions_variant("local n = game:nonempty(G.everywhere, out, 0, 100)\nout[n + 1] = 7\nreturn n + 1"));
  after.state.move(0, after.rules->layout().zone_id("table"));
  CHECK(after.rules->legal_actions(after.state) == std::vector<hr::Action>{101, 104, 7});
  CHECK(after.rules->legal_actions(after.state) == std::vector<hr::Action>{101, 104, 7});  // and again, plain now
  VariantProbe before(actions_variant("out[1] = 5\nreturn game:nonempty(G.everywhere, out, 1, 100)"));
  before.state.move(0, before.rules->layout().zone_id("table"));
  CHECK(before.rules->legal_actions(before.state) == std::vector<hr::Action>{5, 101, 104});
  // a write over an appended entry
  VariantProbe over(actions_variant("local n = game:nonempty(G.everywhere, out, 0, 100)\nout[1] = 9\nreturn n"));
  CHECK(over.rules->legal_actions(over.state) == std::vector<hr::Action>{9});
  // batch appends only, then table.insert (a write through the table library)
  VariantProbe insert(actions_variant("local n = game:nonempty(G.everywhere, out, 0, 100)\ntable.insert(out, 8)\nreturn n + 1"));
  CHECK(insert.rules->legal_actions(insert.state) == std::vector<hr::Action>{101, 8});
}

TEST_CASE("the actions list: a hook reads what the batch methods appended, by every means", "[sandbox][hostile][out]") {
  // Each read is checked in the hook (an error names what it saw); the list holds 101, 104 after the appends.
  for (const char* read : {"#out == 2", "out[2] == 104", "out[2.0] == 104", "out[3] == nil", "out['1'] == nil",
                           "rawlen(out) == 2", "rawget(out, 2) == 104", "select(2, next(out)) == 101",
                           "table.concat(out, ',') == '101,104'", "select('#', table.unpack(out)) == 2",
                           "getmetatable(out) == nil", "setmetatable(out, nil) == out"}) {
    INFO(read);
    VariantProbe v(actions_variant(std::string("local n = game:nonempty(G.everywhere, out, 0, 100)\n") +
                                   "if not (" + read + ") then error('read wrong') end\nreturn n"));
    v.state.move(0, v.rules->layout().zone_id("table"));
    CHECK(v.rules->legal_actions(v.state) == std::vector<hr::Action>{101, 104});
  }
  VariantProbe each(actions_variant("local n = game:nonempty(G.everywhere, out, 0, 100)\nlocal seen = {}\n"
                                    "for i, a in ipairs(out) do seen[#seen + 1] = i .. '=' .. a end\n"
                                    "for k, a in pairs(out) do seen[#seen + 1] = k .. ':' .. a end\n"
                                    "if table.concat(seen, ' ') ~= '1=101 2=104 1:101 2:104' then error(table.concat(seen, ' ')) end\n"
                                    "return n"));
  each.state.move(0, each.rules->layout().zone_id("table"));
  CHECK(each.rules->legal_actions(each.state) == std::vector<hr::Action>{101, 104});
}

TEST_CASE("the actions list: a hook returns a list of its own, or `out` itself", "[sandbox][hostile][out]") {
  VariantProbe own(actions_variant("local n = game:nonempty(G.everywhere, out, 0, 100)\nlocal list = {}\n"
                                   "for i = n, 1, -1 do list[#list + 1] = out[i] end\nreturn list"));
  own.state.move(0, own.rules->layout().zone_id("table"));
  CHECK(own.rules->legal_actions(own.state) == std::vector<hr::Action>{104, 101});
  // `out` itself returned is refused at once (issue 35): its length would count entries this call did not keep
  VariantProbe itself(actions_variant("game:nonempty(G.everywhere, out, 0, 100)\nreturn out"));
  itself.state.move(0, itself.rules->layout().zone_id("table"));
  CHECK_THROWS_WITH(itself.rules->legal_actions(itself.state), Contains("returned its `out` list itself"));
  VariantProbe playout(actions_variant("game:nonempty({'pile'}, out, 0, 0)\nreturn out"));  // {take} or {}
  hr::Rng rng(1);
  CHECK_THROWS_WITH(playout.rules->random_playout(playout.state, rng, 3), Contains("returned its `out` list itself"));
}

TEST_CASE("the actions list: a list filtered in place and returned is refused at once, its count accepted", "[sandbox][hostile][out]") {
  // The trap of issue 35: the parent's list filtered in place (dropping 104), then `out` returned: its length still
  // counted the entry past those kept (104 again), which scenarios did not see and `check` did.
  const std::string filter = "local n = game:nonempty(G.everywhere, out, 0, 100)\nlocal kept = 0\n"
                             "for i = 1, n do if out[i] ~= 104 then kept = kept + 1; out[kept] = out[i] end end\n";
  VariantProbe returned(actions_variant(filter + "return out"));
  returned.state.move(0, returned.rules->layout().zone_id("table"));
  CHECK_THROWS_WITH(returned.rules->legal_actions(returned.state), Contains("Return the count of entries filled"));
  VariantProbe counted(actions_variant(filter + "return kept"));
  counted.state.move(0, counted.rules->layout().zone_id("table"));
  CHECK(counted.rules->legal_actions(counted.state) == std::vector<hr::Action>{101});
}

TEST_CASE("the actions list: `out` passed to the other list methods is filled as a plain table", "[sandbox][hostile][out]") {
  // game:cards fills `out` raw: it must not leave entries behind the buffer's back
  VariantProbe v(actions_variant("local n = game:nonempty(G.everywhere, out, 0, 100)\n"
                                 "local _, cards = game:cards('table', out)\nreturn n"));
  v.state.move(2, v.rules->layout().zone_id("table"));  // card 3 on the table
  CHECK(v.rules->legal_actions(v.state) == std::vector<hr::Action>{3, 104});
  VariantProbe tops(actions_variant("game:nonempty(G.everywhere, out, 0, 100)\ngame:sizes(G.hands, out)\nreturn 2"));
  CHECK(tops.rules->legal_actions(tops.state) == std::vector<hr::Action>{0, 0});
}

TEST_CASE("the actions list: a bad entry or count is still named, on both paths", "[sandbox][hostile][out]") {
  VariantProbe past(actions_variant("return game:nonempty(G.everywhere, out, 0, 100) + 1"));
  CHECK_THROWS_WITH(past.rules->legal_actions(past.state),
                    Contains("hook 'actions': entry 2 is not an integer action (is the count past the entries"));
  VariantProbe none(actions_variant("game:nonempty({'table'}, out, 0, 0)\nreturn 1"));  // appends nothing
  hr::Rng rng(1);
  CHECK_THROWS_WITH(none.rules->random_playout(none.state, rng, 3), Contains("hook 'actions': entry 1 is not an integer action"));
  VariantProbe huge(actions_variant("return game:nonempty(G.everywhere, out, 0, 1 << 40)"));
  CHECK_THROWS_WITH(huge.rules->legal_actions(huge.state), Contains("entry 1 is not an integer action"));
  VariantProbe hole(actions_variant("return game:nonempty(G.everywhere, out, 5, 0)"));  // entries 1..5 never written
  CHECK_THROWS_WITH(hole.rules->legal_actions(hole.state), Contains("entry 1 is not an integer action"));
  VariantProbe key(actions_variant("game:nonempty(G.everywhere, out, 0, 0)\nout[nil] = 1\nreturn 1"));
  CHECK_THROWS_WITH(key.rules->legal_actions(key.state), Contains("v.lua:5: index is nil"));
  const hr::GameState before = huge.state;
  CHECK_THROWS(huge.rules->legal_actions(huge.state));
  CHECK(huge.state.digest() == before.digest());
}

TEST_CASE("the actions list: stale entries past the count, with and without clear_action_lists", "[sandbox][hostile][out]") {
  // The first call appends two entries and returns 2; later calls append one and return 2 (a hook's bug): a
  // plain list still held the first call's second entry, and the buffer does too; check's option clears it.
  const std::string lua = actions_variant("calls = (calls or 0) + 1\n"
                                          "if calls == 1 then return game:nonempty(G.everywhere, out, 0, 100) end\n"
                                          "game:nonempty({'pile'}, out, 0, 200)\nreturn 2");
  const std::string with_upvalue = "local calls\n" + lua;
  VariantProbe kept(with_upvalue);
  kept.state.move(0, kept.rules->layout().zone_id("table"));
  CHECK(kept.rules->legal_actions(kept.state) == std::vector<hr::Action>{101, 104});
  CHECK(kept.rules->legal_actions(kept.state) == std::vector<hr::Action>{201, 104});
  hr::LoadOptions options = quick_options();
  options.clear_action_lists = true;
  VariantProbe cleared(with_upvalue, options);
  cleared.state.move(0, cleared.rules->layout().zone_id("table"));
  CHECK(cleared.rules->legal_actions(cleared.state) == std::vector<hr::Action>{101, 104});
  CHECK_THROWS_WITH(cleared.rules->legal_actions(cleared.state), Contains("entry 2 is not an integer action"));
}

TEST_CASE("the actions list: rawget, rawlen and getmetatable keep Lua's checks and messages", "[sandbox][hostile][out]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("return rawget('text', 1)"), Contains("bad argument #1 to 'rawget' (table expected, got string)"));
  CHECK_THROWS_WITH(p.eval("return rawlen(5)"), Contains("bad argument #1 to 'rawlen' (table or string expected"));
  CHECK_THROWS_WITH(p.eval("return getmetatable()"), Contains("bad argument #1 to 'getmetatable' (value expected)"));
  CHECK(p.eval("return rawlen('four')") == "4");
  CHECK(p.eval("return rawget({5, 6}, 2)") == "6");
  CHECK(p.eval("return getmetatable('')") == "locked");  // a protected metatable shows its __metatable field
  CHECK(p.eval("return tostring(getmetatable({}))") == "nil");
}
