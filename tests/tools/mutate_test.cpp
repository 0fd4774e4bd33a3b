// mutate_test.cpp — the Lua tokenizer and mutation operators of `houserules mutate` (cli/testing/mutate.hpp), the
// executable lines of coverage (scripting/coverage.hpp), and the CPU guard with the coverage hook on.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "coverage.hpp"
#include "testing/testing.hpp"
#include "sandbox.hpp"

namespace {

std::vector<std::string> mutated_texts(const std::string& source) {
  std::vector<std::string> out;
  for (const hr::Mutant& m : hr::lua_mutants("x.lua", "x.lua", source)) out.push_back(hr::apply_mutant(source, m));
  return out;
}

bool contains(const std::vector<std::string>& list, const std::string& text) {
  return std::find(list.begin(), list.end(), text) != list.end();
}

}  // namespace

TEST_CASE("mutate: strings, long strings and comments are never changed", "[mutate]") {
  const std::string source =
      "local s = \"a < b and 1 == 2\" .. 'x ~= \\'y\\' or 3'\n"
      "local l = [==[ if a then 4 ]] == ]==]\n"
      "-- if c < d then e = 5 end\n"
      "--[[ f(6)\n  g = 7 ]]\n";
  CHECK(hr::lua_mutants("x.lua", "x.lua", source).empty());
  const auto tokens = hr::tokenize_lua(source);
  REQUIRE(tokens.size() == 10);  // local s = "..." .. '...' / local l = [==[...]==]
  CHECK(tokens[9].kind == hr::LuaToken::Kind::String);
  CHECK(tokens[9].line == 2);
  CHECK_THROWS_WITH(hr::tokenize_lua("x = [[ never closed"), Catch::Contains("line 1: unfinished long string"));
  CHECK_THROWS_WITH(hr::tokenize_lua("x = 1\ny = 'open"), Catch::Contains("line 2: unfinished string"));
}

TEST_CASE("mutate: each operator on a small chunk", "[mutate]") {
  const std::string source =
      "local LIMIT <const> = 0x10\n"
      "function f(a, b)\n"
      "  if a < b and a ~= 2 then\n"
      "    g(a,\n"
      "      b)\n"
      "  end\n"
      "  local t = {\n"
      "    x = a - 0,\n"
      "  }\n"
      "  return t\n"
      "end\n";
  const auto texts = mutated_texts(source);
  CHECK(contains(texts, "local LIMIT <const> = 0x10\nfunction f(a, b)\n  if a <= b and a ~= 2 then\n"
                        "    g(a,\n      b)\n  end\n  local t = {\n    x = a - 0,\n  }\n  return t\nend\n"));
  CHECK(contains(texts, std::string(source).replace(source.find("a ~= 2"), 6, "a == 2")));
  CHECK(contains(texts, std::string(source).replace(source.find(" and "), 5, " or ")));
  CHECK(contains(texts, std::string(source).replace(source.find("2 then"), 1, "3")));
  CHECK(contains(texts, std::string(source).replace(source.find("2 then"), 1, "1")));
  CHECK(contains(texts, std::string(source).replace(source.find("a < b and a ~= 2"), 16, "not (a < b and a ~= 2)")));
  // the whole two-line call is dropped, nothing else
  CHECK(contains(texts, std::string(source).replace(source.find("g(a,"), 13, "")));
  // not mutated: the <const> attribute, the hex constant, `- 0` (0 - 1 would read "--1", a comment), the
  // table entry `x = a - 0,` as a statement, `local` and `return` statements
  for (const std::string& text : texts) {
    CHECK(text.find("<const>") != std::string::npos);
    CHECK(text.find("0x10") != std::string::npos);
    CHECK(text.find("--1") == std::string::npos);
    CHECK(text.find("x = a -") != std::string::npos);
    CHECK(text.find("return t") != std::string::npos);
  }
  CHECK(texts.size() == 8);  // <=, ==, or, 3, 1, not (...), dropped call, `0` -> `1`
  for (const std::string& text : texts) CHECK(hr::executable_lines(text, "=x"));  // every mutant compiles
}

TEST_CASE("mutate: the diff of a mutant shows the whole lines", "[mutate]") {
  const std::string source = "local a = 1\nif a > 0 then\n  b()\nend\n";
  const auto mutants = hr::lua_mutants("x.lua", "x.lua", source);
  const auto flip = std::find_if(mutants.begin(), mutants.end(), [](const hr::Mutant& m) { return m.kind == "comparison"; });
  REQUIRE(flip != mutants.end());
  CHECK(flip->line == 2);
  CHECK(flip->what == "`>` -> `>=`");
  CHECK(hr::mutant_diff(source, *flip, "  ") == "  - if a > 0 then\n  + if a >= 0 then\n");
}

TEST_CASE("coverage: executable lines include nested functions and leave out comments and blank lines", "[coverage]") {
  const std::string source =
      "-- a comment\n"           // 1
      "local function f(x)\n"    // 2
      "\n"                       // 3
      "  local function g()\n"   // 4
      "    return x * 2\n"       // 5
      "  end\n"                  // 6
      "  return g()\n"           // 7
      "end\n"                    // 8
      "return f\n";              // 9
  const auto lines = hr::executable_lines(source, "=t");
  REQUIRE(lines);
  CHECK(lines->count(5));  // inside g, a function nested in f: only the dump of the whole chunk has it
  CHECK(lines->count(7));
  CHECK(lines->count(9));
  CHECK_FALSE(lines->count(1));
  CHECK_FALSE(lines->count(3));
  std::string error;
  CHECK_FALSE(hr::executable_lines("if then", "=bad", &error));
  CHECK_THAT(error, Catch::Contains("bad:1"));
}

TEST_CASE("coverage: the CPU guard still stops a runaway loop while the line hook records", "[coverage]") {
  hr::CoverageRecorder::global().enable();  // this test case runs in its own process (catch_discover_tests)
  const auto file = std::filesystem::temp_directory_path() / "houserules-coverage-loop.lua";
  {
    std::ofstream out(file);
    out << "local n = 0\nwhile true do\n  n = n + 1\nend\n";
  }
  hr::Sandbox sandbox(hr::Sandbox::Limits{16u << 20, std::chrono::milliseconds(200)});
  sandbox.load_file(file);
  CHECK_THROWS_WITH(sandbox.call("hook 'loop'", 0, 0), Catch::Contains("hook 'loop' ran longer than the limit of 200 ms"));
  bool found = false;
  for (const hr::FileCoverage& f : hr::CoverageRecorder::global().files()) {
    if (f.path.filename() != file.filename()) continue;
    found = true;
    CHECK(f.lines.at(3) > 1000);  // the loop's body ran, counted by the line hook
  }
  CHECK(found);
  std::filesystem::remove(file);
}
