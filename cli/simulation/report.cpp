// report.cpp — the self-contained HTML report of a simulation (`simulate --report`, `merge --report`): inline
// CSS and SVG, no external asset, so the file can be mailed or archived as it is.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
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
// Charts with at least two tick labels laid out with a width (axis ticks), and zero lines drawn with a length.
document.body.dataset.chartsWithTicks = Array.from(document.querySelectorAll("svg.chart"))
  .filter(svg => Array.from(svg.querySelectorAll("text.tick")).filter(t => t.getBBox().width > 0).length >= 2).length;
document.body.dataset.renderedZeroLines = Array.from(document.querySelectorAll("svg.chart line.zero"))
  .filter(line => { const b = line.getBBox(); return b.width > 0 || b.height > 0; }).length;
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

std::vector<std::int64_t> nice_ticks(std::int64_t lo, std::int64_t hi, int count) {
  if (hi <= lo) return {lo};
  const double raw = static_cast<double>(hi - lo) / std::max(1, count);
  const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
  std::int64_t step = static_cast<std::int64_t>(magnitude);
  for (double factor : {1.0, 2.0, 5.0, 10.0})
    if (factor * magnitude >= raw) {
      step = std::max<std::int64_t>(1, static_cast<std::int64_t>(factor * magnitude));
      break;
    }
  std::int64_t first = lo / step * step;  // rounded towards 0: up for negatives, down for positives
  if (first < lo) first += step;
  std::vector<std::int64_t> ticks;
  for (std::int64_t t = first; t <= hi; t += step) ticks.push_back(t);
  return ticks;
}

std::string histogram_svg(const std::string& id, const std::vector<HistogramSeries>& series, const std::string& x_label,
                          bool include_zero, std::optional<std::pair<std::int64_t, std::int64_t>> range) {
  constexpr int kWidth = 560, kHeight = 220, kLeft = 56, kBottom = 40, kTop = 14, kRight = 14;
  std::int64_t lo = 0, hi = 0, values = 0;
  bool any = false;
  for (const auto& s : series)
    if (!s.values->empty()) {
      lo = any ? std::min(lo, s.values->min()) : s.values->min();
      hi = any ? std::max(hi, s.values->max()) : s.values->max();
      any = true;
      values += s.values->count();
    }
  if (range) {
    lo = any ? std::min(lo, range->first) : range->first;
    hi = any ? std::max(hi, range->second) : range->second;
  }
  if (include_zero) {
    lo = std::min<std::int64_t>(lo, 0);
    hi = std::max<std::int64_t>(hi, 0);
  }
  const std::int64_t span = hi - lo + 1;
  const std::int64_t width = std::max<std::int64_t>(1, (span + 39) / 40);  // at most 40 bins of whole units
  const auto bins = static_cast<std::size_t>(std::max<std::int64_t>(1, (span + width - 1) / width));
  std::vector<std::vector<std::int64_t>> counts(series.size(), std::vector<std::int64_t>(bins));
  std::int64_t top = 1;
  for (std::size_t k = 0; k < series.size(); ++k)
    for (const auto& [v, times] : series[k].values->counts())
      top = std::max(top, counts[k][static_cast<std::size_t>((v - lo) / width)] += times);
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  const double bin_w = plot_w / static_cast<double>(bins);
  const double sub_w = bin_w / static_cast<double>(std::max<std::size_t>(1, series.size()));
  // Unit v covers [x_of(v), x_of(v + 1)); its tick and the zero line are at the middle of its unit.
  auto x_of = [&](double value) {
    return kLeft + plot_w * (value - static_cast<double>(lo)) / static_cast<double>(static_cast<std::int64_t>(bins) * width);
  };
  const double base = kHeight - kBottom;
  std::string svg = fmt::format(
      "<svg id=\"{}\" class=\"chart histogram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\" data-values=\"{}\">\n",
      id, kWidth, kHeight, kWidth, kHeight, values);
  for (std::size_t b = 0; b < bins; ++b) {
    const std::int64_t from = lo + static_cast<std::int64_t>(b) * width, to = std::min(hi, from + width - 1);
    const std::string range = to != from ? fmt::format("{}..{}", from, to) : std::to_string(from);
    for (std::size_t k = 0; k < series.size(); ++k) {
      const double h = plot_h * static_cast<double>(counts[k][b]) / static_cast<double>(top);
      const auto& s = series[k];
      svg += fmt::format(
          "<rect class=\"bar{}{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"{}><title>{}{}: {} "
          "games</title></rect>\n",
          s.css_class.empty() ? "" : " ", s.css_class, kLeft + bin_w * static_cast<double>(b) + sub_w * static_cast<double>(k) + 0.5,
          base - h, std::max(0.5, sub_w - 1), h, s.fill.empty() ? "" : " fill=\"" + s.fill + "\"",
          s.name.empty() ? "" : html_escape(s.name) + " ", range, counts[k][b]);
    }
  }
  svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>\n", kLeft, base, kWidth - kRight, base);
  svg += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>\n", kLeft, kTop, kLeft, base);
  if (lo <= 0 && 0 <= hi)
    svg += fmt::format("<line class=\"zero\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"><title>0</title></line>\n",
                       x_of(0.5), kTop, base);
  for (const std::int64_t t : nice_ticks(lo, hi, 6)) {
    const double x = x_of(static_cast<double>(t) + 0.5);
    svg += fmt::format("<line class=\"tick-mark\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>", x, base, base + 4);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>\n", x, base + 16, t);
  }
  for (const std::int64_t t : nice_ticks(0, top, 4)) {
    const double y = base - plot_h * static_cast<double>(t) / static_cast<double>(top);
    svg += fmt::format("<line class=\"tick-mark\" x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\"/>", kLeft - 4, y, kLeft);
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"tick\" text-anchor=\"end\">{}</text>\n", kLeft - 6, y + 4, t);
  }
  svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" class=\"label\" text-anchor=\"middle\">{}</text>\n", kLeft + plot_w / 2,
                     kHeight - 6, html_escape(x_label));
  svg += fmt::format("<text class=\"label\" text-anchor=\"middle\" transform=\"translate(14 {:.1f}) rotate(-90)\">games</text>\n",
                     kTop + plot_h / 2);
  return svg + "</svg>\n";
}

namespace {

std::string escape(const std::string& text) { return html_escape(text); }

std::string pct(double fraction) { return fmt::format("{:.2f}%", 100.0 * fraction); }

const char* const kColours[] = {"#3b6ea8", "#d07a2b", "#4f9a55", "#b8434a", "#7d5ba6", "#8c6d3f", "#c45a9c", "#5f6b73"};

/// Horizontal bars of the win rates with their 95% intervals, and the fair share 1/seats as a dashed line.
std::string win_rate_svg(const Stats& st) {
  constexpr int kWidth = 720, kLeft = 130, kRight = 190, kRow = 34, kTop = 16;  // room for the text on the right
  const int height = kTop + kRow * static_cast<int>(st.settings.size()) + 40;
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
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"label\" text-anchor=\"middle\">fair share {}</text>\n",
                       fair, bottom + 32, pct(1.0 / st.experiment.seats));
  }
  svg += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"axis\"/>\n", kLeft, bottom + 4,
                     kWidth - kRight, bottom + 4);
  for (int t = 0; t <= 4; ++t) {  // ticks every 25%
    const double tx = x(t / 4.0);
    svg += fmt::format("<line class=\"tick-mark\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>", tx,
                       bottom + 4, bottom + 8);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"tick\" text-anchor=\"middle\">{}%</text>\n", tx,
                       bottom + 19, 25 * t);
  }
  return svg + "</svg>\n";
}

/// The mean margin (own score minus the best other seat's) of each player setting and each seat, as bars from a
/// zero line, on a symmetric scale with ticks.
std::string margin_svg(const Stats& st) {
  struct Row {
    std::string label;
    double mean;
    const char* colour;
  };
  std::vector<Row> rows;
  for (std::size_t j = 0; j < st.settings.size(); ++j)
    rows.push_back({st.settings[j].label, st.settings[j].margin_mean, kColours[j % 8]});
  for (std::size_t s = 0; s < st.seats.size(); ++s) rows.push_back({fmt::format("seat {}", s + 1), st.seats[s].margin_mean, "#6b7b8c"});
  constexpr int kWidth = 560, kLeft = 130, kRight = 30, kRow = 26, kTop = 12;
  const int height = kTop + kRow * static_cast<int>(rows.size()) + 40;
  double largest = 1;
  for (const auto& r : rows) largest = std::max(largest, std::abs(r.mean));
  const auto extent = static_cast<std::int64_t>(std::ceil(largest * 1.1));
  const double plot_w = kWidth - kLeft - kRight;
  auto x = [&](double v) { return kLeft + plot_w * (v + static_cast<double>(extent)) / (2.0 * static_cast<double>(extent)); };
  const double bottom = kTop + kRow * static_cast<double>(rows.size());
  std::string svg = fmt::format(
      "<svg id=\"margin-means\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\">\n",
      kWidth, height, kWidth, height);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double y = kTop + kRow * static_cast<double>(i);
    const double from = x(std::min(0.0, rows[i].mean)), to = x(std::max(0.0, rows[i].mean));
    svg += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"label\" text-anchor=\"end\">{}</text>\n", kLeft - 8, y + 15,
                       escape(rows[i].label));
    svg += fmt::format("<rect class=\"bar margin\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"16\" fill=\"{}\">"
                       "<title>{}: mean margin {:+.2f}</title></rect>\n",
                       from, y + 3, std::max(0.5, to - from), rows[i].colour, escape(rows[i].label), rows[i].mean);
  }
  svg += fmt::format("<line class=\"zero\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"><title>0</title></line>\n",
                     x(0), kTop - 4, bottom + 4);
  svg += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"axis\"/>\n", kLeft, bottom + 4,
                     kWidth - kRight, bottom + 4);
  for (const std::int64_t t : nice_ticks(-extent, extent, 6)) {
    const double tx = x(static_cast<double>(t));
    svg += fmt::format("<line class=\"tick-mark\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>", tx,
                       bottom + 4, bottom + 8);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"tick\" text-anchor=\"middle\">{:+}</text>\n", tx,
                       bottom + 19, t);
  }
  svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"label\" text-anchor=\"middle\">mean margin: own score minus "
                     "the best other seat's</text>\n",
                     kLeft + plot_w / 2, bottom + 34);
  return svg + "</svg>\n";
}

std::string places_cells(const std::vector<std::int64_t>& places) {
  std::string out;
  for (auto count : places) out += fmt::format("<td class=\"place\">{}</td>", count);
  return out;
}

std::string places_header(std::size_t seats) {
  std::string out;
  for (std::size_t p = 1; p <= seats; ++p) out += "<th>" + ordinal(static_cast<int>(p)) + "</th>";
  return out;
}

/// The experiment: ruleset, variant chain, version, command lines, seeds, bots per seat.
std::string experiment_section(const Stats& st) {
  const Experiment& e = st.experiment;
  const RunInfo& run = st.run;
  std::string html = "<h2>Experiment</h2>\n<table id=\"experiment-table\">\n";
  auto row = [&html](const std::string& id, const std::string& name, const std::string& value) {
    html += fmt::format("<tr id=\"{}\"><th>{}</th><td>{}</td></tr>\n", id, name, value);
  };
  row("ruleset", "ruleset", fmt::format("<code>{}</code> (id {}){}", escape(e.ruleset), escape(e.ruleset_id),
                                        run.ruleset_file.empty() ? "" : ", <code>" + escape(run.ruleset_file) + "</code>"));
  std::string chain;
  if (run.variants.empty()) {
    chain = run.version.empty() ? "not recorded" : "none: the ruleset as written";
  } else {
    chain = "<ol>";
    for (const auto& v : run.variants)
      chain += fmt::format("<li class=\"variant\"><b>{}</b> ({}): <code>{}</code>{}</li>", escape(v.id), escape(v.name),
                           escape(v.file), v.script.empty() ? "" : ", script <code>" + escape(v.script) + "</code>");
    chain += "</ol>innermost first: each extends the next, the last extends the ruleset";
  }
  row("variant-chain", "variant chain", chain);
  row("version", "houserules version", run.version.empty() ? "not recorded" : escape(run.version));
  std::string commands;
  for (const auto& line : run.command_lines) commands += "<code>" + escape(line) + "</code><br>";
  // One line: the one row that differs between a run's report and the report of the merge of its shards.
  row("command-line", run.command_lines.size() > 1 ? "command lines (each shard's, then merge's)" : "command line",
      commands.empty() ? "not recorded" : commands);
  row("reproduce", "the whole experiment in one run", "<code>" + escape(experiment_command(e)) + "</code>");
  row("seed", "seed", fmt::format("{} (game i is dealt from derive_seed({}, {}))", e.seed, e.seed, e.mirror ? "i / seats" : "i"));
  row("games", "games", fmt::format("{}; a game not over after {} actions fails as overlong (--max-plies)", e.games, e.max_plies));
  std::string bots = "<table id=\"bots\"><tr><th>player setting</th><th>bot</th><th>seat in game i</th></tr>";
  for (std::size_t j = 0; j < st.settings.size(); ++j)
    bots += fmt::format("<tr class=\"bot\"><td>{}</td><td><code>{}</code></td><td>{}</td></tr>", escape(st.settings[j].label),
                        escape(e.players[j]),
                        e.fixed_seats ? fmt::format("always seat {}", j + 1)
                                      : fmt::format("seat {} in game 0; seat (({} - i) mod {}) + 1 in game i{}", j + 1, j,
                                                    e.seats, e.mirror ? " (the games of a block of seats share a deal)" : ""));
  row("players", "bots per seat", bots + "</table>");
  html += "</table>\n";

  html += "<h2>Parameters</h2>\n";
  if (run.parameters.empty()) return html + "<p id=\"parameters\">Not recorded (a file from an older simulate).</p>\n";
  std::size_t changed = 0;
  for (const auto& p : run.parameters) changed += p.changed() ? 1 : 0;
  html += fmt::format("<p>{} parameters, {} differing from the ruleset's defaults (marked).</p>\n", run.parameters.size(), changed);
  html += "<table id=\"parameters\">\n<tr><th>parameter</th><th>value</th><th>ruleset's default</th><th>set by</th></tr>\n";
  for (const auto& p : run.parameters)
    html += fmt::format("<tr class=\"parameter{}\"><td>{}</td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>\n",
                        p.changed() ? " changed" : "", escape(p.name), escape(p.value),
                        p.default_value.empty() ? "(added by a variant)" : escape(p.default_value),
                        p.set_by.empty() ? "the ruleset" : escape(p.set_by));
  return html + "</table>\n";
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
#experiment-table td, #experiment-table th, #parameters td, #parameters th { text-align: left; vertical-align: top; }
tr.changed td { background: #fff4d6; font-weight: bold; }
.chart { display: block; margin: 4px 0 16px; background: #fafafa; border: 1px solid #ddd; }
.axis, .tick-mark { stroke: #555; stroke-width: 1; }
.zero { stroke: #333; stroke-width: 1; stroke-dasharray: 3 3; }
.interval { stroke: #111; stroke-width: 1.5; }
.fair { stroke: #888; stroke-dasharray: 4 3; }
.tick { font-size: 11px; fill: #555; }
.label { font-size: 12px; fill: #222; }
.value { font-size: 12px; fill: #111; }
.histograms { display: flex; flex-wrap: wrap; gap: 16px; }
.overlong { color: #a33; }
pre { background: #f4f4f4; padding: 8px; overflow-x: auto; }
</style>
</head>
<body>
)";
  html += fmt::format("<h1>Simulation of {}</h1>\n", escape(e.ruleset_id));
  html += fmt::format(
      "<p id=\"experiment\">Ruleset <code>{}</code>, <span id=\"games\">{}</span> games, seed {}, players {}, {}. "
      "{} completed, {} failed{}.{}</p>\n",
      escape(e.ruleset), e.games, e.seed, players,
      e.fixed_seats ? "fixed seats" : e.mirror ? "mirror matches (each deal played from every seat)" : "seats rotated every game",
      st.completed, st.failed,
      st.overlong_count == 0 ? "" : fmt::format(" (<a class=\"overlong\">{} overlong</a>)", st.overlong_count),
      st.slice.empty() ? "" : " Only part of the experiment: " + escape(st.slice) + ".");
  html += experiment_section(st);

  const std::size_t k = st.seats.size();
  html += "<h2>Players</h2>\n<table id=\"summary\">\n<tr><th>player</th><th>games</th><th>wins</th><th>win rate</th>"
          "<th>95% CI (Wilson)</th><th>mean score</th><th>sd score</th><th>mean margin</th><th>mean place</th>" +
          places_header(k) + "</tr>\n";
  for (const auto& s : st.settings)
    html += fmt::format(
        "<tr class=\"setting\"><td>{}</td><td>{}</td><td>{:.2f}</td><td class=\"win-rate\">{}</td><td>[{}, {}]</td>"
        "<td>{:.2f}</td><td>{:.2f}</td><td>{:+.2f}</td><td>{:.3f}</td>{}</tr>\n",
        escape(s.label), s.games, s.wins, pct(s.win_rate), pct(s.interval.low), pct(s.interval.high), s.score_mean,
        s.score_sd, s.margin_mean, s.place_mean, places_cells(s.places));
  html += "</table>\n<p>A first place shared by m players counts 1/m win for each; " + std::to_string(st.tied) +
          " game(s) had a shared first place. Margin: a player's score minus the best other player's score in the "
          "same game (positive: won by that much). Places: completed games finished 1st, 2nd, ... (tied players share "
          "a place).</p>\n";

  html += fmt::format("<h2>Seats</h2>\n<p>Whoever sits there; the fair share of wins is {}.</p>\n<table id=\"seats\">\n"
                      "<tr><th>seat</th><th>wins</th><th>win rate</th><th>95% CI (Wilson)</th><th>mean score</th>"
                      "<th>mean margin</th>{}</tr>\n",
                      pct(e.seats ? 1.0 / e.seats : 0), places_header(k));
  for (std::size_t s = 0; s < k; ++s)
    html += fmt::format("<tr class=\"seat\"><td>seat {}</td><td>{:.2f}</td><td>{}</td><td>[{}, {}]</td><td>{:.2f}</td>"
                        "<td>{:+.2f}</td>{}</tr>\n",
                        s + 1, st.seats[s].wins, pct(st.seats[s].win_rate), pct(st.seats[s].interval.low),
                        pct(st.seats[s].interval.high), st.seats[s].score_mean, st.seats[s].margin_mean,
                        places_cells(st.seats[s].places));
  html += "</table>\n";

  html += "<h2>Win rates with their 95% intervals</h2>\n" + win_rate_svg(st);

  html += "<h2>Score distribution per player</h2>\n<div class=\"histograms\">\n";
  std::optional<std::pair<std::int64_t, std::int64_t>> score_range;  // one range for all, so that they compare
  for (const auto& s : st.settings)
    if (!s.scores.empty()) {
      const std::int64_t lo = s.scores.min(), hi = s.scores.max();
      score_range = score_range ? std::pair{std::min(score_range->first, lo), std::max(score_range->second, hi)} : std::pair{lo, hi};
    }
  for (std::size_t j = 0; j < st.settings.size(); ++j) {
    const auto& s = st.settings[j];
    html += fmt::format("<figure><figcaption>{}: mean {:.2f}, sd {:.2f}</figcaption>\n", escape(s.label), s.score_mean,
                        s.score_sd);
    html += histogram_svg(fmt::format("scores-{}", j + 1), {{&s.scores, s.label, "", kColours[j % 8]}}, "match score",
                          true, score_range) +
            "</figure>\n";
  }
  html += "</div>\n";

  html += "<h2>Margins</h2>\n";
  html += fmt::format("<p>Winning margin (the winner's score minus the runner-up's): mean {:.2f}, sd {:.2f}, min {}, max {}.</p>\n",
                      st.margin_spread.mean, st.margin_spread.sd, st.margin_spread.min, st.margin_spread.max);
  html += "<div class=\"histograms\">\n<figure><figcaption>Winning margin per game</figcaption>\n" +
          histogram_svg("margins", {{&st.margins, "", "", "#7d5ba6"}}, "winner's score minus the runner-up's", true) +
          "</figure>\n<figure><figcaption>Mean margin per player and per seat</figcaption>\n" + margin_svg(st) +
          "</figure>\n</div>\n";

  html += "<h2>Game length</h2>\n";
  html += fmt::format("<p>Mean {:.1f} actions (plies), sd {:.1f}, min {}, max {}; {:.1f} turns (a seat's run of actions), "
                      "sd {:.1f}, min {}, max {}; {:.2f} rounds, min {}, max {}.</p>\n",
                      st.length_mean, st.length_sd, st.length_min, st.length_max, st.turn_spread.mean, st.turn_spread.sd,
                      st.turn_spread.min, st.turn_spread.max, st.round_spread.mean, st.round_spread.min, st.round_spread.max);
  html += "<div class=\"histograms\">\n<figure><figcaption>Turns per game</figcaption>\n" +
          histogram_svg("game-turns", {{&st.turns, "", "", "#4f9a55"}}, "turns per game") +
          "</figure>\n<figure><figcaption>Rounds per game</figcaption>\n" +
          histogram_svg("game-rounds", {{&st.rounds, "", "", "#8c6d3f"}}, "rounds per game") +
          "</figure>\n<figure><figcaption>Actions per game</figcaption>\n" +
          histogram_svg("game-length", {{&st.lengths, "", "", "#6b7b8c"}}, "plies (actions) per game") +
          "</figure>\n</div>\n";

  html += "<h2>Actions by kind</h2>\n";
  if (!st.actions_counted) {
    html += "<p id=\"actions\">Not counted in these games (simulate --no-action-counts, or a file from an older "
            "simulate).</p>\n";
  } else {
    html += fmt::format("<p>{} actions in {} completed games; the kind is the first word of the action's text.</p>\n"
                        "<table id=\"actions\">\n<tr><th>kind</th><th>actions</th><th>per game</th><th>share</th></tr>\n",
                        st.action_total, st.completed);
    for (const auto& a : st.actions)
      html += fmt::format("<tr class=\"action-kind\"><td>{}</td><td>{}</td><td>{:.2f}</td><td>{}</td></tr>\n", escape(a.kind),
                          a.total, a.mean,
                          pct(st.action_total ? static_cast<double>(a.total) / static_cast<double>(st.action_total) : 0));
    html += "</table>\n";
  }

  html += "<h2>Overlong games</h2>\n";
  if (st.overlong_count == 0) {
    html += fmt::format("<p id=\"overlong\">None: every game ended within {} actions (--max-plies).</p>\n", e.max_plies);
  } else {  // bots that can play forever
    html += fmt::format("<p class=\"overlong\" id=\"overlong\">{} games hit the cap of {} actions (--max-plies) and are "
                        "left out of the figures; each replays with its command:</p>\n<ul>\n", st.overlong_count, e.max_plies);
    for (std::size_t i = 0; i < std::min<std::size_t>(st.overlong.size(), 100); ++i)
      html += fmt::format("<li class=\"overlong-game\">game {} (seed {})<br><code>{}</code></li>\n", st.overlong[i].index,
                          st.overlong[i].seed, escape(reproduce_command(e, st.overlong[i])));
    html += "</ul>\n";
  }
  html += fmt::format("<h2>Failed games</h2>\n<p id=\"failed\">{} failed games.</p>\n", st.failed);
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
