// compare.cpp — `houserules compare A B` (compare.hpp, docs/simulation.md "Comparing two rulesets").
#include "compare.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bots.hpp"
#include "input_line.hpp"
#include "ordered_pool.hpp"
#include "play/play.hpp"
#include "printable.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

namespace hr {

using nlohmann::json;

namespace {

constexpr double kZ95 = 1.959963984540054;

/// Mean and sample variance (n - 1).
std::pair<double, double> mean_variance(const std::vector<double>& values) {
  if (values.empty()) return {0, 0};
  double sum = 0;
  for (double v : values) sum += v;
  const double mean = sum / static_cast<double>(values.size());
  if (values.size() < 2) return {mean, 0};
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return {mean, squares / static_cast<double>(values.size() - 1)};
}

Estimate mean_estimate(const Distribution& values) {
  const double mean = values.mean();
  const double half = values.empty() ? 0 : kZ95 * std::sqrt(values.variance() / static_cast<double>(values.count()));
  return {mean, mean - half, mean + half};
}

std::string value_text(const MetricComparison& m, double v) {
  const double shown = m.percent ? 100 * v : v;
  const std::string number = m.signed_value ? fmt::format("{:+.2f}", shown) : fmt::format("{:.2f}", shown);
  return m.percent ? number + "%" : number;
}

std::string change_text(const MetricComparison& m, double v) {
  return m.percent ? fmt::format("{:+.2f} points", 100 * v) : fmt::format("{:+.2f}", v);
}

std::string interval_text(const MetricComparison& m, const Estimate& e, bool change) {
  if (change) {
    const double scale = m.percent ? 100 : 1;
    return fmt::format("[{:+.2f}, {:+.2f}]", scale * e.low, scale * e.high);
  }
  return fmt::format("[{}, {}]", value_text(m, e.low), value_text(m, e.high));
}

void finish(MetricComparison& m) {
  m.significant = m.change.low > 0 || m.change.high < 0;
  const std::string interval = fmt::format("{}, 95% CI {} to {}", change_text(m, m.change.value),
                                           change_text(m, m.change.low), change_text(m, m.change.high));
  if (m.significant)
    m.verdict = fmt::format("{} {} from {} to {} ({}): significant", m.label, m.change.value > 0 ? "rose" : "fell",
                            value_text(m, m.a.value), value_text(m, m.b.value), interval);
  else
    m.verdict = fmt::format("{}: {} and {} ({}): no significant change", m.label, value_text(m, m.a.value),
                            value_text(m, m.b.value), interval);
}

MetricComparison proportion_metric(std::string key, std::string label, double wins_a, double n_a, double wins_b,
                                   double n_b, double offset, bool signed_value) {
  MetricComparison m;
  m.key = std::move(key);
  m.label = std::move(label);
  m.percent = true;
  m.signed_value = signed_value;
  const Interval ia = wilson_interval(wins_a, n_a), ib = wilson_interval(wins_b, n_b);
  m.a = {n_a > 0 ? wins_a / n_a - offset : 0, ia.low - offset, ia.high - offset};
  m.b = {n_b > 0 ? wins_b / n_b - offset : 0, ib.low - offset, ib.high - offset};
  m.change = proportion_change(wins_a, n_a, wins_b, n_b);
  finish(m);
  return m;
}

MetricComparison mean_metric(std::string key, std::string label, const Distribution& a, const Distribution& b) {
  MetricComparison m;
  m.key = std::move(key);
  m.label = std::move(label);
  m.a = mean_estimate(a);
  m.b = mean_estimate(b);
  m.change = mean_change(a, b);
  finish(m);
  return m;
}

}  // namespace

Estimate proportion_change(double successes_a, double n_a, double successes_b, double n_b) {
  if (n_a <= 0 || n_b <= 0) return {0, -1, 1};
  const double pa = successes_a / n_a, pb = successes_b / n_b;
  const Interval ia = wilson_interval(successes_a, n_a), ib = wilson_interval(successes_b, n_b);
  const double d = pb - pa;
  return {d, d - std::sqrt((pb - ib.low) * (pb - ib.low) + (ia.high - pa) * (ia.high - pa)),
          d + std::sqrt((ib.high - pb) * (ib.high - pb) + (pa - ia.low) * (pa - ia.low))};
}

namespace {

Estimate welch_change(double ma, double va, double na, double mb, double vb, double nb) {
  if (na <= 0 || nb <= 0) return {mb - ma, -INFINITY, INFINITY};
  const double half = kZ95 * std::sqrt(va / na + vb / nb);
  return {mb - ma, mb - ma - half, mb - ma + half};
}

}  // namespace

Estimate mean_change(const std::vector<double>& a, const std::vector<double>& b) {
  const auto [ma, va] = mean_variance(a);
  const auto [mb, vb] = mean_variance(b);
  return welch_change(ma, va, static_cast<double>(a.size()), mb, vb, static_cast<double>(b.size()));
}

Estimate mean_change(const Distribution& a, const Distribution& b) {
  return welch_change(a.mean(), a.variance(), static_cast<double>(a.count()), b.mean(), b.variance(),
                      static_cast<double>(b.count()));
}

ComparisonTally::ComparisonTally(const Experiment& a, const Experiment& b)
    : all_a_(a), all_b_(b), paired_a_(a), paired_b_(b) {
  if (a.players != b.players || a.seats != b.seats)
    throw std::invalid_argument("compare: the two simulations must have the same players in the same seats");
}

void ComparisonTally::add_block(const std::vector<GameRecord>& a, const std::vector<GameRecord>& b) {
  // The verdicts use only the mirror blocks that every game of completed on both sides: a game that failed in
  // B (a loop, a rules error) says nothing of B's balance, and leaving out its block in A too keeps the pairs
  // (equal deals from every seat) that make the comparison fair.
  bool all_completed = true;
  for (const auto* side : {&a, &b})
    for (const auto& r : *side) all_completed = all_completed && !r.failed();
  for (const auto& r : a) all_a_.add(r);
  for (const auto& r : b) all_b_.add(r);
  if (!all_completed) return;
  for (const auto& r : a) paired_a_.add(r);
  for (const auto& r : b) paired_b_.add(r);
}

Comparison ComparisonTally::finish() const {
  const Stats all_a = all_a_.finish(false), all_b = all_b_.finish(false);
  const Experiment& a = all_a.experiment;
  Comparison c;
  c.a = paired_a_.finish(false);
  c.b = paired_b_.finish(false);
  for (auto [paired_side, all_side] : {std::pair{&c.a, &all_a}, std::pair{&c.b, &all_b}}) {
    paired_side->failed = all_side->failed;
    paired_side->overlong_count = all_side->overlong_count;
    paired_side->failures = all_side->failures;
    paired_side->overlong = all_side->overlong;
    paired_side->failure_reasons = all_side->failure_reasons;
    paired_side->recorded = all_side->recorded;
  }
  c.paired = c.a.completed;
  c.left_out = all_a.recorded - c.paired;
  const auto k = static_cast<std::size_t>(a.seats);
  const double n_a = static_cast<double>(c.a.completed), n_b = static_cast<double>(c.b.completed);
  if (k == 0) return c;

  // Balance: the first seat's win rate over the fair share, then each player setting's win rate.
  c.metrics.push_back(proportion_metric("first_player_advantage",
                                        "first-player advantage (seat 1's win rate minus the fair share)",
                                        c.a.seats[0].wins, n_a, c.b.seats[0].wins, n_b, 1.0 / static_cast<double>(k),
                                        true));
  const bool distinct_settings = std::set<std::string>(a.players.begin(), a.players.end()).size() == k;
  if (distinct_settings)
    for (std::size_t j = 0; j < k; ++j)
      c.metrics.push_back(proportion_metric("win_rate/" + c.a.settings[j].label,
                                            "win rate of " + c.a.settings[j].label, c.a.settings[j].wins, n_a,
                                            c.b.settings[j].wins, n_b, 0, false));
  // Scores and margins.
  if (std::set<std::string>(a.players.begin(), a.players.end()).size() == 1) {
    // The same bot in every seat: one pooled score (per setting they would only repeat each other).
    Distribution pooled_a, pooled_b;
    for (std::size_t j = 0; j < k; ++j) {
      pooled_a.add(c.a.settings[j].scores);
      pooled_b.add(c.b.settings[j].scores);
    }
    c.metrics.push_back(mean_metric("score", "mean score", pooled_a, pooled_b));
  } else {
    for (std::size_t j = 0; j < k; ++j)
      c.metrics.push_back(mean_metric("score/" + c.a.settings[j].label, "mean score of " + c.a.settings[j].label,
                                      c.a.settings[j].scores, c.b.settings[j].scores));
  }
  c.metrics.push_back(mean_metric("margin", "mean winning margin (winner's score minus the runner-up's)",
                                  c.a.margins, c.b.margins));
  // Length: actions (plies) and rounds.
  c.metrics.push_back(mean_metric("plies", "game length in actions", c.a.lengths, c.b.lengths));
  c.metrics.push_back(mean_metric("rounds", "game length in rounds", c.a.rounds, c.b.rounds));
  // Actions by kind, per game (a kind found in one ruleset only counts 0 per game in the other).
  std::set<std::string> kinds;
  for (const auto* st : {&c.a, &c.b})
    for (const auto& kind : st->actions) kinds.insert(kind.kind);
  auto per_game = [](const Stats& st, const std::string& kind) {
    for (const auto& a : st.actions)
      if (a.kind == kind) return a.per_game;
    Distribution none;
    none.add(0, st.completed);
    return none;
  };
  for (const auto& kind : kinds)
    c.metrics.push_back(mean_metric("actions/" + kind, "'" + kind + "' actions per game", per_game(c.a, kind),
                                    per_game(c.b, kind)));
  return c;
}

Comparison compare_simulations(const Experiment& a, const std::vector<GameRecord>& records_a, const Experiment& b,
                               const std::vector<GameRecord>& records_b) {
  ComparisonTally tally(a, b);
  // Blocks of `seats` games (one deal each with mirror), records in index order on both sides.
  const std::size_t block = a.mirror && a.seats > 0 ? static_cast<std::size_t>(a.seats) : 1;
  for (std::size_t from = 0; from < records_a.size() || from < records_b.size(); from += block) {
    auto slice = [&](const std::vector<GameRecord>& records) {
      const std::size_t begin = std::min(from, records.size()), end = std::min(from + block, records.size());
      return std::vector<GameRecord>(records.begin() + static_cast<std::ptrdiff_t>(begin),
                                     records.begin() + static_cast<std::ptrdiff_t>(end));
    };
    tally.add_block(slice(records_a), slice(records_b));
  }
  return tally.finish();
}

std::string failure_summary(const Stats& st) {
  if (st.failed == 0) return "no failed game";
  std::string out = fmt::format("{} failed:", st.failed);
  bool first = true;
  for (const auto& [reason, count] : st.failure_reasons) out += fmt::format("{} {} {}", first ? "" : ";", count, reason), first = false;
  return out;
}

std::string comparison_text(const Comparison& c) {
  const Experiment& a = c.a.experiment;
  const Experiment& b = c.b.experiment;
  std::string out = fmt::format(
      "Comparison of A = {} ({}) and B = {} ({}): {} games each, seed {}, players {}, mirror matches (each deal "
      "played once from every seat)\n",
      a.ruleset, a.ruleset_id, b.ruleset, b.ruleset_id, a.games, a.seed, fmt::format("{}", fmt::join(a.players, ",")));
  out += fmt::format("A: {}; B: {}\n", failure_summary(c.a), failure_summary(c.b));
  if (c.left_out > 0)
    out += fmt::format("The figures use the {} games each of the mirror blocks both sides completed; {} games each "
                       "left out (a block with a failed game on either side)\n",
                       c.paired, c.left_out);
  out += '\n';
  std::size_t width = 6;
  std::vector<std::string> labels;
  for (const auto& m : c.metrics) {
    labels.push_back(m.key);
    width = std::max(width, m.key.size());
  }
  out += fmt::format("{:<{}}  {:>26}  {:>26}  {:>34}\n", "figure", width, "A [95% CI]", "B [95% CI]",
                     "change B - A [95% CI]");
  for (const auto& m : c.metrics)
    out += fmt::format("{:<{}}  {:>26}  {:>26}  {:>34}{}\n", m.key, width,
                       value_text(m, m.a.value) + " " + interval_text(m, m.a, false),
                       value_text(m, m.b.value) + " " + interval_text(m, m.b, false),
                       change_text(m, m.change.value) + " " + interval_text(m, m.change, true),
                       m.significant ? "  *" : "");
  out += "\nVerdicts (* significant: the 95% interval of the change excludes 0; among many unchanged figures about\n"
         "one in twenty looks significant by chance, so rerun with more --games or another --seed to confirm):\n";
  bool any = false;
  for (const auto& m : c.metrics)
    if (m.significant) {
      out += "  - " + m.verdict + "\n";
      any = true;
    }
  if (!any) out += "  - no figure changed significantly\n";
  std::string unchanged;
  for (const auto& m : c.metrics)
    if (!m.significant) unchanged += (unchanged.empty() ? "" : ", ") + m.key;
  if (!unchanged.empty()) out += "No significant change: " + unchanged + "\n";
  out += "\nSeats (win rate, mean score):\n";
  for (std::size_t s = 0; s < c.a.seats.size() && s < c.b.seats.size(); ++s)
    out += fmt::format("  seat {}: A {:.2f}%, {:.2f}   B {:.2f}%, {:.2f}\n", s + 1, 100 * c.a.seats[s].win_rate,
                       c.a.seats[s].score_mean, 100 * c.b.seats[s].win_rate, c.b.seats[s].score_mean);
  for (const auto* st : {&c.a, &c.b}) {
    for (const auto& r : st->failures)
      out += fmt::format("Failed game of {} (game {}, seed {}, after {} actions): {}\n  {}\n", st->experiment.ruleset,
                         r.index, r.seed, r.plies, r.error.substr(0, r.error.find('\n')),
                         reproduce_command(st->experiment, r));
    if (st->failed > static_cast<std::int64_t>(st->failures.size()))
      out += fmt::format("... and {} more failed games of {} (the first {} are listed)\n",
                         st->failed - static_cast<std::int64_t>(st->failures.size()), st->experiment.ruleset,
                         st->failures.size());
  }
  return out;
}

std::string comparison_json(const Comparison& c) {
  auto estimate = [](const Estimate& e) { return json{{"value", e.value}, {"low", e.low}, {"high", e.high}}; };
  auto side = [](const Stats& st) {
    json failures = json::array();
    for (const auto& r : st.failures)
      failures.push_back({{"index", r.index}, {"seed", r.seed}, {"plies", r.plies}, {"error", r.error},
                          {"command", reproduce_command(st.experiment, r)}});
    json seats = json::array();
    for (const auto& s : st.seats) seats.push_back({{"win_rate", s.win_rate}, {"score_mean", s.score_mean}});
    return json{{"ruleset", st.experiment.ruleset}, {"ruleset_id", st.experiment.ruleset_id},
                {"games", st.experiment.games},     {"completed", st.recorded - st.failed},
                {"failed", st.failed},     {"failure_summary", failure_summary(st)},
                {"seats", seats},                   {"failures", failures}};
  };
  json metrics = json::array();
  for (const auto& m : c.metrics)
    metrics.push_back({{"key", m.key},
                       {"label", m.label},
                       {"percent", m.percent},
                       {"a", estimate(m.a)},
                       {"b", estimate(m.b)},
                       {"change", estimate(m.change)},
                       {"significant", m.significant},
                       {"verdict", m.verdict}});
  json doc = {{"type", "comparison"},
              {"format", 1},
              {"paired", c.paired},
              {"left_out", c.left_out},
              {"players", c.a.experiment.players},
              {"seed", c.a.experiment.seed},
              {"mirror", true},
              {"a", side(c.a)},
              {"b", side(c.b)},
              {"metrics", metrics}};
  return doc.dump(2) + "\n";
}

namespace {

/// A's and B's values side by side per bin over their shared range (report.cpp's histogram_svg).
std::string paired_histogram_svg(const std::string& id, const Distribution& a, const Distribution& b,
                                 const std::string& x_label) {
  return histogram_svg(id, {{&a, "A", "a", ""}, {&b, "B", "b", ""}}, x_label);
}

/// One row of the forest plot: the change and its interval on a scale symmetric around a zero line.
std::string change_svg(const MetricComparison& m, std::size_t row) {
  constexpr int kWidth = 240, kHeight = 22, kPad = 10;
  double extent = std::max({std::abs(m.change.low), std::abs(m.change.high), std::abs(m.change.value)});
  if (!std::isfinite(extent) || extent <= 0) extent = 1;
  extent *= 1.15;
  auto x = [&](double v) {
    if (!std::isfinite(v)) v = v > 0 ? extent : -extent;
    return kPad + (kWidth - 2 * kPad) * (v + extent) / (2 * extent);
  };
  return fmt::format(
      "<svg id=\"change-{}\" class=\"chart change{}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" role=\"img\"><line class=\"zero\" x1=\"{:.1f}\" y1=\"2\" x2=\"{:.1f}\" y2=\"{}\"/>"
      "<line class=\"interval\" x1=\"{:.1f}\" y1=\"11\" x2=\"{:.1f}\" y2=\"11\"/>"
      "<circle class=\"point\" cx=\"{:.1f}\" cy=\"11\" r=\"4\"><title>{}</title></circle></svg>",
      row, m.significant ? " significant" : "", kWidth, kHeight, kWidth, kHeight, x(0), x(0), kHeight - 2,
      x(m.change.low), x(m.change.high), x(m.change.value), html_escape(m.verdict));
}

}  // namespace

std::string comparison_html(const Comparison& c, const std::string& command) {
  const Experiment& a = c.a.experiment;
  const Experiment& b = c.b.experiment;
  std::string html = R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>)" + html_escape(fmt::format("houserules compare: {} vs {}", a.ruleset, b.ruleset)) +
                     R"(</title>
<style>
body { font-family: sans-serif; margin: 24px; color: #222; max-width: 1200px; }
table { border-collapse: collapse; margin: 8px 0 16px; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; vertical-align: middle; }
th:first-child, td:first-child { text-align: left; }
.chart { display: block; background: #fafafa; border: 1px solid #ddd; }
.chart.change { border: none; background: none; }
.axis, .tick-mark { stroke: #555; stroke-width: 1; }
.zero { stroke: #888; stroke-dasharray: 3 3; }
.interval { stroke: #111; stroke-width: 2; }
.point { fill: #777; }
.significant .point { fill: #b8434a; }
.bar.a { fill: #3b6ea8; }
.bar.b { fill: #d07a2b; }
.tick { font-size: 11px; fill: #555; }
.label { font-size: 12px; fill: #222; }
.key-a { color: #3b6ea8; font-weight: bold; }
.key-b { color: #d07a2b; font-weight: bold; }
li.significant { font-weight: bold; }
.histograms { display: flex; flex-wrap: wrap; gap: 16px; }
pre { background: #f4f4f4; padding: 8px; overflow-x: auto; }
</style>
</head>
<body>
)";
  html += fmt::format("<h1>{} <span class=\"key-a\">(A)</span> vs {} <span class=\"key-b\">(B)</span></h1>\n",
                      html_escape(a.ruleset), html_escape(b.ruleset));
  html += fmt::format(
      "<p id=\"experiment\"><span id=\"games\">{}</span> games each, seed {}, players {}, mirror matches (each deal "
      "played once from every seat).</p>\n<p id=\"failed-summary\">A: {}; B: {}.{}</p>\n",
      a.games, a.seed, html_escape(fmt::format("{}", fmt::join(a.players, ", "))), html_escape(failure_summary(c.a)),
      html_escape(failure_summary(c.b)),
      c.left_out > 0 ? fmt::format(" The figures use the {} games each of the mirror blocks both sides completed; {} "
                                   "games each left out.", c.paired, c.left_out)
                     : std::string());
  html += "<p>Command: <code id=\"command\">" + html_escape(command) + "</code> (houserules " HOUSERULES_VERSION ")</p>\n";
  html += "<h2>Verdicts</h2>\n<ul id=\"verdicts\">\n";
  for (const auto& m : c.metrics)
    if (m.significant) html += "<li class=\"significant\">" + html_escape(m.verdict) + "</li>\n";
  for (const auto& m : c.metrics)
    if (!m.significant) html += "<li>" + html_escape(m.verdict) + "</li>\n";
  html += "</ul>\n<p>Significant: the 95% interval of the change excludes 0. Among many unchanged figures about one "
          "in twenty looks significant by chance.</p>\n";
  html += "<h2>Every figure</h2>\n<table id=\"metrics\">\n<tr><th>figure</th><th>A [95% CI]</th><th>B [95% CI]</th>"
          "<th>change B - A [95% CI]</th><th>change around zero</th></tr>\n";
  for (std::size_t i = 0; i < c.metrics.size(); ++i) {
    const auto& m = c.metrics[i];
    html += fmt::format(
        "<tr class=\"metric{}\" data-key=\"{}\"><td>{}</td><td>{} {}</td><td>{} {}</td><td class=\"change\">{} {}</td>"
        "<td>{}</td></tr>\n",
        m.significant ? " significant" : "", html_escape(m.key), html_escape(m.label), value_text(m, m.a.value),
        interval_text(m, m.a, false), value_text(m, m.b.value), interval_text(m, m.b, false),
        change_text(m, m.change.value), interval_text(m, m.change, true), change_svg(m, i));
  }
  html += "</table>\n";
  html += "<h2>Distributions (<span class=\"key-a\">A</span> and <span class=\"key-b\">B</span>)</h2>\n"
          "<div class=\"histograms\">\n";
  html += "<figure><figcaption>Winning margin</figcaption>\n" +
          paired_histogram_svg("margins", c.a.margins, c.b.margins, "winner's score minus the runner-up's") + "</figure>\n";
  html += "<figure><figcaption>Game length</figcaption>\n" +
          paired_histogram_svg("lengths", c.a.lengths, c.b.lengths, "actions per game") + "</figure>\n";
  for (std::size_t j = 0; j < c.a.settings.size() && j < c.b.settings.size(); ++j)
    html += fmt::format("<figure><figcaption>Scores of {}</figcaption>\n", html_escape(c.a.settings[j].label)) +
            paired_histogram_svg(fmt::format("scores-{}", j + 1), c.a.settings[j].scores, c.b.settings[j].scores,
                                 "match score") +
            "</figure>\n";
  html += "</div>\n<h2>Seats</h2>\n<table id=\"seats\">\n<tr><th>seat</th><th>A win rate</th><th>B win rate</th>"
          "<th>A mean score</th><th>B mean score</th></tr>\n";
  for (std::size_t s = 0; s < c.a.seats.size() && s < c.b.seats.size(); ++s)
    html += fmt::format("<tr><td>seat {}</td><td>{:.2f}%</td><td>{:.2f}%</td><td>{:.2f}</td><td>{:.2f}</td></tr>\n",
                        s + 1, 100 * c.a.seats[s].win_rate, 100 * c.b.seats[s].win_rate, c.a.seats[s].score_mean,
                        c.b.seats[s].score_mean);
  html += "</table>\n";
  html += fmt::format("<h2>Failed games</h2>\n<p id=\"failed\">{} failed games.</p>\n",
                      c.a.failed + c.b.failed);
  html += "<h2>As printed</h2>\n<pre id=\"summary-text\">" + html_escape(comparison_text(c)) + "</pre>\n";
  html += html_report_end();
  return html;
}

int compare_command(const CompareOptions& o, std::ostream& out, std::ostream& err) {
  if (o.players.empty()) return err << "error: --players is required (e.g. --players greedy,greedy)\n", 2;
  for (const auto& name : o.players) {
    try {
      if (!make_bot(name, 0))
        return err << fmt::format("error: unknown player '{}' (compare plays bots: random, greedy, ismcts[:key=value...])\n",
                                  name),
               2;
    } catch (const std::invalid_argument& ex) {
      return err << "error: " << ex.what() << '\n', 2;
    }
  }
  if (o.games < 1) return err << "error: --games must be at least 1\n", 2;
  // Memory does not depend on --games (mirror blocks are counted as they finish); rounding up to whole
  // blocks must not overflow.
  if (o.games > kMaxGames)
    return err << fmt::format("error: --games {}: compare plays at most {} games each\n", o.games, kMaxGames), 2;
  if (o.max_plies < 1) return err << "error: --max-plies must be at least 1\n", 2;
  if (!o.report.empty()) {  // checked before hours of games, not after
    std::ofstream probe(o.report, std::ios::app);
    if (!probe) return err << "error: cannot write the report to " << o.report << '\n', 2;
  }
  Experiment experiments[2];
  const std::string* names[2] = {&o.a, &o.b};
  for (int i = 0; i < 2; ++i) {
    Experiment& e = experiments[i];
    e.ruleset = *names[i];
    e.players = o.players;
    e.seed = o.seed;
    e.max_plies = o.max_plies;
    e.mirror = true;
    e.count_actions = true;
    try {
      // A seat count the ruleset does not take is a mistake in --players: say so, with the counts it takes.
      const RulesetInfo info = find_ruleset(e.ruleset);
      const int seats = static_cast<int>(o.players.size());
      if (seats < info.min_players || seats > info.max_players) {
        const std::string range = std::to_string(info.min_players) +
                                  (info.max_players > info.min_players ? " to " + std::to_string(info.max_players) : "");
        std::string example = "greedy";
        for (int s = 1; s < info.min_players; ++s) example += ",greedy";
        return err << fmt::format("error: {} ({}): {} is played by {} players, not {}: give --players {} names, one "
                                  "per seat, that both sides take (e.g. --players {})\n",
                                  i ? "B" : "A", printable(cut_for_message(e.ruleset)), printable(info.id), range,
                                  seats, range, example),
               2;
      }
      LoadOptions load;
      load.seats = seats;
      auto rules = load_rules(e.ruleset, load);
      e.seats = rules->layout().seats;
      e.ruleset_id = rules->id();
    } catch (const std::exception& ex) {
      return err << "error: " << (i ? "B" : "A") << " (" << e.ruleset << "): " << ex.what() << '\n', 2;
    }
    e.games = (o.games + e.seats - 1) / e.seats * e.seats;  // whole mirror blocks
  }
  if (experiments[0].games != o.games)
    err << fmt::format("note: {} games each (rounded up to whole mirror blocks of {} seats)\n", experiments[0].games,
                       experiments[0].seats);
  const int threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // A and B are played block by block (one deal from every seat on each side) and each block is counted as soon
  // as both sides have played it: nothing is kept per game, so memory stays flat whatever --games.
  const auto k = static_cast<std::size_t>(experiments[0].seats);
  const auto blocks = static_cast<std::size_t>(experiments[0].games) / k;
  ComparisonTally tally(experiments[0], experiments[1]);
  ProgressBar printer(err, true, fmt::format("compare: A ({}) and B ({})", experiments[0].ruleset, experiments[1].ruleset),
                      "games of A and B");
  std::function<void(std::size_t)> tick;
  if (o.progress != 0 && ProgressBar::stderr_is_terminal())  // a bar on a terminal, nothing in a pipe (issue 37)
    tick = [&printer, k, blocks](std::size_t done) {
      printer(static_cast<std::int64_t>(2 * k * done), static_cast<std::int64_t>(2 * k * blocks));
    };
  using Block = std::pair<std::vector<GameRecord>, std::vector<GameRecord>>;
  std::function<std::function<Block(std::size_t)>()> make_worker = [&experiments, k] {
    std::shared_ptr<Rules> rules[2];
    for (int i = 0; i < 2; ++i) {
      LoadOptions load;
      load.seats = experiments[i].seats;
      rules[i] = load_rules(experiments[i].ruleset, load);  // one Lua state per side and thread
    }
    return std::function<Block(std::size_t)>([rules, &experiments, k](std::size_t block) {
      Block out;
      for (std::size_t g = 0; g < k; ++g) {
        const auto index = static_cast<std::int64_t>(block * k + g);
        out.first.push_back(play_game(*rules[0], experiments[0], index));
        out.second.push_back(play_game(*rules[1], experiments[1], index));
      }
      return out;
    });
  };
  try {
    run_ordered<Block>(blocks, threads, make_worker, [&tally](Block&& b) { tally.add_block(b.first, b.second); }, tick);
  } catch (const std::exception& ex) {
    return err << "error: " << ex.what() << '\n', 2;
  }
  const Comparison c = tally.finish();
  out << (o.json ? comparison_json(c) : comparison_text(c));
  if (!o.report.empty()) {
    std::ofstream file(o.report, std::ios::trunc);
    file << comparison_html(c, o.command);
    if (!file) return err << "error: cannot write the report to " << o.report << '\n', 2;
    if (!o.json) out << "Report: " << o.report << '\n';
  }
  return c.a.failed == 0 && c.b.failed == 0 ? 0 : 1;
}

}  // namespace hr
