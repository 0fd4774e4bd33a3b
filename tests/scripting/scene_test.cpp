// scene_test.cpp — the draw_component hook (docs/writing-rules.md, "Drawing a component"): a scene comes back as
// checked JSON with its defaults filled in, a hook that returns nil or is absent gives nothing, and every broken
// scene of tests/fixtures/web-draw is an error naming the hook, the card, the shape and the rule broken.
#include <catch2/catch.hpp>

#include <string>

#include "probe.hpp"

using Catch::Contains;

namespace {

std::string web_draw(const std::string& file) { return std::string(HOUSERULES_TEST_DIR) + "/fixtures/web-draw/" + file; }

/// The error of draw_component for component 0 at the start of a game of `variant` (a fixture of web-draw).
std::string scene_error(const std::string& variant) {
  auto rules = hr::load_rules(web_draw(variant + ".toml"), scripting_test::quick_options());
  const hr::GameState state = rules->new_game(7);
  try {
    rules->draw_component(state, 0);
  } catch (const hr::ScriptError& e) {
    return e.what();
  }
  FAIL(variant << ": draw_component did not fail");
  return {};
}

}  // namespace

TEST_CASE("draw_component: a scene as checked JSON, defaults filled in", "[scene]") {
  auto rules = hr::load_rules(web_draw("big-cards.toml"), scripting_test::quick_options());
  REQUIRE(rules->has_draw_component());
  const hr::GameState state = rules->new_game(7);
  // Component 0 is the yellow wager Yx: a tall yellow box, a ring and an "x".
  const auto scene = rules->draw_component(state, 0);
  REQUIRE(scene);
  CHECK_THAT(*scene, Contains(R"("aspect":1.5)"));
  CHECK_THAT(*scene, Contains(R"("fill":"yellow")"));
  CHECK_THAT(*scene, Contains(R"("shape":"circle")"));
  CHECK_THAT(*scene, Contains(R"("text":"x")"));
  CHECK_THAT(*scene, Contains(R"("anchor":"middle")"));   // a default
  CHECK_THAT(*scene, Contains(R"("opacity":1.0)"));       // a default
  // A number card carries its value as text.
  bool found = false;
  for (hr::ComponentId c = 0; c < rules->layout().components.size() && !found; ++c)
    if (rules->layout().components[c].name == "Y7") {
      const auto seven = rules->draw_component(state, c);
      REQUIRE(seven);
      CHECK_THAT(*seven, Contains(R"("text":"7")"));
      found = true;
    }
  CHECK(found);
}

TEST_CASE("draw_component: absent, or nil for the kinds a ruleset leaves alone", "[scene]") {
  auto plain = hr::load_rules("lost-cities", scripting_test::quick_options());
  CHECK_FALSE(plain->has_draw_component());
  CHECK_FALSE(plain->draw_component(plain->new_game(1), 0));
  // The board game draws its event tiles, not its cards (rulesets/lost-cities-board/draw.lua).
  auto board = hr::load_rules("lost-cities-board", scripting_test::quick_options());
  const hr::GameState state = board->new_game(1);
  CHECK_FALSE(board->draw_component(state, 0));  // a card
  int tiles = 0;
  for (hr::ComponentId c = 0; c < board->layout().components.size(); ++c) {
    const hr::AttributeValue* kind = board->layout().components[c].attribute("kind");
    if (kind && std::get<std::string>(*kind) == "tile") {
      const auto scene = board->draw_component(state, c);
      REQUIRE(scene);
      CHECK_THAT(*scene, Contains(R"("shape":"rect")"));
      ++tiles;
    }
  }
  CHECK(tiles == 25);
}

TEST_CASE("draw_component: a broken scene is an error naming the card, the shape and the rule", "[scene]") {
  CHECK_THAT(scene_error("unknown-shape"), Contains("hook 'draw_component': Yx (card 1): shape 1: unknown shape 'star'"));
  CHECK_THAT(scene_error("bad-number"), Contains("shape 1 (circle): 'r' must be a number from 0 to 4, not -1"));
  CHECK_THAT(scene_error("too-many"), Contains("returned 65 shapes; the limit is 64"));
  CHECK_THAT(scene_error("long-text"), Contains("shape 1 (text): 'text' has 50 bytes; the limit is 40"));
  CHECK_THAT(scene_error("bad-colour"), Contains("'fill' must be a colour name"));
  CHECK_THAT(scene_error("bad-colour"), Contains("not 'url(#x)'"));
  CHECK_THAT(scene_error("unknown-key"), Contains("shape 1 (rect): unknown key 'onclick'"));
  CHECK_THAT(scene_error("fails"), Contains("the drawing hook fails on purpose"));
  CHECK_THAT(scene_error("not-a-table"), Contains("must return nil or a scene (a list of shapes), not 'a card'"));
}

TEST_CASE("draw_component: a scene table's metatable is not consulted (no script code runs unprotected)", "[scene]") {
  hr::LoadOptions options = scripting_test::quick_options();
  options.overrides = {"scene=metatable"};
  auto rules = hr::load_rules(web_draw("big-cards.toml"), options);
  const hr::GameState state = rules->new_game(7);
  std::optional<std::string> scene;
  REQUIRE_NOTHROW(scene = rules->draw_component(state, 0));
  REQUIRE(scene.has_value());
  CHECK_THAT(*scene, Contains("\"shape\":\"rect\""));
}

TEST_CASE("draw_component: the Lua stack is left as it was, and the game too", "[scene]") {
  auto rules = hr::load_rules(web_draw("bad-number.toml"), scripting_test::quick_options());
  const hr::GameState state = rules->new_game(7);
  const auto digest = state.digest();
  for (int i = 0; i < 200; ++i) CHECK_THROWS_AS(rules->draw_component(state, 0), hr::ScriptError);
  CHECK(state.digest() == digest);
  // still usable: a read-only hook of the same state works
  CHECK(rules->legal_actions(state).size() > 0);
}
