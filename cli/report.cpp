// report.cpp — the self-contained HTML report of a simulation (`simulate --report`, `merge --report`): inline
// CSS and SVG, no external asset, so the file can be mailed or archived as it is.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "simulate.hpp"

namespace hr {

std::string html_report_end() {
  // Proof of rendering for the headless-browser tests: the number of charts that were laid out with a size,
  // and of bars drawn with a height.
  return R"(<script>
document.body.dataset.renderedCharts = Array.from(document.querySelectorAll("svg.chart"))
  .filter(svg => svg.getBoundingClientRect().width > 0 && svg.getBoundingClientRect().height > 0).length;
document.body.dataset.renderedBars = Array.from(document.querySelectorAll("svg.chart rect.bar"))
  .filter(rect => rect.getBBox().height > 0).length;
</script>
</body>
</html>
)";
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

namespace {

std::string escape(const std::string& text) { return html_escape(text); }

std::string pct(double fraction) { return fmt::format("{:.2f}%", 100.0 * fraction); }

const char* const kColours[] = {"#3b6ea8", "#d07a2b", "#4f9a55", "#b8434a", "#7d5ba6", "#8c6d3f", "#c45a9c", "#5f6b73"};

/// A histogram of integer `values` over the shared range [lo, hi] in `bins` bins, as an inline SVG.
std::string histogram_svg(const std::string& id, const std::vector<std::int64_t>& values, std::int64_t lo,
                          std::int64_t hi, const char* colour, const std::string& x_label) {
  constexpr int kWidth = 560, kHeight = 200, kLeft = 50, kBottom = 36, kTop = 12, kRight = 12;
  const std::int64_t span = hi - lo + 1;
  const std::int64_t width = std::max<std::int64_t>(1, (span + 39) / 40);  // at most 40 bins of whole units
  const auto bins = static_cast<std::size_t>((span + width - 1) / width);
  std::vector<std::int64_t> counts(std::max<std::size_t>(bins, 1));
  for (auto v : values) counts[static_cast<std::size_t>((v - lo) / width)]++;
  const std::int64_t top = std::max<std::int64_t>(1, *std::max_element(counts.begin(), counts.end()));
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  const double bar_w = plot_w / static_cast<double>(counts.size());
  std::string svg = fmt::format(
      "<svg id=\"{}\" class=\"chart histogram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" data-values=\"{}\">\n",
      id, kWidth, kHeight, kWidth, kHeight, values.size());
  svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>\n", kLeft, kHeight - kBottom,
                     kWidth - kRight, kHeight - kBottom);
  svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>\n", kLeft, kTop, kLeft,
                     kHeight - kBottom);
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const double h = plot_h * static_cast<double>(counts[b]) / static_cast<double>(top);
    const std::int64_t from = lo + static_cast<std::int64_t>(b) * width;
    const std::int64_t to = std::min(hi, from + width - 1);
    svg += fmt::format(
        "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
        "<title>{}{}: {} games</title></rect>\n",
        kLeft + bar_w * static_cast<double>(b) + 0.5, kHeight - kBottom - h, std::max(0.5, bar_w - 1), h, colour, from,
        to != from ? fmt::format("..{}", to) : "", counts[b]);
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"start\">{}</text>\n", kLeft,
                     kHeight - kBottom + 14, lo);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>\n", kWidth - kRight,
                     kHeight - kBottom + 14, hi);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"middle\">{}</text>\n",
                     kLeft + plot_w / 2, kHeight - 6, escape(x_label));
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>\n", kLeft - 4, kTop + 10, top);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">0</text>\n", kLeft - 4,
                     kHeight - kBottom);
  return svg + "</svg>\n";
}

/// Horizontal bars of the win rates with their 95% intervals, and the fair share 1/seats as a dashed line.
std::string win_rate_svg(const Stats& st) {
  constexpr int kWidth = 720, kLeft = 130, kRight = 190, kRow = 34, kTop = 16;  // room for the text on the right
  const int height = kTop + kRow * static_cast<int>(st.settings.size()) + 30;
  const double plot_w = kWidth - kLeft - kRight;
  auto x = [&](double f) { return kLeft + plot_w * f; };
  std::string svg = fmt::format(
      "<svg id=\"win-rates\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\">\n",
      kWidth, height, kWidth, height);
  for (std::size_t j = 0; j < st.settings.size(); ++j) {
    const auto& s = st.settings[j];
    const double y = kTop + kRow * static_cast<double>(j);
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"label\" text-anchor=\"end\">{}</text>\n", kLeft - 8,
                       y + 16, escape(s.label));
    svg += fmt::format("<rect class=\"bar win-rate\" x=\"{}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"20\" fill=\"{}\">"
                       "<title>{}: {} wins in {} games</title></rect>\n",
                       kLeft, y + 2, plot_w * s.win_rate, kColours[j % 8], escape(s.label), fmt::format("{:.2f}", s.wins),
                       s.games);
    svg += fmt::format("<line class=\"interval\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n",
                       x(s.interval.low), y + 12, x(s.interval.high), y + 12);
    for (double f : {s.interval.low, s.interval.high})
      svg += fmt::format("<line class=\"interval\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n", x(f),
                         y + 5, x(f), y + 19);
    const double text_x = x(s.interval.high) + 6;
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"value\">{} [{}, {}]</text>\n", text_x, y + 16,
                       pct(s.win_rate), pct(s.interval.low), pct(s.interval.high));
  }
  const double bottom = kTop + kRow * static_cast<double>(st.settings.size());
  if (st.experiment.seats > 0) {
    const double fair = x(1.0 / st.experiment.seats);
    svg += fmt::format("<line class=\"fair\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n", fair, kTop - 6,
                       fair, bottom);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"tick\" text-anchor=\"middle\">fair share {}</text>\n",
                       fair, bottom + 24, pct(1.0 / st.experiment.seats));
  }
  svg += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"axis\"/>\n", kLeft, bottom + 4,
                     kWidth - kRight, bottom + 4);
  svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"tick\" text-anchor=\"middle\">0%</text>\n", kLeft, bottom + 16);
  svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"tick\" text-anchor=\"middle\">100%</text>\n", kWidth - kRight,
                     bottom + 16);
  return svg + "</svg>\n";
}

}  // namespace

std::string html_report(const Stats& st) {
  const Experiment& e = st.experiment;
  std::string players;
  for (std::size_t j = 0; j < e.players.size(); ++j) players += (j ? ", " : "") + escape(e.players[j]);
  std::string html = R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>)" + escape(fmt::format("houserules simulation: {} ({} games)", e.ruleset_id, e.games)) +
                     R"(</title>
<style>
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1100px; }
table { border-collapse: collapse; margin: 8px 0 16px; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.chart { display: block; margin: 4px 0 16px; background: #fafafa; border: 1px solid #ddd; }
.axis { stroke: #555; stroke-width: 1; }
.interval { stroke: #111; stroke-width: 1.5; }
.fair { stroke: #888; stroke-dasharray: 4 3; }
.tick { font-size: 11px; fill: #555; }
.label { font-size: 12px; fill: #222; }
.value { font-size: 12px; fill: #111; }
.histograms { display: flex; flex-wrap: wrap; gap: 16px; }
pre { background: #f4f4f4; padding: 8px; overflow-x: auto; }
</style>
</head>
<body>
)";
  html += fmt::format("<h1>Simulation of {}</h1>\n", escape(e.ruleset_id));
  html += fmt::format(
      "<p id=\"experiment\">Ruleset <code>{}</code>, <span id=\"games\">{}</span> games, seed {}, players {}, {}. "
      "{} completed, {} failed.{}</p>\n",
      escape(e.ruleset), e.games, e.seed, players, e.fixed_seats ? "fixed seats" : "seats rotated every game",
      st.completed, st.failures.size(), st.slice.empty() ? "" : " Only part of the experiment: " + escape(st.slice) + ".");

  html += "<h2>Players</h2>\n<table id=\"summary\">\n<tr><th>player</th><th>games</th><th>wins</th><th>win rate</th>"
          "<th>95% CI (Wilson)</th><th>mean score</th><th>sd score</th><th>mean place</th></tr>\n";
  for (const auto& s : st.settings)
    html += fmt::format(
        "<tr class=\"setting\"><td>{}</td><td>{}</td><td>{:.2f}</td><td class=\"win-rate\">{}</td><td>[{}, {}]</td>"
        "<td>{:.2f}</td><td>{:.2f}</td><td>{:.3f}</td></tr>\n",
        escape(s.label), s.games, s.wins, pct(s.win_rate), pct(s.interval.low), pct(s.interval.high), s.score_mean,
        s.score_sd, s.place_mean);
  html += "</table>\n<p>A first place shared by m players counts 1/m win for each; " + std::to_string(st.tied) +
          " game(s) had a shared first place.</p>\n";

  html += "<h2>Win rates with their 95% intervals</h2>\n" + win_rate_svg(st);

  html += "<h2>Score distribution per player</h2>\n<div class=\"histograms\">\n";
  std::int64_t lo = 0, hi = 0;
  bool any = false;
  for (const auto& s : st.settings)
    for (auto v : s.scores) {
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  for (std::size_t j = 0; j < st.settings.size(); ++j) {
    const auto& s = st.settings[j];
    html += fmt::format("<figure><figcaption>{}: mean {:.2f}, sd {:.2f}</figcaption>\n", escape(s.label), s.score_mean,
                        s.score_sd);
    html += histogram_svg(fmt::format("scores-{}", j + 1), s.scores, lo, hi, kColours[j % 8], "match score") + "</figure>\n";
  }
  html += "</div>\n";

  html += fmt::format("<h2>Game length</h2>\n<p>Mean {:.1f} plies, sd {:.1f}, min {}, max {}.</p>\n", st.length_mean,
                      st.length_sd, st.length_min, st.length_max);
  html += histogram_svg("game-length", st.lengths, st.length_min, std::max(st.length_min, st.length_max), "#6b7b8c",
                        "plies (actions) per game");

  html += "<h2>Seats</h2>\n<table id=\"seats\">\n<tr><th>seat</th><th>win rate</th><th>95% CI</th><th>mean score</th></tr>\n";
  for (std::size_t s = 0; s < st.seats.size(); ++s)
    html += fmt::format("<tr><td>seat {}</td><td>{}</td><td>[{}, {}]</td><td>{:.2f}</td></tr>\n", s + 1,
                        pct(st.seats[s].win_rate), pct(st.seats[s].interval.low), pct(st.seats[s].interval.high),
                        st.seats[s].score_mean);
  html += "</table>\n";

  if (!st.overlong.empty()) {  // bots that can play forever
    html += fmt::format("<h2>Overlong games</h2>\n<p id=\"overlong\">{} games hit the cap of {} actions (--max-plies); "
                        "each replays with its command:</p>\n<ul>\n", st.overlong.size(), e.max_plies);
    for (std::size_t i = 0; i < std::min<std::size_t>(st.overlong.size(), 100); ++i)
      html += fmt::format("<li>game {} (seed {})<br><code>{}</code></li>\n", st.overlong[i].index, st.overlong[i].seed,
                          escape(reproduce_command(e, st.overlong[i])));
    html += "</ul>\n";
  }
  html += fmt::format("<h2>Failed games</h2>\n<p id=\"failed\">{} failed games.</p>\n", st.failures.size());
  if (!st.failures.empty()) {
    html += "<ul>\n";
    for (std::size_t i = 0; i < std::min<std::size_t>(st.failures.size(), 100); ++i)
      html += fmt::format("<li>game {} (seed {}): {}<br><code>{}</code></li>\n", st.failures[i].index,
                          st.failures[i].seed, escape(st.failures[i].error.substr(0, st.failures[i].error.find('\n'))),
                          escape(reproduce_command(e, st.failures[i])));
    html += "</ul>\n";
  }
  html += "<h2>Summary as printed</h2>\n<pre id=\"summary-text\">" + escape(summary_text(st)) + "</pre>\n";
  html += html_report_end();
  return html;
}

}  // namespace hr
