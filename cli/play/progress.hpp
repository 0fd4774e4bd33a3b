// progress.hpp — the progress of a long run on stderr, as simulate, compare and check show it: on a terminal a
// bar redrawn in place with the rate and the time left; elsewhere (a pipe, a log file) a plain line every 10% of
// the work or 30 s; nothing with --no-progress (the commands then make no ProgressBar).
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace hr {

class ProgressBar {
 public:
  /// `label` starts the plain lines ("simulate", "compare: B (lost-cities/nothing-in-hand)"); `unit` names
  /// what is counted ("games"). `bar`: draw the bar (stderr is a terminal), else plain lines.
  ProgressBar(std::ostream& err, bool bar, std::string label, std::string unit = "games");
  /// `done` of `total` finished. Call it as often as you like: the bar is redrawn at most every 100 ms and
  /// when done == total (then ended with a newline, once).
  void operator()(std::int64_t done, std::int64_t total);
  /// Whether stderr is a terminal (the default for `bar`), unless HOUSERULES_PROGRESS_BAR is set to 1 or 0
  /// (so tests can force either).
  static bool stderr_is_terminal();

 private:
  std::ostream& err_;
  bool bar_;
  std::string label_, unit_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_line_ = start_;
  std::chrono::steady_clock::time_point last_draw_{};
  int last_decile_ = 0;
  bool closed_ = false;
};

/// "m:ss" or "h:mm:ss" for `seconds` ("?" when not finite).
std::string duration_text(double seconds);

}  // namespace hr
