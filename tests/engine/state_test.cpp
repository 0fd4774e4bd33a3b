// state_test.cpp — hr::GameState zones: moves, deals, shuffles, conservation, who has seen what,
// observations, determinizations, equality and digest.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "state.hpp"

using hr::ComponentId;
using hr::GameState;
using hr::kNoComponent;
using hr::kUnknownComponent;
using hr::Layout;
using hr::LayoutError;
using hr::Owner;
using hr::Place;
using hr::Visibility;
using hr::ZoneId;

namespace {

constexpr int kCards = 12;

// Two seats, twelve cards c0..c11, a deck, two hands, a public table, a discard pile (top), a track and
// a figure (so that every part of the state can be changed in the digest test).
const Layout& card_layout() {
  static const Layout layout = [] {
    Layout l;
    l.seats = 2;
    l.rounds = 2;
    for (int i = 0; i < kCards; ++i) l.components.push_back({"c" + std::to_string(i), {}});
    l.zones = {{"deck", {}, Visibility::Hidden},
               {"hand1", {Owner::Kind::Seat, 1}, Visibility::Owner},
               {"hand2", {Owner::Kind::Seat, 2}, Visibility::Owner},
               {"table", {}, Visibility::Public},
               {"discard", {}, Visibility::Top}};
    l.counters = {{"coins", true, 3}, {"pot", false, 10}};
    l.tracks = {{"path", {1, 2, 3, 4}}};
    l.figures = {{"pawn", 1}};
    l.finalize();
    return l;
  }();
  return layout;
}

const ZoneId kDeck = 0, kHand1 = 1, kHand2 = 2, kTable = 3, kDiscard = 4;
ZoneId box() { return card_layout().box(); }

std::vector<ComponentId> ids(std::span<const ComponentId> cards) { return {cards.begin(), cards.end()}; }

/// Every card in the deck, c0 at the bottom and c11 on top, as dealt from the box (so known to all).
GameState stacked_deck(std::uint64_t seed = 1) {
  GameState s(card_layout(), seed);
  for (ComponentId c = 0; c < kCards; ++c) s.move(c, kDeck);
  return s;
}

/// A position in which seat 1 knows exactly: its hand {c0, c1}, c2 which it put under the deck, c3 on the
/// table, c4 which passed over the table into seat 2's hand, c5 on the discard pile. Cards c6..c11 are
/// unknown to seat 1: `hand2_unknown` go into seat 2's hand after c4, `deck_order` is the rest of the
/// deck from bottom to top (above c2). The RNG state does not depend on the arguments.
GameState arranged(const std::vector<ComponentId>& hand2_unknown, const std::vector<ComponentId>& deck_order,
                   std::uint64_t seed = 5) {
  GameState s(card_layout(), seed);
  for (ComponentId c = 0; c < kCards; ++c) s.move(c, kDeck);
  s.shuffle(kDeck);  // now nobody knows any card
  s.move(0, kHand1);
  s.move(1, kHand1);
  s.move(2, kHand1);
  s.move(3, kTable);
  s.move(4, kTable);
  s.move(4, kHand2);
  s.move(5, kDiscard);
  for (ComponentId c : hand2_unknown) s.move(c, kHand2);
  for (ComponentId c : deck_order) s.move(c, kDeck);  // each on top: the deck ends up in deck_order
  s.put_under(2, kDeck);
  return s;
}

GameState arranged_a() { return arranged({6, 7}, {8, 9, 10, 11}); }
GameState arranged_b() { return arranged({11, 8}, {10, 6, 9, 7}); }

using Change = std::pair<std::string, std::function<void(GameState&)>>;

/// One change of each part of the state of arranged_a(): a card's zone and order, what a seat knows, counters,
/// the turn, phase, ply, round and match, the RNG, tiles and figures. Each one alone changes the digest; applied
/// in this order they all succeed.
std::vector<Change> one_change_of_each_kind() {
  return {
      {"move a card to another zone", [](GameState& s) { s.move(3, kDiscard); }},
      {"reorder a zone", [](GameState& s) { s.move(1, kHand1, 0); }},
      {"reveal a card", [](GameState& s) { s.reveal(6, 0b01); }},
      {"set a seat counter", [](GameState& s) { s.set_counter(0, 2, 4); }},
      {"set the supply counter", [](GameState& s) { s.set_counter(1, 0, 11); }},
      {"change the seat to move", [](GameState& s) { s.set_to_move(2); }},
      {"change the phase", [](GameState& s) { s.set_phase(1); }},
      {"count a ply", [](GameState& s) { s.count_ply(); }},
      {"request the end of the round", [](GameState& s) { s.request_round_end(); }},
      {"close the round", [](GameState& s) { s.close_round(std::vector<std::int64_t>{0, 0}); }},
      {"end the match", [](GameState& s) { s.set_over(); }},
      {"draw from the RNG", [](GameState& s) { s.rng().next(); }},
      {"place a tile", [](GameState& s) { s.place_tile(3, 0, 2); }},
      {"place a tile rotated", [](GameState& s) { s.place_tile(3, 0, 3, 1); }},
      {"move a figure", [](GameState& s) { s.move_figure(0, 0, 1); }},
  };
}

}  // namespace

TEST_CASE("a fresh state has every component in the box, in id order, known to all", "[state]") {
  const GameState s(card_layout(), 3);
  CHECK(s.check_invariants() == "");
  CHECK(s.size(box()) == kCards);
  for (ComponentId c = 0; c < kCards; ++c) {
    CHECK(s.cards(box())[c] == c);
    CHECK(s.place_of(c) == Place{box(), 0, 0});
    CHECK(s.seen_by(c) == 0b11);
  }
  for (ZoneId z : {kDeck, kHand1, kHand2, kTable, kDiscard}) {
    CHECK(s.size(z) == 0);
    CHECK(s.top(z) == kNoComponent);
  }
  CHECK(s.counter(0, 0) == 3);
  CHECK(s.counter(0, 1) == 3);
  CHECK(s.counter(0, 2) == 3);
  CHECK(s.counter(1) == 10);
  CHECK(s.to_move() == 1);
  CHECK(s.round() == 1);
  CHECK(s.phase() == 0);
  CHECK(s.ply() == 0);
  CHECK_FALSE(s.over());
  CHECK(s.masked_for() == 0);
  CHECK(s.match_scores() == std::vector<std::int64_t>{0, 0});
  CHECK(s.rng() == hr::Rng(3));
}

TEST_CASE("move puts a card on top, at the bottom or at an index, and conserves components", "[state]") {
  GameState s(card_layout(), 1);
  s.move(0, kTable);
  s.move(1, kTable);
  s.move(2, kTable);
  CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{0, 1, 2});
  CHECK(s.top(kTable) == 2);
  CHECK(s.size(box()) == kCards - 3);
  CHECK(s.check_invariants() == "");

  s.put_under(3, kTable);
  CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{3, 0, 1, 2});
  CHECK(s.check_invariants() == "");

  s.move(4, kTable, 2);
  CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{3, 0, 4, 1, 2});
  CHECK(s.place_of(4) == Place{kTable, 0, 0});
  CHECK(s.check_invariants() == "");

  s.move(5, kTable, 5);  // index == size: on top
  CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{3, 0, 4, 1, 2, 5});
  CHECK(s.check_invariants() == "");

  SECTION("within the same zone, a card is re-inserted") {
    s.move(3, kTable);  // bottom to top
    CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{0, 4, 1, 2, 5, 3});
    s.move(3, kTable, 0);  // and back
    CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{3, 0, 4, 1, 2, 5});
    s.move(1, kTable, 5);  // index 5 is the top after removal
    CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{3, 0, 4, 2, 5, 1});
    CHECK(s.size(kTable) == 6);
    CHECK(s.check_invariants() == "");
  }
  SECTION("move_top takes the top card") {
    CHECK(s.move_top(kTable, kDiscard) == 5);
    CHECK(s.move_top(kTable, kDiscard) == 2);
    CHECK(ids(s.cards(kDiscard)) == std::vector<ComponentId>{5, 2});
    CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{3, 0, 4, 1});
    CHECK(s.check_invariants() == "");
  }
  SECTION("removing from the middle closes the gap") {
    s.move(4, kHand1);
    CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{3, 0, 1, 2, 5});
    CHECK(ids(s.cards(kHand1)) == std::vector<ComponentId>{4});
    CHECK(s.check_invariants() == "");
  }
}

TEST_CASE("moving to a bad position throws LayoutError and changes nothing", "[state]") {
  GameState s = stacked_deck();
  s.move(0, kTable);
  s.move(1, kTable);
  const GameState before = s;

  CHECK_THROWS_AS(s.move(5, kTable, 3), LayoutError);  // table has 2 cards: index 3 is past the top
  CHECK_THROWS_WITH(s.move(5, kTable, 3), Catch::Matchers::Contains("'table'"));
  CHECK(s == before);
  CHECK_THROWS_AS(s.move(0, kTable, 2), LayoutError);  // within the zone: after removal only 0..1
  CHECK(s == before);
  CHECK_THROWS_AS(s.move(kCards, kTable), LayoutError);  // no such component
  CHECK(s == before);
  CHECK_THROWS_AS(s.move(kNoComponent, kTable), LayoutError);
  CHECK(s == before);
  CHECK_THROWS_AS(s.move(3, static_cast<ZoneId>(card_layout().zones.size())), LayoutError);  // no such zone
  CHECK(s == before);
  CHECK_THROWS_AS(s.move_top(static_cast<ZoneId>(99), kTable), LayoutError);
  CHECK(s == before);
  CHECK_THROWS_AS(s.move_top(kDeck, static_cast<ZoneId>(99)), LayoutError);
  CHECK(s == before);
  CHECK_THROWS_AS(s.shuffle(static_cast<ZoneId>(99)), LayoutError);
  CHECK(s == before);
  CHECK(s.check_invariants() == "");
}

TEST_CASE("gather is moving every component in id order into one zone", "[state]") {
  // cards spread over hands, the table, the discard pile, the deck (shuffled: unknown) and a track
  GameState s = arranged_a();
  s.place_tile(7, 0, 3, 1);
  s.move(9, box());
  GameState expected = s;
  for (ComponentId c = 0; c < kCards; ++c) expected.move(c, kDeck);
  s.gather(kDeck);
  CHECK(s == expected);
  CHECK(ids(s.cards(kDeck)) == ids(expected.cards(kDeck)));
  CHECK(s.tile_at(0, 3).component == kNoComponent);
  CHECK(s.check_invariants().empty());
  // into a public zone: every card becomes known to all, as a move there does
  GameState t = arranged_b();
  GameState t_expected = t;
  for (ComponentId c = 0; c < kCards; ++c) t_expected.move(c, kTable);
  t.gather(kTable);
  CHECK(t == t_expected);
  CHECK_THROWS_AS(t.gather(static_cast<ZoneId>(card_layout().zones.size())), LayoutError);
  const GameState view = t.observation(1);
  GameState changed = view;
  CHECK_THROWS_AS(changed.gather(kDeck), LayoutError);
}

TEST_CASE("move_top of an empty zone returns kNoComponent and changes nothing", "[state]") {
  GameState s = stacked_deck();
  const GameState before = s;
  CHECK(s.move_top(kHand1, kTable) == kNoComponent);
  CHECK(s == before);
}

TEST_CASE("deal goes round-robin from the top and stops when the source runs out", "[state]") {
  GameState s = stacked_deck();  // c11 on top
  const ZoneId hands[] = {kHand1, kHand2};
  CHECK(s.deal(kDeck, hands, 3) == 6);
  CHECK(ids(s.cards(kHand1)) == std::vector<ComponentId>{11, 9, 7});
  CHECK(ids(s.cards(kHand2)) == std::vector<ComponentId>{10, 8, 6});
  CHECK(ids(s.cards(kDeck)) == std::vector<ComponentId>{0, 1, 2, 3, 4, 5});
  CHECK(s.check_invariants() == "");

  const ZoneId three[] = {kHand1, kHand2, kTable};
  CHECK(s.deal(kDeck, three, 3) == 6);  // 9 asked, 6 left
  CHECK(ids(s.cards(kHand1)) == std::vector<ComponentId>{11, 9, 7, 5, 2});
  CHECK(ids(s.cards(kHand2)) == std::vector<ComponentId>{10, 8, 6, 4, 1});
  CHECK(ids(s.cards(kTable)) == std::vector<ComponentId>{3, 0});
  CHECK(s.size(kDeck) == 0);
  CHECK(s.check_invariants() == "");

  const GameState before = s;
  CHECK(s.deal(kDeck, hands, 2) == 0);
  CHECK(s == before);
}

TEST_CASE("shuffle permutes a zone reproducibly with the game's RNG", "[state]") {
  GameState s = stacked_deck(77);
  const hr::Rng rng_before = s.rng();
  s.shuffle(kDeck);
  CHECK(s.check_invariants() == "");
  CHECK_FALSE(s.rng() == rng_before);  // the game's RNG was used
  std::vector<ComponentId> order = ids(s.cards(kDeck));
  CHECK(order != std::vector<ComponentId>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  std::vector<ComponentId> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<ComponentId>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  for (std::size_t i = 0; i < order.size(); ++i) CHECK(s.place_of(order[i]) == Place{kDeck, 0, 0});

  // Fisher-Yates with the state's RNG, exactly.
  hr::Rng reference = rng_before;
  std::vector<ComponentId> expected{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  reference.shuffle(std::span<ComponentId>(expected));
  CHECK(order == expected);
  CHECK(s.rng() == reference);

  GameState again = stacked_deck(77);
  again.shuffle(kDeck);
  CHECK(again == s);
}

TEST_CASE("who has seen which card", "[state][seen]") {
  GameState s = stacked_deck();
  // Cards came out of the public box: everybody knows them until the hidden deck is shuffled.
  CHECK(s.seen_by(11) == 0b11);
  s.shuffle(kDeck);
  for (ComponentId c = 0; c < kCards; ++c) CHECK(s.seen_by(c) == 0);
  CHECK(s.check_invariants() == "");

  const ZoneId hands[] = {kHand1, kHand2};
  s.deal(kDeck, hands, 2);
  const ComponentId a = s.cards(kHand1)[0], b = s.cards(kHand1)[1];
  const ComponentId x = s.cards(kHand2)[0], y = s.cards(kHand2)[1];
  SECTION("a dealt card is known only to its owner") {
    CHECK(s.seen_by(a) == 0b01);
    CHECK(s.seen_by(b) == 0b01);
    CHECK(s.seen_by(x) == 0b10);
    CHECK(s.seen_by(y) == 0b10);
    CHECK(s.seen_by(s.top(kDeck)) == 0);
  }
  SECTION("a card shown on the table is known to all and stays known when taken back") {
    s.move(x, kTable);
    CHECK(s.seen_by(x) == 0b11);
    s.move(x, kHand2);
    CHECK(s.seen_by(x) == 0b11);
    s.move(a, kDiscard);  // a top zone shows each card as it arrives
    CHECK(s.seen_by(a) == 0b11);
    s.move(a, kHand2);  // seat 1's card taken by seat 2: both know where it is
    CHECK(s.seen_by(a) == 0b11);
    CHECK(s.check_invariants() == "");
  }
  SECTION("a card put back into the hidden deck stays known until the deck is shuffled") {
    s.move(x, kTable);
    s.put_under(x, kDeck);
    s.move(b, kDeck);
    CHECK(s.seen_by(x) == 0b11);
    CHECK(s.seen_by(b) == 0b01);
    s.shuffle(kDeck);
    CHECK(s.seen_by(x) == 0);
    CHECK(s.seen_by(b) == 0);
    CHECK(s.seen_by(a) == 0b01);  // cards outside the deck are untouched
    CHECK(s.check_invariants() == "");
  }
  SECTION("shuffling a public or owner zone forgets nothing") {
    s.move(x, kTable);
    s.move(y, kTable);
    s.shuffle(kTable);
    CHECK(s.seen_by(x) == 0b11);
    CHECK(s.seen_by(y) == 0b11);
    s.shuffle(kHand1);
    CHECK(s.seen_by(a) == 0b01);
  }
  SECTION("reveal adds seats") {
    s.reveal(x, 0b01);
    CHECK(s.seen_by(x) == 0b11);
    CHECK(s.check_invariants() == "");
  }
}

TEST_CASE("observation masks exactly the cards the seat does not know", "[state][observation]") {
  const GameState s = arranged_a();
  REQUIRE(s.check_invariants() == "");
  const ComponentId U = kUnknownComponent;

  const GameState one = s.observation(1);
  CHECK(one.masked_for() == 1);
  CHECK(ids(one.cards(kHand1)) == std::vector<ComponentId>{0, 1});
  CHECK(ids(one.cards(kHand2)) == std::vector<ComponentId>{4, U, U});
  CHECK(ids(one.cards(kTable)) == std::vector<ComponentId>{3});
  CHECK(ids(one.cards(kDiscard)) == std::vector<ComponentId>{5});
  CHECK(ids(one.cards(kDeck)) == std::vector<ComponentId>{2, U, U, U, U});
  CHECK(one.size(box()) == 0);
  CHECK(one.rng() == hr::Rng(0));  // the future is not part of an observation

  const GameState two = s.observation(2);
  CHECK(two.masked_for() == 2);
  CHECK(ids(two.cards(kHand1)) == std::vector<ComponentId>{U, U});
  CHECK(ids(two.cards(kHand2)) == std::vector<ComponentId>{4, 6, 7});
  CHECK(ids(two.cards(kDeck)) == std::vector<ComponentId>{U, U, U, U, U});  // c2 went under unseen by 2
  CHECK(ids(two.cards(kTable)) == std::vector<ComponentId>{3});

  // Public parts are copied.
  CHECK(one.counter(0, 2) == s.counter(0, 2));
  CHECK(one.to_move() == s.to_move());
  CHECK(one.round() == s.round());
  // The real state is untouched.
  CHECK(s.masked_for() == 0);
  CHECK(s == arranged_a());
}

TEST_CASE("an observation cannot be changed", "[state][observation]") {
  GameState view = arranged_a().observation(1);
  const GameState before = view;
  CHECK_THROWS_AS(view.move(0, kTable), LayoutError);
  CHECK_THROWS_AS(view.move(3, kHand1, 0), LayoutError);
  CHECK_THROWS_AS(view.shuffle(kDeck), LayoutError);
  CHECK_THROWS_AS(view.shuffle(kHand1), LayoutError);
  CHECK_THROWS_AS(view.move_top(kTable, kHand1), LayoutError);
  CHECK_THROWS_AS(view.place_tile(3, 0, 1), LayoutError);
  CHECK(view == before);
}

TEST_CASE("an observation does not depend on cards the seat cannot see", "[state][observation]") {
  // A and B differ only in where seat 1's unknown cards are (seat 2's hand vs the deck, deck order).
  const GameState a = arranged_a(), b = arranged_b();
  REQUIRE_FALSE(a == b);
  REQUIRE(a.rng() == b.rng());
  const GameState va = a.observation(1), vb = b.observation(1);
  CHECK(va == vb);
  CHECK(va.digest() == vb.digest());
  // In particular the per-card bookkeeping of the view must not say where an unknown card is or who saw
  // it (c6 is in seat 2's hand in A and in the deck in B).
  for (ComponentId c = 6; c < kCards; ++c) {
    INFO("component c" << c);
    CHECK(va.place_of(c) == vb.place_of(c));
    CHECK(va.seen_by(c) == vb.seen_by(c));
  }
  // Known cards keep their places in the view.
  for (ComponentId c = 0; c < 6; ++c) CHECK(va.place_of(c) == a.place_of(c));
  // Seat 2 does see a difference.
  CHECK_FALSE(a.observation(2) == b.observation(2));
}

TEST_CASE("determinized keeps what the seat knows and re-deals the rest", "[state][determinized]") {
  const GameState s = arranged_a();
  std::set<std::vector<ComponentId>> hands2_seen;
  bool c6_in_deck = false, c6_in_hand2 = false;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    hr::Rng rng(seed);
    const GameState d = s.determinized(1, rng);
    INFO("seed " << seed);
    REQUIRE(d.check_invariants() == "");
    CHECK(d.masked_for() == 0);
    for (ZoneId z = 0; z < card_layout().zones.size(); ++z) {
      REQUIRE(d.size(z) == s.size(z));
      for (int i = 0; i < s.size(z); ++i) {
        const ComponentId real = s.cards(z)[i], sampled = d.cards(z)[i];
        if (s.seen_by(real) & 0b01) {
          CHECK(sampled == real);  // known: stays exactly where it is
        } else {
          CHECK_FALSE(s.seen_by(sampled) & 0b01);  // unknown slots get unknown cards
          CHECK(d.seen_by(sampled) == card_layout().grant_mask(z));
        }
      }
    }
    CHECK(d.counter(0, 1) == s.counter(0, 1));
    CHECK(d.to_move() == s.to_move());
    hands2_seen.insert(ids(d.cards(kHand2)));
    c6_in_deck |= d.place_of(6).zone == kDeck;
    c6_in_hand2 |= d.place_of(6).zone == kHand2;
  }
  // The unknown cards really are re-dealt.
  CHECK(hands2_seen.size() > 10);
  CHECK(c6_in_deck);
  CHECK(c6_in_hand2);
}

TEST_CASE("determinized uses and advances the given RNG, not the game's", "[state][determinized]") {
  const GameState s = arranged_a();
  hr::Rng r1(9), r2(9);
  const GameState d1 = s.determinized(1, r1);
  const GameState d2 = s.determinized(1, r2);
  CHECK(d1 == d2);
  CHECK(r1 == r2);
  CHECK_FALSE(r1 == hr::Rng(9));
  const GameState d3 = s.determinized(1, r1);  // r1 moved on
  CHECK_FALSE(d3.rng() == d1.rng());
  // The sample's RNG is not the real one (the real future is hidden information).
  CHECK_FALSE(d1.rng() == s.rng());
}

TEST_CASE("determinizations cannot peek at cards the seat does not know", "[state][determinized]") {
  const GameState a = arranged_a(), b = arranged_b();
  REQUIRE_FALSE(a == b);
  GameState a_other_rng = a;  // the game's own RNG is hidden too
  a_other_rng.rng().next();
  REQUIRE_FALSE(a_other_rng == a);
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    hr::Rng ra(seed), rb(seed), rc(seed);
    const GameState da = a.determinized(1, ra);
    const GameState db = b.determinized(1, rb);
    const GameState dc = a_other_rng.determinized(1, rc);
    INFO("seed " << seed);
    CHECK(da == db);
    CHECK(da.digest() == db.digest());
    CHECK(da == dc);
  }
  // Seat 2 knows its own hand, which differs between A and B: its samples differ.
  hr::Rng r1(3), r2(3);
  CHECK_FALSE(a.determinized(2, r1) == b.determinized(2, r2));
}

TEST_CASE("a seat that knows everything gets the real cards back", "[state][determinized]") {
  GameState s = stacked_deck();
  s.move(0, kTable);
  s.move(1, kHand2);  // came from the public box: known to both
  hr::Rng rng(4);
  const GameState d = s.determinized(1, rng);
  for (ZoneId z = 0; z < card_layout().zones.size(); ++z) CHECK(ids(d.cards(z)) == ids(s.cards(z)));
  CHECK(d.check_invariants() == "");
}

TEST_CASE("operator== and digest see every change and copies are equal", "[state][digest]") {
  GameState base = arranged_a();
  const GameState copy = base;
  CHECK(copy == base);
  CHECK(copy.digest() == base.digest());
  CHECK(arranged_a().digest() == base.digest());  // deterministic
  CHECK(arranged_b().digest() != base.digest());

  const std::vector<Change> changes = one_change_of_each_kind();

  std::set<std::uint64_t> digests{base.digest()};
  for (const auto& [what, change] : changes) {
    GameState changed = base;
    change(changed);
    INFO(what);
    CHECK_FALSE(changed == base);
    CHECK(changed.digest() != base.digest());
    digests.insert(changed.digest());
  }
  CHECK(digests.size() == changes.size() + 1);
  // The two tile placements differ only in rotation, and are told apart.
  GameState r0 = base, r1 = base;
  r0.place_tile(3, 0, 2, 0);
  r1.place_tile(3, 0, 2, 1);
  CHECK_FALSE(r0 == r1);
  CHECK(r0.digest() != r1.digest());
  // Undoing a change restores equality.
  GameState back = base;
  back.set_phase(3);
  back.set_phase(0);
  CHECK(back == base);
  CHECK(back.digest() == base.digest());
}

TEST_CASE("set_to_move accepts only existing seats", "[state]") {
  GameState s(card_layout(), 1);
  s.set_to_move(2);
  CHECK(s.to_move() == 2);
  CHECK_THROWS_AS(s.set_to_move(0), LayoutError);
  CHECK_THROWS_AS(s.set_to_move(3), LayoutError);
  CHECK(s.to_move() == 2);
}

TEST_CASE("counters read and write by owner", "[state]") {
  GameState s(card_layout(), 1);
  s.set_counter(0, 1, 7);
  CHECK(s.counter(0, 1) == 7);
  CHECK(s.counter(0, 2) == 3);
  CHECK(s.counter(0, 0) == 3);
  s.set_counter(1, 0, -4);
  CHECK(s.counter(1) == -4);
  CHECK_THROWS_AS(s.counter(1, 1), LayoutError);
  CHECK_THROWS_AS(s.set_counter(0, 3, 1), LayoutError);
  CHECK_THROWS_AS(s.counter(2, 0), LayoutError);
}

TEST_CASE("determinized re-deals a hidden card only where a card of the same back was", "[state][determinized]") {
  // Two face-down piles told apart by their backs (Lost Valley: river tiles and land tiles): a determinization
  // must never deal a card of back "a" into the place of a card of back "b".
  static const Layout layout = [] {
    Layout l;
    l.seats = 2;
    for (int i = 0; i < 8; ++i) l.components.push_back({"c" + std::to_string(i), {{"back", std::string(i < 4 ? "a" : "b")}}});
    l.zones = {{"pile_a", {}, Visibility::Hidden}, {"pile_b", {}, Visibility::Hidden}};
    l.finalize();
    return l;
  }();
  GameState s(layout, 1);
  for (ComponentId c = 0; c < 8; ++c) s.move(c, c < 4 ? 0 : 1);
  s.shuffle(0);
  s.shuffle(1);
  bool mixed_within = false;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    hr::Rng rng(seed);
    const GameState d = s.determinized(1, rng);
    REQUIRE(d.check_invariants() == "");
    for (ComponentId c : d.cards(0)) CHECK(c < 4);
    for (ComponentId c : d.cards(1)) CHECK(c >= 4);
    mixed_within |= ids(d.cards(0)) != ids(s.cards(0));
  }
  CHECK(mixed_within);  // within a back the cards are still re-dealt
}

TEST_CASE("determinized refills a zone that holds only some components with such components", "[state][determinized]") {
  // Lost Valley: event tokens share one back, some are goods and some equipment; a seat's goods zone is hidden
  // from the others, who know it holds goods only (ZoneDef::holds). A sample must never put equipment there (the
  // rules would then offer to discard a good the seat does not hold), and the pool is still re-dealt.
  static const Layout layout = [] {
    Layout l;
    l.seats = 2;
    for (int i = 0; i < 8; ++i) {  // c0..c2 goods (c1 with the attribute false: not a good), the rest equipment
      std::vector<std::pair<std::string, hr::AttributeValue>> attributes = {{"back", std::string("event")}};
      if (i < 3) attributes.emplace_back("good", i != 1);
      if (i == 3) attributes.emplace_back("good", std::int64_t{0});
      l.components.push_back({"e" + std::to_string(i), attributes});
    }
    l.zones = {{"pool", {}, Visibility::Hidden},
               {"goods1", {Owner::Kind::Seat, 1}, Visibility::Owner, "good"},
               {"goods2", {Owner::Kind::Seat, 2}, Visibility::Owner, "good"}};
    l.finalize();
    return l;
  }();
  GameState s(layout, 1);
  for (ComponentId c = 0; c < 8; ++c) s.move(c, 0);
  s.shuffle(0);
  s.move(0, 2);  // seat 2 holds the good e0, seat 1 the good e2: each unknown to the other seat
  s.move(2, 1);
  bool good_moved = false, pool_mixed = false;
  for (std::uint64_t seed = 0; seed < 60; ++seed) {
    hr::Rng rng(seed);
    const GameState d = s.determinized(1, rng);
    REQUIRE(d.check_invariants() == "");
    CHECK(ids(d.cards(1)) == std::vector<ComponentId>{2});  // seat 1's own good: known
    REQUIRE(d.size(2) == 1);
    CHECK(d.cards(2)[0] == 0);  // the only unknown good (e1 and e3 have the attribute false and 0)
    good_moved |= ids(d.cards(0)) != ids(s.cards(0));
    const GameState d2 = s.determinized(2, rng);  // seat 2 does not know seat 1's good: e2 is the only one left
    CHECK(ids(d2.cards(1)) == std::vector<ComponentId>{2});
    pool_mixed |= ids(d2.cards(0)) != ids(s.cards(0));
  }
  CHECK(good_moved);  // the pool is still re-dealt
  CHECK(pool_mixed);
  // The samples do not depend on where the hidden cards really are: the same for any order of the pool.
  GameState t = s;
  t.shuffle(0);
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    hr::Rng a(seed), b(seed);
    CHECK(s.determinized(1, a) == t.determinized(1, b));
  }
}

// ---- top-card visibility (a deck whose top card lies face up; issue 16, variants' [visibility]) ------------

namespace {

const Layout& top_card_layout() {
  static const Layout layout = [] {
    Layout l;
    l.seats = 2;
    for (int i = 0; i < 6; ++i) l.components.push_back({"t" + std::to_string(i), {}});
    l.zones = {{"deck", {}, Visibility::TopCard},
               {"hand1", {Owner::Kind::Seat, 1}, Visibility::Owner},
               {"hand2", {Owner::Kind::Seat, 2}, Visibility::Owner}};
    l.finalize();
    return l;
  }();
  return layout;
}

/// t0..t5 in the deck, shuffled: nobody knows any card but the top one.
GameState shuffled_top_card_deck() {
  GameState s(top_card_layout(), 3);
  for (ComponentId c = 0; c < 6; ++c) s.move(c, 0);
  s.shuffle(0);
  return s;
}

}  // namespace

TEST_CASE("top-card zone: every seat sees the top card and only it", "[state][visibility]") {
  CHECK(hr::visibility_from_string("top-card") == Visibility::TopCard);
  CHECK(hr::to_string(Visibility::TopCard) == "top-card");
  GameState s = shuffled_top_card_deck();
  const auto deck = ids(s.cards(0));
  for (int seat : {1, 2}) {
    const auto seen = ids(s.observation(seat).cards(0));
    REQUIRE(seen.size() == 6);
    CHECK(seen.back() == deck.back());
    CHECK(std::count(seen.begin(), seen.end(), kUnknownComponent) == 5);
  }
  CHECK(s.check_invariants().empty());
}

TEST_CASE("top-card zone: a card drawn from the top stays known, the next one shows", "[state][visibility]") {
  GameState s = shuffled_top_card_deck();
  const auto deck = ids(s.cards(0));
  const ComponentId drawn = s.move_top(0, 1);
  CHECK(drawn == deck.back());
  const GameState view = s.observation(2);
  CHECK(ids(view.cards(1)) == std::vector<ComponentId>{drawn});  // seat 2 saw it taken
  CHECK(view.cards(0).back() == deck[deck.size() - 2]);           // the new top card
  CHECK(view.cards(0)[0] == kUnknownComponent);
}

TEST_CASE("top-card zone: dealing is face down, only the card left on top shows", "[state][visibility]") {
  GameState s = shuffled_top_card_deck();
  const ZoneId hands[] = {1, 2};
  CHECK(s.deal(0, hands, 2) == 4);
  const GameState view = s.observation(2);
  CHECK(std::count(view.cards(1).begin(), view.cards(1).end(), kUnknownComponent) == 2);  // seat 1's hand
  CHECK(view.cards(0).back() != kUnknownComponent);
  // after the deal, taking works as before: the card drawn stays known
  const ComponentId drawn = s.move_top(0, 1);
  CHECK(s.observation(2).cards(1).back() == drawn);
}

TEST_CASE("top-card zone: determinizations keep the visible top card in place", "[state][visibility]") {
  GameState s = shuffled_top_card_deck();
  const ComponentId top = s.cards(0).back();
  hr::Rng rng(11);
  for (int i = 0; i < 20; ++i) {
    const GameState sample = s.determinized(1, rng);
    CHECK(sample.cards(0).back() == top);
    CHECK(sample.check_invariants().empty());
  }
}

// ---- the undo log (Rules::apply's rollback) -----------------------------------------------------------------

TEST_CASE("the undo log restores the state exactly after any kind of change", "[state][undo]") {
  const GameState base = arranged_a();
  std::vector<Change> changes = one_change_of_each_kind();
  const std::vector<Change> more = {
      {"move a card out of the middle of a zone", [](GameState& s) { s.move(0, kTable); }},
      {"put a card under the deck", [](GameState& s) { s.put_under(5, kDeck); }},
      {"take the top card of the discard pile (reveals it)", [](GameState& s) { s.move_top(kDiscard, kHand2); }},
      {"deal", [](GameState& s) { s.deal(kDeck, std::vector<ZoneId>{kHand1, kHand2}, 2); }},
      {"shuffle", [](GameState& s) { s.shuffle(kHand1); }},
      {"gather", [](GameState& s) { s.gather(kDeck); }},
      {"forget a card", [](GameState& s) { s.forget(3); }},
      {"close both rounds", [](GameState& s) { s.close_round(std::vector<std::int64_t>{3, -2}), s.close_round(std::vector<std::int64_t>{1, 1}); }},
      {"move a tile along the track", [](GameState& s) { s.place_tile(3, 0, 4), s.place_tile(3, 0, 1); }},
      {"quiet moves", [](GameState& s) { s.set_quiet_moves(true); }},
  };
  changes.insert(changes.end(), more.begin(), more.end());

  // Each change alone, and all of them in a row (the same bytes saved many times over), are undone.
  GameState all = base;
  REQUIRE(all.begin_undo());
  for (const auto& [what, change] : changes) {
    INFO(what);
    GameState s = base;
    REQUIRE(s.begin_undo());
    CHECK(s.recording());
    change(s);
    s.rollback();
    CHECK_FALSE(s.recording());
    CHECK(s == base);
    CHECK(s.digest() == base.digest());
    CHECK(s.check_invariants() == "");
    // The same change kept: commit_undo leaves the state as changed.
    GameState kept = base, expected = base;
    change(expected);
    REQUIRE(kept.begin_undo());
    change(kept);
    kept.commit_undo();
    CHECK(kept == expected);
    change(all);
  }
  CHECK_FALSE(all == base);
  all.rollback();
  CHECK(all == base);
  CHECK(all.check_invariants() == "");
}

TEST_CASE("the undo log restores any run of moves between and within zones, at any position", "[state][undo]") {
  // Moves from zone to zone are saved as one record each (plus the slots shifted below the tops): random runs
  // of them, to the top, the bottom or the middle, within a zone too, and with the state assigned to halfway
  // (Rules::apply's copy fallback inside a recording), are undone exactly; kept, they change the state exactly
  // as the same moves made without a recording.
  const ZoneId zones[] = {kDeck, kHand1, kHand2, kTable, kDiscard, box()};
  hr::Rng rng(2024);
  const auto random_move = [&](GameState& s) {
    const auto c = static_cast<ComponentId>(rng.below(kCards));
    const ZoneId to = zones[rng.below(std::size(zones))];
    const int top = s.size(to) - (s.place_of(c).zone == to ? 1 : 0);  // the highest position c can take
    const int index = rng.below(3) == 0 ? -1 : static_cast<int>(rng.below(static_cast<std::uint64_t>(top) + 1));
    s.move(c, to, index);
    return std::tuple{c, to, index};
  };
  for (int trial = 0; trial < 300; ++trial) {
    INFO("trial " << trial);
    GameState base = arranged_a();
    for (int k = 0; k < 10; ++k) random_move(base);  // a different position each trial
    GameState s = base, plain = base;
    REQUIRE(s.begin_undo());
    const int moves = 1 + static_cast<int>(rng.below(12));
    GameState halfway;
    for (int k = 0; k < moves; ++k) {
      const auto [c, to, index] = random_move(s);
      plain.move(c, to, index);
      CHECK(s == plain);
      REQUIRE(s.check_invariants() == "");
      if (k == moves / 2) halfway = s;
    }
    if (trial % 2) {  // keep the moves: the same state as without the recording
      s.commit_undo();
      CHECK(s == plain);
      continue;
    }
    if (trial % 4 == 0) {  // assigned to halfway, then moved on: the log still restores the start
      s = halfway;
      for (int k = 0; k < 3; ++k) random_move(s);
    }
    s.rollback();
    CHECK(s == base);
    CHECK(s.check_invariants() == "");
  }
}

TEST_CASE("an undo log is not copied, nests by refusing, and restores nothing once committed", "[state][undo]") {
  GameState s = arranged_a();
  const GameState base = s;
  REQUIRE(s.begin_undo());
  CHECK_FALSE(s.begin_undo());  // already recording: the caller keeps a copy instead
  s.move(3, kDiscard);
  CHECK(s.undo_bytes() > 0);
  CHECK(s.undo_bytes() < 64);  // a move saves a few slots and entries, not the state
  GameState copy = s;  // a copy records nothing
  CHECK_FALSE(copy.recording());
  copy.rollback();  // no-op
  CHECK(copy == s);
  s.rollback();
  CHECK(s == base);
  s.rollback();  // a second rollback does nothing
  CHECK(s == base);
  REQUIRE(s.begin_undo());
  s.move(3, kDiscard);
  s.commit_undo();
  const GameState moved = s;
  s.rollback();  // nothing to roll back after the commit
  CHECK(s == moved);
  // A recording state assigned to keeps its log (Rules::apply's copy fallback inside a caller's recording).
  GameState t = base;
  REQUIRE(t.begin_undo());
  t.move(0, kTable);
  const GameState middle = t;
  t.move(1, kTable);
  t = middle;
  t.set_counter(0, 1, 9);
  t.rollback();
  CHECK(t == base);
}
