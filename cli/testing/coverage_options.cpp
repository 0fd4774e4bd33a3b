// coverage_options.cpp — see coverage_options.hpp.
#include "coverage_options.hpp"

#include <fstream>

#include <CLI/CLI.hpp>

#include "coverage.hpp"

namespace hr {

void add_coverage_options(CLI::App& command, CoverageOptions& options) {
  command.add_flag("--coverage", options.coverage,
                   "Record which lines and functions of the rule scripts ran; print the share of each per file and "
                   "the lines never run (slower: a Lua hook at every line)");
  command.add_option("--lcov", options.lcov,
                     "Also write the coverage as an lcov tracefile (`genhtml FILE -o DIR` makes HTML); implies "
                     "--coverage");
  command.add_option("--coverage-json", options.json, "Also write the coverage as JSON to this file; implies --coverage");
}

void start_coverage(const CoverageOptions& options) {
  if (options.wanted()) CoverageRecorder::global().enable();
}

bool finish_coverage(const CoverageOptions& options, const std::string& test_name, std::ostream& out,
                     std::ostream& err) {
  if (!options.wanted()) return true;
  const std::vector<FileCoverage> files = CoverageRecorder::global().files();
  print_coverage_report(files, out);
  bool ok = true;
  auto write = [&](const std::string& path, auto&& body) {
    if (path.empty()) return;
    std::ofstream file(path, std::ios::binary);
    if (file) body(file);
    if (!file) {
      err << "houserules: cannot write " << path << "\n";
      ok = false;
    }
  };
  write(options.lcov, [&](std::ostream& f) { write_lcov(files, f, test_name); });
  write(options.json, [&](std::ostream& f) { f << coverage_json(files) << "\n"; });
  return ok;
}

}  // namespace hr
