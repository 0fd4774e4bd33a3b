// hostile_kernel_test.cpp — issue 32 ("Trust at the table"): house rules that go around the sandbox through the
// library functions written in C and through the kernel. One test per trick, named after it as in
// hostile_test.cpp (issue 17); each failed before its fix (hung the process into the backstop, allocated
// gigabytes, wrote behind the rules' back, wrapped, or gave a message without file and line).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "probe.hpp"

using Catch::Contains;
using scripting_test::fixture;
using scripting_test::Probe;
using scripting_test::quick_options;
namespace fs = std::filesystem;

namespace {

/// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
  TempDir() {
    static std::atomic<int> counter{0};
    path = fs::temp_directory_path() / ("hr-kernel-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
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

/// The probe fixture with variant v.lua = `lua` (which gets the rules as `...` and returns them), seed 1.
struct Variant {
  explicit Variant(const std::string& lua, const std::string& toml_tail = "") {
    write(dir.path / "v.toml", "extends = \"" + fixture("probe") + "\"\nscript = \"v.lua\"\n" + toml_tail);
    write(dir.path / "v.lua", lua);
    rules = hr::load_rules((dir.path / "v.toml").string(), quick_options());
    state = rules->new_game(1);
  }
  /// Runs the variant's `explain` hook (a read-only hook) with `text`.
  std::string explain(const std::string& text = "x") { return rules->explain_illegal(state, text); }
  TempDir dir;
  std::unique_ptr<hr::ScriptedRules> rules;
  hr::GameState state;
};

/// The message of the LoadError that loading variant v.lua = `lua` of the probe raises ("" if none).
std::string variant_load_error(const std::string& lua, const std::string& toml_tail = "") {
  try {
    Variant v(lua, toml_tail);
  } catch (const hr::LoadError& e) {
    return e.what();
  }
  return "";
}

/// The message of the LoadError that loading a ruleset whose rules.lua is `lua` raises ("" if none).
std::string ruleset_load_error(const std::string& lua) {
  TempDir dir;
  write(dir.path / "ruleset.toml", "id = \"bomb\"\nname = \"bomb\"\nplayers = { min = 2, max = 2, default = 2 }\n");
  write(dir.path / "rules.lua", lua);
  try {
    hr::load_rules(dir.path.string(), quick_options());
  } catch (const hr::LoadError& e) {
    return e.what();
  }
  return "";
}

/// A ruleset's rules.lua that declares `declaration` (Lua table fields) and the hooks a game needs.
std::string ruleset_declaring(const std::string& before, const std::string& declaration) {
  return before + "\nhouserules.declare { " + declaration +
         " }\nlocal rules = {}\nfunction rules.start_round(game) end\nfunction rules.actions(game) return {} end\n"
         "function rules.apply(game, a) end\nfunction rules.action_text(game, a) return 'a' end\n"
         "function rules.score(game, s) return 0 end\nreturn rules\n";
}

}  // namespace

// ---- item 3: no C function reachable from the sandbox loops unbounded ---------------------------------------

TEST_CASE("trick: string.rep('', math.maxinteger) (a C loop that allocates nothing)", "[sandbox][hostile][cpu]") {
  Variant v("local rules = ...\nfunction rules.explain(game, text)\n"
            "  if text == 'once' then return '[' .. string.rep('', math.maxinteger) .. string.rep('', math.maxinteger, '') .. ']' end\n"
            "  while true do string.rep('', math.maxinteger) end\nend\nreturn rules\n");
  // Lua's loop copied nothing 2^63 times: the CPU guard never fired (C code), the backstop ended the process.
  CHECK(v.explain("once") == "[]");
  // In a loop, the CPU guard stops it, naming the hook and the line.
  CHECK_THROWS_WITH(v.explain("loop"), Contains("hook 'explain'") && Contains("ran longer than the limit") &&
                                           Contains("v.lua:4:"));
  CHECK(v.explain("once") == "[]");  // the Lua state goes on
}

TEST_CASE("trick: string.rep bombs (a result past the memory cap)", "[sandbox][hostile][memory]") {
  Variant v("local rules = ...\nfunction rules.explain(game, text)\n"
            "  if text == 'sep' then return string.rep('', 1 << 40, 'ab') end\n"
            "  return string.rep('abc', 1 << 40)\nend\nreturn rules\n");
  CHECK_THROWS_WITH(v.explain("sep"), Contains("v.lua:3:") && Contains("string.rep") && Contains("memory limit of 8 MiB"));
  CHECK_THROWS_WITH(v.explain("x"), Contains("v.lua:4:") && Contains("string.rep") && Contains("memory limit of 8 MiB"));
  Probe p;
  CHECK(p.eval("return string.rep('ab', 3, ',')") == "ab,ab,ab");
  CHECK(p.eval("return string.rep('ab', 3)") == "ababab");
  CHECK(p.eval("return string.rep('', 3, '-')") == "--");
  CHECK(p.eval("return '[' .. string.rep('ab', 0) .. string.rep('ab', -5) .. ']'") == "[]");
  CHECK(p.eval("return ('x'):rep(4)") == "xxxx");
}

TEST_CASE("trick: table.concat and table.unpack over 2^63 elements read by a C __index", "[sandbox][hostile][cpu]") {
  // rawlen, as __index, answers 0 for every index without running a Lua instruction: the guard never fired.
  Variant v("local rules = ...\nlocal t = setmetatable({}, { __index = rawlen })\nfunction rules.explain(game, text)\n"
            "  if text == 'concat' then return table.concat(t, '', 1, math.maxinteger) end\n"
            "  return select('#', table.unpack(t, math.mininteger, math.maxinteger))\nend\nreturn rules\n");
  CHECK_THROWS_WITH(v.explain("concat"), Contains("v.lua:4:") && Contains("table.concat") && Contains("past the sandbox's limit"));
  CHECK_THROWS_WITH(v.explain("unpack"), Contains("v.lua:5:") && Contains("table.unpack") && Contains("past the sandbox's limit"));
  Probe p;
  CHECK(p.eval("return table.concat({1, 2, 'x'}, ', ')") == "1, 2, x");
  CHECK(p.eval("return table.concat({1, 2, 3}, '-', 2, 3)") == "2-3");
  CHECK(p.eval("return '[' .. table.concat({}, '-') .. table.concat({1}, '-', 3, 2) .. ']'") == "[]");
  CHECK(p.eval("return table.concat(setmetatable({}, {__index = function(_, i) return i * 2 end}), ',', 1, 3)") == "2,4,6");
  CHECK_THROWS_WITH(p.eval("return table.concat({1, {}, 3})"), Contains("invalid value (at index 2) in table for 'concat'"));
  CHECK(p.eval("return select('#', table.unpack({1, 2, 3}))") == "3");
  CHECK(p.eval("local a, b = table.unpack({1, 2, 3}, 2) return a .. b") == "23");
  CHECK(p.eval("return select('#', table.unpack({}, 1, 0))") == "0");
  CHECK(p.eval("return select('#', table.unpack({}, math.maxinteger, math.maxinteger))") == "1");
}

// ---- clear errors: out of memory names the file and line ----------------------------------------------------

TEST_CASE("trick: a heap filled in a hook (out of memory names the file and line)", "[sandbox][hostile][memory]") {
  Variant v("local rules = ...\nfunction rules.explain(game, text)\n  local t = {}\n"
            "  for i = 1, math.maxinteger do t[i] = {} end\nend\nreturn rules\n");
  CHECK_THROWS_WITH(v.explain(), Contains("v.lua:4: hook 'explain' ran out of memory") && Contains("8 MiB"));
}

TEST_CASE("trick: a heap filled while the rules load (out of memory names the file and line)", "[sandbox][hostile][memory]") {
  const std::string error = ruleset_load_error("local t = {}\nfor i = 1, math.maxinteger do\n  t[i] = tostring(i) .. 'x'\nend\n");
  CHECK_THAT(error, Contains("rules.lua:3: loading") && Contains("ran out of memory") && Contains("8 MiB"));
}

// ---- clear errors: what hooks return, variants, encodings, require -------------------------------------------

TEST_CASE("trick: a NaN score", "[hooks][hostile]") {
  Variant v("local rules = ...\nfunction rules.score(game, seat)\n  return 0 / 0\nend\nreturn rules\n");
  CHECK_THROWS_WITH(v.rules->score(v.state, 1), Contains("v.lua:2: hook 'score' must return an integer for seat 1 (it returned NaN)"));
}

TEST_CASE("trick: shorthand returning 65 texts", "[hooks][hostile]") {
  Variant v("local rules = ...\nfunction rules.shorthand(game, text)\n  local t = {}\n"
            "  for i = 1, 65 do t[i] = 'take' end\n  return t\nend\nreturn rules\n");
  CHECK_THROWS_WITH(v.rules->shorthand(v.state, "t"), Contains("v.lua:2: hook 'shorthand' returned 65 texts; the limit is 64"));
}

TEST_CASE("trick: an encoding kind with code = math.maxinteger or -5", "[encoding][hostile]") {
  for (const char* code : {"math.maxinteger", "-5", "1.5", "2147483647"}) {
    CAPTURE(code);
    const std::string error = variant_load_error(
        "local rules = ...\nlocal enc = houserules.encoding()\n"
        "enc:kind { name = 'bomb', args = { { name = 'n', values = { 1, 2 } } }, code = " + std::string(code) +
        " }\nreturn rules\n");
    CHECK_THAT(error, Contains("v.lua:3: houserules.encoding: kind 'bomb'"));
  }
  CHECK(variant_load_error("local rules = ...\nhouserules.encoding():kind { name = 'ok', code = 2147483647 }\nreturn rules\n").empty());
  CHECK(variant_load_error("local rules = ...\nhouserules.encoding():kind { name = 'ok', code = 0 }\nreturn rules\n").empty());
}

TEST_CASE("trick: a variant adding a zone named box (the kernel's)", "[variants][hostile]") {
  const std::string error = variant_load_error("local rules = ...\nreturn rules\n", "\n[zones.box]\nvisibility = \"public\"\n");
  CHECK_THAT(error, Contains("v.toml:4:") && Contains("a variant cannot add a zone named 'box'"));
}

TEST_CASE("trick: require of a 300-letter name (an internal table handed to pcall)", "[sandbox][hostile]") {
  Probe p;
  const std::string name(300, 'a');
  // The file system refused the name with an exception, which Lua took for an error whose value was the stack's
  // top: the module cache, handed to the script's pcall.
  CHECK_THAT(p.eval("local ok, e = pcall(require, '" + name + "') return type(e) .. ': ' .. tostring(e)"),
             Catch::StartsWith("string: ") && Contains("require: a module name has at most 128 bytes, not 300"));
  CHECK_THROWS_WITH(p.eval("require('" + std::string(120, 'b') + "')"), Contains("not found in the ruleset's folders"));
}

TEST_CASE("trick: a variant's error inside the base ruleset's code (its file:line alone)", "[variants][hostile]") {
  // The error is raised in the probe's helper (a module of the base ruleset) that the variant calls: the message
  // named the helper's line and carried the whole traceback; it names the variant's line alone.
  const std::string error = variant_load_error("local rules = ...\nlocal helper = require('helper')\n"
                                               "helper.double(nil)\nreturn rules\n");
  CHECK_THAT(error, Contains("v.lua:3: ") && !Contains("stack traceback") && !Contains("loading "));
  const std::string own = variant_load_error("local rules = ...\n\nerror('my variant is broken')\nreturn rules\n");
  CHECK_THAT(own, Catch::EndsWith("v.lua:3: my variant is broken"));
}

// ---- item 4: memory far beyond the Lua cap through the kernel -----------------------------------------------

TEST_CASE("trick: 2,000 components sharing one 2 MB Lua string as their name or an attribute", "[declare][hostile][memory]") {
  // One Lua string (2 MB of the 8 MiB Lua cap), 2,000 C++ copies: 4 GB. The budget refuses the 32nd copy, before
  // it is made (64 MiB / 2 MiB = 32, less what the rest takes), naming the declaration's file and line and the limit.
  for (const char* field : {"name = big", "name = 'c' .. i, colour = big"}) {
    CAPTURE(field);
    const std::string error = ruleset_load_error(ruleset_declaring(
        "local big = string.rep('x', 2 << 20)\nlocal cards = {}\nfor i = 1, 2000 do cards[i] = { " + std::string(field) +
            " } end",
        "components = cards"));
    CHECK_THAT(error, Contains("rules.lua:4: houserules.declare:") && Contains("component 32 would take") &&
                          Contains("past its limit of 64 MiB a ruleset"));
  }
}

TEST_CASE("trick: 100 boards of 147x147 with 27 marks", "[declare][hostile][memory]") {
  std::string marks;
  for (int m = 0; m < 27; ++m) marks += "m" + std::to_string(m) + " = '" + (m % 3 == 0 ? "face" : m % 3 == 1 ? "edge" : "vertex") + "', ";
  const std::string error = ruleset_load_error(ruleset_declaring(
      "local boards = {}\nfor i = 1, 100 do boards[i] = { name = 'b' .. i, kind = 'triangular', width = 147, height = 147, "
      "marks = { " + marks + " } } end",
      "boards = boards, components = { { name = 'x' } }, zones = { { name = 'z', visibility = 'public' } }"));
  // Each board is about 4.4 MB of tables and 1.2 MB of marks in every game state: refused at the 12th, unbuilt.
  CHECK_THAT(error, Contains("rules.lua:3: houserules.declare:") && Contains("board 12") &&
                        Contains("past its limit of 64 MiB a ruleset"));
}

TEST_CASE("trick: a board too large, refused only after it was built", "[declare][hostile][memory]") {
  const std::string error = ruleset_load_error(ruleset_declaring(
      "", "boards = { { name = 'huge', kind = 'square', width = 255, height = 255 } }, components = { { name = 'x' } }"));
  // Before: the lattice was built (its tables allocated), then Layout::finalize refused it.
  CHECK_THAT(error, Contains("board 'huge': it is too large (65025 faces and 130560 edges; at most 65535 of each)"));
}

// ---- item 5: writes behind the rules' back ------------------------------------------------------------------

TEST_CASE("trick: game:placements, lying and reachable filling a read-only table", "[binding][hostile]") {
  const hr::LoadOptions options = quick_options();
  auto rules = hr::load_rules(std::string(HOUSERULES_TEST_DIR) + "/fixtures/tiny-board", options);
  const hr::GameState state = rules->new_game(1);
  auto eval = [&](const std::string& code) { return rules->explain_illegal(state, "local game = ... " + code); };
  // houserules.boards is a read-only proxy: before, placements wrote its entries raw behind its back.
  CHECK_THROWS_WITH(eval("game:placements('valley', 2, houserules.boards)"), Contains("game:placements: the list to fill must be a plain table"));
  CHECK_THROWS_WITH(eval("game:lying('valley', 'face', 1, setmetatable({}, {}))"), Contains("game:lying: the list to fill must be a plain table"));
  CHECK_THROWS_WITH(eval("game:reachable('valley', 1, 2, nil, houserules.boards)"), Contains("game:reachable: the list to fill must be a plain table"));
  CHECK_THROWS_WITH(eval("game:reachable('valley', 1, 2, nil, {}, houserules.boards)"), Contains("game:reachable: the list to fill must be a plain table"));
  CHECK(eval("return houserules.boards[1]") == "nil");
  // plain tables are filled as before
  CHECK(eval("local t = {} local _, n = game:placements('valley', 2, t) return #t == n") == "true");
  CHECK(eval("local t, d = {}, {} local _, _, n = game:reachable('valley', 1, 2, nil, t, d) return #t == n and #d == n") == "true");
}

TEST_CASE("trick: add_counter(+1) at 2^63 - 1 (a counter wrapping to -2^63)", "[binding][hostile]") {
  Variant v("local rules = ...\nlocal base_apply = rules.apply\nfunction rules.apply(game, action, ...)\n"
            "  if action == 90 then game:set_counter('r1', 0, 1 << 53) game:add_counter('r1', 0, 1) return end\n"
            "  if action == 91 then game:set_counter('r1', 0, math.maxinteger) return end\n"
            "  if action == 92 then game:set_counter('r1', 0, 5) game:add_counter('r1', 0, math.mininteger) return end\n"
            "  if action == 93 then game:set_counter('r1', 0, -(1 << 53)) game:add_counter('r1', 0, 1 << 54) return end\n"
            "  return base_apply(game, action, ...)\nend\nreturn rules\n");
  const hr::GameState before = v.state;
  CHECK_THROWS_WITH(v.rules->apply(v.state, 90), Contains("hook 'apply'") && Contains("v.lua:4:") &&
                                                   Contains("game:add_counter: counter 'r1' holds 9007199254740992, and 1 more is past the limit"));
  CHECK_THROWS_WITH(v.rules->apply(v.state, 91), Contains("v.lua:5:") && Contains("game:set_counter: counter 'r1' would hold 9223372036854775807"));
  CHECK_THROWS_WITH(v.rules->apply(v.state, 92), Contains("v.lua:6:") && Contains("game:add_counter: counter 'r1' holds 5"));
  CHECK(v.state == before);
  v.rules->apply(v.state, 93);  // -2^53 + 2^54 = 2^53: at the limit
  CHECK(v.state.counter(v.rules->layout().counter_index("r1")) == (std::int64_t{1} << 53));
}
