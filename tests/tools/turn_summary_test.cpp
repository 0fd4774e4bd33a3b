// turn_summary_test.cpp — the line `play` prints for each seat's turn (issue 12): each shipped ruleset's
// `turn_summary` hook names what happened (the card drawn, the auction won and for how much, the reserve
// shared, the tile a figure reached, what a Lost Valley action resolved), from the viewer's observations only
// (an opponent's card drawn from the deck is never named), and a broken hook is an error naming its file.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bots.hpp"
#include "play/play.hpp"
#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"

namespace fs = std::filesystem;

namespace {

/// One seat's turn as seat `viewer` saw it: the actions, the true states around it, and play's line.
struct Turn {
  int seat = 0;
  std::vector<std::string> texts;
  hr::GameState before, after;  // the true states
  std::string line;             // turn_summary_text on the viewer's observations
};

/// The turns of a random game of `rules` (a turn: one seat's run of actions, as play prints them), each line
/// made for `viewer` (the person at the terminal). Stops after `max_turns`.
std::vector<Turn> random_turns(hr::Rules& rules, std::uint64_t seed, int viewer, int max_turns = 400) {
  std::vector<Turn> turns;
  hr::GameState state = rules.new_game(seed);
  hr::Rng rng(seed + 1);
  std::vector<hr::Action> legal;
  while (!state.over() && static_cast<int>(turns.size()) < max_turns) {
    Turn turn;
    turn.seat = state.to_move();
    turn.before = state;
    const int round = state.round();
    hr::GameState after = state;
    while (!state.over() && state.to_move() == turn.seat && state.round() == round) {
      rules.legal_actions(state, legal);
      REQUIRE(!legal.empty());
      const hr::Action a = legal[rng.below(legal.size())];
      turn.texts.push_back(rules.action_text(state, a));
      rules.apply(state, a, &after);
      if (state.round() != round || state.over()) break;  // `after`: the round's final position
      after = state;
    }
    turn.after = after;
    const hr::GameState view = after.observation(viewer);
    turn.line = hr::turn_summary_text(rules, view, turn.seat,
                                      hr::turn_changes(turn.before.observation(viewer), view, viewer, true, turn.texts));
    turns.push_back(std::move(turn));
  }
  return turns;
}

bool has_word(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool start = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
    const std::size_t end = at + word.size();
    if (start && (end == text.size() || !std::isalnum(static_cast<unsigned char>(text[end])))) return true;
  }
  return false;
}

/// The cards in `zone` of `after` that were not there in `before` (true states).
std::vector<std::string> arrived(const hr::GameState& before, const hr::GameState& after, const std::string& zone) {
  const hr::Layout& layout = after.layout();
  hr::ZoneId z = 0;
  while (layout.zones[z].name != zone) ++z;
  std::vector<std::string> out;
  for (hr::ComponentId c : after.cards(z)) {
    const hr::Place was = before.place_of(c);
    if (!(was.in_zone() && was.zone == z)) out.push_back(layout.components[c].name);
  }
  return out;
}

std::string path_of(const std::string& id) { return (fs::path(HOUSERULES_SOURCE_DIR) / "rulesets" / id).string(); }

}  // namespace

TEST_CASE("turn summaries: Lost Cities names your draw, the card played, and never an opponent's draw", "[play][summary]") {
  auto rules = hr::load_rules(path_of("lost-cities"));
  int own_draws = 0, hidden_draws = 0, plays = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    for (const Turn& t : random_turns(*rules, seed, 1)) {
      INFO(t.line);
      const bool from_deck = t.texts.size() == 2 && t.texts[1] == "draw deck";
      const auto drawn = arrived(t.before, t.after, "hand." + std::to_string(t.seat));
      if (t.texts[0].rfind("play ", 0) == 0) {
        CHECK(t.line.find("played " + t.texts[0].substr(5) + " (") != std::string::npos);
        ++plays;
      }
      if (t.texts[0].rfind("discard ", 0) == 0) CHECK(t.line.find("discarded " + t.texts[0].substr(8)) != std::string::npos);
      if (!from_deck || drawn.size() != 1) continue;
      if (t.seat == 1) {
        CHECK(t.line.find("you drew " + drawn[0] + " from the deck") != std::string::npos);
        ++own_draws;
      } else if (drawn[0].back() != 'x') {  // wagers have copies: a copy may be named as the card played
        CHECK(t.line.find("drew from the deck") != std::string::npos);
        CHECK_FALSE(has_word(t.line, drawn[0]));
        ++hidden_draws;
      }
    }
  CHECK(own_draws > 10);
  CHECK(hidden_draws > 10);
  CHECK(plays > 10);
}

TEST_CASE("turn summaries: Rivals names the card revealed, the auction's winner and price, the reserve shared", "[play][summary]") {
  auto rules = hr::load_rules(path_of("lost-cities-rivals"));
  const hr::Layout& layout = rules->layout();
  int won = 0, reveals = 0, shares = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    for (const Turn& t : random_turns(*rules, seed, 1, 2000)) {
      INFO(t.line);
      CHECK(t.line.find("passed +") == std::string::npos);  // no counter noise
      CHECK(t.line.find("(now") == std::string::npos);
      const auto river = arrived(t.before, t.after, "river");
      if (t.texts.back() == "reveal" && !river.empty()) {
        CHECK(t.line.find("revealed " + river.back() + " into the river") != std::string::npos);
        ++reveals;
      }
      // An auction won in this run of actions: the winner paid the bid (true states: coins before and after).
      if (t.after.phase() == 2 && t.before.phase() != 2) {
        const int winner = static_cast<int>(t.after.counter(2, 0));  // high
        const auto price = t.before.counter(0, winner) - t.after.counter(0, winner);
        const std::string who = winner == 1 ? "you" : "seat " + std::to_string(winner);
        CHECK(t.line.find(who + " won the auction for " + std::to_string(price) + (price == 1 ? " coin" : " coins")) !=
              std::string::npos);
        ++won;
      }
      const auto reserve_before = t.before.counter(0, 0), reserve_after = t.after.counter(0, 0);
      if (t.after.counter(5, 0) > t.before.counter(5, 0) && reserve_after < reserve_before) {  // a pile ran out
        CHECK(t.line.find("gold reserve (" + std::to_string(reserve_before)) != std::string::npos);
        CHECK(t.line.find("shared") != std::string::npos);
        ++shares;
      }
    }
  CHECK(layout.counters[2].name == "high");
  CHECK(layout.counters[5].name == "pile");
  CHECK(won > 10);
  CHECK(reveals > 10);
  CHECK(shares >= 1);
}

TEST_CASE("turn summaries: the board game says where the figure went and what its tile gave", "[play][summary]") {
  auto rules = hr::load_rules(path_of("lost-cities-board"));
  int steps = 0, vp = 0, hidden_draws = 0;
  for (std::uint64_t seed = 1; seed <= 2; ++seed)
    for (const Turn& t : random_turns(*rules, seed, 1)) {
      INFO(t.line);
      if (t.texts[0].rfind("play ", 0) == 0) {
        const std::string card = t.texts[0].substr(5, t.texts[0].find(' ', 5) - 5);
        CHECK(t.line.find("played " + card + ": ") != std::string::npos);
        if (t.line.find(" to step ") != std::string::npos) ++steps;
      }
      const auto vp_before = t.before.counter(0, t.seat), vp_after = t.after.counter(0, t.seat);
      if (vp_after > vp_before && t.before.round() == t.after.round()) {
        CHECK(t.line.find("VP tile: +" + std::to_string(vp_after - vp_before) + " VP chips") != std::string::npos);
        ++vp;
      }
      const auto drawn = arrived(t.before, t.after, "hand." + std::to_string(t.seat));
      if (t.seat == 2 && t.texts.back() == "draw deck" && drawn.size() == 1 && !has_word(t.texts[0], drawn[0])) {
        CHECK(t.line.find("drew from the deck") != std::string::npos);
        CHECK_FALSE(has_word(t.line, drawn[0]));
        ++hidden_draws;
      }
    }
  CHECK(steps > 10);
  CHECK(vp >= 1);
  CHECK(hidden_draws > 10);
}

TEST_CASE("turn summaries: Lost Valley names what each action resolved, an opponent's gold face down", "[play][summary]") {
  auto rules = hr::load_rules(path_of("lost-valley"));
  int own_gold = 0, other_gold = 0, moves = 0;
  for (const Turn& t : random_turns(*rules, 5, 1, 300)) {
    INFO(t.line);
    CHECK(t.line.find("(now") == std::string::npos);  // no counter noise
    CHECK(t.line.find("end turn") == std::string::npos);
    for (const std::string& text : t.texts)
      if (text.rfind("move ", 0) == 0) {
        CHECK(t.line.find("moved to " + text.substr(5)) != std::string::npos);
        ++moves;
      }
    const auto gold = arrived(t.before, t.after, "gold." + std::to_string(t.seat));
    if (gold.empty()) continue;
    if (t.seat == 1) {
      CHECK(t.line.find("you got " + gold[0] + " (") != std::string::npos);
      ++own_gold;
    } else {
      CHECK(t.line.find("gold bag now ") != std::string::npos);
      for (const std::string& token : gold) CHECK_FALSE(has_word(t.line, token));  // face down: not named
      ++other_gold;
    }
  }
  CHECK(moves > 20);
  CHECK(own_gold >= 1);
  CHECK(other_gold >= 1);
}

TEST_CASE("turn summaries: play prints every ruleset's turn lines within 100 columns", "[play][summary]") {
  for (const char* id : {"lost-cities", "lost-cities-board", "lost-cities-rivals", "lost-valley"}) {
    hr::PlayOptions options;
    options.ruleset = path_of(id);
    options.players.assign(std::string(id) == "lost-valley" ? 3 : 2, "random");
    options.seed = 7;
    std::istringstream in;
    std::ostringstream out, err;
    INFO(id << "\n" << err.str());
    REQUIRE(hr::play_command(options, in, out, err) == 0);
    std::istringstream lines(out.str());
    int turn_lines = 0;
    for (std::string line; std::getline(lines, line);) {
      INFO(line);
      CHECK(line.size() <= 100);
      if (line.rfind("  seat 2 (random): ", 0) == 0) ++turn_lines;
    }
    CHECK(turn_lines > 5);
  }
}

namespace {

/// A variant of Lost Cities (in a temporary folder) whose turn_summary is `body`; the variant file's path.
std::string broken_variant(const std::string& name, const std::string& body) {
  const fs::path dir = fs::temp_directory_path() / ("hr-turn-summary-" + name);
  fs::create_directories(dir);
  std::ofstream(dir / "broken.toml") << "extends = \"" << path_of("lost-cities") << "\"\nname = \"Broken\"\n"
                                     << "description = \"a broken turn_summary\"\nscript = \"broken.lua\"\n";
  std::ofstream(dir / "broken.lua") << "local rules = ...\n\nfunction rules.turn_summary(view, seat, turn)\n  " << body
                                    << "\nend\n\nreturn rules\n";
  return (dir / "broken.toml").string();
}

/// What `play` says on stderr (and its status) for a bot game of `variant`.
std::pair<int, std::string> play_bots(const std::string& variant) {
  hr::PlayOptions options;
  options.ruleset = variant;
  options.players = {"random", "random"};
  options.seed = 3;
  std::istringstream in;
  std::ostringstream out, err;
  const int status = hr::play_command(options, in, out, err);
  return {status, err.str()};
}

}  // namespace

TEST_CASE("turn summaries: a broken hook is an error naming the hook and its file", "[play][summary]") {
  // {what the hook does, what the error must say}: each stops play (status 1) naming the file and line.
  const std::vector<std::vector<std::string>> cases = {
      {"number", "return 42", "broken.lua:3", "must return a string or nil, not a number"},
      {"error", "error(\"no summary today\")", "broken.lua:4", "no summary today"},
      {"lines", "return \"one\\ntwo\"", "broken.lua:3", "control character"},
  };
  for (const auto& c : cases) {
    const auto result = play_bots(broken_variant(c[0], c[1]));
    INFO(c[0] << ": " << result.second);
    CHECK(result.first == 1);
    CHECK(result.second.find(c[2]) != std::string::npos);
    CHECK(result.second.find(c[3]) != std::string::npos);
    if (c[0] != "error") CHECK(result.second.find("hook 'turn_summary'") != std::string::npos);
  }
  {  // nil: play falls back to the action texts and what changed
    const std::string variant = broken_variant("nil", "return nil");
    hr::PlayOptions options;
    options.ruleset = variant;
    options.players = {"human", "random"};
    options.seed = 3;
    std::istringstream in("1\n1\nquit\n");
    std::ostringstream out, err;
    REQUIRE(hr::play_command(options, in, out, err) == 0);
    CHECK(out.str().find(" - you drew ") != std::string::npos);  // the generic line: "play Y7, draw deck - you drew R3"
  }
}
