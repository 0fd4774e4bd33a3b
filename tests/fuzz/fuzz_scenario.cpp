// fuzz_scenario.cpp — a scenario file, parsed and run (cli/testing/scenario.hpp) against the shipped rulesets: every
// key, zones, counters, figures, tiles, actions and expectations. Rulesets are loaded once per process.
#include <map>

#include "fuzz_util.hpp"
#include "testing/testing.hpp"
#include "scripted_rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static hr::LoadedRulesets loaded;
  // In the shipped tests' place, so that relative ruleset paths ("../..") resolve as they do there.
  static const std::filesystem::path file = hr::fuzz::scratch() / "rulesets/x/tests/fuzz.toml";
  static const bool linked = [] {
    std::filesystem::create_directories(hr::fuzz::scratch() / "rulesets");
    for (const char* id : {"lost-cities", "lost-cities-board", "lost-cities-rivals"}) {
      std::error_code ec;
      std::filesystem::create_directory_symlink(std::filesystem::path(HOUSERULES_SOURCE_DIR) / "rulesets" / id,
                                                hr::fuzz::scratch() / "rulesets" / id, ec);
    }
    return true;
  }();
  (void)linked;
  hr::fuzz::write_file(file, hr::fuzz::as_text(data, size));
  hr::fuzz::NullStream out;
  hr::ScenarioOptions options;
  options.loaded = &loaded;
  hr::run_scenario_tests({file.string()}, out, options);
  // Free this input's Lua garbage now: otherwise the input looks as if it allocated more than it freed, and
  // libFuzzer runs a leak check over the whole heap after it (more than half of the time, measured). Only the
  // states this input used: a full collection of every cached ruleset took a quarter of the time (measured).
  static std::map<const hr::ScriptedRules*, std::size_t> after_last_collection;
  for (auto& entry : loaded.rules) {
    if (!entry.second) continue;
    std::size_t& bytes = after_last_collection[entry.second.get()];
    if (entry.second->lua_memory() == bytes) continue;
    entry.second->collect_garbage();
    bytes = entry.second->lua_memory();
  }
  return 0;
}
