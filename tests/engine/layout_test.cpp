// layout_test.cpp — validation and look-up tables of hr::Layout.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "layout.hpp"

using hr::Layout;
using hr::LayoutError;
using hr::Owner;
using hr::Visibility;

namespace {

Owner seat(int s) { return {Owner::Kind::Seat, s}; }
Owner team(int t) { return {Owner::Kind::Team, t}; }

Layout three_seat_layout() {
  Layout l;
  l.seats = 3;
  l.components = {{"A", {}}, {"B", {}}, {"A", {}}, {"C", {}}, {"A", {}}};
  l.zones = {{"deck", {}, Visibility::Hidden},
             {"hand1", seat(1), Visibility::Owner},
             {"hand3", seat(3), Visibility::Owner},
             {"table", {}, Visibility::Public},
             {"discard", {}, Visibility::Top}};
  return l;
}

// Catch's message matcher: the exception's what() contains `text`.
#define CHECK_LAYOUT_ERROR_CONTAINS(expr, text) \
  CHECK_THROWS_WITH(expr, Catch::Matchers::Contains(text))

}  // namespace

TEST_CASE("finalize adds a public box zone after the declared zones", "[layout]") {
  Layout l = three_seat_layout();
  const auto declared = l.zones.size();
  l.finalize();
  REQUIRE(l.zones.size() == declared + 1);
  CHECK(l.zones.back().name == "box");
  CHECK(l.zones.back().visibility == Visibility::Public);
  CHECK(l.box() == declared);
  CHECK(l.zone_id("box") == l.box());
  // Finalizing again does not add a second box.
  l.finalize();
  CHECK(l.zones.size() == declared + 1);
  CHECK(l.box() == declared);
}

TEST_CASE("a declared box zone is used as the box", "[layout]") {
  Layout l = three_seat_layout();
  l.zones.insert(l.zones.begin() + 1, {"box", {}, Visibility::Hidden});
  const auto declared = l.zones.size();
  l.finalize();
  CHECK(l.zones.size() == declared);
  CHECK(l.box() == 1);
  CHECK(l.grant_mask(l.box()) == 0);  // its declared visibility is kept
}

TEST_CASE("finalize rejects bad definitions with a message naming them", "[layout]") {
  SECTION("duplicate zone name") {
    Layout l = three_seat_layout();
    l.zones.push_back({"table", {}, Visibility::Hidden});
    CHECK_THROWS_AS(l.finalize(), LayoutError);
    CHECK_LAYOUT_ERROR_CONTAINS(l.finalize(), "zone 'table' is declared twice");
  }
  SECTION("owner seat out of range") {
    Layout l = three_seat_layout();
    l.zones.push_back({"hand4", seat(4), Visibility::Owner});
    CHECK_THROWS_AS(l.finalize(), LayoutError);
    CHECK_LAYOUT_ERROR_CONTAINS(l.finalize(), "hand4");
    CHECK_LAYOUT_ERROR_CONTAINS(l.finalize(), "seat 4");
  }
  SECTION("owner seat 0") {
    Layout l = three_seat_layout();
    l.zones.push_back({"hand0", seat(0), Visibility::Owner});
    CHECK_THROWS_AS(l.finalize(), LayoutError);
  }
  SECTION("too many seats") {
    Layout l = three_seat_layout();
    l.seats = 9;
    CHECK_THROWS_AS(l.finalize(), LayoutError);
    CHECK_LAYOUT_ERROR_CONTAINS(l.finalize(), "9");
  }
  SECTION("no seats") {
    Layout l = three_seat_layout();
    l.seats = 0;
    l.zones.clear();
    CHECK_THROWS_AS(l.finalize(), LayoutError);
  }
  SECTION("team owning no seat") {
    Layout l = three_seat_layout();
    l.team_of_seat = {0, 1, 2, 1};
    l.zones.push_back({"team3", team(3), Visibility::Owner});
    CHECK_THROWS_AS(l.finalize(), LayoutError);
    CHECK_LAYOUT_ERROR_CONTAINS(l.finalize(), "team3");
  }
  SECTION("team table of the wrong size") {
    Layout l = three_seat_layout();
    l.team_of_seat = {0, 1, 2};
    CHECK_THROWS_AS(l.finalize(), LayoutError);
  }
  SECTION("zero rounds") {
    Layout l = three_seat_layout();
    l.rounds = 0;
    CHECK_THROWS_AS(l.finalize(), LayoutError);
  }
  SECTION("empty track") {
    Layout l = three_seat_layout();
    l.tracks.push_back({"path", {}});
    CHECK_LAYOUT_ERROR_CONTAINS(l.finalize(), "path");
  }
  SECTION("figure owned by a missing seat") {
    Layout l = three_seat_layout();
    l.figures.push_back({"pawn", 4});
    CHECK_LAYOUT_ERROR_CONTAINS(l.finalize(), "pawn");
  }
}

TEST_CASE("eight seats are allowed and the all-seats mask has eight bits", "[layout]") {
  Layout l;
  l.seats = 8;
  l.zones = {{"hand8", seat(8), Visibility::Owner}, {"pool", {}, Visibility::Public}};
  REQUIRE_NOTHROW(l.finalize());
  CHECK(l.all_seats_mask() == 0xFF);
  CHECK(l.grant_mask(l.zone_id("hand8")) == 0x80);
  CHECK(l.grant_mask(l.zone_id("pool")) == 0xFF);
}

TEST_CASE("zone look-up by name", "[layout]") {
  Layout l = three_seat_layout();
  l.finalize();
  CHECK(l.zone_id("deck") == 0);
  CHECK(l.zone_id("discard") == 4);
  REQUIRE(l.find_zone("hand3") != nullptr);
  CHECK(*l.find_zone("hand3") == 2);
  CHECK(l.find_zone("hand2") == nullptr);
  CHECK_THROWS_AS(l.zone_id("hand2"), LayoutError);
  CHECK_THROWS_WITH(l.zone_id("hand2"), "unknown zone 'hand2'");
  CHECK_THROWS_AS(l.zone_id("Deck"), LayoutError);  // names are case-sensitive
}

TEST_CASE("components_named returns every copy in id order", "[layout]") {
  Layout l = three_seat_layout();
  l.finalize();
  CHECK(l.components_named("A") == std::vector<hr::ComponentId>{0, 2, 4});
  CHECK(l.components_named("B") == std::vector<hr::ComponentId>{1});
  CHECK(l.components_named("C") == std::vector<hr::ComponentId>{3});
  CHECK(l.components_named("D").empty());
  CHECK(l.components_named("a").empty());
}

TEST_CASE("grant masks follow visibility and ownership", "[layout]") {
  Layout l = three_seat_layout();
  l.finalize();
  CHECK(l.grant_mask(l.zone_id("deck")) == 0);
  CHECK(l.grant_mask(l.zone_id("hand1")) == 0b001);
  CHECK(l.grant_mask(l.zone_id("hand3")) == 0b100);
  CHECK(l.grant_mask(l.zone_id("table")) == 0b111);
  CHECK(l.grant_mask(l.zone_id("discard")) == 0b111);
  CHECK(l.grant_mask(l.box()) == 0b111);
  CHECK(l.all_seats_mask() == 0b111);
}

TEST_CASE("team-owned zones grant sight to every seat of the team", "[layout]") {
  Layout l;
  l.seats = 4;
  l.team_of_seat = {0, 1, 2, 1, 2};  // seats 1 and 3 are team 1, seats 2 and 4 team 2
  l.zones = {{"tricks1", team(1), Visibility::Owner},
             {"tricks2", team(2), Visibility::Owner},
             {"secret2", team(2), Visibility::Hidden},
             {"shown2", team(2), Visibility::Public},
             {"hand4", seat(4), Visibility::Owner}};
  l.finalize();
  CHECK(l.team_of(1) == 1);
  CHECK(l.team_of(4) == 2);
  CHECK(l.owner_mask(team(1)) == 0b0101);
  CHECK(l.owner_mask(team(2)) == 0b1010);
  CHECK(l.owner_mask(seat(3)) == 0b0100);
  CHECK(l.owner_mask(Owner{}) == 0);
  CHECK(l.grant_mask(l.zone_id("tricks1")) == 0b0101);
  CHECK(l.grant_mask(l.zone_id("tricks2")) == 0b1010);
  CHECK(l.grant_mask(l.zone_id("secret2")) == 0);
  CHECK(l.grant_mask(l.zone_id("shown2")) == 0b1111);
  CHECK(l.grant_mask(l.zone_id("hand4")) == 0b1000);
}

TEST_CASE("an owner-visibility zone owned by nobody is seen by nobody", "[layout]") {
  Layout l;
  l.zones = {{"orphan", {}, Visibility::Owner}};
  l.finalize();
  CHECK(l.grant_mask(l.zone_id("orphan")) == 0);
}

TEST_CASE("counters have a supply slot and, when per seat, one slot per seat", "[layout]") {
  Layout l = three_seat_layout();
  l.counters = {{"coins", true, 5}, {"pot", false, 0}, {"vp", true, 0}};
  l.finalize();
  CHECK(l.counter_slots() == 4 + 1 + 4);
  CHECK(l.counter_index("coins") == 0);
  CHECK(l.counter_index("pot") == 1);
  CHECK(l.counter_index("vp") == 2);
  CHECK_THROWS_AS(l.counter_index("gold"), LayoutError);
  CHECK_THROWS_WITH(l.counter_index("gold"), Catch::Matchers::Contains("gold"));
  // Slots are distinct and cover 0..8 exactly.
  std::vector<int> slots;
  for (int o = 0; o <= 3; ++o) slots.push_back(l.counter_slot(0, o));
  slots.push_back(l.counter_slot(1, 0));
  for (int o = 0; o <= 3; ++o) slots.push_back(l.counter_slot(2, o));
  std::vector<int> sorted = slots;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8});
  // A supply-only counter has no seat slots; bad seats and counters are refused.
  CHECK_THROWS_AS(l.counter_slot(1, 1), LayoutError);
  CHECK_THROWS_WITH(l.counter_slot(1, 1), Catch::Matchers::Contains("pot"));
  CHECK_THROWS_AS(l.counter_slot(0, 4), LayoutError);
  CHECK_THROWS_AS(l.counter_slot(0, -1), LayoutError);
  CHECK_THROWS_AS(l.counter_slot(3, 0), LayoutError);
  CHECK_THROWS_AS(l.counter_slot(-1, 0), LayoutError);
}

TEST_CASE("tracks are laid end to end in the space table", "[layout]") {
  Layout l;
  l.tracks = {{"north", {1, 2, 3}}, {"south", {0, 0, 0, 0, 9}}};
  l.finalize();
  CHECK(l.track_spaces() == 8);
  CHECK(l.track_offset(0) == 0);
  CHECK(l.track_offset(1) == 3);
  CHECK(l.track_index("south") == 1);
  CHECK_THROWS_AS(l.track_index("east"), LayoutError);
}

TEST_CASE("visibility names round-trip and unknown names are refused", "[layout]") {
  for (Visibility v : {Visibility::Hidden, Visibility::Owner, Visibility::Public, Visibility::Top})
    CHECK(hr::visibility_from_string(hr::to_string(v)) == v);
  CHECK(hr::to_string(Visibility::Top) == "top");
  CHECK_THROWS_AS(hr::visibility_from_string("secret"), std::invalid_argument);
  CHECK_THROWS_AS(hr::visibility_from_string("Hidden"), std::invalid_argument);
}

TEST_CASE("component attributes are found by key", "[layout]") {
  hr::Component c{"Y7", {{"colour", std::string("yellow")}, {"value", std::int64_t{7}}}};
  REQUIRE(c.attribute("value") != nullptr);
  CHECK(std::get<std::int64_t>(*c.attribute("value")) == 7);
  CHECK(std::get<std::string>(*c.attribute("colour")) == "yellow");
  CHECK(c.attribute("size") == nullptr);
}
