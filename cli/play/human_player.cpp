// human_player.cpp — HumanPlayer (play.hpp): the person at the prompt. Their table and the numbered legal
// actions (in a stable order: the cards of their hand by verb, then by the card's place in the layout), a line
// read (through readline at a terminal), and what it means: an action's text or number, a shorthand of
// several, help, undo, quit, or a one-line refusal and the prompt again.
#include "play.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "input_line.hpp"
#include "interrupt.hpp"
#include "printable.hpp"
#include "terminal_style.hpp"

#ifdef HOUSERULES_HAVE_READLINE
#include <cstdio>
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace hr {

namespace {

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

}  // namespace hr
