// determinism_test.cpp — DESIGN.md §3: math.random is the game's RNG (and only inside hooks that may
// change the game), and pairs/next visit keys in a fixed order, so a game replays the same in every process.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "probe.hpp"

using Catch::Contains;
using scripting_test::fixture;
using scripting_test::Probe;
using scripting_test::quick_options;
namespace fs = std::filesystem;
namespace st = scripting_test;

namespace {

struct Draws {
  std::int64_t r1, r2, r3;
  bool operator==(const Draws&) const = default;
};

Draws draws_after_random_action(std::uint64_t seed) {
  Probe p(quick_options(), seed);
  p.rules->apply(p.state, st::kRandomDraws);
  return {p.state.counter(p.counter("r1")), p.state.counter(p.counter("r2")), p.state.counter(p.counter("r3"))};
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

// ---- math.random ------------------------------------------------------------------------------------------

TEST_CASE("math.random in apply draws from the game's RNG", "[determinism]") {
  Probe p(quick_options(), 42);
  hr::Rng expected = p.state.rng();  // the game's RNG as it stands before the action
  p.rules->apply(p.state, st::kRandomDraws);
  // math.random(1, 1000000), math.random(1000000), math.floor(math.random() * 1e9)
  CHECK(p.state.counter(p.counter("r1")) == expected.between(1, 1000000));
  CHECK(p.state.counter(p.counter("r2")) == expected.between(1, 1000000));
  CHECK(p.state.counter(p.counter("r3")) == static_cast<std::int64_t>(std::floor(expected.unit() * 1e9)));
  CHECK(p.state.rng() == expected);  // and it advanced the game's RNG, nothing else
}

TEST_CASE("math.random: same seed, same draws; another seed, other draws", "[determinism]") {
  const Draws a = draws_after_random_action(7);
  const Draws b = draws_after_random_action(7);
  const Draws c = draws_after_random_action(8);
  CHECK(a == b);
  CHECK_FALSE(a == c);
  // a copy of the game draws what the original draws
  Probe p(quick_options(), 9);
  hr::GameState copy = p.state;
  p.rules->apply(p.state, st::kRandomDraws);
  p.rules->apply(copy, st::kRandomDraws);
  CHECK(copy == p.state);
}

TEST_CASE("trick: math.random while the rules load", "[determinism]") {
  try {
    hr::load_rules(fixture("random-at-load"), quick_options());
    FAIL("loading succeeded");
  } catch (const hr::LoadError& e) {
    CHECK_THAT(e.what(), Contains("random-at-load/rules.lua:3:") && Contains("math.random draws from the game's RNG"));
  }
}

TEST_CASE("trick: math.random in a read-only hook (actions, explain)", "[determinism]") {
  auto rules = hr::load_rules(fixture("sneaky"), quick_options());
  hr::GameState state = rules->new_game(3);
  const hr::GameState before = state;
  CHECK_THROWS_WITH(rules->legal_actions(state),
                    Contains("hook 'actions'") && Contains("math.random draws from the game's RNG"));
  CHECK(state == before);
  Probe p;
  CHECK_THROWS_WITH(p.eval("return math.random(6)"), Contains("math.random draws from the game's RNG"));
  CHECK_THROWS_WITH(p.eval("return math.random()"), Contains("math.random draws from the game's RNG"));
}

// ---- pairs and next ---------------------------------------------------------------------------------------

TEST_CASE("pairs visits numbers ascending, then strings bytewise, then false and true", "[determinism]") {
  Probe p;
  const char* code =
      "local t = { [true] = 1, zeta = 1, [10] = 1, alpha = 1, [false] = 1, [2.5] = 1, Beta = 1, [-3] = 1, "
      "           [''] = 1, ['alpha2'] = 1 } "
      "local out = {} for k in pairs(t) do out[#out + 1] = tostring(k) end return table.concat(out, ' ')";
  CHECK(p.eval(code) == "-3 2.5 10  Beta alpha alpha2 zeta false true");
}

TEST_CASE("pairs and next give the same order whatever the insertion order", "[determinism]") {
  Probe p;
  // 200 string keys inserted forwards and backwards; raw Lua would iterate them in hash-slot order
  const char* code =
      "local fwd, bwd = {}, {} "
      "for i = 1, 200 do fwd['key' .. i] = i end "
      "for i = 200, 1, -1 do bwd['key' .. i] = i end "
      "local function by_pairs(t) local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ',') end "
      "local function by_next(t) local o = {} local k = next(t) "
      "  while k ~= nil do o[#o + 1] = k k = next(t, k) end return table.concat(o, ',') end "
      "local sorted = {} for i = 1, 200 do sorted[i] = 'key' .. i end table.sort(sorted) "
      "local want = table.concat(sorted, ',') "
      "return tostring(by_pairs(fwd) == want) .. ' ' .. tostring(by_pairs(bwd) == want) .. ' ' .. "
      "       tostring(by_next(fwd) == want) .. ' ' .. tostring(by_next(bwd) == want)";
  CHECK(p.eval(code) == "true true true true");
  CHECK(p.eval("return next({})") == "nil");
  CHECK(p.eval("return next({ b = 1, a = 2 })") == "a");
}

TEST_CASE("trick: table or function keys, whose order would follow memory addresses", "[determinism]") {
  Probe p;
  CHECK_THROWS_WITH(p.eval("for k in pairs({ [{}] = 1, [{}] = 2 }) do end"),
                    Contains("pairs") && Contains("no fixed iteration order"));
  CHECK_THROWS_WITH(p.eval("for k in pairs({ [print] = 1 }) do end"), Contains("no fixed iteration order"));
  CHECK_THROWS_WITH(p.eval("return next({ [{}] = 1 })"), Contains("no fixed iteration order"));
  // such tables are still usable as maps; only iterating them is refused
  CHECK(p.eval("local k = {} local t = { [k] = 5 } return t[k]") == "5");
}

TEST_CASE("pairs over read-only tables (params, libraries) is ordered too", "[determinism]") {
  Probe p;
  CHECK(p.eval("local o = {} for k, v in pairs(houserules.params.letters) do o[#o + 1] = k .. '=' .. v end "
               "return table.concat(o, ' ')") == "blue=B red=R");
  CHECK(p.eval("local o = {} for k in pairs(houserules.params) do o[#o + 1] = k end return table.concat(o, ' ')") ==
        "cards colours letters");
}

// ---- across processes -------------------------------------------------------------------------------------

TEST_CASE("a game whose apply iterates pairs over 50 string keys replays the same in another process",
          "[determinism][process]") {
  // Lua seeds its string hash per process (from addresses and the clock), so raw pairs order differs
  // between two runs of the same program. keyorder's "arrange" lays cards k1..k50 onto the pile in the
  // order pairs(KEYS) visits them; the seats then take them from the top ("take k9"), so the transcript
  // shows that order, and each line's state digest covers it.
  const fs::path dir = fs::temp_directory_path() / ("hr-scripting-keyorder-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> logs, outputs;
  for (int run = 1; run <= 2; ++run) {
    const fs::path log = dir / ("run" + std::to_string(run) + ".jsonl");
    const fs::path out = dir / ("run" + std::to_string(run) + ".out");
    const std::string command = std::string("'") + HOUSERULES_BINARY + "' play '" + fixture("keyorder") +
                                "' --players random,random --seed 3 --log '" + log.string() + "' --quiet > '" +
                                out.string() + "' 2>&1";
    INFO(command);
    REQUIRE(std::system(command.c_str()) == 0);
    logs.push_back(read_file(log));
    outputs.push_back(read_file(out));
  }
  fs::remove_all(dir);
  REQUIRE(!logs[0].empty());
  CHECK(logs[0] == logs[1]);
  CHECK(outputs[0] == outputs[1]);

  // The order itself: the takes, reversed, are the pairs order, which must be the fixed (bytewise) order.
  std::vector<std::string> taken;
  std::istringstream lines(logs[0]);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find("\"action\":\"take ");
    if (at == std::string::npos) continue;
    const auto start = at + std::string("\"action\":\"take ").size();
    taken.push_back(line.substr(start, line.find('"', start) - start));
  }
  std::reverse(taken.begin(), taken.end());
  std::vector<std::string> expected;
  for (int i = 1; i <= 50; ++i) expected.push_back("k" + std::to_string(i));
  std::sort(expected.begin(), expected.end());
  CHECK(taken == expected);
}
