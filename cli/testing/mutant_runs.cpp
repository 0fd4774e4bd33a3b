// mutant_runs.cpp — mutant_runs.hpp: a child process per run (its output through a pipe, stdout and stderr to
// /dev/null), the tests it runs (scenario files and golden games in order, then a short `check`), and the
// outcome read from its exit status.
#include "mutant_runs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "check.hpp"
#include "scenario.hpp"

namespace hr {

namespace fs = std::filesystem;

namespace {

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::string first_line_with(const std::string& text, std::string_view prefix) {
  std::istringstream in(text);
  std::string first;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) return line;
    if (first.empty() && !line.empty()) first = line;
  }
  return first;
}

std::string read_all(int fd) {
  std::string text;
  char block[4096];
  for (;;) {
    const ssize_t n = ::read(fd, block, sizeof block);
    if (n > 0) {
      text.append(block, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return text;
    }
  }
}

bool run_tests(const TestPlan& plan, std::string& reason) {
  LoadedRulesets loaded;
  ScenarioOptions options;
  options.loaded = &loaded;
  for (const fs::path& file : plan.files) {
    std::ostringstream out;
    int status = 1;
    try {
      status = run_scenario_tests({file.string()}, out, options);
    } catch (const std::exception& e) {
      out << "FAIL " << file.string() << ": " << e.what() << "\n";
    }
    if (status != 0) {
      reason = first_line_with(out.str(), "FAIL");
      return false;
    }
  }
  if (plan.check_games > 0) {
    CheckOptions check;
    check.ruleset = plan.check_target;
    check.games = plan.check_games;
    check.seed = plan.seed;
    check.max_plies = 20000;
    check.max_reports = 1;
    std::ostringstream out, err;
    if (check_command(check, out, err) != 0) {
      reason = "check: " + first_line_with(out.str() + err.str(), "VIOLATION");
      return false;
    }
  }
  return true;
}

Child spawn(const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    std::string result;
    try {
      result = body();
    } catch (const std::exception& e) {
      result = std::string("F") + e.what();
    }
    write_all(fds[1], result);
    ::_exit(!result.empty() && result[0] == 'P' ? 0 : 1);
  }
  ::close(fds[1]);
  Child c;
  c.pid = pid;
  c.fd = fds[0];
  c.started = std::chrono::steady_clock::now();
  return c;
}

bool drain(Child& c) {
  pollfd p{c.fd, POLLIN, 0};
  while (::poll(&p, 1, 0) > 0) {
    char block[4096];
    const ssize_t n = ::read(c.fd, block, sizeof block);
    if (n <= 0) return true;
    c.output.append(block, static_cast<std::size_t>(n));
  }
  return false;
}

Outcome finish(Child& c, int wait_status, bool timed_out) {
  c.output += read_all(c.fd);
  ::close(c.fd);
  Outcome o;
  if (timed_out) {
    o.detail = "stopped by the time limit";
  } else if (WIFSIGNALED(wait_status)) {
    o.detail = fmt::format("crashed (signal {})", WTERMSIG(wait_status));
  } else if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0 && !c.output.empty() && c.output[0] == 'P') {
    o.passed = true;
    o.detail = c.output.substr(1);
  } else if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) > 1) {
    o.detail = fmt::format("the process ended with status {}", WEXITSTATUS(wait_status));
  } else {
    o.detail = c.output.empty() ? "failed" : c.output.substr(1);
  }
  return o;
}

}  // namespace hr
