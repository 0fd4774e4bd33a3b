// progress.cpp — ProgressBar (progress.hpp).
#include "progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <ostream>

#include <fmt/format.h>

namespace hr {

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto s = static_cast<std::int64_t>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

ProgressBar::ProgressBar(std::ostream& err, bool bar, std::string label, std::string unit)
    : err_(err), bar_(bar), label_(std::move(label)), unit_(std::move(unit)), start_(std::chrono::steady_clock::now()) {}

bool ProgressBar::stderr_is_terminal() {
  if (const char* forced = std::getenv("HOUSERULES_PROGRESS_BAR"); forced && *forced) return std::string(forced) == "1";
  return isatty(STDERR_FILENO) != 0;
}

void ProgressBar::operator()(std::int64_t done, std::int64_t total) {
  if (closed_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  const double left = rate > 0 ? static_cast<double>(total - done) / rate : NAN;
  const double fraction = total ? static_cast<double>(done) / static_cast<double>(total) : 1;
  if (bar_) {
    if (done != total && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    err_ << fmt::format("\r[{}{}] {}/{} {} {:3.0f}%  {:.0f} {}/s  {} left ", std::string(filled, '#'),
                        std::string(kWidth - filled, '.'), done, total, unit_, 100 * fraction, rate, unit_,
                        duration_text(left))
         << std::flush;
    if (done == total) {
      err_ << '\n';
      closed_ = true;
    }
    return;
  }
  const int decile = static_cast<int>(fraction * 10);
  if (done == total || decile > last_decile_ || now - last_line_ > std::chrono::seconds(30)) {
    err_ << fmt::format("{}: {}/{} {} ({:.0f}%), {:.0f} {}/s, {} left\n", label_, done, total, unit_, 100 * fraction,
                        rate, unit_, duration_text(left));
    last_decile_ = decile;
    last_line_ = now;
    if (done == total) closed_ = true;
  }
}

}  // namespace hr
