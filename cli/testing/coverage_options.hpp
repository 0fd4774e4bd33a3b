// coverage_options.hpp — the --coverage, --lcov and --coverage-json options `test` and `check` share
// (scripting/coverage.hpp records; this turns it on and writes the reports).
#pragma once

#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace hr {

struct CoverageOptions {
  bool coverage = false;    ///< record and print the report
  std::string lcov;         ///< also write the lcov tracefile here (implies coverage)
  std::string json;         ///< also write the JSON report here (implies coverage)
  bool wanted() const { return coverage || !lcov.empty() || !json.empty(); }
};

/// Adds --coverage, --lcov FILE and --coverage-json FILE to `command`.
void add_coverage_options(CLI::App& command, CoverageOptions& options);
/// Starts recording when the options ask for it (before any ruleset is loaded).
void start_coverage(const CoverageOptions& options);
/// Prints the report to `out` and writes the files asked for; `test_name` is the lcov TN. Returns false (with
/// a message on `err`) when a file cannot be written.
bool finish_coverage(const CoverageOptions& options, const std::string& test_name, std::ostream& out,
                     std::ostream& err);

}  // namespace hr
