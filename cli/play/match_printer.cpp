// match_printer.cpp — a game's turns as a person reads them (match_printer.hpp, play.hpp): what one seat's turn
// changed as a viewer saw it (turn_changes), the line `play` prints for it (the ruleset's turn_summary hook, else
// the actions and a generic account), and MatchPrinter, which prints each turn, each round's end with every hand
// revealed and the scores broken down, and the result; for seats sharing a terminal it keeps each seat's lines
// until that seat holds the terminal.
#include "match_printer.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include <fmt/format.h>

#include "play.hpp"
#include "scripted_rules.hpp"
#include "terminal_style.hpp"

namespace hr {

namespace {

/// Whether `name` is a whole word (a run of letters and digits) of one of `texts`.
bool named_in(const std::string& name, const std::vector<std::string>& texts) {
  for (const std::string& t : texts) {
    std::size_t at = t.find(name);
    while (at != std::string::npos) {
      const bool start = at == 0 || !std::isalnum(static_cast<unsigned char>(t[at - 1]));
      const std::size_t end = at + name.size();
      if (start && (end == t.size() || !std::isalnum(static_cast<unsigned char>(t[end])))) return true;
      at = t.find(name, at + 1);
    }
  }
  return false;
}

/// The generic summary of a turn, for rules without a `turn_summary` hook: the cards that came into the
/// viewer's own hidden zones ("you drew G3"), known cards moved that no action text names ("G7 to hand.2"),
/// and per-seat counters that changed, the supply's too ("seat 2 coins -5 (now 7)"). Empty when nothing did.
std::string generic_details(const Layout& layout, const TurnChanges& changes) {
  std::vector<std::string> drew, others;
  for (const TurnChanges::Move& m : changes.moved) {
    const ZoneDef& zone = layout.zones[m.to];
    const bool own = zone.owner.kind == Owner::Kind::Seat && zone.owner.index == changes.viewer &&
                     zone.visibility == Visibility::Owner;
    const std::string& name = layout.components[m.card].name;
    if (own) drew.push_back(name);
    else if (!named_in(name, changes.actions) && others.size() < 6) others.push_back(name + " to " + zone.name);
  }
  std::vector<std::string> parts;
  if (!drew.empty()) {
    std::string list;
    for (const auto& name : drew) list += (list.empty() ? "" : " ") + name;
    parts.push_back((changes.you ? "you drew " : fmt::format("seat {} drew ", changes.viewer)) + list);
  }
  for (const auto& o : others) parts.push_back(o);
  for (const TurnChanges::Counter& c : changes.counters) {
    if (!layout.counters[static_cast<std::size_t>(c.counter)].per_seat) continue;
    parts.push_back(fmt::format("{} {} {}{} (now {})", c.owner == 0 ? std::string("supply") : fmt::format("seat {}", c.owner),
                                layout.counters[static_cast<std::size_t>(c.counter)].name, c.after > c.before ? "+" : "",
                                c.after - c.before, c.after));
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace

TurnChanges turn_changes(const GameState& before, const GameState& after, int viewer, bool you,
                         const std::vector<std::string>& texts) {
  TurnChanges changes;
  changes.viewer = viewer;
  changes.you = you;
  changes.actions = texts;
  const Layout& layout = after.layout();
  for (std::size_t z = 0; z < layout.zones.size(); ++z)
    for (ComponentId c : after.cards(static_cast<ZoneId>(z))) {
      if (c == kUnknownComponent || c >= layout.components.size()) continue;
      const Place was = before.place_of(c);
      if (was.in_zone() && was.zone == z) continue;
      if (changes.moved.size() >= TurnChanges::kMaxMoves) break;
      changes.moved.push_back(TurnChanges::Move{c, was.in_zone(), was.in_zone() ? was.zone : ZoneId{0},
                                                static_cast<ZoneId>(z)});
    }
  for (std::size_t k = 0; k < layout.counters.size(); ++k) {
    const int owners = layout.counters[k].per_seat ? layout.seats : 0;
    for (int s = 0; s <= owners; ++s) {  // owner 0: the supply (a reserve shared out, a pool paid into)
      const auto a = before.counter(static_cast<int>(k), s), b = after.counter(static_cast<int>(k), s);
      if (a != b) changes.counters.push_back(TurnChanges::Counter{static_cast<int>(k), s, a, b});
    }
  }
  return changes;
}

std::string turn_summary_text(Rules& rules, const GameState& view, int seat, const TurnChanges& changes) {
  if (auto* scripted = dynamic_cast<ScriptedRules*>(&rules))
    if (auto line = scripted->turn_summary(view, seat, changes)) return *line;
  std::string line;
  for (const auto& t : changes.actions) line += (line.empty() ? "" : ", ") + t;
  const std::string details = generic_details(view.layout(), changes);
  return line + (details.empty() ? "" : " - " + details);
}

MatchPrinter::MatchPrinter(std::ostream& out, Rules& rules, const std::vector<std::string>& names, bool quiet,
                           int viewer, bool colour)
    : out_(out), rules_(rules), names_(names), quiet_(quiet), viewer_(viewer), colour_(colour) {
  if (const auto* scripted = dynamic_cast<const ScriptedRules*>(&rules)) word_ = scripted->info().round_word;
  if (rules.layout().rounds == 1) word_ = "game";
  Word_ = word_;
  if (!Word_.empty()) Word_[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(Word_[0])));
}

void MatchPrinter::catch_up(int seat) {
  auto& queued = pending_[seat];
  if (queued.empty() || quiet_) return;
  out_ << "Since your last turn (as seat " << seat << " sees it):\n";
  for (const auto& entry : queued) out_ << entry.second;
  queued.clear();
}

void MatchPrinter::before(const GameState& state) {
  if (quiet_) return;
  if (state.to_move() != line_seat_) {
    flush();
    before_ = state;
  }
}

void MatchPrinter::action(int seat, const std::string& text, const GameState& after) {
  if (quiet_) return;
  if (seat != line_seat_) flush();
  line_seat_ = seat;
  texts_.push_back(text);
  after_ = after;
}

void MatchPrinter::flush() {
  std::vector<std::string> texts;
  texts.swap(texts_);  // cleared first: a failing hook must not be called again by the error's flush
  const int seat = line_seat_;
  line_seat_ = 0;
  if (texts.empty()) return;
  if (shared_.empty()) {
    out_ << turn_line(viewer_, seat, texts);
    return;
  }
  for (const int v : shared_) pending_[v].emplace_back(false, turn_line(v, seat, texts));
}

void MatchPrinter::round_start(int round) {
  if (!quiet_ && rules_.layout().rounds > 1) say(fmt::format("{} {} of {}\n", Word_, round, rules_.layout().rounds));
}

void MatchPrinter::round_end(const GameState& after, const GameState& final_position) {
  flush();
  if (quiet_) return;
  std::ostringstream text;
  const auto& scores = after.round_scores().back();
  std::string round_text, totals;
  for (std::size_t s = 0; s < scores.size(); ++s) {
    round_text += fmt::format("{}seat {} {}", s ? ", " : "", s + 1, scores[s]);
    totals += fmt::format("{}seat {} {}", s ? ", " : "", s + 1, after.match_scores()[s]);
  }
  if (rules_.layout().rounds > 1)
    text << fmt::format("{} {} over: {}\n  match totals: {}\n", Word_, after.round_scores().size(), round_text, totals);
  else
    text << fmt::format("The game is over: {}\n", round_text);
  const GameState shown = every_card_revealed(final_position);
  text << fmt::format("Table at the end of the {} (as seat {} sees it, every card revealed):\n", word_, viewer_)
       << paint_cards(rules_.describe(shown.observation(viewer_), viewer_), rules_.layout(), colour_);
  auto* scripted = dynamic_cast<ScriptedRules*>(&rules_);
  text << "Scores of the " << word_ << ":\n";
  for (std::size_t s = 0; s < scores.size(); ++s) {
    const int seat = static_cast<int>(s) + 1;
    text << fmt::format("  seat {} ({}): {}\n", seat, names_[s], scores[s]);
    const auto parts = scripted ? scripted->score_breakdown(shown, seat) : std::nullopt;
    if (!parts) continue;
    std::istringstream lines(*parts);
    for (std::string part; std::getline(lines, part);)
      text << "    " << paint_cards(part, rules_.layout(), colour_) << '\n';
  }
  text << '\n';
  say(text.str());
}

void MatchPrinter::result(const GameState& state) {
  flush();
  if (!shared_.empty() && !quiet_) {  // the game is over: what every seat may see (the last round's end), once
    for (const auto& entry : pending_[shared_.front()])
      if (entry.first) out_ << entry.second;
    pending_.clear();
  }
  const auto ranks = rules_.ranks(state);
  std::vector<std::size_t> order(ranks.size());
  for (std::size_t s = 0; s < order.size(); ++s) order[s] = s;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
  // By place; a new line before a seat that would pass 100 columns when the line holds two seats already
  // (a long player name, cmd:..., stays on the line of the seat after it).
  std::string text = "Result:";
  std::size_t column = text.size(), on_line = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t s = order[i];
    const std::string entry = fmt::format(" seat {} ({}) {} [place {}]{}", s + 1, names_[s], state.match_scores()[s],
                                          ranks[s], i + 1 < order.size() ? "," : "");
    if (on_line >= 2 && column + entry.size() > line_width(out_)) {
      text += "\n       ";
      column = 7;
      on_line = 0;
    }
    text += entry;
    column += entry.size();
    ++on_line;
  }
  out_ << text << '\n';
}

std::string MatchPrinter::turn_line(int viewer, int seat, const std::vector<std::string>& texts) {
  const GameState before = before_.observation(viewer), after = after_.observation(viewer);
  const bool you = names_[static_cast<std::size_t>(viewer - 1)] == "human";
  const std::string text = turn_summary_text(rules_, after, seat, turn_changes(before, after, viewer, you, texts));
  const std::string who = fmt::format("seat {} ({})", seat, names_[static_cast<std::size_t>(seat - 1)]);
  const auto lines = wrap_words(text, 2 + who.size() + 2, line_width(out_), 6);
  std::string out = "  " + (colour_ ? kBold + who + kReset : who) + ": ";
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + paint_cards(lines[i], rules_.layout(), colour_);
  return out + '\n';
}

void MatchPrinter::say(const std::string& text) {
  if (shared_.empty()) {
    out_ << text;
    return;
  }
  for (const int v : shared_) pending_[v].emplace_back(true, text);
}

}  // namespace hr
