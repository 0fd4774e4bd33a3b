// lost_cities_playout_test.cpp — whole games of Lost Cities: random playouts of the scripted ruleset
// (invariants after every action, replay from the action texts), scripted against the native C++ reference
// (identical games, ply by ply), and hand-checked positions of the native reference (scoring, legality).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lost_cities_native.hpp"
#include "rng.hpp"
#include "scripted_rules.hpp"

namespace {

using hr::Action;
using hr::ComponentId;
using hr::GameState;
using hr::Rules;
using hr::ZoneId;

/// The texts of the legal actions of `state`, in the ruleset's order.
std::vector<std::string> legal_texts(Rules& rules, const GameState& state) {
  std::vector<std::string> out;
  for (Action a : rules.legal_actions(state)) out.push_back(rules.action_text(state, a));
  return out;
}

/// The first component named `name`, or the n-th copy (0-based) of it.
ComponentId card(const Rules& rules, const std::string& name, std::size_t copy = 0) {
  const auto& ids = rules.layout().components_named(name);
  REQUIRE(ids.size() > copy);
  return ids[copy];
}

std::int64_t int_attribute(const hr::Component& c, const char* key) {
  const hr::AttributeValue* v = c.attribute(key);
  if (v == nullptr) throw std::runtime_error("component '" + c.name + "' has no attribute '" + key + "'");
  if (const auto* i = std::get_if<std::int64_t>(v)) return *i;
  if (const auto* d = std::get_if<double>(v)) return static_cast<std::int64_t>(*d);
  throw std::runtime_error("attribute '" + std::string(key) + "' of '" + c.name + "' is not a number");
}

bool bool_attribute(const hr::Component& c, const char* key) {
  const hr::AttributeValue* v = c.attribute(key);
  if (v == nullptr) throw std::runtime_error("component '" + c.name + "' has no attribute '" + key + "'");
  if (const auto* b = std::get_if<bool>(v)) return *b;
  throw std::runtime_error("attribute '" + std::string(key) + "' of '" + c.name + "' is not a boolean");
}

/// Checks the expedition columns of a state: wagers only before numbers, numbers strictly increasing.
/// Values come from the layout's attributes (read once), so it checks any Lost Cities layout.
class ColumnChecker {
 public:
  explicit ColumnChecker(const hr::Layout& layout) {
    for (const auto& c : layout.components) {
      value_.push_back(int_attribute(c, "value"));
      wager_.push_back(bool_attribute(c, "wager"));
    }
    for (std::size_t z = 0; z < layout.zones.size(); ++z)
      if (layout.zones[z].name.rfind("expedition.", 0) == 0) columns_.push_back(static_cast<ZoneId>(z));
  }
  std::size_t columns() const { return columns_.size(); }

  /// Empty if every column is in order, else a description of the first one that is not.
  std::string check(const GameState& state) const {
    for (ZoneId z : columns_) {
      bool number_seen = false;
      std::int64_t last = 0;
      for (ComponentId c : state.cards(z)) {
        const bool bad = wager_[c] ? number_seen : (number_seen && value_[c] <= last);
        if (bad)
          return "column '" + state.layout().zones[z].name + "' is out of order at '" +
                 state.layout().components[c].name + "'";
        if (!wager_[c]) number_seen = true, last = value_[c];
      }
    }
    return {};
  }

 private:
  std::vector<std::int64_t> value_;
  std::vector<bool> wager_;
  std::vector<ZoneId> columns_;
};

std::string describe_layout_difference(const hr::Layout& a, const hr::Layout& b) {
  if (a.seats != b.seats) return "seats differ";
  if (a.rounds != b.rounds) return "rounds differ";
  if (a.components.size() != b.components.size()) return "component counts differ";
  for (std::size_t c = 0; c < a.components.size(); ++c) {
    const auto& x = a.components[c];
    const auto& y = b.components[c];
    if (x.name != y.name) return "component " + std::to_string(c + 1) + ": '" + x.name + "' vs '" + y.name + "'";
    for (const char* key : {"colour", "colour_index", "value", "wager"}) {
      const auto* vx = x.attribute(key);
      const auto* vy = y.attribute(key);
      if (vx == nullptr || vy == nullptr || *vx != *vy)
        return "component '" + x.name + "': attribute '" + key + "' differs";
    }
  }
  if (a.zones.size() != b.zones.size()) return "zone counts differ";
  for (std::size_t z = 0; z < a.zones.size(); ++z) {
    const auto& x = a.zones[z];
    const auto& y = b.zones[z];
    if (x.name != y.name) return "zone " + std::to_string(z + 1) + ": '" + x.name + "' vs '" + y.name + "'";
    if (x.visibility != y.visibility) return "zone '" + x.name + "': visibility differs";
    if (a.grant_mask(static_cast<ZoneId>(z)) != b.grant_mask(static_cast<ZoneId>(z)))
      return "zone '" + x.name + "': seats that see it differ";
  }
  if (a.counters.size() != b.counters.size()) return "counter counts differ";
  for (std::size_t i = 0; i < a.counters.size(); ++i)
    if (a.counters[i].name != b.counters[i].name || a.counters[i].per_seat != b.counters[i].per_seat ||
        a.counters[i].initial != b.counters[i].initial)
      return "counter " + std::to_string(i + 1) + " differs";
  return {};
}

}  // namespace

// ---- (a) the scripted ruleset: random playouts -----------------------------------------------------------

TEST_CASE("lost-cities (scripted): 1000 random matches keep every invariant and replay from their texts",
          "[lost-cities][playout]") {
  auto rules = hr::load_rules("lost-cities");
  const ColumnChecker columns(rules->layout());
  REQUIRE(rules->layout().components.size() == 60);
  REQUIRE(columns.columns() == 10);

  std::vector<Action> legal;
  std::vector<std::vector<Action>> legal_record;
  std::vector<std::string> text_record;
  std::int64_t plies = 0;
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    INFO("seed " << seed);
    GameState state = rules->new_game(seed);
    hr::Rng picker(hr::derive_seed(seed, 1));
    legal_record.clear();
    text_record.clear();
    {
      const std::string broken = state.check_invariants();
      if (!broken.empty()) FAIL("after new_game: " << broken);
    }
    while (true) {
      rules->legal_actions(state, legal);
      if (state.over()) {
        if (!legal.empty()) FAIL("legal actions after the end of the match");
        break;
      }
      if (legal.empty()) FAIL("no legal action at ply " << state.ply() << " of an unfinished match");
      const Action a = legal[picker.below(legal.size())];
      legal_record.push_back(legal);
      text_record.push_back(rules->action_text(state, a));
      rules->apply(state, a);
      const std::string broken = state.check_invariants();
      if (!broken.empty()) FAIL("after '" << text_record.back() << "' (ply " << state.ply() << "): " << broken);
      const std::string disorder = columns.check(state);
      if (!disorder.empty()) FAIL("after '" << text_record.back() << "' (ply " << state.ply() << "): " << disorder);
    }
    plies += state.ply();
    REQUIRE(state.round_scores().size() == 3);

    // Replay the texts on a fresh game with the same seed.
    GameState replay = rules->new_game(seed);
    for (std::size_t i = 0; i < text_record.size(); ++i) {
      rules->legal_actions(replay, legal);
      if (legal != legal_record[i]) FAIL("replay: legal actions differ at ply " << i);
      const auto parsed = rules->parse_action(replay, text_record[i]);
      if (!parsed) FAIL("replay: '" << text_record[i] << "' does not parse at ply " << i);
      rules->apply(replay, *parsed);
    }
    REQUIRE(replay.over());
    REQUIRE(replay.digest() == state.digest());
    REQUIRE(replay.match_scores() == state.match_scores());
    REQUIRE(replay.round_scores() == state.round_scores());
  }
  INFO("plies " << plies);
  CHECK(plies > 1000 * 3 * 2 * 22);  // at least 22 turns a round (44 deck cards, two players)
}

// ---- (b) scripted == native ------------------------------------------------------------------------------

TEST_CASE("lost-cities: the scripted ruleset and the native reference play identical games",
          "[lost-cities][native]") {
  auto scripted = hr::load_rules("lost-cities");
  hr::NativeLostCities native;
  {
    const std::string difference = describe_layout_difference(scripted->layout(), native.layout());
    INFO(difference);
    REQUIRE(difference.empty());
  }

  std::vector<Action> legal_s, legal_n;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    INFO("seed " << seed);
    GameState s = scripted->new_game(seed);
    GameState n = native.new_game(seed);
    REQUIRE(s.digest() == n.digest());
    hr::Rng picker(hr::derive_seed(seed, 2));
    const bool all_texts = seed <= 20;  // every legal action's text on the first seeds, the chosen one after
    while (true) {
      INFO("round " << s.round() << ", ply " << s.ply());
      scripted->legal_actions(s, legal_s);
      native.legal_actions(n, legal_n);
      if (legal_s != legal_n) {
        INFO("scripted: " << Catch::Detail::stringify(legal_texts(*scripted, s)));
        INFO("native:   " << Catch::Detail::stringify(legal_texts(native, n)));
        FAIL("legal actions differ");
      }
      if (all_texts)
        for (Action a : legal_s) REQUIRE(scripted->action_text(s, a) == native.action_text(n, a));
      for (int seat = 1; seat <= 2; ++seat)
        if (scripted->score(s, seat) != native.score(n, seat)) {
          INFO("seat " << seat << " scripted " << scripted->score(s, seat) << " native " << native.score(n, seat));
          FAIL("round scores differ");
        }
      if (s.over()) break;
      const Action a = legal_s[picker.below(legal_s.size())];
      const std::string text = scripted->action_text(s, a);
      REQUIRE(text == native.action_text(n, a));
      scripted->apply(s, a);
      native.apply(n, a);
      if (s.digest() != n.digest()) {
        INFO("after '" << text << "'");
        INFO("scripted state:\n" << hr::render_observation(s, 1));
        INFO("native state:\n" << hr::render_observation(n, 1));
        FAIL("digests differ");
      }
    }
    REQUIRE(s.match_scores() == n.match_scores());
    REQUIRE(s.round_scores() == n.round_scores());
    REQUIRE(s.ranks() == n.ranks());
  }
}

// ---- (c) the native reference by hand ----------------------------------------------------------------------

namespace {

/// A game of the native rules in round 1 with every card back in the deck (unshuffled), seat 1 to move.
GameState empty_table(hr::NativeLostCities& rules) {
  GameState state = rules.new_game(1);
  for (ComponentId c = 0; c < 60; ++c) state.move(c, rules.deck());
  return state;
}

void put(hr::NativeLostCities& rules, GameState& state, ZoneId zone, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    // A copy from the deck if there is one (wagers have three copies), else from the box, else any copy
    // not already in `zone`.
    const auto& ids = rules.layout().components_named(name);
    REQUIRE(!ids.empty());
    ComponentId pick = hr::kNoComponent;
    for (ZoneId from : {rules.deck(), state.layout().box()})
      for (ComponentId id : ids)
        if (pick == hr::kNoComponent && state.place_of(id).zone == from) pick = id;
    for (ComponentId id : ids)
      if (pick == hr::kNoComponent && state.place_of(id).zone != zone) pick = id;
    REQUIRE(pick != hr::kNoComponent);
    state.move(pick, zone);
  }
}

}  // namespace

TEST_CASE("lost-cities (native): layout, deal and first legal actions", "[lost-cities][native]") {
  hr::NativeLostCities rules;
  const hr::Layout& layout = rules.layout();
  REQUIRE(layout.components.size() == 60);
  CHECK(layout.components[0].name == "Yx");
  CHECK(layout.components[3].name == "Y2");
  CHECK(layout.components[11].name == "Y10");
  CHECK(layout.components[12].name == "Bx");
  CHECK(layout.components[59].name == "R10");
  REQUIRE(layout.zones.size() == 19);
  CHECK(layout.zones[0].name == "deck");
  CHECK(layout.zones[3].name == "expedition.1.yellow");
  CHECK(layout.zones[12].name == "expedition.2.red");
  CHECK(layout.zones[13].name == "discard.yellow");
  CHECK(layout.zones[18].name == "box");

  GameState state = rules.new_game(42);
  CHECK(state.check_invariants().empty());
  CHECK(state.size(rules.deck()) == 44);
  CHECK(state.size(rules.hand(1)) == 8);
  CHECK(state.size(rules.hand(2)) == 8);
  CHECK(state.to_move() == 1);
  CHECK(state.phase() == 0);
  // Round 1, empty columns: every card of the hand may be played or discarded, the plays first; of the
  // wagers of one colour only the bottom-most is offered.
  std::vector<Action> expected, discards;
  unsigned wagers_seen = 0;
  for (ComponentId c : state.cards(rules.hand(1))) {
    if (rules.is_wager(c)) {
      if (wagers_seen & (1u << rules.colour_of(c))) continue;
      wagers_seen |= 1u << rules.colour_of(c);
    }
    expected.push_back(c + 1);
    discards.push_back(100 + c + 1);
  }
  expected.insert(expected.end(), discards.begin(), discards.end());
  CHECK(rules.legal_actions(state) == expected);
  // Same seed, same game.
  CHECK(rules.new_game(42) == state);
  CHECK(rules.new_game(43).digest() != state.digest());
}

TEST_CASE("lost-cities (native): scoring", "[lost-cities][native][score]") {
  hr::NativeLostCities rules;
  GameState state = empty_table(rules);
  CHECK(rules.score(state, 1) == 0);
  CHECK(rules.score(state, 2) == 0);

  // The example of seed 001.
  put(rules, state, rules.expedition(1, 0), {"Y5", "Y8", "Y10"});
  CHECK(rules.score(state, 1) == 3);
  put(rules, state, rules.expedition(1, 3), {"Gx"});
  CHECK(rules.column_score(state, rules.expedition(1, 3)) == -40);
  put(rules, state, rules.expedition(1, 1), {"Bx", "B7", "B8"});
  CHECK(rules.column_score(state, rules.expedition(1, 1)) == -10);
  put(rules, state, rules.expedition(1, 4), {"Rx", "Rx", "R2", "R3", "R5", "R7", "R8", "R10"});
  CHECK(rules.column_score(state, rules.expedition(1, 4)) == 65);
  CHECK(rules.score(state, 1) == 18);
  CHECK(rules.score(state, 2) == 0);

  // Limits: the best column and the worst total.
  put(rules, state, rules.expedition(2, 2), {"Wx", "Wx", "Wx", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10"});
  CHECK(rules.score(state, 2) == 156);
  GameState worst = empty_table(rules);
  for (int k = 0; k < 5; ++k) {
    const char* wager[] = {"Yx", "Bx", "Wx", "Gx", "Rx"};
    put(rules, worst, rules.expedition(2, k), {wager[k], wager[k], wager[k]});
  }
  CHECK(rules.score(worst, 2) == -400);
  // Seven cards get no bonus, eight do (wagers count).
  GameState seven = empty_table(rules);
  put(rules, seven, rules.expedition(1, 0), {"Yx", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"});
  CHECK(rules.score(seven, 1) == (27 - 20) * 2);
  put(rules, seven, rules.expedition(1, 0), {"Y8"});
  CHECK(rules.score(seven, 1) == (35 - 20) * 2 + 20);
}

TEST_CASE("lost-cities (native): what may be placed and drawn", "[lost-cities][native][legal]") {
  hr::NativeLostCities rules;
  GameState state = empty_table(rules);
  put(rules, state, rules.expedition(1, 0), {"Yx", "Y5"});
  put(rules, state, rules.expedition(2, 1), {"B9"});  // the opponent's columns do not matter
  put(rules, state, rules.hand(1), {"Yx", "Y3", "Y6", "Bx", "B2", "Gx", "G10", "R4"});
  put(rules, state, rules.hand(2), {"Wx", "W2", "W3", "W4", "W5", "W6", "W7", "W8"});
  put(rules, state, rules.discard(3), {"G3"});
  REQUIRE(state.check_invariants().empty());

  using Texts = std::vector<std::string>;
  // The legal plays, then every discard, each in hand order (bottom to top). Yellow holds Yx Y5: no wager,
  // nothing below 6.
  CHECK(legal_texts(rules, state) == Texts{"play Y6", "play Bx", "play B2", "play Gx", "play G10", "play R4",
                                           "discard Yx", "discard Y3", "discard Y6", "discard Bx", "discard B2",
                                           "discard Gx", "discard G10", "discard R4"});
  // A second Gx in hand: still one "play Gx" and one "discard Gx", for the bottom-most copy.
  GameState two_wagers = state;
  const ComponentId first_gx = state.cards(rules.hand(1))[5];
  put(rules, two_wagers, rules.hand(1), {"Gx"});
  CHECK(two_wagers.size(rules.hand(1)) == 9);
  CHECK(legal_texts(rules, two_wagers) == legal_texts(rules, state));
  CHECK(rules.legal_actions(two_wagers) == rules.legal_actions(state));
  CHECK(rules.parse_action(two_wagers, "discard Gx") == std::optional<Action>(100 + first_gx + 1));
  // A wager may follow wagers only.
  GameState wagers = state;
  wagers.move(card(rules, "Y5"), rules.deck());
  CHECK(legal_texts(rules, wagers).front() == "play Yx");

  // Discard Y6: then the deck and every non-empty pile but yellow may be drawn.
  rules.apply_checked(state, *rules.parse_action(state, "discard Y6"));
  CHECK(state.phase() == hr::NativeLostCities::kDraw + 1);  // draw phase, after discarding to yellow
  CHECK(state.to_move() == 1);
  CHECK(legal_texts(rules, state) == Texts{"draw deck", "draw G"});
  CHECK_THROWS_AS(rules.apply_checked(state, 201), hr::IllegalAction);
  rules.apply_checked(state, *rules.parse_action(state, "draw G"));
  CHECK(state.top(rules.hand(1)) == card(rules, "G3"));
  CHECK(state.size(rules.discard(3)) == 0);
  CHECK(state.phase() == hr::NativeLostCities::kPlace);
  CHECK(state.to_move() == 2);

  // Seat 2 plays W2, then may draw the yellow pile (discarded by the other player).
  rules.apply_checked(state, *rules.parse_action(state, "play W2"));
  CHECK(state.phase() == hr::NativeLostCities::kDraw);  // draw phase, nothing discarded
  CHECK(legal_texts(rules, state) == Texts{"draw deck", "draw Y"});
  rules.apply_checked(state, *rules.parse_action(state, "draw y"));
  CHECK(state.top(rules.hand(2)) == card(rules, "Y6"));
  // Seat 1's turn; then seat 2, whose white column holds W2: W3 may follow, Wx may not.
  rules.apply_checked(state, *rules.parse_action(state, "discard B2"));
  rules.apply_checked(state, *rules.parse_action(state, "draw deck"));
  const auto texts = legal_texts(rules, state);
  CHECK(std::find(texts.begin(), texts.end(), "play Wx") == texts.end());
  CHECK(std::find(texts.begin(), texts.end(), "play W3") != texts.end());
  CHECK(rules.action_text(state, 60) == "play R10");
  CHECK(rules.action_text(state, 160) == "discard R10");
  CHECK(rules.action_text(state, 101) == "discard Yx");
  CHECK(rules.action_text(state, 205) == "draw R");
}

TEST_CASE("lost-cities (native): the round ends when the last card is drawn", "[lost-cities][native][round]") {
  hr::NativeLostCities rules;
  GameState state = rules.new_game(7);
  // Keep one card in the deck; the others wait in the box (start_round gathers every card again).
  while (state.size(rules.deck()) > 1) state.move(state.top(rules.deck()), state.layout().box());
  // Give seat 2 a winning column so that it starts round 2.
  put(rules, state, rules.expedition(2, 4), {"R8", "R9", "R10"});
  put(rules, state, rules.expedition(1, 4), {"R2"});
  const auto s1 = rules.score(state, 1);
  const auto s2 = rules.score(state, 2);
  REQUIRE(s2 > s1);
  // Seat 1 discards its first card and draws the last deck card: the round ends at once.
  const ComponentId first = state.cards(rules.hand(1))[0];
  rules.apply_checked(state, 100 + first + 1);
  CHECK(state.round() == 1);
  rules.apply_checked(state, 200);
  CHECK(state.round() == 2);
  REQUIRE(state.round_scores().size() == 1);
  CHECK(state.round_scores()[0] == std::vector<std::int64_t>{s1, s2});
  CHECK(state.match_score(1) == s1);
  CHECK(state.match_score(2) == s2);
  // The new round: every card dealt again, the leader starts.
  CHECK(state.size(rules.deck()) == 44);
  CHECK(state.size(rules.hand(1)) == 8);
  CHECK(state.size(rules.hand(2)) == 8);
  CHECK(state.size(state.layout().box()) == 0);
  for (int seat = 1; seat <= 2; ++seat)
    for (int k = 0; k < 5; ++k) CHECK(state.size(rules.expedition(seat, k)) == 0);
  CHECK(state.to_move() == 2);
  CHECK(state.phase() == 0);
  CHECK(state.ply() == 2);
  CHECK(state.check_invariants().empty());
}

TEST_CASE("lost-cities (native): random matches end after three rounds with every card in place",
          "[lost-cities][native][playout]") {
  hr::NativeLostCities rules;
  const ColumnChecker columns(rules.layout());
  std::vector<Action> legal;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    INFO("seed " << seed);
    GameState state = rules.new_game(seed);
    hr::Rng picker(hr::derive_seed(seed, 3));
    while (!state.over()) {
      rules.legal_actions(state, legal);
      REQUIRE(!legal.empty());
      rules.apply(state, legal[picker.below(legal.size())]);
      const std::string broken = state.check_invariants() + columns.check(state);
      if (!broken.empty()) FAIL(broken);
    }
    REQUIRE(state.round_scores().size() == 3);
    REQUIRE(rules.legal_actions(state).empty());
  }
}
