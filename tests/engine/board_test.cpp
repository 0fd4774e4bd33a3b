// board_test.cpp — tracks, tiles and figures of hr::GameState, and the round/match bookkeeping
// (close_round, over, ranks).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "state.hpp"

using hr::ComponentId;
using hr::FigurePlace;
using hr::GameState;
using hr::kNoComponent;
using hr::Layout;
using hr::LayoutError;
using hr::Owner;
using hr::Place;
using hr::TilePlacement;
using hr::Visibility;
using hr::ZoneId;

namespace {

// Two tracks (north: 4 spaces, south: 2), six tiles t0..t5, a hidden bag and a hand, three figures.
const Layout& board_layout() {
  static const Layout layout = [] {
    Layout l;
    l.seats = 2;
    for (int i = 0; i < 6; ++i) l.components.push_back({"t" + std::to_string(i), {}});
    l.zones = {{"bag", {}, Visibility::Hidden}, {"hand1", {Owner::Kind::Seat, 1}, Visibility::Owner}};
    l.tracks = {{"north", {0, 1, 2, 3}}, {"south", {5, 6}}};
    l.figures = {{"explorer", 1}, {"explorer", 2}, {"block", 0}};
    l.finalize();
    return l;
  }();
  return layout;
}

const ZoneId kBag = 0, kHand1 = 1;
const int kNorth = 0, kSouth = 1;

/// All tiles in the bag, shuffled: nobody knows them.
GameState bagged() {
  GameState s(board_layout(), 12);
  for (ComponentId c = 0; c < 6; ++c) s.move(c, kBag);
  s.shuffle(kBag);
  return s;
}

// A 3-seat layout with `rounds` rounds for the round bookkeeping.
Layout rounds_layout(int seats, int rounds) {
  Layout l;
  l.seats = seats;
  l.rounds = rounds;
  l.finalize();
  return l;
}

}  // namespace

TEST_CASE("place_tile puts a tile on a free space, face up", "[board]") {
  GameState s = bagged();
  REQUIRE(s.seen_by(2) == 0);
  s.place_tile(2, kNorth, 3, 4);
  CHECK(s.tile_at(kNorth, 3) == TilePlacement{2, 4});
  CHECK(s.place_of(2) == Place{hr::kNoZone, kNorth, 3});
  CHECK_FALSE(s.place_of(2).in_zone());
  CHECK(s.size(kBag) == 5);
  for (ComponentId c : s.cards(kBag)) CHECK(c != 2);
  CHECK(s.seen_by(2) == 0b11);  // tiles on the board lie face up
  CHECK(s.check_invariants() == "");  // the tile is counted once, on the track
  // Other spaces stay empty.
  CHECK(s.tile_at(kNorth, 2).component == kNoComponent);
  CHECK(s.tile_at(kSouth, 1).component == kNoComponent);

  s.place_tile(5, kSouth, 2);
  CHECK(s.tile_at(kSouth, 2) == TilePlacement{5, 0});
  CHECK(s.place_of(5) == Place{hr::kNoZone, kSouth, 2});
  CHECK(s.check_invariants() == "");
}

TEST_CASE("place_tile refuses an occupied or missing space and changes nothing", "[board]") {
  GameState s = bagged();
  s.place_tile(0, kNorth, 1);
  const GameState before = s;
  CHECK_THROWS_AS(s.place_tile(1, kNorth, 1), LayoutError);
  CHECK_THROWS_WITH(s.place_tile(1, kNorth, 1), Catch::Matchers::Contains("already holds a tile"));
  CHECK(s == before);
  CHECK_THROWS_AS(s.place_tile(1, kNorth, 5), LayoutError);
  CHECK_THROWS_AS(s.place_tile(1, kNorth, 0), LayoutError);
  CHECK_THROWS_AS(s.place_tile(1, 2, 1), LayoutError);
  CHECK_THROWS_AS(s.place_tile(1, -1, 1), LayoutError);
  CHECK_THROWS_AS(s.place_tile(6, kSouth, 1), LayoutError);  // no component 6
  CHECK(s == before);
  CHECK(s.check_invariants() == "");
}

TEST_CASE("tile_at checks its range", "[board]") {
  const GameState s = bagged();
  CHECK_NOTHROW(s.tile_at(kNorth, 4));
  CHECK_NOTHROW(s.tile_at(kSouth, 2));
  CHECK_THROWS_AS(s.tile_at(kSouth, 3), LayoutError);
  CHECK_THROWS_AS(s.tile_at(kNorth, 0), LayoutError);
  CHECK_THROWS_AS(s.tile_at(2, 1), LayoutError);
  CHECK_THROWS_AS(s.tile_at(-1, 1), LayoutError);
}

TEST_CASE("a tile moved off the board frees its space", "[board]") {
  GameState s = bagged();
  s.place_tile(3, kSouth, 1, 2);
  s.move(3, kHand1);
  CHECK(s.tile_at(kSouth, 1).component == kNoComponent);
  CHECK(s.place_of(3) == Place{kHand1, 0, 0});
  CHECK(s.cards(kHand1).back() == 3);
  CHECK(s.check_invariants() == "");
  // The space can be used again.
  s.place_tile(4, kSouth, 1);
  CHECK(s.tile_at(kSouth, 1) == TilePlacement{4, 0});
  CHECK(s.check_invariants() == "");
}

TEST_CASE("a tile moved from one space to another frees the first", "[board]") {
  GameState s = bagged();
  s.place_tile(1, kNorth, 2);
  s.place_tile(1, kSouth, 2, 5);
  CHECK(s.tile_at(kNorth, 2).component == kNoComponent);
  CHECK(s.tile_at(kSouth, 2) == TilePlacement{1, 5});
  CHECK(s.place_of(1) == Place{hr::kNoZone, kSouth, 2});
  CHECK(s.check_invariants() == "");
}

TEST_CASE("conservation counts tiles on tracks as well as cards in zones", "[board]") {
  GameState s = bagged();
  int spaces_used = 0;
  for (int space = 1; space <= 4; ++space) {
    s.place_tile(s.top(kBag), kNorth, space);
    ++spaces_used;
    REQUIRE(s.check_invariants() == "");
  }
  s.place_tile(s.top(kBag), kSouth, 1);
  s.move_top(kBag, kHand1);
  CHECK(s.size(kBag) == 0);
  CHECK(s.size(kHand1) == 1);
  CHECK(s.check_invariants() == "");
  // Every tile is exactly once on the board or in the hand.
  int on_board = 0;
  for (int space = 1; space <= 4; ++space) on_board += s.tile_at(kNorth, space).component != kNoComponent;
  for (int space = 1; space <= 2; ++space) on_board += s.tile_at(kSouth, space).component != kNoComponent;
  CHECK(on_board == 5);
  CHECK(spaces_used == 4);
}

TEST_CASE("figures start off the board and move between spaces", "[board][figures]") {
  GameState s = bagged();
  for (int f = 0; f < 3; ++f) CHECK(s.figure_place(f) == FigurePlace{-1, 0});
  CHECK(s.figures_at(kNorth, 1).empty());

  s.move_figure(1, kNorth, 3);
  CHECK(s.figure_place(1) == FigurePlace{kNorth, 3});
  CHECK(s.figures_at(kNorth, 3) == std::vector<int>{1});
  s.move_figure(2, kNorth, 3);
  s.move_figure(0, kNorth, 3);
  CHECK(s.figures_at(kNorth, 3) == std::vector<int>{0, 1, 2});  // in figure order
  s.move_figure(1, kSouth, 2);
  CHECK(s.figures_at(kNorth, 3) == std::vector<int>{0, 2});
  CHECK(s.figures_at(kSouth, 2) == std::vector<int>{1});
  CHECK(s.figures_at(kSouth, 1).empty());

  s.move_figure(0, -1, 3);  // off the board: the space is ignored
  CHECK(s.figure_place(0) == FigurePlace{-1, 0});
  CHECK(s.figures_at(kNorth, 3) == std::vector<int>{2});
  CHECK(s.check_invariants() == "");
  // Figures and tiles do not interfere.
  s.place_tile(0, kNorth, 3);
  CHECK(s.figures_at(kNorth, 3) == std::vector<int>{2});
}

TEST_CASE("move_figure refuses bad figures and spaces and changes nothing", "[board][figures]") {
  GameState s = bagged();
  s.move_figure(0, kSouth, 1);
  const GameState before = s;
  CHECK_THROWS_AS(s.move_figure(3, kNorth, 1), LayoutError);
  CHECK_THROWS_AS(s.move_figure(-1, kNorth, 1), LayoutError);
  CHECK_THROWS_AS(s.move_figure(0, kNorth, 5), LayoutError);
  CHECK_THROWS_AS(s.move_figure(0, kNorth, 0), LayoutError);
  CHECK_THROWS_AS(s.move_figure(0, 2, 1), LayoutError);
  CHECK_THROWS_AS(s.move_figure(0, -2, 1), LayoutError);
  CHECK(s == before);
  CHECK(s.figure_place(0) == FigurePlace{kSouth, 1});
  CHECK_THROWS(s.figure_place(3));
}

TEST_CASE("close_round adds to the totals and advances rounds until the match is over", "[rounds]") {
  const Layout l = rounds_layout(3, 3);
  GameState s(l, 1);
  s.set_phase(2);
  s.request_round_end();
  REQUIRE(s.round_end_requested());

  CHECK(s.close_round(std::vector<std::int64_t>{5, -2, 7}));
  CHECK(s.round() == 2);
  CHECK(s.phase() == 0);
  CHECK_FALSE(s.round_end_requested());
  CHECK_FALSE(s.over());
  CHECK(s.match_scores() == std::vector<std::int64_t>{5, -2, 7});

  CHECK(s.close_round(std::vector<std::int64_t>{1, 10, 0}));
  CHECK(s.round() == 3);
  CHECK(s.match_score(1) == 6);
  CHECK(s.match_score(2) == 8);
  CHECK(s.match_score(3) == 7);
  CHECK_FALSE(s.over());

  CHECK_FALSE(s.close_round(std::vector<std::int64_t>{0, 0, 4}));
  CHECK(s.over());
  CHECK(s.round() == 3);
  CHECK(s.match_scores() == std::vector<std::int64_t>{6, 8, 11});
  REQUIRE(s.round_scores().size() == 3);
  CHECK(s.round_scores()[0] == std::vector<std::int64_t>{5, -2, 7});
  CHECK(s.round_scores()[1] == std::vector<std::int64_t>{1, 10, 0});
  CHECK(s.round_scores()[2] == std::vector<std::int64_t>{0, 0, 4});
  CHECK(s.ranks() == std::vector<int>{3, 2, 1});
  CHECK_THROWS(s.match_score(0));
  CHECK_THROWS(s.match_score(4));
}

TEST_CASE("a one-round match is over after its first round", "[rounds]") {
  const Layout l = rounds_layout(2, 1);
  GameState s(l, 1);
  CHECK_FALSE(s.close_round(std::vector<std::int64_t>{3, 4}));
  CHECK(s.over());
  CHECK(s.round() == 1);
}

TEST_CASE("set_over ends the match early and keeps the totals", "[rounds]") {
  const Layout l = rounds_layout(2, 5);
  GameState s(l, 1);
  s.close_round(std::vector<std::int64_t>{3, 4});
  s.set_over();
  CHECK(s.over());
  CHECK(s.round() == 2);
  CHECK(s.match_scores() == std::vector<std::int64_t>{3, 4});
}

TEST_CASE("ranks: higher totals first, ties share a place", "[rounds]") {
  const Layout l = rounds_layout(3, 1);
  auto ranks_for = [&](std::vector<std::int64_t> totals) {
    GameState s(l, 1);
    s.close_round(totals);
    return s.ranks();
  };
  CHECK(ranks_for({10, 20, 20}) == std::vector<int>{3, 1, 1});
  CHECK(ranks_for({30, 20, 10}) == std::vector<int>{1, 2, 3});
  CHECK(ranks_for({10, 10, 20}) == std::vector<int>{2, 2, 1});
  CHECK(ranks_for({5, 5, 5}) == std::vector<int>{1, 1, 1});
  CHECK(ranks_for({-1, 0, -7}) == std::vector<int>{2, 1, 3});
}
