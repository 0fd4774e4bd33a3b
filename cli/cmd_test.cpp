// cmd_test.cpp — `houserules test`: scenario files (cli/scenario.hpp).
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "coverage_options.hpp"
#include "scenario.hpp"

namespace hr {

void register_test_command(CLI::App& app, int& status) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto options = std::make_shared<ScenarioOptions>();
  auto coverage = std::make_shared<CoverageOptions>();
  auto* test = app.add_subcommand("test", "Run scenario test files (TOML) and print `N passed, M failed`");
  test->footer(
      "Examples:\n"
      "  houserules test rulesets/lost-cities/tests          every scenario file and golden game in the folder\n"
      "  houserules test my-rule/tests --verbose             also list the scenarios that pass\n"
      "  houserules test my-rule/tests --update              re-record my-rule's golden games after a change\n"
      "  houserules test rulesets/lost-cities/tests --coverage --lcov lc.info   lines never run; then\n"
      "                                                      `genhtml lc.info -o lc-html` (docs/testing-rules.md)\n"
      "Every position a scenario plays from must give each legal action its own text. The scenario keys\n"
      "(expect.sees, phase, ...): docs/writing-rules.md, \"Scenario tests\".");
  test->add_option("paths", *paths, "Scenario files or folders (searched for *.toml)")->required();
  test->add_flag("--verbose,-v", options->verbose, "Also list the scenarios that pass");
  test->add_flag("--update", options->update,
                 "Re-record the golden transcripts found (tests/golden/*.jsonl) with the current rules, after an "
                 "intended change");
  add_coverage_options(*test, *coverage);
  test->callback([&status, paths, options, coverage] {
    start_coverage(*coverage);
    status = run_scenario_tests(*paths, std::cout, *options);
    if (!finish_coverage(*coverage, "houserules_test", std::cout, std::cerr)) status = 2;
  });
}

}  // namespace hr
