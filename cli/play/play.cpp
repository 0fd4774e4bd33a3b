// play.cpp — match driver, human prompt, replay.
#include "play.hpp"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>
#include <variant>
#include <random>
#include <iostream>
#include <span>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "external_player.hpp"
#include "input_line.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"
#include "sandbox.hpp"
#include "terminal_wrap.hpp"
#include "transcript.hpp"

#ifdef HOUSERULES_HAVE_READLINE
#include <cstdio>
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace hr {

namespace {

/// `play` and `replay` stop a game still running after this many actions, as `simulate` and `check` do by
/// default (--max-plies): rules whose round never ends would otherwise play forever.
constexpr std::int64_t kMaxPlies = 100000;

/// The columns of a turn's line (a longer one goes on under it).
constexpr std::size_t kTurnLineWidth = 100;

/// The width of the lines written to `stream`: kTurnLineWidth, or the terminal's width when `stream` is
/// std::cout on a terminal narrower than that (at least 40), so that the terminal never cuts a line mid-word
/// (issue 37). Other streams (a pipe, a test's string stream) always get kTurnLineWidth.
std::size_t line_width(const std::ostream& stream) {
  if (&stream != &std::cout) return kTurnLineWidth;
  const std::size_t columns = terminal_columns(STDOUT_FILENO);
  return columns == 0 ? kTurnLineWidth : std::clamp<std::size_t>(columns, 40, kTurnLineWidth);
}

std::string too_long(const GameState& state) {
  return fmt::format("the game is not over after {} actions (the limit, as simulate's --max-plies): a round that "
                     "never ends?", state.ply());
}

std::string lower(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

/// Set by the SIGINT handler play_command installs (Ctrl-C): the game stops with a `stopped` line.
volatile std::sig_atomic_t g_interrupted = 0;
bool interrupted() { return g_interrupted != 0; }
void on_interrupt(int) { g_interrupted = 1; }

const std::string kReset = "\033[0m";
const std::string kBold = "\033[1m";
const std::string kRed = "\033[31m";

/// ANSI colour of a component's `colour` attribute (a colour name, or its 1-based index in the usual Lost
/// Cities order), or nullptr.
const char* ansi_of_colour(const AttributeValue* value) {
  static const char* const kNames[] = {"yellow", "blue", "white", "green", "red", "purple", "orange"};
  static const char* const kCodes[] = {"\033[33m", "\033[34m", "\033[97m", "\033[32m", "\033[31m", "\033[35m",
                                       "\033[38;5;208m"};
  if (value == nullptr) return nullptr;
  if (const auto* index = std::get_if<std::int64_t>(value))
    return *index >= 1 && *index <= 7 ? kCodes[*index - 1] : nullptr;
  if (const auto* name = std::get_if<std::string>(value))
    for (std::size_t i = 0; i < 7; ++i)
      if (lower(*name) == kNames[i]) return kCodes[i];
  return nullptr;
}

/// Each word of `text` (a run of letters and digits) that names a component with a `colour` attribute,
/// painted in that colour; `text` unchanged when `colour` is false.
std::string paint_cards(const std::string& text, const Layout& layout, bool colour) {
  if (!colour) return text;
  std::unordered_map<std::string, const char*> codes;
  for (const Component& c : layout.components)
    if (const char* code = ansi_of_colour(c.attribute("colour"))) codes.emplace(c.name, code);
  if (codes.empty()) return text;
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!std::isalnum(static_cast<unsigned char>(text[i]))) {
      out += text[i++];
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && std::isalnum(static_cast<unsigned char>(text[j]))) ++j;
    const std::string word = text.substr(i, j - i);
    const auto found = codes.find(word);
    out += found == codes.end() ? word : std::string(found->second) + word + kReset;
    i = j;
  }
  return out;
}

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

/// `text` broken at blanks into lines of at most `width` columns, the first after `first_width` columns
/// already used, the others indented by `indent` blanks. A word longer than a line stays whole.
std::vector<std::string> wrap_words(const std::string& text, std::size_t first_width, std::size_t width,
                                    std::size_t indent) {
  std::vector<std::string> lines(1);
  std::size_t used = first_width;
  bool line_start = true;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(i, end - i);
    if (!line_start && used + 1 + word.size() > width) {
      lines.emplace_back(indent, ' ');
      used = indent;
      line_start = true;
    }
    if (!line_start) {
      lines.back() += ' ';
      ++used;
    }
    lines.back() += word;
    used += word.size();
    line_start = false;
    i = end + 1;
  }
  return lines;
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

namespace {

/// Prints a match as it goes: one seat's turn on one line (wrapped at 100 columns), what it did as the viewer
/// sees it (the ruleset's turn_summary hook, else the action texts and generic_details), and at each round's end the final position with every hand revealed and
/// each seat's score broken down (the ruleset's score_breakdown hook, else the score alone).
class MatchPrinter {
 public:
  MatchPrinter(std::ostream& out, Rules& rules, const std::vector<std::string>& names, bool quiet, int viewer,
               bool colour)
      : out_(out), rules_(rules), names_(names), quiet_(quiet), viewer_(viewer), colour_(colour) {
    if (const auto* scripted = dynamic_cast<const ScriptedRules*>(&rules)) word_ = scripted->info().round_word;
    if (rules.layout().rounds == 1) word_ = "game";
    Word_ = word_;
    if (!Word_.empty()) Word_[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(Word_[0])));
  }

  /// Two or more people at one terminal (`seats`: theirs): nothing is printed as it happens, since whoever holds
  /// the terminal may not see another seat's cards. Each turn's line is kept for each of them as that seat sees
  /// it, the round ends (every card shown) for all of them, and catch_up prints a seat's lines when it gets the
  /// terminal.
  void hide_between(std::vector<int> seats) { shared_ = std::move(seats); }

  /// Prints what happened since `seat`'s last turn, as `seat` sees it ("Since your last turn:"), once that seat
  /// holds the terminal (hide_between); nothing when nothing did.
  void catch_up(int seat) {
    auto& queued = pending_[seat];
    if (queued.empty() || quiet_) return;
    out_ << "Since your last turn (as seat " << seat << " sees it):\n";
    for (const auto& entry : queued) out_ << entry.second;
    queued.clear();
  }

  /// Called before each action is applied to `state`.
  void before(const GameState& state) {
    if (quiet_) return;
    if (state.to_move() != line_seat_) {
      flush();
      before_ = state;
    }
  }

  /// Called after each action: `after` is the state after it (the round's final position when it ended one).
  void action(int seat, const std::string& text, const GameState& after) {
    if (quiet_) return;
    if (seat != line_seat_) flush();
    line_seat_ = seat;
    texts_.push_back(text);
    after_ = after;
  }

  void flush() {
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

  void round_start(int round) {
    if (!quiet_ && rules_.layout().rounds > 1) say(fmt::format("{} {} of {}\n", Word_, round, rules_.layout().rounds));
  }

  /// `after` is the state after the round's last action; `final_position` the round's last table, before
  /// it was closed (when a new round has begun, `after` already shows its deal). The table is drawn for the
  /// viewer (the first human seat, else seat 1) with every card revealed, as players show their hands when a
  /// round is over, then each seat's score of the round with its breakdown.
  void round_end(const GameState& after, const GameState& final_position) {
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

  void result(const GameState& state) {
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

 private:
  std::ostream& out_;
  Rules& rules_;
  const std::vector<std::string>& names_;
  bool quiet_;
  int viewer_;
  bool colour_;
  /// `seat`'s turn of `texts` as `viewer` sees it: one line of at most 100 columns (a long turn goes on under it,
  /// indented), with newline, each line's card names in colour.
  std::string turn_line(int viewer, int seat, const std::vector<std::string>& texts) {
    const GameState before = before_.observation(viewer), after = after_.observation(viewer);
    const bool you = names_[static_cast<std::size_t>(viewer - 1)] == "human";
    const std::string text = turn_summary_text(rules_, after, seat, turn_changes(before, after, viewer, you, texts));
    const std::string who = fmt::format("seat {} ({})", seat, names_[static_cast<std::size_t>(seat - 1)]);
    const auto lines = wrap_words(text, 2 + who.size() + 2, line_width(out_), 6);
    std::string out = "  " + (colour_ ? kBold + who + kReset : who) + ": ";
    for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + paint_cards(lines[i], rules_.layout(), colour_);
    return out + '\n';
  }

  /// Text every seat may see: printed, or kept for each seat sharing the terminal (hide_between).
  void say(const std::string& text) {
    if (shared_.empty()) {
      out_ << text;
      return;
    }
    for (const int v : shared_) pending_[v].emplace_back(true, text);
  }

  std::string word_ = "round", Word_ = "Round";  ///< what the rules call a round (ruleset.toml round_word)
  int line_seat_ = 0;
  std::vector<std::string> texts_;
  GameState before_, after_;  ///< the whole positions: each viewer's observation is taken when the line is made
  std::vector<int> shared_;   ///< the seats sharing the terminal (hide_between), or empty
  std::map<int, std::vector<std::pair<bool, std::string>>> pending_;  ///< per seat: (public?, text) not yet shown
};

}  // namespace

namespace {

/// `text` wrapped at the terminal's width when `stream` is std::cout or std::cerr and that is a terminal (a long
/// refusal or error, issue 37); unchanged otherwise.
std::string wrapped_for(const std::ostream& stream, const std::string& text) {
  if (&stream == &std::cout) return wrap_for_terminal(text, STDOUT_FILENO);
  if (&stream == &std::cerr) return wrap_for_terminal(text, STDERR_FILENO);
  return text;
}

/// Puts the actions (and their texts, in step) in a stable order for the numbered list: first those that name
/// a card of `seat`'s own hand (a zone it owns whose cards only its owner sees), by verb (the first word, in
/// the order the verbs first come) and then by the card's place in the layout (the order rulesets show a hand
/// in: Lost Cities by colour, then wagers, then value); then the others as the rules listed them. The rules'
/// own order follows the hand's zone, which changes with every card drawn, so a card's number used to change.
void stable_action_order(const Layout& layout, const GameState& view, int seat, std::vector<Action>& legal,
                         std::vector<std::string>& texts) {
  std::map<std::string, ComponentId> hand;  // card name -> its first component id in the hand
  for (ZoneId z = 0; z < layout.zones.size(); ++z) {
    const ZoneDef& zone = layout.zones[z];
    if (zone.visibility != Visibility::Owner || !(layout.owner_mask(zone.owner) & (1u << (seat - 1)))) continue;
    for (ComponentId c : view.cards(z))
      if (c < layout.components.size()) {
        auto [at, added] = hand.emplace(layout.components[c].name, c);
        if (!added) at->second = std::min(at->second, c);
      }
  }
  struct Key {
    int group;          // 0: names a card of the hand; 1: the rest
    std::size_t verb;   // the verb's rank (first come, first ranked)
    ComponentId card;
    std::size_t index;  // the rules' order, last
    bool operator<(const Key& o) const { return std::tie(group, verb, card, index) < std::tie(o.group, o.verb, o.card, o.index); }
  };
  std::map<std::string, std::size_t> verbs;
  std::vector<Key> keys;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    std::istringstream words(texts[i]);
    std::string verb, word;
    words >> verb;
    Key key{1, 0, 0, i};
    while (words >> word)
      if (const auto found = hand.find(word); found != hand.end()) {
        key = {0, verbs.emplace(verb, verbs.size()).first->second, found->second, i};
        break;
      }
    keys.push_back(key);
  }
  std::vector<std::size_t> order(texts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&keys](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<Action> sorted_legal;
  std::vector<std::string> sorted_texts;
  for (std::size_t i : order) {
    sorted_legal.push_back(legal[i]);
    sorted_texts.push_back(std::move(texts[i]));
  }
  legal = std::move(sorted_legal);
  texts = std::move(sorted_texts);
}

}  // namespace

bool HumanPlayer::read_line(const std::string& prompt, std::string& line) {
#ifdef HOUSERULES_HAVE_READLINE
  if (line_editing_) {
    out_ << std::flush;
    char* text = readline(prompt.c_str());
    if (interrupted()) {
      std::free(text);
      throw InputEnded("interrupted (Ctrl-C)");
    }
    if (text == nullptr) return false;
    line.assign(text, std::min(std::strlen(text), kMaxInputLine + 1));
    std::free(text);
    if (!line.empty() && line.size() <= kMaxInputLine) add_history(line.c_str());
    return true;
  }
#endif
  out_ << prompt << std::flush;
  const bool read = read_bounded_line(in_, line);
  if (interrupted()) throw InputEnded("interrupted (Ctrl-C)");
  return read;
}

Action HumanPlayer::choose(Rules& rules, const InformationSet& info) {
  const GameState view = info.observation();
  const auto legal = info.legal();
  std::vector<std::string> texts;
  for (Action a : legal) texts.push_back(rules.action_text(view, a));
  const Layout& layout = view.layout();
  // Numbered in a stable order (issue 37), not as the rules happen to list them: a card keeps its place in the
  // list from one turn to the next.
  std::vector<Action> legal_in_order(legal.begin(), legal.end());
  stable_action_order(layout, view, info.seat(), legal_in_order, texts);
  const std::span<const Action> shown_legal = legal_in_order;
  auto list_actions = [&] {
    // Columns as wide as the longest text (12 to 40), as many as fit kTurnLineWidth: "  " + n x " 1) text" + 3
    // blanks between; a longer text takes its own room.
    std::size_t width = 12;
    for (const auto& t : texts) width = std::max(width, std::min<std::size_t>(t.size(), 40));
    const std::size_t number = texts.size() >= 100 ? 5 : 4;  // "99) " or "999) "
    const std::size_t per_row = std::max<std::size_t>(1, (line_width(out_) - 2 + 3) / (number + width + 3));
    out_ << "Legal actions:";
    for (std::size_t i = 0; i < texts.size(); ++i) {
      const std::string cell = fmt::format("{:<{}}", texts[i], width);
      out_ << (i % per_row == 0 ? "\n  " : "   ") << fmt::format("{:>{}}) ", i + 1, number - 2)
           << paint_cards(cell, layout, colour_);
    }
    out_ << "\n";
  };
  auto refuse = [&](const std::string& raw) {
    const std::string text = wrapped_for(out_, raw);  // at the terminal's width, not cut mid-word (issue 37)
    out_ << (colour_ ? kRed + text + kReset : text) << '\n';
  };
  if (!pending_.empty()) {
    const std::string next = pending_.front();
    pending_.erase(pending_.begin());
    const std::string wanted = normalized_action_text(next);
    for (std::size_t i = 0; i < texts.size(); ++i)
      if (normalized_action_text(texts[i]) == wanted) {
        out_ << fmt::format("seat {}> ({})\n", info.seat(), texts[i]);
        return shown_legal[i];
      }
    refuse(fmt::format("The rest of your line stops at '{}': {}", next, rules.explain_illegal(view, next)));
    pending_.clear();
  }
  if (texts.size() == 1) {  // a forced action: no table, no question
    out_ << "Seat " << info.seat() << ": the only legal action is " << paint_cards(texts.front(), layout, colour_)
         << " - played.\n";
    return shown_legal.front();
  }
  out_ << '\n' << paint_cards(rules.describe(view, info.seat()), layout, colour_);
  list_actions();
  const std::string prompt = fmt::format("seat {}> ", info.seat());
  while (true) {
    std::string line;
    if (!read_line(colour_ ? kBold + prompt + kReset : prompt, line)) throw InputEnded("end of input");
    const InputLine normalized = normalize_input_line(line);  // before any rules code sees it (issue 18)
    if (!normalized) {
      refuse("Not understood: " + normalized.error + ".");
      continue;
    }
    const std::string& input = normalized.text;
    if (input.empty()) continue;
    if (lower(input) == "help" || input == "?") {
      out_ << "Type an action as listed (e.g. '" << texts.front()
           << "') or its number; 'undo' takes back your last decision; 'quit' stops the game.\n";
      if (!rules_page_.empty()) out_ << "The rules: " << printable(rules_page_) << '\n';
      list_actions();
      continue;
    }
    if (lower(input) == "quit") throw InputEnded("quit");
    if (lower(input) == "undo") throw UndoRequested();
    if (input.find_first_not_of("0123456789") == std::string::npos) {
      const auto number = input.size() > 6 ? 0 : std::stoul(input);
      if (number >= 1 && number <= texts.size()) return shown_legal[number - 1];
      refuse(fmt::format("There is no action number {}: choose 1 to {}.", input, texts.size()));
      continue;
    }
    std::string wanted;
    for (char ch : lower(input)) {
      if (std::isspace(static_cast<unsigned char>(ch))) {
        if (!wanted.empty() && wanted.back() != ' ') wanted += ' ';
      } else {
        wanted += ch;
      }
    }
    for (std::size_t i = 0; i < texts.size(); ++i)
      if (lower(texts[i]) == wanted) return shown_legal[i];
    // a shorthand for several actions (e.g. "buy horse whisky whisky"): its first action now, the rest queued
    auto steps = rules.shorthand(view, input);
    if (steps.size() >= 2) {
      const std::string first = normalized_action_text(steps.front());
      for (std::size_t i = 0; i < texts.size(); ++i)
        if (normalized_action_text(texts[i]) == first) {
          pending_.assign(steps.begin() + 1, steps.end());
          return shown_legal[i];
        }
      refuse("Not legal: " + rules.explain_illegal(view, steps.front()));
      continue;
    }
    refuse("Not legal: " + rules.explain_illegal(view, input));
  }
}

bool colour_wanted(bool out_is_terminal) {
  const char* no_colour = std::getenv("NO_COLOR");
  return out_is_terminal && (no_colour == nullptr || *no_colour == '\0');
}

std::vector<std::string> split_player_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

GameState every_card_revealed(GameState state) {
  for (std::size_t c = 0; c < state.layout().components.size(); ++c)
    state.reveal(static_cast<ComponentId>(c), state.layout().all_seats_mask());
  return state;
}

std::uint64_t fresh_seed() {
  std::random_device device;
  return device();  // 32 bits
}

std::vector<std::unique_ptr<Player>> make_players(const std::vector<std::string>& names, std::uint64_t seed,
                                                  std::istream& in, std::ostream& out, const Rules* rules) {
  std::vector<std::unique_ptr<Player>> players;
  for (std::size_t s = 0; s < names.size(); ++s) try {
    if (names[s] == "human") {
      auto human = std::make_unique<HumanPlayer>(in, out);
      if (const auto* scripted = dynamic_cast<const ScriptedRules*>(rules)) {  // `help` names the rules' README
        std::error_code ignored;
        const auto page = scripted->info().dir / "README.md";
        if (std::filesystem::is_regular_file(page, ignored)) human->set_rules_page(page.string());
      }
      players.push_back(std::move(human));
      continue;
    }
    if (is_external_player(names[s])) {  // cmd:PROGRAM (docs/external-players.md)
      players.push_back(std::make_unique<ExternalPlayer>(names[s], static_cast<int>(s) + 1));
      continue;
    }
    auto bot = make_bot(names[s], derive_seed(seed, 1000 + s), rules);
    if (!bot) throw std::invalid_argument("unknown player '" + printable(cut_for_message(names[s])) + "' (choose human, random, greedy, ismcts[:key=value...] or cmd:PROGRAM)");
    players.push_back(std::move(bot));
  } catch (const SeatPlayerError&) {
    throw;
  } catch (const std::exception& e) {
    throw SeatPlayerError(static_cast<int>(s) + 1, e.what());
  }
  return players;
}

namespace {

#ifdef HOUSERULES_HAVE_READLINE
/// readline's character reader, but a read interrupted by Ctrl-C ends the line (readline's own would retry).
int read_key_or_interrupt(FILE* stream) {
  while (true) {
    unsigned char ch = 0;
    const ssize_t got = ::read(fileno(stream), &ch, 1);
    if (got == 1) return ch;
    if (got == 0 || errno != EINTR || g_interrupted) return EOF;
  }
}
#endif

/// Catches SIGINT (Ctrl-C) for the life of a `play`: the read at the prompt or the bot's move ends and the
/// game stops with a `stopped` line in the transcript. The previous handler comes back afterwards.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupted = 0;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocked read returns
    sigaction(SIGINT, &action, &previous_);
  }
  ~InterruptGuard() { sigaction(SIGINT, &previous_, nullptr); }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction previous_ {};
};

/// Replays the actions of a transcript being resumed onto `state` (checking each as replay does); throws
/// TranscriptError naming the line of the first that does not reproduce.
void replay_for_resume(const std::string& file, const Transcript& t, Rules& rules, GameState& state) {
  for (const TranscriptAction& a : t.actions) {
    auto fail = [&](const std::string& what) {
      return TranscriptError(fmt::format("{}:{}: action {} ('{}'): {}", file, a.line, a.ply, cut_for_message(a.action), what));
    };
    if (state.over()) throw fail("the game is already over");
    if (a.seat != state.to_move()) throw fail(fmt::format("seat {} is to move", state.to_move()));
    const InputLine text = normalize_input_line(a.action);
    const auto action = text ? rules.parse_action(state, text.text) : std::nullopt;
    if (!action) throw fail("not legal in the replayed game");
    rules.apply(state, *action);
    if (!a.digest.empty() && a.digest != digest_text(state.digest())) throw fail("the state after it differs");
  }
}

}  // namespace

int play_command(const PlayOptions& options_in, std::istream& in, std::ostream& out, std::ostream& err) {
  PlayOptions options = options_in;
  Transcript resumed;
  if (!options.resume.empty()) {  // the game, its players and its seed come from the transcript
    try {
      resumed = read_transcript(options.resume);
    } catch (const std::exception& e) {
      err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
      return 2;
    }
    if (resumed.has_result) {
      err << "error: " << cut_for_message(options.resume) << ": the game is over (it has a result line): nothing to resume\n";
      return 2;
    }
    options.ruleset = resumed.ruleset;
    options.seed = resumed.seed;
    options.log = options.resume;
    options.kept_log = false;
    if (options_in.players.empty()) {  // the header's players; a program only when the command line names it
      const std::string at = fmt::format("{}:{}: ", cut_for_message(options.resume), resumed.header_line);
      if (resumed.players.size() != static_cast<std::size_t>(resumed.seats)) {
        err << "error: " << at << fmt::format("header players: {} players for {} seats\n", resumed.players.size(), resumed.seats);
        return 2;
      }
      for (std::size_t s = 0; s < resumed.players.size(); ++s) {
        const std::string& name = resumed.players[s];
        const std::string where = fmt::format("{}header players[{}] (seat {}): ", at, s, s + 1);
        if (is_external_player(name)) {
          err << "error: " << where << "the program " << printable(cut_for_message(name, 80))
              << " is not started from a transcript (it could be anyone's command): name seat " << s + 1
              << "'s player again on the command line, e.g. --resume " << cut_for_message(options.resume)
              << " --players " << (s == 0 ? "cmd:PROGRAM,..." : "...,cmd:PROGRAM") << "\n";
          return 2;
        }
      }
      options.players = resumed.players;
    } else if (options_in.players.size() != static_cast<std::size_t>(resumed.seats)) {
      err << "error: --players names " << options_in.players.size() << " players but the game of "
          << cut_for_message(options.resume) << " has " << resumed.seats << " seats\n";
      return 2;
    }
  }
  std::unique_ptr<ScriptedRules> rules;
  try {
    if (!options.resume.empty()) {  // the rules as replay finds them: path, id, seats, --set, parameters checked
      options.overrides = resumed.overrides;
      rules = load_transcript_rules(options.resume, resumed);
    } else {
      if (!options.players.empty()) {  // a seat count the ruleset does not take: name the file and --players
        const RulesetInfo info = find_ruleset(options.ruleset);
        const int seats = static_cast<int>(options.players.size());
        if (seats < info.min_players || seats > info.max_players) {
          const std::string range = std::to_string(info.min_players) +
                                    (info.max_players > info.min_players ? " to " + std::to_string(info.max_players) : "");
          const std::string what = info.variants.empty() ? printable(cut_for_message(options.ruleset))
                                                         : printable(cut_for_message(info.variants.back().file.string()));
          std::string example = "human";
          for (int s = 1; s < info.min_players; ++s) example += ",greedy";
          err << fmt::format("error: {} ({}) is played by {} players, not {}: give --players {} names, one per seat "
                             "(e.g. --players {})\n", what, printable(info.id), range, seats, range, example);
          return 2;
        }
      }
      LoadOptions load;
      load.seats = static_cast<int>(options.players.size());
      load.overrides = options.overrides;
      rules = load_rules(options.ruleset, load);
    }
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  }
  std::vector<std::string> names = options.players;
  if (names.empty()) {  // no --players: you in seat 1, greedy bots in the others
    names.assign(static_cast<std::size_t>(rules->layout().seats), "greedy");
    names.front() = "human";
  }
  std::vector<std::unique_ptr<Player>> players;
  try {
    players = make_players(names, options.seed, in, out, rules.get());
  } catch (const SeatPlayerError& e) {
    if (!options.resume.empty() && options_in.players.empty())  // the header's player: name the file and line
      err << fmt::format("error: {}:{}: header players[{}] (seat {}): {}\n", cut_for_message(options.resume),
                         resumed.header_line, e.seat() - 1, e.seat(), e.what());
    else
      err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  }
  int humans = 0;
  for (auto& p : players)
    if (auto* human = dynamic_cast<HumanPlayer*>(p.get())) {
      ++humans;
      human->set_colour(options.colour);
#ifdef HOUSERULES_HAVE_READLINE
      human->set_line_editing(options.line_editing);
#endif
    }
#ifdef HOUSERULES_HAVE_READLINE
  if (options.line_editing) {
    rl_catch_signals = 0;
    rl_getc_function = read_key_or_interrupt;
  }
#endif
  GameState state;
  try {
    state = rules->new_game(options.seed);
    if (!options.resume.empty()) replay_for_resume(options.resume, resumed, *rules, state);
  } catch (const TranscriptError& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 1;
  }
  std::ofstream log_file;
  std::unique_ptr<TranscriptWriter> log;
  if (!options.log.empty()) {
    log_file.open(options.log, options.resume.empty() ? std::ios::out : std::ios::app);
    if (!log_file) {
      err << "error: cannot write the transcript file " << cut_for_message(options.log) << '\n';
      return 2;
    }
    log = std::make_unique<TranscriptWriter>(log_file, options.log);
    if (options.resume.empty())
      log->header(options.ruleset, rules->layout().seats, options.seed, names, rules->params_json(), options.overrides,
                  rules->id());
    else
      log->resumed(state);
  }
  if (!options.quiet) {
    std::string heading = fmt::format("{} ({}), seed {}:", printable(rules->info().name), printable(rules->id()), options.seed);
    for (std::size_t s = 0; s < names.size(); ++s) heading += fmt::format(" seat {} = {}", s + 1, names[s]);
    const auto lines = wrap_words(heading, 0, line_width(out), 2);  // 100 columns, or the terminal's width
    for (const auto& line : lines) out << line << '\n';
    if (!options.resume.empty())
      out << fmt::format("Resuming {} after its {} actions.\n", cut_for_message(options.resume), state.ply());
  }
  int viewer = 1;  // the end-of-round table and the turn summaries are for the first human seat, else seat 1
  for (std::size_t s = names.size(); s-- > 0;)
    if (names[s] == "human") viewer = static_cast<int>(s) + 1;
  MatchPrinter printer(out, *rules, names, options.quiet, viewer, options.colour);
  if (humans >= 2) {  // people taking turns at one terminal: each is told only what its seat may see
    std::vector<int> people;
    for (std::size_t s = 0; s < names.size(); ++s)
      if (names[s] == "human") people.push_back(static_cast<int>(s) + 1);
    printer.hide_between(people);
  }
  if (!options.quiet && state.ply() == 0) printer.round_start(state.round());
  std::vector<Action> legal;
  GameState round_end_position;
  std::vector<GameState> decisions;  // the state before each human decision, for `undo`
  int last_human = 0;                // with two humans at one terminal: who had the screen last
  InterruptGuard guard;
  try {
    while (!state.over()) {
      if (interrupted()) throw InputEnded("interrupted (Ctrl-C)");
      if (state.ply() >= kMaxPlies) throw RulesError(too_long(state));
      rules->legal_actions(state, legal);
      if (legal.empty())
        throw RulesError(fmt::format("seat {} has no legal action but the game is not over (a bug in the rules)", state.to_move()));
      const int seat = state.to_move();
      const int round = state.round();
      const bool human = names[static_cast<std::size_t>(seat - 1)] == "human";
      printer.before(state);  // a new seat's turn: the last one's line is printed first
      if (human) {
        if (humans >= 2 && last_human != seat && !options.quiet) {  // hide the other hand: pass the terminal
          // A terminal: clear the screen and its scrollback (ESC[3J), where the last seat's hand still is.
          const char* clear = options.line_editing ? "\033[H\033[2J\033[3J" : "";
          out << clear << fmt::format("Pass the terminal to seat {} and press Enter.", seat) << std::flush;
          std::string ignored;
          if (!read_bounded_line(in, ignored)) throw InputEnded("end of input");
          if (interrupted()) throw InputEnded("interrupted (Ctrl-C)");
          out << clear << (*clear ? "" : "\n");
        }
        if (humans >= 2) printer.catch_up(seat);  // what happened since its last turn, as this seat sees it
        last_human = seat;
        if (legal.size() > 1) decisions.push_back(state);  // a forced action is no decision to go back to
      }
      Action action;
      try {
        action = players[static_cast<std::size_t>(seat - 1)]->choose(*rules, InformationSet(state, seat, legal));
      } catch (const UndoRequested&) {
        printer.flush();
        decisions.pop_back();  // this decision's position (pushed again when the loop comes back to it)
        if (humans >= 2 || decisions.empty()) {
          out << (humans >= 2 ? "Undo is only for a game against bots.\n" : "Nothing to undo: this is your first decision.\n");
          continue;
        }
        // Going back past a card you have since seen would let you choose again knowing it: refused, with the reason.
        if (const std::string refusal = undo_refusal(decisions.back(), state, seat); !refusal.empty()) {
          out << refusal << '\n';
          continue;
        }
        state = decisions.back();
        decisions.pop_back();
        for (auto& p : players)
          if (auto* h = dynamic_cast<HumanPlayer*>(p.get())) h->clear_pending();
        if (log) log->undo(state);
        printer.flush();
        out << fmt::format("Undone: back to your decision at action {}.\n", state.ply() + 1);
        last_human = seat;
        continue;
      }
      const std::string text = rules->action_text(state, action);
      rules->apply(state, action, &round_end_position);
      if (log) log->action(state, round, seat, text, legal.size());
      for (auto& p : players) if (p->follows_moves()) p->action_played(seat, text);  // external programs' seats
      const bool round_over = state.round() != round || state.over();
      printer.action(seat, text, round_over ? round_end_position : state);
      if (round_over) {
        printer.round_end(state, round_end_position);
        if (!state.over()) printer.round_start(state.round());
      }
    }
  } catch (const InputEnded& e) {
    printer.flush();
    out << "\nThe game stops here (" << e.what() << ") after " << state.ply() << " actions.\n";
    if (log) {
      log->stopped(e.what(), state);
      out << (options.kept_log ? "The game is kept in " + printable(shell_word(options.log)) + ".\n" : std::string())
          << "Resume with: houserules play --resume " << printable(shell_word(options.log)) << '\n';
    }
    return 0;
  } catch (const std::exception& e) {
    printer.flush();
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    if (log) log->stopped(std::string("error: ") + e.what(), state);
    return 1;
  }
  try {
    for (auto& p : players) p->match_over(*rules, state);
    printer.result(state);
    if (log) log->result(*rules, state);
    if (options.kept_log) {  // a finished game cannot be resumed: the state folder keeps only unfinished ones
      log.reset();
      log_file.close();
      std::remove(options.log.c_str());
    }
  } catch (const std::exception& e) {  // the ranks hook failed or gave invalid places
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    if (log) log->stopped(std::string("error: ") + e.what(), state);
    return 1;
  }
  return 0;
}

int replay_command(const std::string& file, bool quiet, std::ostream& out, std::ostream& err) {
  Transcript t;
  std::unique_ptr<ScriptedRules> rules;
  try {
    t = read_transcript(file);
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  }
  try {
    rules = load_transcript_rules(file, t);  // its ruleset, seats and --set; its parameters checked
  } catch (const std::exception& e) {  // names the file and the header's line
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 2;
  }
  return replay_transcript(file, t, *rules, quiet, out, err);
}

int replay_transcript(const std::string& file, const Transcript& t, Rules& rules_ref, bool quiet, std::ostream& out,
                      std::ostream& err) {
  Rules* rules = &rules_ref;
  std::vector<std::string> names = t.players;
  names.resize(static_cast<std::size_t>(rules->layout().seats), "?");
  if (!quiet) out << fmt::format("Replaying {} ({}), seed {}, {} actions\n", file, rules->id(), t.seed, t.actions.size());
  int viewer = 1;  // as play: the first human seat, else seat 1
  for (std::size_t s = names.size(); s-- > 0;)
    if (names[s] == "human") viewer = static_cast<int>(s) + 1;
  MatchPrinter printer(out, *rules, names, quiet, viewer, false);
  GameState state;
  std::vector<Action> legal;
  GameState round_end_position;
  auto differs = [&](const TranscriptAction& a, const std::string& what) {
    printer.flush();
    err << fmt::format("{}:{}: action {} (seat {}: '{}') differs: {}\n", file, a.line, a.ply, a.seat,
                      cut_for_message(a.action), what);
    return 1;
  };
  try {
    state = rules->new_game(t.seed);
    printer.round_start(state.round());
    for (const TranscriptAction& a : t.actions) {
      if (state.over()) return differs(a, "the replayed game is already over");
      if (state.ply() >= kMaxPlies) throw RulesError(too_long(state));
      if (a.seat != state.to_move()) return differs(a, fmt::format("seat {} is to move in the replayed game", state.to_move()));
      rules->legal_actions(state, legal);
      if (a.legal >= 0 && static_cast<std::size_t>(a.legal) != legal.size())
        return differs(a, fmt::format("the recorded game had {} legal actions, the replayed game has {}", a.legal, legal.size()));
      const InputLine text = normalize_input_line(a.action);
      if (!text) return differs(a, "not an action: " + text.error);
      const auto action = rules->parse_action(state, text.text);
      if (!action) return differs(a, "not legal in the replayed game: " + rules->explain_illegal(state, text.text));
      const int round = state.round();
      printer.before(state);
      rules->apply(state, *action, &round_end_position);
      if (!a.digest.empty() && a.digest != digest_text(state.digest()))
        return differs(a, "the state after it differs from the recorded game (digest " + digest_text(state.digest()) +
                              ", recorded " + a.digest + ")");
      const bool round_over = state.round() != round || state.over();
      printer.action(a.seat, a.action, round_over ? round_end_position : state);
      if (round_over) {
        printer.round_end(state, round_end_position);
        if (!state.over()) printer.round_start(state.round());
      }
    }
  } catch (const std::exception& e) {
    printer.flush();
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 1;
  }
  printer.flush();
  if (!t.stopped_reason.empty()) {
    if (!quiet) out << "The recorded game was stopped (" << t.stopped_reason << "); replayed up to there.\n";
    return 0;
  }
  if (!t.has_result) {
    err << file << ": truncated transcript: no result line after " << t.actions.size() << " actions\n";
    return 1;
  }
  if (!state.over()) {
    err << file << ": the transcript ends but the replayed game is not over\n";
    return 1;
  }
  if (state.match_scores() != t.match_scores) {
    err << file << ": the replayed match scores differ from the recorded result\n";
    return 1;
  }
  try {
    printer.result(state);
  } catch (const std::exception& e) {
    err << wrapped_for(err, std::string("error: ") + e.what()) << '\n';
    return 1;
  }
  if (!quiet) out << "Replay reproduces the recorded game.\n";
  return 0;
}

}  // namespace hr
