// mutant_runs.hpp — private to mutation testing: running the tests of a ruleset (scenario files, golden
// games, a short check) in a child process of its own (fork), and reading how that run ended
// (mutant_runs.cpp). mutate.cpp runs the unmutated tests and each mutant this way.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hr {

struct TestPlan {
  std::vector<std::filesystem::path> files;  // scenario files and golden games, in order
  std::string check_target;     // ruleset of the short check
  int check_games = 0;
  std::uint64_t seed = 1;
};

/// The first line of `text` that starts with `prefix`, else its first non-empty line.
std::string first_line_with(const std::string& text, std::string_view prefix);

/// Everything left to read from `fd`, until end of file or an error other than EINTR.
std::string read_all(int fd);

/// Runs the plan's tests, stopping at the first failure. Returns false with `reason` (one line) on a failure.
bool run_tests(const TestPlan& plan, std::string& reason);

/// A child process running one job: its pid, the read end of its pipe, what it has written so far.
struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::string output;
  std::chrono::steady_clock::time_point started;
  std::size_t index = 0;  // the mutant (or 0 for the unmutated run)
};

/// Forks a child that runs `body` with stdout and stderr sent to /dev/null and writes what body returns to
/// its pipe; the child exits 0 when body's first character is 'P' (passed), 1 otherwise.
Child spawn(const std::function<std::string()>& body);

/// Reads what is available from the child's pipe without blocking; true at end of file.
bool drain(Child& c);

/// How a run ended.
struct Outcome {
  bool passed = false;
  std::string detail;  // the failure, "time limit", "crashed (signal N)", ...
};

/// Reads the rest of the child's output, closes its pipe, and says how the run ended from its wait status.
Outcome finish(Child& c, int wait_status, bool timed_out);

}  // namespace hr
