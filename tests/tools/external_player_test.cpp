// external_player_test.cpp — the pieces of the external player protocol (docs/external-players.md) that need
// no program: how a `cmd:` setting and its command line are read, and the observation as JSON.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "play/play.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

using Words = std::vector<std::string>;

TEST_CASE("external player: the command line is split into words like a shell would, without expansion",
          "[external]") {
  CHECK(hr::split_command_line("python3 mybot.py") == Words{"python3", "mybot.py"});
  CHECK(hr::split_command_line("  python3\t -u  bot.py ") == Words{"python3", "-u", "bot.py"});
  CHECK(hr::split_command_line("python3 'my bots/a b.py' \"x \\\"y\\\" \\\\z\"") ==
        Words{"python3", "my bots/a b.py", "x \"y\" \\z"});
  CHECK(hr::split_command_line("a\\ b c''d \"\"") == Words{"a b", "cd", ""});
  // nothing is special but quotes, backslash and blanks: no variables, globs, pipes or separators
  CHECK(hr::split_command_line("echo $HOME *.py ; rm -rf / | tee x > y &") ==
        Words{"echo", "$HOME", "*.py", ";", "rm", "-rf", "/", "|", "tee", "x", ">", "y", "&"});
  CHECK(hr::split_command_line("   ").empty());
  CHECK_THROWS_WITH(hr::split_command_line("python3 'bot.py"), Catch::Matchers::Contains("unclosed '"));
  CHECK_THROWS_WITH(hr::split_command_line("python3 \"bot.py"), Catch::Matchers::Contains("unclosed \""));
  CHECK_THROWS_WITH(hr::split_command_line("python3 bot.py\\"), Catch::Matchers::Contains("ends with a backslash"));
}

TEST_CASE("external player: cmd: settings with a move time and a stderr file", "[external]") {
  CHECK(hr::is_external_player("cmd:python3 bot.py"));
  CHECK_FALSE(hr::is_external_player("greedy"));
  CHECK_FALSE(hr::is_external_player("command:x"));
  const auto plain = hr::parse_external_player("cmd:python3 bot.py --fast");
  CHECK(plain.command == "python3 bot.py --fast");
  CHECK(plain.argv == Words{"python3", "bot.py", "--fast"});
  CHECK(plain.move_time == 10.0);
  CHECK(plain.stderr_file.empty());
  const auto tuned = hr::parse_external_player("cmd:time=2.5:stderr=logs/bot.err:./bot --level=3");
  CHECK(tuned.move_time == 2.5);
  CHECK(tuned.stderr_file == "logs/bot.err");
  CHECK(tuned.argv == Words{"./bot", "--level=3"});
  CHECK_THROWS_WITH(hr::parse_external_player("cmd:"), Catch::Matchers::Contains("no command after cmd:"));
  CHECK_THROWS_WITH(hr::parse_external_player("cmd:time=5:"), Catch::Matchers::Contains("no command after cmd:"));
  for (const char* bad : {"cmd:time=0:x", "cmd:time=-1:x", "cmd:time=fast:x", "cmd:time=1e9:x", "cmd:time=nan:x"})
    CHECK_THROWS_WITH(hr::parse_external_player(bad), Catch::Matchers::Contains("the move time must be a number"));
  CHECK_THROWS_WITH(hr::parse_external_player("cmd:time=5"), Catch::Matchers::Contains("must be followed by ':'"));
  CHECK_THROWS_WITH(hr::parse_external_player("cmd:stderr=:x"), Catch::Matchers::Contains("needs a file name"));
}

TEST_CASE("external player: a program that cannot be started is named with its seat", "[external]") {
  CHECK_THROWS_WITH(hr::ExternalPlayer("cmd:/no/such/bot --x", 2),
                    "seat 2, external player '/no/such/bot --x': cannot start '/no/such/bot': No such file or directory");
  CHECK_THROWS_WITH(hr::ExternalPlayer("cmd:time=x:bot", 1), Catch::Matchers::StartsWith("seat 1: "));
}

TEST_CASE("observation_json: what one seat sees, unknown cards as null", "[external][observation]") {
  auto rules = hr::load_rules("lost-cities");
  const hr::GameState state = rules->new_game(7);
  const auto view = hr::observation_json(state.observation(2), 2);
  CHECK(view["seat"] == 2);
  CHECK(view["to_move"] == 1);
  CHECK(view["round"] == 1);
  CHECK(view["rounds"] == 3);
  CHECK(view["over"] == false);
  CHECK(view["match_scores"] == nlohmann::ordered_json({0, 0}));
  const auto& zones = view["zones"];
  CHECK_FALSE(zones.contains("box"));
  CHECK(zones["deck"]["visibility"] == "hidden");
  CHECK(zones["deck"]["owner"].is_null());
  CHECK(zones["deck"]["count"] == 44);
  CHECK(zones["deck"]["cards"].size() == 44);
  CHECK(zones["hand.1"]["owner"] == nlohmann::ordered_json({{"seat", 1}}));
  REQUIRE(zones["hand.1"]["cards"].size() == 8);
  for (const auto& card : zones["hand.1"]["cards"]) CHECK(card.is_null());  // the other hand: unknown
  // its own hand: the real cards, bottom to top
  const auto hand = state.cards(state.layout().zone_id("hand.2"));
  REQUIRE(zones["hand.2"]["cards"].size() == hand.size());
  for (std::size_t i = 0; i < hand.size(); ++i)
    CHECK(zones["hand.2"]["cards"][i] == state.layout().components[hand[i]].name);
  CHECK(zones["expedition.1.yellow"]["visibility"] == "public");
  CHECK(zones["discard.red"]["visibility"] == "top");
  CHECK(view["tracks"].empty());
  CHECK(view["boards"].empty());
  // the whole state (seat 0) shows every card; the document is valid JSON text
  const auto full = hr::observation_json(state, 0);
  for (const auto& card : full["zones"]["deck"]["cards"]) CHECK(card.is_string());
  CHECK(nlohmann::json::parse(full.dump())["zones"]["hand.1"]["count"] == 8);
  const auto layout = hr::layout_json(state.layout());
  CHECK(layout["seats"] == 2);
  CHECK(layout["components"]["B10"]["colour"] == "blue");
  CHECK(layout["components"]["B10"]["value"] == 10);
  CHECK(layout["zones"][0]["name"] == "deck");
}

TEST_CASE("observation_json: a lattice board's tiles, figures and marks", "[external][observation]") {
  auto rules = hr::load_rules("lost-valley");
  hr::GameState state = rules->new_game(3);
  hr::Rng rng(5);
  for (int i = 0; i < 60 && !state.over(); ++i) {
    const auto legal = rules->legal_actions(state);
    rules->apply(state, legal[rng.below(legal.size())]);
  }
  const auto view = hr::observation_json(state.observation(1), 1);
  REQUIRE(view["boards"].size() == state.layout().boards.size());
  REQUIRE_FALSE(view["boards"].empty());
  const auto& board = view["boards"][0];
  REQUIRE_FALSE(board["tiles"].empty());
  for (const auto& tile : board["tiles"]) {
    CHECK(tile["tile"].is_string());
    CHECK_FALSE(tile["faces"].empty());
  }
  bool somewhere = false;
  for (const auto& figure : view["figures"]) somewhere = somewhere || figure["at"].contains("board");
  CHECK(somewhere);
}
