// ismcts_test.cpp — hr::IsmctsPlayer on the tiny Take game (take_game.hpp): options and make_bot, the
// search's bookkeeping, reproducibility, sensible choices with random and heuristic rollouts, time budgets,
// and no peeking (tests/games/ismcts_test.cpp does the same on real Lost Cities states).
#include <catch2/catch.hpp>

#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bots.hpp"
#include "ismcts.hpp"
#include "../peeking_ismcts.hpp"
#include "put_take_game.hpp"
#include "take_game.hpp"

using hr::Action;
using hr::GameState;
using hr::InformationSet;
using hr::IsmctsOptions;
using hr::IsmctsPlayer;
using namespace take_game;

namespace {

constexpr hr::ComponentId Y1 = 0, Y2 = 1, Y3 = 2, Y4 = 3, Y5 = 4, Y6 = 5, Y7 = 6, Y8 = 7;

Action decide(hr::Player& bot, TakeGame& game, const GameState& s) {
  const std::vector<Action> legal = game.legal_actions(s);
  return bot.choose(game, InformationSet(s, s.to_move(), legal));
}

IsmctsOptions with_iterations(int n) {
  IsmctsOptions o;
  o.iterations = n;
  return o;
}

using test_doubles::PeekingIsmcts;

}  // namespace

TEST_CASE("IsmctsOptions::parse reads key=value options and names bad ones", "[ismcts]") {
  const IsmctsOptions d = IsmctsOptions::parse("");
  CHECK(d.iterations == 1000);
  CHECK(d.exploration == Approx(0.7));
  CHECK_FALSE(d.rollout.has_value());
  CHECK(d.depth == -1);
  CHECK(d.reward == IsmctsOptions::Reward::Margin);
  CHECK(d.baseline);
  CHECK_FALSE(d.finish_turn.has_value());
  CHECK(d.time_ms == 0);
  CHECK_FALSE(d.seed.has_value());

  const IsmctsOptions o =
      IsmctsOptions::parse("iterations=2000:exploration=0.25:rollout=random:depth=40:reward=win:scale=10:time_ms=50:seed=7");
  CHECK(o.iterations == 2000);
  CHECK(o.exploration == Approx(0.25));
  CHECK(o.rollout == IsmctsOptions::Rollout::Random);
  CHECK(o.depth == 40);
  CHECK(o.reward == IsmctsOptions::Reward::Win);
  CHECK(o.scale == Approx(10));
  CHECK(o.time_ms == Approx(50));
  CHECK(o.seed == std::uint64_t{7});
  CHECK(IsmctsOptions::parse("rollout=heuristic").rollout == IsmctsOptions::Rollout::Heuristic);
  CHECK(IsmctsOptions::parse("iterations=0:time_ms=5").iterations == 0);
  CHECK_FALSE(IsmctsOptions::parse("baseline=off").baseline);
  CHECK(IsmctsOptions::parse("baseline=off:baseline=on").baseline);
  CHECK(IsmctsOptions::parse("finish_turn=off").finish_turn == false);
  CHECK(IsmctsOptions::parse("finish_turn=on").finish_turn == true);
  CHECK_FALSE(d.expand.has_value());
  CHECK(d.widen == 0);
  CHECK(IsmctsOptions::parse("expand=greedy").expand == IsmctsOptions::Expand::Greedy);
  CHECK(IsmctsOptions::parse("expand=random").expand == IsmctsOptions::Expand::Random);
  CHECK(IsmctsOptions::parse("widen=1.5").widen == Approx(1.5));
  CHECK(IsmctsOptions::parse("rollout=greedy").rollout == IsmctsOptions::Rollout::Greedy);
  CHECK(IsmctsOptions::parse("reward=own").reward == IsmctsOptions::Reward::Own);
  CHECK(d.round_end == IsmctsOptions::RoundEnd::Exact);
  CHECK(IsmctsOptions::parse("round_end=heuristic").round_end == IsmctsOptions::RoundEnd::Heuristic);
  CHECK(IsmctsOptions::parse("round_end=heuristic:round_end=exact").round_end == IsmctsOptions::RoundEnd::Exact);

  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(IsmctsOptions::parse("iteration=5"),
                    Contains("unknown option 'iteration'") && Contains("iterations, exploration, rollout, depth"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("iterations=lots"), Contains("iterations=lots") && Contains("whole number"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("iterations=-3"), Contains("iterations=-3"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("reward=best"), Contains("margin, win or own"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("rollout=best"), Contains("random, heuristic or greedy"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("expand=best"), Contains("expand=best") && Contains("random or greedy"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("widen=-1"), Contains("widen=-1") && Contains(">= 0"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("exploration=-1"), Contains(">= 0"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("scale=0"), Contains("> 0"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("baseline=yes"), Contains("baseline=yes") && Contains("on or off"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("baseline="), Contains("on or off"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("round_end=soon"), Contains("round_end=soon") && Contains("exact or heuristic"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("finish_turn=1"), Contains("finish_turn=1") && Contains("on or off"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("iterations"), Contains("not key=value"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("iterations=5:"), Contains("not key=value"));
  CHECK_THROWS_WITH(IsmctsOptions::parse("iterations=0"), Contains("time_ms"));
}

TEST_CASE("make_bot makes ismcts from a setting with options", "[ismcts][bots]") {
  auto plain = hr::make_bot("ismcts", 1);
  REQUIRE(plain != nullptr);
  CHECK(plain->name() == "ismcts");
  REQUIRE(dynamic_cast<IsmctsPlayer*>(plain.get()) != nullptr);
  CHECK(dynamic_cast<IsmctsPlayer&>(*plain).options().iterations == 1000);
  auto tuned = hr::make_bot("ismcts:iterations=2000:exploration=0.4", 1);
  REQUIRE(tuned != nullptr);
  CHECK(dynamic_cast<IsmctsPlayer&>(*tuned).options().iterations == 2000);
  CHECK(dynamic_cast<IsmctsPlayer&>(*tuned).options().exploration == Approx(0.4));
  CHECK_THROWS_AS(hr::make_bot("ismcts:iteratons=5", 1), std::invalid_argument);
  CHECK_THROWS_WITH(hr::make_bot("greedy:seed=3", 1), Catch::Matchers::Contains("greedy takes no options"));
  CHECK(hr::make_bot("ismcts-typo", 1) == nullptr);
  CHECK(hr::make_bot("mcts:iterations=5", 1) == nullptr);
}

TEST_CASE("ismcts runs its iterations, reproducibly, and takes the best card", "[ismcts]") {
  TakeGame game;
  // Seat 1 holds Y2 and has won Y1; the row shows Y3 and Y8; unknown to it: Y4 (seat 2's hand), Y5..Y7.
  const GameState s = arrange(game.layout(), {Y1}, {Y2}, {Y3, Y8}, {Y4}, {Y5, Y6, Y7}, 1);
  const GameState before = s;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    IsmctsPlayer bot(seed, with_iterations(300));
    INFO("seed " << seed);
    CHECK(decide(bot, game, s) == kTake + 1);  // Y8
    CHECK(bot.last_stats().iterations == 300);
    CHECK(bot.last_stats().rollout_plies > 300);  // no heuristic: random rollouts to the end of the round
    const auto children = bot.root_children();
    CHECK(children.size() == 3);
    int visits = 0;
    for (const auto& c : children) visits += c.visits;
    CHECK(visits == 300);
  }
  CHECK(s == before);  // the real state is never touched

  // The same seed gives the same search; the bot's RNG moves on between decisions.
  IsmctsPlayer one(5, with_iterations(60)), two(5, with_iterations(60));
  for (int i = 0; i < 3; ++i) {
    CHECK(decide(one, game, s) == decide(two, game, s));
    const auto a = one.root_children(), b = two.root_children();
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) CHECK(a[k].visits == b[k].visits);
  }
  // The seed option replaces the seed the bot is made with.
  IsmctsOptions seeded = with_iterations(60);
  seeded.seed = 77;
  IsmctsPlayer x(1, seeded), y(2, seeded);
  decide(x, game, s);
  decide(y, game, s);
  CHECK(x.root_children()[0].visits == y.root_children()[0].visits);
}

TEST_CASE("ismcts evaluates leaves with the heuristic when asked (or when the ruleset has one)", "[ismcts]") {
  TakeGame game;
  game.perverse = true;  // heuristic: minus the seat's won pile — the worst card looks best
  const GameState s = arrange(game.layout(), {Y1}, {Y2}, {Y3, Y8}, {Y4}, {Y5, Y6, Y7}, 1);
  // Three iterations: each root action once, its leaf valued by the heuristic (margin over seat 2, whose
  // heuristic is 0): Y3 -> -4, Y8 -> -9, a draw -> at most -5. Ties in visits go to the better mean.
  IsmctsPlayer bot(3, with_iterations(3));
  CHECK(decide(bot, game, s) == kTake + 0);
  CHECK(bot.last_stats().rollout_plies == 0);
  // Random rollouts ignore the heuristic (the round ends within the rollout depth).
  IsmctsOptions random = with_iterations(300);
  random.rollout = IsmctsOptions::Rollout::Random;
  IsmctsPlayer r(3, random);
  CHECK(decide(r, game, s) == kTake + 1);
  // reward=win works too.
  IsmctsOptions win = with_iterations(300);
  win.reward = IsmctsOptions::Reward::Win;
  game.perverse = false;
  IsmctsPlayer w(3, win);
  CHECK(decide(w, game, s) == kTake + 1);
}

namespace {

/// The root's children, in the order they were created, after one decision of `bot` in `s`.
std::vector<Action> root_actions_after(TakeGame& game, const GameState& s, const std::string& options, int iterations,
                                       std::uint64_t seed) {
  IsmctsOptions o = IsmctsOptions::parse(options);
  o.iterations = iterations;
  IsmctsPlayer bot(seed, o);
  decide(bot, game, s);
  std::vector<Action> out;
  for (const auto& c : bot.root_children()) out.push_back(c.action);
  return out;
}

}  // namespace

TEST_CASE("expand=greedy grows a node's children best first by the mover's heuristic; widen bounds how many",
          "[ismcts]") {
  TakeGame game;
  game.perverse = true;  // heuristic: minus the seat's won pile
  // Seat 1 has won Y1. Its heuristic after each action: take Y3 -> -4; draw -> -5 to -8 (the sample's deck top is
  // one of Y4..Y7); take Y8 -> -9. So greedy's order is Y3, draw, Y8, in every sample.
  const GameState s = arrange(game.layout(), {Y1}, {Y2}, {Y3, Y8}, {Y4}, {Y5, Y6, Y7}, 1);
  const std::vector<Action> best_first = {kTake + 0, kDraw, kTake + 1};
  std::set<Action> random_firsts;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    INFO("seed " << seed);
    for (int n = 1; n <= 3; ++n)
      CHECK(root_actions_after(game, s, "expand=greedy", n, seed) ==
            std::vector<Action>(best_first.begin(), best_first.begin() + n));
    random_firsts.insert(root_actions_after(game, s, "expand=random", 1, seed).at(0));
    // Widening, k = 1: a new child when the root has fewer than ceil(sqrt(visits)) of them: before iterations
    // 1, 3 and 6 (visits 0, 2 and 5).
    const int widened[] = {1, 1, 2, 2, 2, 3};
    for (int n = 1; n <= 6; ++n)
      CHECK(root_actions_after(game, s, "expand=greedy:widen=1", n, seed).size() == static_cast<std::size_t>(widened[n - 1]));
    CHECK(root_actions_after(game, s, "expand=greedy:widen=0.5", 5, seed).size() == 1);  // ceil(0.5 * sqrt(4)) = 1
  }
  CHECK(random_firsts.size() > 1);  // the default expands at random: the order above is the heuristic's doing
}

TEST_CASE("rollout=greedy: the other seats play greedily until the deciding seat is to move again", "[ismcts]") {
  TakeGame game;
  game.perverse = true;
  const GameState s = arrange(game.layout(), {Y1}, {Y2}, {Y3, Y8}, {Y4}, {Y5, Y6, Y7}, 1);
  // Three iterations, one per root action; after each, seat 2 makes its one move of the turn: one ply each.
  IsmctsPlayer greedy(1, IsmctsOptions::parse("iterations=3:rollout=greedy"));
  CHECK(decide(greedy, game, s) == kTake + 0);
  CHECK(greedy.last_stats().rollout_plies == 3);
  IsmctsPlayer plain(1, IsmctsOptions::parse("iterations=3"));
  decide(plain, game, s);
  CHECK(plain.last_stats().rollout_plies == 0);  // the leaf is valued where the path ends
  // Without a heuristic hook there is nothing to be greedy with: random rollouts to the end of the round.
  game.perverse = false;
  IsmctsPlayer fallback(1, IsmctsOptions::parse("iterations=3:rollout=greedy"));
  decide(fallback, game, s);
  CHECK(fallback.last_stats().rollout_plies > 3);
}

TEST_CASE("round_end: a sample past the round's end is valued by the totals, or by the heuristic of the next round",
          "[ismcts]") {
  // Seat 1 to move, the deck empty: it takes Y3 or Y8, seat 2 takes the other, and the round ends (the row cannot
  // be refilled). The totals of the round: take Y8 -> 4+5+6+7+8 = 30 against 3; take Y3 -> 25 against 8.
  // Two iterations, one per action, each evaluated after one more ply (depth=1: seat 2's only move, which ends the
  // round and deals the next).
  const auto choice = [](TakeGame& game, const std::string& options) {
    const GameState s = arrange(game.layout(), {Y4, Y5, Y6, Y7}, {Y1}, {Y3, Y8}, {Y2}, {}, 1);
    IsmctsPlayer bot(1, IsmctsOptions::parse("iterations=2:depth=1" + options));
    return decide(bot, game, s);
  };
  TakeGame two_rounds;  // the round that ends is the first of two
  two_rounds.perverse = true;  // a heuristic: minus the seat's won pile
  CHECK(choice(two_rounds, "") == kTake + 1);                      // exact: the totals, Y8 wins the round
  CHECK(choice(two_rounds, ":round_end=exact") == kTake + 1);
  // By the heuristic of the next round's start: both won piles are empty there (0 for both seats, whichever card
  // was taken), so the two actions tie and the first in the ruleset's order is played.
  CHECK(choice(two_rounds, ":round_end=heuristic") == kTake + 0);
  // The match over (one round) is always valued by its totals; so is any round end without a heuristic hook.
  TakeGame one_round(1);
  one_round.perverse = true;
  CHECK(choice(one_round, ":round_end=heuristic") == kTake + 1);
  TakeGame no_heuristic;
  CHECK(choice(no_heuristic, ":round_end=heuristic") == kTake + 1);
}

TEST_CASE("trick: a heuristic returning NaN (ismcts read nodes_[-1] and played action 0)", "[ismcts][hostile]") {
  TakeGame game;
  game.nan = true;
  const GameState s = arrange(game.layout(), {Y1}, {Y2}, {Y3, Y8}, {Y4}, {Y5, Y6, Y7}, 1);
  IsmctsPlayer bot(3, with_iterations(50));  // past the first visit of each child: UCB compares NaNs
  CHECK_THROWS_WITH(decide(bot, game, s), Catch::Contains("NaN"));  // not a move read from nodes_[-1]
}

TEST_CASE("ismcts: a single legal action needs no search; a time budget stops the search", "[ismcts]") {
  TakeGame game;
  const GameState one = arrange(game.layout(), {Y1, Y2, Y3, Y6, Y7}, {Y4}, {Y8}, {Y5}, {}, 1);
  REQUIRE(game.legal_actions(one) == std::vector<Action>{kTake + 0});
  IsmctsPlayer bot(1, with_iterations(100));
  CHECK(decide(bot, game, one) == kTake + 0);
  CHECK(bot.last_stats().iterations == 0);

  const GameState s = arrange(game.layout(), {Y1}, {Y2}, {Y3, Y8}, {Y4}, {Y5, Y6, Y7}, 1);
  IsmctsPlayer timed(1, IsmctsOptions::parse("iterations=0:time_ms=20"));
  const Action a = decide(timed, game, s);
  CHECK((a == kTake + 0 || a == kTake + 1 || a == kDraw));
  CHECK(timed.last_stats().iterations > 10);
  CHECK(timed.last_stats().seconds >= 0.020);
  IsmctsPlayer capped(1, IsmctsOptions::parse("iterations=50:time_ms=10000"));
  decide(capped, game, s);
  CHECK(capped.last_stats().iterations == 50);  // whichever limit comes first
}

TEST_CASE("an ismcts decision does not change when only cards hidden from the seat change", "[ismcts][peeking]") {
  TakeGame game;
  // As in bots_test.cpp: the same cards are unknown to seat 1 in A and B, arranged differently (A: the deck's
  // top is Y8, so drawing is best for a player who could see it; B: Y1, so taking Y5 is).
  const GameState a = arrange(game.layout(), {}, {Y2}, {Y5, Y4}, {Y3}, {Y6, Y7, Y1, Y8}, 1);
  const GameState b = arrange(game.layout(), {}, {Y2}, {Y5, Y4}, {Y6}, {Y3, Y7, Y8, Y1}, 1);
  REQUIRE_FALSE(a == b);
  REQUIRE(a.observation(1) == b.observation(1));
  const IsmctsOptions options = with_iterations(100);
  std::set<Action> honest_choices;
  int peeking_differs = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    IsmctsPlayer bot_a(seed, options), bot_b(seed, options);
    PeekingIsmcts peek_a(seed, options, a), peek_b(seed, options, b);
    for (int step = 0; step < 2; ++step) {
      INFO("seed " << seed << " step " << step);
      const Action da = decide(bot_a, game, a);
      CHECK(da == decide(bot_b, game, b));
      honest_choices.insert(da);
      peeking_differs += decide(peek_a, game, a) != decide(peek_b, game, b);
    }
  }
  CHECK(peeking_differs > 0);  // the same test catches a bot that reads the real state
}

TEST_CASE("two ismcts players that find drawing bad still end the game: neither repeats a position",
          "[ismcts][repetition]") {
  // put_take_game.hpp: "put" and "take" look free, "draw" costs a point, the game ends when the deck is empty.
  // Each seat leaves out the root actions that lead back into a position it has been in (PositionHistory), so
  // it runs out of puts and takes and draws.
  put_take::PutTakeGame game;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    INFO("seed " << seed);
    IsmctsPlayer p1(hr::derive_seed(seed, 1), with_iterations(100)), p2(hr::derive_seed(seed, 2), with_iterations(100));
    const GameState s = put_take::play(game, seed, p1, p2, 2000);
    REQUIRE(s.over());
    CHECK(s.ply() < 200);
  }
}
