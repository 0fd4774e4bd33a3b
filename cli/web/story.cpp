// story.cpp — the log of a game as turns and round ends for the page (see story.hpp).
#include "story.hpp"

#include <vector>

#include <fmt/format.h>

#include "play/play.hpp"
#include "scripted_rules.hpp"

namespace hr {

using nlohmann::json;

namespace {

/// What `viewer` sees of `state`: its observation, or the whole state for viewer 0.
GameState seen_by_viewer(const GameState& state, int viewer) { return viewer > 0 ? state.observation(viewer) : state; }

}  // namespace

json story_json(ScriptedRules& rules, const GameState& start, std::span<const StoryAction> actions, int viewer,
                const std::function<bool()>& out_of_time) {
  json story = json::array();
  GameState state = start, before = start, round_end;
  std::vector<std::string> texts;
  std::size_t first = 0;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const StoryAction& a = actions[i];
    if (texts.empty() && out_of_time && out_of_time()) {  // slow rules: the rest of the log is not told
      story.push_back({{"seat", a.seat}, {"first", i + 1}, {"last", actions.size()},
                       {"summary", fmt::format("({} more actions not told)", actions.size() - i)},
                       {"error", "the log stops here: the server's time budget for one request ran out"}});
      break;
    }
    if (texts.empty()) {
      before = state;
      first = i + 1;
    }
    const int round = state.round();
    rules.apply(state, a.action, &round_end);
    texts.push_back(a.text);
    const bool round_over = state.round() != round || state.over();
    const bool turn_over = round_over || i + 1 == actions.size() || actions[i + 1].seat != a.seat;
    if (!turn_over) continue;
    const GameState& after_turn = round_over ? round_end : state;
    json entry = {{"seat", a.seat}, {"first", first}, {"last", i + 1}};
    if (viewer < 0) {  // a spectator: the action texts only (the public log), no hook sees any state
      std::string line;
      for (const auto& t : texts) line += (line.empty() ? "" : ", ") + t;
      entry["summary"] = line;
    } else try {
      const TurnChanges changes = turn_changes(seen_by_viewer(before, viewer), seen_by_viewer(after_turn, viewer),
                                               viewer, false, texts);
      entry["summary"] = turn_summary_text(rules, seen_by_viewer(after_turn, viewer), a.seat, changes);
    } catch (const std::exception& e) {
      std::string line;
      for (const auto& t : texts) line += (line.empty() ? "" : ", ") + t;
      entry["summary"] = line;
      entry["error"] = e.what();
    }
    texts.clear();
    if (round_over && !state.round_scores().empty()) {
      const GameState shown = viewer < 0 ? round_end : every_card_revealed(round_end);
      json breakdown = json::array();
      for (int s = 1; s <= rules.layout().seats; ++s) {
        if (viewer < 0) {
          breakdown.push_back(nullptr);
          continue;
        }
        try {
          const auto parts = rules.score_breakdown(shown, s);
          breakdown.push_back(parts ? json(*parts) : json(nullptr));
        } catch (const std::exception& e) {
          breakdown.push_back(std::string("(score_breakdown failed: ") + e.what() + ")");
        }
      }
      entry["round_end"] = {{"round", state.round_scores().size()},
                            {"scores", state.round_scores().back()},
                            {"totals", state.match_scores()},
                            {"breakdown", breakdown}};
    }
    story.push_back(std::move(entry));
  }
  return story;
}

}  // namespace hr
