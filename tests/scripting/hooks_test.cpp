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
/// `return rules` of rules.lua, or put in place of the text `replaced` when given. Removed when destroyed.
class EditedProbe {
 public:
  explicit EditedProbe(const std::string& name, const std::string& edit, const std::string& replaced = "")
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
    if (replaced.empty()) {
      source.insert(source.size() - last.size() + 1, edit + "\n");
    } else {
      const auto at = source.find(replaced);
      REQUIRE(at != std::string::npos);
      source.replace(at, replaced.size(), edit);
    }
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

TEST_CASE("a hook that fails after many changes of every kind is undone by the kernel's undo log", "[hooks][undo]") {
  // tricks[20] redefined: a shuffle, moves, a deal, counters, a random draw, the turn and phase, the end of the
  // round requested, then an error. Rules::apply records each change and restores them all, last to first.
  EditedProbe edited("undo-many", R"(tricks[20] = function(game)
  game:shuffle(Z.pile)
  game:move_top(Z.pile, Z.table)
  game:move_top(Z.pile, Z["hand.1"])
  game:put_under(game:top(Z.table), Z.pile)
  game:deal(Z.pile, { Z.table, Z["hand.2"] }, 2)
  game:set_counter("r1", 0, 99)
  game:add_counter("r2", 0, game:random(1, 1000))
  game:set_to_move(2)
  game:set_phase(3)
  game:gather(Z.table)
  game:move_top(Z.table, Z["hand.1"])
  game:end_round()
  error("late boom")
end)");
  auto rules = hr::load_rules(edited.path(), quick_options());
  hr::GameState state = rules->new_game(7);
  rules->apply(state, st::kTake);  // some history first
  const hr::GameState before = state;
  CHECK_THROWS_WITH(rules->apply(state, st::kMoveThenBoom), Contains("late boom"));
  CHECK(state == before);
  CHECK(state.digest() == before.digest());
  CHECK(state.check_invariants().empty());
  CHECK_FALSE(state.recording());
  // and play goes on, as from the state before
  hr::GameState again = before;
  rules->apply(state, st::kTake);
  rules->apply(again, st::kTake);
  CHECK(state == again);
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

// ---- the hooks' arguments and the random playout ---------------------------------------------------------

TEST_CASE("actions and apply get the seat to move and the phase, from C++ and in a random playout", "[hooks][playout]") {
  Probe p;
  const int arguments = p.counter("arguments");
  // the per-action path: Rules::apply (take alternates the phase 0, 7, 0, ...)
  p.rules->apply(p.state, st::kTake);
  CHECK(p.state.counter(arguments) == 100 * 1 + 0);
  p.rules->apply(p.state, st::kTake);
  CHECK(p.state.counter(arguments) == 100 * 2 + 7);
  // the random playout, one ply at a time
  hr::Rng rng(5);
  CHECK(p.rules->random_playout(p.state, rng, 1) == 1);
  CHECK(p.state.counter(arguments) == 100 * 1 + 0);
  CHECK(p.rules->random_playout(p.state, rng, 1) == 1);
  CHECK(p.state.counter(arguments) == 100 * 2 + 7);
  CHECK(p.state.ply() == 4);
  // to the end: the pile runs out after 6 takes in all, which ends the game (1 round)
  CHECK(p.rules->random_playout(p.state, rng, 100) == 2);
  CHECK(p.state.over());
  CHECK(p.state.ply() == 6);
}

TEST_CASE("a random playout takes the count protocol and a returned list alike", "[hooks][playout]") {
  Probe p;
  hr::GameState listed = p.state, counted = p.state;
  counted.set_counter(p.counter("mode"), 0, 1);  // actions fills `out` and returns the count
  hr::Rng rng1(9), rng2(9);
  CHECK(p.rules->random_playout(listed, rng1, 100) == 6);
  CHECK(p.rules->random_playout(counted, rng2, 100) == 6);
  counted.set_counter(p.counter("mode"), 0, 0);
  CHECK(counted == listed);
}

TEST_CASE("a random playout refuses a bad result of the actions hook and changes nothing", "[hooks][playout]") {
  const std::pair<int, const char*> cases[] = {
      {-1, "must return a list of actions (integers), or fill its second argument and return the count; it returned a string"},
      {-2, "returned a count that is not a whole number >= 0"},
      {-3, "entry 1 is not an integer action"},
  };
  for (const auto& [mode, error] : cases) {
    INFO("mode " << mode);
    Probe p;
    p.rules->apply(p.state, st::kTake);
    p.state.set_counter(p.counter("mode"), 0, mode);
    const hr::GameState before = p.state;
    hr::Rng rng(3);
    CHECK_THROWS_WITH(p.rules->random_playout(p.state, rng, 100), Contains(error) && Contains("random playout"));
    CHECK(p.state == before);
    // the per-action path says the same
    CHECK_THROWS_WITH(p.rules->legal_actions(p.state), Contains(error));
  }
}

TEST_CASE("in a random playout as elsewhere, actions may not change the game nor draw random numbers", "[hooks][playout]") {
  const std::pair<int, const char*> cases[] = {
      {-5, "game:set_counter changes the game, which actions may not do"},
      {-6, "math.random"},
  };
  for (const auto& [mode, error] : cases) {
    INFO("mode " << mode);
    Probe p;
    p.state.set_counter(p.counter("mode"), 0, mode);
    const hr::GameState before = p.state;
    hr::Rng rng(3);
    std::string in_playout, per_action;
    try {
      p.rules->random_playout(p.state, rng, 100);
    } catch (const hr::ScriptError& e) {
      in_playout = e.what();
    }
    try {
      p.rules->legal_actions(p.state);
    } catch (const hr::ScriptError& e) {
      per_action = e.what();
    }
    CHECK_THAT(in_playout, Contains(error));
    CHECK_THAT(per_action, Contains(error));
    CHECK(p.state == before);
  }
}

TEST_CASE("an error in apply during a random playout names its line and leaves the game as it was", "[hooks][playout]") {
  Probe p;
  p.rules->apply(p.state, st::kTake);
  p.state.set_counter(p.counter("mode"), 0, -4);  // the only action is trick 20: a move, then error("boom")
  const hr::GameState before = p.state;
  const int boom_line = line_of(fixture("probe/rules.lua"), "error(\"boom\")");
  hr::Rng rng(3);
  CHECK_THROWS_WITH(p.rules->random_playout(p.state, rng, 100),
                    Contains("probe/rules.lua:" + std::to_string(boom_line) + ": boom") && Contains("stack traceback"));
  CHECK(p.state == before);
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

TEST_CASE("declared maps must give an integer for every component", "[hooks][load]") {
  const std::string declared = "maps = { value = VALUE, suit = SUIT },";
  {
    EditedProbe edited("map-with-text", "maps = { value = VALUE, suit = { 1, 2, 'x', 1, 2, 1 } },", declared);
    CHECK_THAT(load_error(edited.path()), Contains("map 'suit': entry 3 is not an integer"));
  }
  {
    EditedProbe edited("map-too-short", "maps = { value = { 2, 4 } },", declared);
    CHECK_THAT(load_error(edited.path()), Contains("map 'value': entry 3 is not an integer (a map gives one integer per component, 1 to 6"));
  }
  {
    EditedProbe edited("map-not-a-list", "maps = { value = 7 },", declared);
    CHECK_THAT(load_error(edited.path()), Contains("maps must map names to lists of integers"));
  }
  {
    EditedProbe edited("map-untouched", declared, declared);
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
