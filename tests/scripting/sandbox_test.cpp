// sandbox_test.cpp — one test per trick the sandbox blocks (DESIGN.md §5), in the manner of Redis's
// tests/unit/scripting.tcl. Each runs Lua inside the `probe` fixture's sandbox (see probe.hpp) and checks
// the trick fails; each would pass the trick through if the protection it names were removed.
#include <catch2/catch.hpp>

#include <string>

#include <lua.hpp>

#include "probe.hpp"

using Catch::Contains;
using Catch::StartsWith;
using scripting_test::fixture;
using scripting_test::Probe;

namespace {

/// Bytecode of `source` made by a plain (unsandboxed) Lua state of the same version, as a Lua string
/// literal with every byte escaped ("\027\076...").
std::string bytecode_literal(const char* source) {
  lua_State* L = luaL_newstate();
  REQUIRE(luaL_loadstring(L, source) == LUA_OK);
  std::string bytes;
  lua_dump(
      L,
      [](lua_State*, const void* p, size_t size, void* ud) {
        static_cast<std::string*>(ud)->append(static_cast<const char*>(p), size);
        return 0;
      },
      &bytes, 0);
  lua_close(L);
  REQUIRE(bytes.rfind("\x1bLua", 0) == 0);
  std::string literal = "\"";
  char escaped[8];
  for (unsigned char ch : bytes) {
    std::snprintf(escaped, sizeof escaped, "\\%03u", static_cast<unsigned>(ch));
    literal += escaped;
  }
  return literal + "\"";
}

}  // namespace

// ---- absent libraries and functions -----------------------------------------------------------------------

TEST_CASE("trick: io.open / io.popen to read files or run commands", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(io)") == "nil");
  CHECK_THROWS_WITH(p.eval("return io.open('/etc/passwd'):read('a')"), Contains("io"));
}

TEST_CASE("trick: os.execute / os.getenv / os.exit", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(os)") == "nil");
  CHECK_THROWS(p.eval("return os.getenv('HOME')"));
}

TEST_CASE("trick: debug.getregistry / debug.sethook / debug.setmetatable", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(debug)") == "nil");
}

TEST_CASE("trick: package.loadlib to load native code, package.path to widen require", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(package)") == "nil");
}

TEST_CASE("trick: dofile / loadfile to run a file from anywhere", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(dofile)") == "nil");
  CHECK(p.eval("return type(loadfile)") == "nil");
}

TEST_CASE("trick: collectgarbage to stop the collector or read memory use", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(collectgarbage)") == "nil");
}

TEST_CASE("trick: string.dump to make bytecode", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(string.dump)") == "nil");
  // the method syntax reaches the original string table (the strings' metatable), not the read-only proxy
  CHECK(p.eval("return type(('').dump)") == "nil");
}

TEST_CASE("trick: an endless loop in a coroutine (the CPU hook is set per Lua thread)", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(coroutine)") == "nil");
}

TEST_CASE("trick: math.randomseed to make the game's draws predictable", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return type(math.randomseed)") == "nil");
}

// ---- load: text only --------------------------------------------------------------------------------------

TEST_CASE("trick: load of a binary chunk (bytecode is not verified by Lua)", "[sandbox]") {
  Probe p;
  const std::string bin = bytecode_literal("return 42");
  const std::string code = "local f, err = load(" + bin +
                           ") if f then return 'LOADED:' .. tostring(f()) end return 'REFUSED:' .. tostring(err)";
  const std::string result = p.eval(code);
  CHECK_THAT(result, StartsWith("REFUSED:"));
  CHECK_THAT(result, Contains("binary chunk"));
  // a string that merely starts like bytecode is refused the same way
  CHECK_THAT(p.eval("local f, err = load('\\27Lua junk') return tostring(err)"), Contains("binary chunk"));
}

TEST_CASE("trick: load with mode \"b\" or \"bt\"", "[sandbox]") {
  Probe p;
  const std::string bin = bytecode_literal("return 42");
  for (const char* mode : {"b", "bt"}) {
    INFO("mode " << mode);
    const std::string code = "local ok, f, err = pcall(load, " + bin + ", '=bin', '" + mode +
                             "') if ok and f then return 'LOADED:' .. tostring(f()) end "
                             "return 'REFUSED:' .. tostring(ok and err or f)";
    const std::string result = p.eval(code);
    CHECK_THAT(result, StartsWith("REFUSED:"));
    CHECK_THAT(result, Contains("text"));
  }
}

TEST_CASE("trick: load of a binary chunk through a reader function", "[sandbox]") {
  Probe p;
  const std::string bin = bytecode_literal("return 42");
  const std::string code = "local given = false "
                           "local function reader() if given then return nil end given = true return " + bin + " end "
                           "local ok, f, err = pcall(load, reader) "
                           "if ok and f then return 'LOADED:' .. tostring(f()) end "
                           "return 'REFUSED:' .. tostring(ok and err or f)";
  CHECK_THAT(p.eval(code), StartsWith("REFUSED:"));
}

TEST_CASE("load of Lua source text still works", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return load('return 1 + 1')()") == "2");
  CHECK(p.eval("return load('return ...', '=t', 't')(7)") == "7");
  CHECK(p.eval("return select(2, load('return +'))") != "nil");  // a syntax error comes back as fail, message
}

// ---- require: the ruleset's own modules only ----------------------------------------------------------------

TEST_CASE("trick: require of a module outside the ruleset's folder", "[sandbox]") {
  Probe p;
  // a relative path out of the folder
  CHECK_THROWS_WITH(p.eval("return require('../secret').secret"), Contains("not a module name"));
  CHECK_THROWS_WITH(p.eval("return require('..secret').secret"), Contains("not a module name"));
  // an absolute path to a module that does exist (fixtures/secret.lua)
  const std::string absolute = std::string(HOUSERULES_TEST_DIR) + "/scripting/fixtures/secret";
  CHECK_THROWS_WITH(p.eval("return require('" + absolute + "').secret"), Contains("not a module name"));
  // the standard libraries that the sandbox leaves out
  for (const char* name : {"os", "io", "debug", "package", "coroutine"}) {
    INFO(name);
    CHECK_THROWS_WITH(p.eval(std::string("return require('") + name + "')"),
                      Contains(std::string("module '") + name + "' not found in the ruleset's folders"));
  }
}

TEST_CASE("require of a module beside rules.lua works", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return require('helper').greeting") == "hello from helper");
  CHECK(p.eval("return require('helper').double(21)") == "42");
  CHECK(p.eval("return require('helper') == require('helper')") == "true");  // loaded once
}

// ---- metatables -------------------------------------------------------------------------------------------

TEST_CASE("trick: getmetatable('').__index to reach and patch the real string library", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return getmetatable('')") == "locked");
  CHECK(p.eval("return type(getmetatable('').__index)") == "nil");
}

TEST_CASE("trick: setmetatable(_G, nil) to unfreeze the globals", "[sandbox]") {
  Probe p;
  CHECK(p.eval("return getmetatable(_G)") == "read-only");
  CHECK_THROWS_WITH(p.eval("setmetatable(_G, nil)"), Contains("protected metatable"));
  CHECK_THROWS_WITH(p.eval("setmetatable(string, nil)"), Contains("protected metatable"));
  CHECK_THROWS_WITH(p.eval("setmetatable(houserules.params, nil)"), Contains("protected metatable"));
}

// ---- frozen globals -----------------------------------------------------------------------------------------

TEST_CASE("trick: keeping rules state in a global variable", "[sandbox]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("score_so_far = 1"), Contains("rules keep their state in the game"));
  CHECK_THROWS_WITH(p.eval("_G.score_so_far = 1"), Contains("rules keep their state in the game"));
  CHECK_THROWS_WITH(p.eval("print = nil"), Contains("rules keep their state in the game"));
  CHECK(p.eval("return type(score_so_far)") == "nil");
  CHECK(p.eval("return type(print)") == "function");
  // reading an undefined global stays nil, and iterating the globals still works
  CHECK(p.eval("return tostring(undefined_name)") == "nil");
  CHECK(p.eval("local n = 0 for k in pairs(_G) do n = n + 1 end return n > 10") == "true");
}

TEST_CASE("trick: patching the string, math, table and utf8 libraries", "[sandbox]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("string.upper = function() return 'pwned' end"), Contains("read-only"));
  CHECK_THROWS_WITH(p.eval("math.pi = 3"), Contains("read-only"));
  CHECK_THROWS_WITH(p.eval("math.random = function() return 4 end"), Contains("read-only"));
  CHECK_THROWS_WITH(p.eval("table.insert = nil"), Contains("read-only"));
  CHECK_THROWS_WITH(p.eval("utf8.char = nil"), Contains("read-only"));
  CHECK(p.eval("return string.upper('a')") == "A");
  CHECK(p.eval("return ('a'):upper()") == "A");
  CHECK_THAT(p.eval("return math.pi"), StartsWith("3.14"));
}

TEST_CASE("trick: rawset on _G or a library table", "[sandbox]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("rawset(_G, 'sneaky', 1)"), Contains("rules keep their state in the game"));
  CHECK_THROWS_WITH(p.eval("rawset(string, 'upper', function() return 'pwned' end)"), Contains("read-only"));
  CHECK_THROWS_WITH(p.eval("rawset(houserules.params, 'cards', 99)"), Contains("read-only"));
  CHECK(p.eval("return type(rawget(_G, 'sneaky'))") == "nil");
  CHECK(p.eval("return string.upper('a')") == "A");
  // rawset on the script's own tables still works
  CHECK(p.eval("local t = {} rawset(t, 'a', 1) return t.a") == "1");
}

TEST_CASE("trick: changing houserules.params or houserules.declare after loading", "[sandbox]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("houserules.params.cards = 99"), Contains("read-only field 'cards'"));
  CHECK_THROWS_WITH(p.eval("houserules.params.letters.red = 'Q'"), Contains("read-only field 'red'"));
  CHECK_THROWS_WITH(p.eval("houserules.params.colours[1] = 'green'"), Contains("read-only"));
  CHECK_THROWS_WITH(p.eval("table.insert(houserules.params.colours, 'green')"), Contains("read-only"));
  CHECK_THROWS_WITH(p.eval("houserules.declare = nil"), Contains("read-only"));
  CHECK(p.eval("return houserules.params.cards") == "6");
  CHECK(p.eval("return houserules.params.letters.red") == "R");
  CHECK(p.eval("return #houserules.params.colours .. houserules.params.colours[1]") == "2red");
  CHECK_THROWS_WITH(p.eval("houserules.declare{ components = {} }"), Contains("only be called while the rules load"));
}
