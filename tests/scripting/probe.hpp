// probe.hpp — helpers shared by the scripting tests: fixture paths, and a loaded `probe` fixture whose
// `explain` hook evaluates Lua source inside the sandbox (a read-only hook, with the game as `...`).
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <memory>
#include <string>

#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"

namespace scripting_test {

/// The folder of fixture ruleset `name` (tests/scripting/fixtures/<name>).
inline std::string fixture(const std::string& name) {
  return std::string(HOUSERULES_TEST_DIR) + "/scripting/fixtures/" + name;
}

/// The 1-based number of the first line of `file` that contains `marker` (0 if none): tests look up the
/// lines they expect in error messages instead of hard-coding them.
inline int line_of(const std::string& file, const std::string& marker) {
  std::ifstream in(file);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(marker) != std::string::npos) return n;
  return 0;
}

/// Options with a short CPU limit so that runaway-script tests take a fraction of a second.
inline hr::LoadOptions quick_options() {
  hr::LoadOptions options;
  options.hook_time_limit = std::chrono::milliseconds{200};
  options.memory_limit = 8u << 20;
  return options;
}

/// Action numbers of the probe fixture (tests/scripting/fixtures/probe/rules.lua).
enum ProbeAction : hr::Action {
  kTake = 1,
  kEndlessLoop = 10,
  kPcallLoop = 11,
  kStringRepBomb = 12,
  kTableBomb = 13,
  kConcatBomb = 14,
  kMoveThenBoom = 20,
  kAssignGlobal = 21,
  kRandomDraws = 30,
  kRecordArguments = 31,
  kRandomRule = 32,
};

struct Probe {
  explicit Probe(const hr::LoadOptions& options = quick_options(), std::uint64_t seed = 1)
      : rules(hr::load_rules(fixture("probe"), options)), state(rules->new_game(seed)) {}
  /// Runs `code` (Lua source) in the sandbox during the `explain` hook; returns tostring(first result).
  std::string eval(const std::string& code) { return rules->explain_illegal(state, code); }
  hr::ZoneId zone(const char* name) const { return rules->layout().zone_id(name); }
  int counter(const char* name) const { return rules->layout().counter_index(name); }

  std::unique_ptr<hr::ScriptedRules> rules;
  hr::GameState state;
};

}  // namespace scripting_test
