// cmd_test.cpp — `houserules test`: scenario files (cli/testing/scenario.hpp), with --json and --junit (docs/cli.md).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "play/play.hpp"
#include "testing/testing.hpp"

namespace hr {

namespace {

/// `text` with the five XML special characters escaped, and the control characters XML 1.0 cannot hold (all
/// below 0x20 but tab, newline and carriage return) written as '?'.
std::string xml_escaped(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') out += '?';
        else out += ch;
    }
  }
  return out;
}

/// The results as JUnit XML (the format CI systems read): one <testsuite> per scenario or golden file, one
/// <testcase> per scenario (a golden file is one testcase), a <failure> with "file:line: reason".
std::string junit_xml(const std::vector<TestCaseResult>& results) {
  std::vector<std::string> files;  // in run order
  std::map<std::string, std::vector<const TestCaseResult*>> by_file;
  int failures = 0;
  double seconds = 0;
  for (const auto& r : results) {
    if (!by_file.count(r.file)) files.push_back(r.file);
    by_file[r.file].push_back(&r);
    failures += r.passed ? 0 : 1;
    seconds += r.seconds;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"houserules test\" tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{:.3f}\">\n",
                     results.size(), failures, seconds);
  for (const auto& file : files) {
    const auto& cases = by_file[file];
    int file_failures = 0;
    double file_seconds = 0;
    for (const auto* r : cases) file_failures += r->passed ? 0 : 1, file_seconds += r->seconds;
    out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.3f}\">\n",
                       xml_escaped(file), cases.size(), file_failures, file_seconds);
    for (const auto* r : cases) {
      out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" line=\"{}\" time=\"{:.3f}\"",
                         xml_escaped(r->name), xml_escaped(file), xml_escaped(file), r->line, r->seconds);
      if (r->passed) {
        out += "/>\n";
        continue;
      }
      out += fmt::format(">\n      <failure message=\"{0}\" type=\"failure\">{0}</failure>\n    </testcase>\n",
                         xml_escaped(r->message));
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

/// The results as the JSON document of `houserules test --json` (docs/cli.md).
nlohmann::json results_json(const std::vector<TestCaseResult>& results) {
  int passed = 0;
  nlohmann::json tests = nlohmann::json::array();
  for (const auto& r : results) {
    passed += r.passed ? 1 : 0;
    tests.push_back({{"file", r.file},
                     {"name", r.name},
                     {"line", r.line},
                     {"status", r.passed ? "passed" : "failed"},
                     {"message", r.message},
                     {"seconds", r.seconds}});
  }
  return {{"passed", passed}, {"failed", static_cast<int>(results.size()) - passed}, {"tests", tests}};
}

}  // namespace

void register_test_command(CLI::App& app, int& status) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto options = std::make_shared<ScenarioOptions>();
  auto coverage = std::make_shared<CoverageOptions>();
  auto json = std::make_shared<bool>(false);
  auto junit = std::make_shared<std::string>();
  auto* test = app.add_subcommand("test", "Run scenario test files (TOML) and print `N passed, M failed`");
  test->footer(
      "Examples:\n"
      "  houserules test rulesets/lost-cities/tests          every scenario file and golden game in the folder\n"
      "  houserules test rulesets --junit results.xml        JUnit XML for a CI system (and the usual text)\n"
      "  houserules test my-rule/tests --update              re-record my-rule's golden games after a change\n"
      "  houserules test rulesets/lost-cities/tests --coverage --lcov lc.info   lines never run; then\n"
      "                                                      `genhtml lc.info -o lc-html` (docs/testing-rules.md)\n"
      "Every position a scenario plays from must give each legal action its own text. The scenario keys\n"
      "(expect.sees, phase, ...): docs/writing-rules.md, \"Scenario tests\". Exit status: 0 all passed, 1 a test\n"
      "failed (or none was found), 2 bad arguments or a path that does not exist.");
  test->add_option("paths", *paths, "Scenario files or folders (searched for *.toml)")->required();
  test->add_flag("--verbose,-v", options->verbose, "Also list the scenarios that pass");
  test->add_flag("--update", options->update,
                 "Re-record the golden transcripts found (tests/golden/*.jsonl) with the current rules, after an "
                 "intended change");
  add_coverage_options(*test, *coverage);
  add_json_flag(*test, *json);
  test->add_option("--junit", *junit, "Also write the results as JUnit XML to this file (one testsuite per file)")
      ->type_name("FILE");
  test->callback([&status, paths, options, json, junit, coverage] {
    if (!junit->empty())
      if (const std::string problem = output_path_problem(*junit); !problem.empty()) {
        std::cerr << "error: --junit: " << problem << '\n';
        status = kExitBadInput;
        return;
      }
    for (const auto& path : *paths) {  // a missing file is bad input (status 2), as for every other command
      std::error_code ec;
      if (!std::filesystem::exists(path, ec)) {
        std::cerr << "error: " << path << ": no such file or folder\n";
        status = kExitBadInput;
        return;
      }
    }
    std::vector<TestCaseResult> results;
    ScenarioOptions run = *options;
    if (*json || !junit->empty()) run.results = &results;
    start_coverage(*coverage);
    status = run_scenario_tests(*paths, *json ? std::cerr : std::cout, run);
    if (!finish_coverage(*coverage, "houserules_test", *json ? std::cerr : std::cout, std::cerr)) status = 2;
    if (*json) std::cout << results_json(results).dump(2) << '\n';
    if (!junit->empty()) {
      std::ofstream out(*junit, std::ios::binary);
      out << junit_xml(results);
      if (!out.flush()) {
        std::cerr << "error: cannot write " << *junit << '\n';
        status = kExitBadInput;
      }
    }
  });
}

}  // namespace hr
