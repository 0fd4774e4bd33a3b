// rules_test.cpp — the kernel's half of the turn sequence (hr::Rules): rollback of failed actions,
// legality checks, action parsing, round and match ends; with the tiny native game of take_game.hpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "rules.hpp"
#include "take_game.hpp"

using hr::Action;
using hr::GameState;
using hr::IllegalAction;
using hr::Rng;
using hr::RulesError;
using namespace take_game;

namespace {
std::int64_t won_sum(const GameState& s, int seat) {
  std::int64_t sum = 0;
  for (auto c : s.cards(won(seat))) sum += value_of(c);
  return sum;
}
}  // namespace

TEST_CASE("new_game runs setup and start_round on a fresh seeded state", "[rules]") {
  TakeGame game;
  const GameState s = game.new_game(31);
  CHECK(game.setups == 1);
  CHECK(game.round_starts == 1);
  CHECK(s.check_invariants() == "");
  CHECK(s.size(kHand1) == 1);
  CHECK(s.size(kHand2) == 1);
  CHECK(s.size(kRow) == 2);
  CHECK(s.size(kDeck) == 4);
  CHECK(s.to_move() == 1);
  CHECK(s.ply() == 0);
  CHECK(game.legal_actions(s) == std::vector<Action>{kTake + 0, kTake + 1, kDraw});
  // Same seed, same game; another seed deals differently at least once.
  CHECK(game.new_game(31) == s);
  TakeGame other;  // states of another Rules object point at another layout: compare digests
  CHECK(other.new_game(31).digest() == s.digest());
  bool differs = false;
  for (std::uint64_t seed = 32; seed < 40 && !differs; ++seed) differs = !(game.new_game(seed) == s);
  CHECK(differs);
}

TEST_CASE("legal_actions(state, out) replaces the contents of out", "[rules]") {
  TakeGame game;
  const GameState s = game.new_game(1);
  std::vector<Action> out{55, 66, 77, 88, 99};
  game.legal_actions(s, out);
  CHECK(out == std::vector<Action>{kTake + 0, kTake + 1, kDraw});
}

TEST_CASE("apply makes a move, counts the ply and passes the turn", "[rules]") {
  TakeGame game;
  GameState s = game.new_game(2);
  const auto taken = s.cards(kRow)[1];
  game.apply(s, kTake + 1);
  CHECK(s.ply() == 1);
  CHECK(s.to_move() == 2);
  CHECK(s.top(kWon1) == taken);
  CHECK(s.counter(0, 1) == 1);
  CHECK(s.check_invariants() == "");
}

TEST_CASE("apply rolls the state back exactly when do_apply throws after mutating", "[rules][rollback]") {
  TakeGame game;
  game.offer_boom = true;
  GameState s = game.new_game(3);
  game.apply(s, kDraw);  // some history first
  const GameState before = s;
  const auto digest = s.digest();

  SECTION("a RulesError") {
    CHECK_THROWS_AS(game.apply(s, kBoom), RulesError);
    CHECK_THROWS_WITH(game.apply(s, kBoom), "boom");
  }
  SECTION("any other exception") {
    game.boom_throws_std = true;
    CHECK_THROWS_AS(game.apply(s, kBoom), std::out_of_range);
  }
  SECTION("through apply_checked") {
    CHECK_THROWS_AS(game.apply_checked(s, kBoom), RulesError);
  }
  CHECK(s == before);
  CHECK(s.digest() == digest);
  CHECK(s.check_invariants() == "");
  CHECK(s.ply() == 1);
  // The rolled-back state is fully usable.
  game.apply(s, kTake);
  CHECK(s.ply() == 2);
}

TEST_CASE("a failing score hook rolls back the action that ended the round", "[rules][rollback]") {
  TakeGame game;
  GameState s = game.new_game(4);
  // Play until one action before the end of round 1.
  while (true) {
    GameState probe = s;
    game.apply(probe, game.legal_actions(probe)[0]);
    if (probe.round() == 2) break;
    s = probe;
  }
  const GameState before = s;
  game.score_throws = true;
  CHECK_THROWS_AS(game.apply(s, game.legal_actions(s)[0]), RulesError);
  CHECK(s == before);
  CHECK(s.round() == 1);
  CHECK_FALSE(s.round_end_requested());
  game.score_throws = false;
  game.apply(s, game.legal_actions(s)[0]);
  CHECK(s.round() == 2);
}

TEST_CASE("random_playout leaves the state as it found it when an action or a round's scoring fails", "[rules][rollback]") {
  // The playout applies its actions without apply's undo log (issue 13): its own copy of the starting state
  // is what restores it, after any number of plies.
  TakeGame game;
  const auto check_restored = [&](bool boom) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      GameState s = game.new_game(seed);
      game.apply(s, kDraw);  // some history first
      const GameState before = s;
      Rng rng(seed);
      game.offer_boom = boom;     // an action that changes the state everywhere, then throws
      game.score_throws = !boom;  // or the score hook failing at the end of the round, plies after the start
      if (boom)
        CHECK_THROWS_WITH(game.random_playout(s, rng, 1000), "boom");
      else
        CHECK_THROWS_AS(game.random_playout(s, rng, 1000), RulesError);
      game.offer_boom = game.score_throws = false;
      CHECK(s == before);
      CHECK(s.digest() == before.digest());
      CHECK(s.check_invariants() == "");
    }
  };
  check_restored(true);
  check_restored(false);
}

TEST_CASE("random_playout plays the same game as apply, ply by ply", "[rules]") {
  TakeGame game;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    GameState played = game.new_game(seed), stepped = played;
    Rng a(seed), b(seed);
    const std::int64_t plies = game.random_playout(played, a, 1000);
    std::int64_t steps = 0;
    while (!stepped.over()) {
      const auto legal = game.legal_actions(stepped);
      game.apply(stepped, legal[b.below(legal.size())]);
      ++steps;
    }
    CHECK(plies == steps);
    CHECK(played == stepped);
  }
}

TEST_CASE("apply_checked refuses actions outside the legal set and changes nothing", "[rules]") {
  TakeGame game;
  GameState s = game.new_game(5);
  const GameState before = s;
  // "boom" is decodable but not offered.
  CHECK_THROWS_AS(game.apply_checked(s, kBoom), IllegalAction);
  CHECK_THROWS_WITH(game.apply_checked(s, kBoom), "'boom' is not legal now");
  CHECK(s == before);
  // A take beyond the row cannot even be written as text: still IllegalAction.
  CHECK_THROWS_AS(game.apply_checked(s, kTake + 5), IllegalAction);
  CHECK_THROWS_AS(game.apply_checked(s, 12345), IllegalAction);
  CHECK_THROWS_WITH(game.apply_checked(s, 12345), "'action 12345' is not legal now");
  CHECK(s == before);
  // "draw deck" once the deck is empty.
  GameState empty = arrange(game.layout(), {0, 1, 2}, {3}, {4, 5}, {6, 7}, {});
  const GameState empty_before = empty;
  CHECK_THROWS_AS(game.apply_checked(empty, kDraw), IllegalAction);
  CHECK_THROWS_WITH(game.apply_checked(empty, kDraw), "'draw deck' is not legal now");
  CHECK(empty == empty_before);
  // A legal action goes through.
  game.apply_checked(s, kDraw);
  CHECK(s.ply() == 1);
}

TEST_CASE("parse_action matches legal texts ignoring case and blanks", "[rules]") {
  TakeGame game;
  GameState s = arrange(game.layout(), {}, {0}, {4, 7}, {1}, {2, 3, 5, 6});
  CHECK(game.action_text(s, kTake + 0) == "take Y5");
  CHECK(game.action_text(s, kTake + 1) == "take Y8");
  CHECK(game.parse_action(s, "take Y8") == std::optional<Action>(kTake + 1));
  CHECK(game.parse_action(s, "  TAKE   y8 ") == std::optional<Action>(kTake + 1));
  CHECK(game.parse_action(s, "\ttake\ty5\n") == std::optional<Action>(kTake + 0));
  CHECK(game.parse_action(s, "Draw Deck") == std::optional<Action>(kDraw));
  CHECK(game.parse_action(s, "draw deck ") == std::optional<Action>(kDraw));
  CHECK_FALSE(game.parse_action(s, "take Y1").has_value());  // Y1 is not in the row
  CHECK_FALSE(game.parse_action(s, "takey8").has_value());
  CHECK_FALSE(game.parse_action(s, "take Y8 now").has_value());
  CHECK_FALSE(game.parse_action(s, "").has_value());
  CHECK_FALSE(game.parse_action(s, "boom").has_value());  // decodable, not legal
  game.offer_boom = true;
  CHECK(game.parse_action(s, "BOOM") == std::optional<Action>(kBoom));
}

TEST_CASE("rounds close through request_round_end, scoring every seat, until the match ends", "[rules][rounds]") {
  TakeGame game(2);
  GameState s = game.new_game(6);
  int closings = 0;
  std::vector<std::vector<std::int64_t>> expected_rounds;
  while (!s.over()) {
    const auto legal = game.legal_actions(s);
    REQUIRE_FALSE(legal.empty());
    const GameState prev = s;
    const auto calls_before = game.score_calls.size();
    game.apply_checked(s, legal[0]);
    REQUIRE(s.check_invariants() == "");
    if (s.round() != prev.round() || s.over()) {
      ++closings;
      // The score hook ran once per seat, in seat order, on the state at the end of the round: the won
      // piles before the last action plus the card that action took (always row card 0 here).
      REQUIRE(game.score_calls.size() == calls_before + 2);
      CHECK(game.score_calls[calls_before].first == 1);
      CHECK(game.score_calls[calls_before + 1].first == 2);
      std::vector<std::int64_t> expected{won_sum(prev, 1), won_sum(prev, 2)};
      expected[prev.to_move() - 1] += value_of(prev.cards(kRow)[0]);
      CHECK(game.score_calls[calls_before].second == expected[0]);
      CHECK(game.score_calls[calls_before + 1].second == expected[1]);
      // 8 cards, one hidden in each hand: a round scores 36 minus the two hand cards.
      CHECK(expected[0] + expected[1] == 36 - value_of(prev.cards(kHand1)[0]) - value_of(prev.cards(kHand2)[0]));
      expected_rounds.push_back(expected);
    } else {
      CHECK(game.score_calls.size() == calls_before);  // no scoring mid-round
    }
  }
  CHECK(closings == 2);
  CHECK(game.round_starts == 2);
  CHECK(game.setups == 1);
  CHECK(s.round() == 2);
  CHECK(s.ply() == 12);  // six actions a round
  REQUIRE(s.round_scores().size() == 2);
  CHECK(s.round_scores()[0] == expected_rounds[0]);
  CHECK(s.round_scores()[1] == expected_rounds[1]);
  CHECK(s.match_score(1) == expected_rounds[0][0] + expected_rounds[1][0]);
  CHECK(s.match_score(2) == expected_rounds[0][1] + expected_rounds[1][1]);
  CHECK(game.ranks(s) == s.ranks());

  // Over: nothing is legal, nothing applies, nothing parses.
  CHECK(game.legal_actions(s).empty());
  const GameState final_state = s;
  CHECK_THROWS_AS(game.apply(s, kTake), IllegalAction);
  CHECK_THROWS_AS(game.apply_checked(s, kTake), IllegalAction);
  CHECK_THROWS_WITH(game.apply_checked(s, kTake), "the game is over");
  CHECK(s == final_state);
  CHECK_FALSE(game.parse_action(s, "draw deck").has_value());
  CHECK(game.explain_illegal(s, "draw deck") == "the game is over");
}

TEST_CASE("a new round starts with start_round and the other seat to move", "[rules][rounds]") {
  TakeGame game(3);
  GameState s = game.new_game(8);
  while (s.round() == 1) game.apply(s, game.legal_actions(s)[0]);
  CHECK(s.round() == 2);
  CHECK(game.round_starts == 2);
  CHECK(s.to_move() == 2);
  CHECK(s.size(kRow) == 2);
  CHECK(s.size(kDeck) == 4);
  CHECK(s.size(kWon1) + s.size(kWon2) == 0);
  CHECK_FALSE(s.over());
  CHECK(s.check_invariants() == "");
}

TEST_CASE("explain_illegal and describe have sensible defaults", "[rules]") {
  TakeGame game;
  GameState s = arrange(game.layout(), {7}, {0}, {4, 5}, {1}, {2, 3, 6});
  CHECK(game.explain_illegal(s, "take Y1") == "'take Y1' is not a legal action now");
  const std::string text = game.describe(s.observation(1), 1);
  CHECK_THAT(text, Catch::Matchers::Contains("deck: 3 cards"));
  CHECK_THAT(text, Catch::Matchers::Contains("hand1: Y1\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("hand2: ?\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("row: Y5 Y6\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("won1: Y8\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("won2: -\n"));
  CHECK_THAT(text, !Catch::Matchers::Contains("box"));
  CHECK_THAT(text, Catch::Matchers::Contains("you are seat 1"));
  const std::string two = game.describe(s.observation(2), 2);
  CHECK_THAT(two, Catch::Matchers::Contains("hand1: ?\n"));
  CHECK_THAT(two, Catch::Matchers::Contains("hand2: Y2\n"));
}
