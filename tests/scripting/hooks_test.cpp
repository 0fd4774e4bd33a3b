// hooks_test.cpp — what a failing rules script gives: load errors that name the file and line (or what is
// missing), hook errors with the file, line and a traceback, a game left exactly as it was, and read-only
// hooks that may not change the game.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "probe.hpp"

using Catch::Contains;
using scripting_test::fixture;
using scripting_test::line_of;
using scripting_test::Probe;
using scripting_test::quick_options;
namespace fs = std::filesystem;
namespace st = scripting_test;

namespace {

std::string load_error(const std::string& path, const hr::LoadOptions& options = quick_options()) {
  try {
    hr::load_rules(path, options);
  } catch (const hr::LoadError& e) {
    return e.what();
  }
  FAIL("loading " << path << " succeeded");
  return {};
}

/// A copy of the probe fixture in a fresh temporary folder, with `edit` inserted before the final
/// `return rules` of rules.lua. Removed when destroyed.
class EditedProbe {
 public:
  explicit EditedProbe(const std::string& name, const std::string& edit)
      : dir_(fs::temp_directory_path() / ("hr-scripting-test-" + std::to_string(::getpid())) / name) {
    fs::remove_all(dir_);
    fs::create_directories(dir_.parent_path());
    fs::copy(fixture("probe"), dir_, fs::copy_options::recursive);
    std::ifstream in(dir_ / "rules.lua");
    std::stringstream text;
    text << in.rdbuf();
    std::string source = text.str();
    const std::string last = "\nreturn rules\n";
    REQUIRE(source.size() > last.size());
    REQUIRE(source.compare(source.size() - last.size(), last.size(), last) == 0);
    source.insert(source.size() - last.size() + 1, edit + "\n");
    in.close();
    std::ofstream(dir_ / "rules.lua", std::ios::trunc) << source;
  }
  ~EditedProbe() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path() const { return dir_.string(); }

 private:
  fs::path dir_;
};

}  // namespace

// ---- a failing hook ---------------------------------------------------------------------------------------

TEST_CASE("a hook that fails after changing the game leaves the game exactly as it was", "[hooks]") {
  Probe p;
  p.rules->apply(p.state, st::kTake);  // something to roll back to that is not the initial state
  const hr::GameState before = p.state;
  const int boom_line = line_of(fixture("probe/rules.lua"), "error(\"boom\")");
  REQUIRE(boom_line > 0);
  try {
    p.rules->apply(p.state, st::kMoveThenBoom);  // moves the pile's top to the table, sets r1, then error("boom")
    FAIL("apply returned");
  } catch (const hr::ScriptError& e) {
    const std::string message = e.what();
    CHECK_THAT(message, Contains("hook 'apply'"));
    CHECK_THAT(message, Contains("probe/rules.lua:" + std::to_string(boom_line) + ": boom"));
    CHECK_THAT(message, Contains("stack traceback"));
    CHECK_THAT(message, Contains("in local 'trick'"));
  }
  CHECK(p.state == before);
  CHECK(p.state.size(p.zone("table")) == 0);
  CHECK(p.state.counter(p.counter("r1")) == 0);
  CHECK(p.state.check_invariants().empty());
  // and play goes on
  p.rules->apply(p.state, st::kTake);
  CHECK(p.state.size(p.zone("hand.2")) == 1);
}

TEST_CASE("a hook stopped by the frozen globals also leaves the game as it was", "[hooks]") {
  Probe p;
  const hr::GameState before = p.state;
  // moves a card, then assigns a global
  CHECK_THROWS_WITH(p.rules->apply(p.state, st::kAssignGlobal),
                    Contains("'taken_so_far'") && Contains("rules keep their state in the game"));
  CHECK(p.state == before);
}

TEST_CASE("the CPU guard's error points at the line that was running", "[hooks][cpu]") {
  Probe p;
  const int loop_line = line_of(fixture("probe/rules.lua"), "while true do end -- the endless loop");
  REQUIRE(loop_line > 0);
  CHECK_THROWS_WITH(p.rules->apply(p.state, st::kEndlessLoop),
                    Contains("probe/rules.lua:" + std::to_string(loop_line) + ": hook 'apply' ran longer"));
}

// ---- load errors ------------------------------------------------------------------------------------------

TEST_CASE("a syntax error in rules.lua names the file and line", "[hooks][load]") {
  const std::string message = load_error(fixture("syntax-error"));
  CHECK_THAT(message, Contains("syntax-error/rules.lua:3:"));
  CHECK_THAT(message, Contains("near '='"));
}

TEST_CASE("a broken ruleset.toml names the file, line and column", "[hooks][load]") {
  // line 4 is `players = { min = 2, max = }`: the value is missing where the '}' stands, column 28
  const std::string message = load_error(fixture("broken-toml"));
  CHECK_THAT(message, Contains("broken-toml/ruleset.toml:4:28:"));
}

TEST_CASE("a rules script that never calls houserules.declare", "[hooks][load]") {
  const std::string message = load_error(fixture("no-declare"));
  CHECK_THAT(message, Contains("no-declare/rules.lua"));
  CHECK_THAT(message, Contains("must call houserules.declare"));
}

TEST_CASE("a rules table without one of the required hooks", "[hooks][load]") {
  for (const char* hook : {"start_round", "actions", "apply", "action_text", "score"}) {
    INFO(hook);
    EditedProbe edited(std::string("without-") + hook, std::string("rules.") + hook + " = nil");
    const std::string message = load_error(edited.path());
    CHECK_THAT(message, Contains("lacks the required hooks: " + std::string(hook)));
  }
  {
    EditedProbe edited("without-two", "rules.apply = nil rules.score = nil");
    CHECK_THAT(load_error(edited.path()), Contains("lacks the required hooks: apply, score"));
  }
  {
    EditedProbe edited("score-not-function", "rules.score = 5");
    CHECK_THAT(load_error(edited.path()), Contains("rules.score must be a function, not a number"));
  }
  {
    EditedProbe edited("untouched", "");  // the copy itself loads: the failures above come from the edits
    CHECK_NOTHROW(hr::load_rules(edited.path(), quick_options()));
  }
}

TEST_CASE("a rules script that returns something other than its rules table", "[hooks][load]") {
  EditedProbe edited("returns-number", "do return 42 end");
  CHECK_THAT(load_error(edited.path()), Contains("must return its rules table (it returned a number)"));
}

TEST_CASE("a runtime error while loading names the file and line", "[hooks][load]") {
  EditedProbe edited("error-at-load", "local broken = nil + 1 -- fails at load");
  const int line = line_of(edited.path() + "/rules.lua", "fails at load");
  const std::string message = load_error(edited.path());
  CHECK_THAT(message, Contains("rules.lua:" + std::to_string(line) + ":"));
  CHECK_THAT(message, Contains("arithmetic"));
  CHECK_THAT(message, Contains("stack traceback"));
}

// ---- read-only hooks ----------------------------------------------------------------------------------------

TEST_CASE("trick: changing the game from a read-only hook (score, action_text, heuristic)", "[hooks]") {
  auto rules = hr::load_rules(fixture("sneaky"), quick_options());
  hr::GameState state = rules->new_game(5);
  const hr::GameState before = state;
  CHECK_THROWS_WITH(rules->score(state, 1),
                    Contains("hook 'score'") && Contains("game:move changes the game, which score may not do"));
  CHECK(state == before);
  CHECK_THROWS_WITH(rules->action_text(state, 1),
                    Contains("game:shuffle changes the game, which action_text may not do"));
  CHECK(state == before);
  CHECK_THROWS_WITH(rules->heuristic(state, 1),
                    Contains("game:set_counter changes the game, which heuristic may not do"));
  CHECK(state == before);
}

TEST_CASE("trick: changing the game from the explain hook", "[hooks]") {
  Probe p;
  const hr::GameState before = p.state;
  CHECK_THROWS_WITH(p.eval("local game = ... game:move_top('pile', 'hand.1')"),
                    Contains("game:move_top changes the game, which explain may not do"));
  CHECK_THROWS_WITH(p.eval("local game = ... game:end_game()"), Contains("which explain may not do"));
  CHECK_THROWS_WITH(p.eval("local game = ... game:random(6)"), Contains("which explain may not do"));
  CHECK(p.state == before);
}
