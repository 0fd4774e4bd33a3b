// untrusted_table_test.cpp — tricks at the table (issue 32), each test named after its trick: a transcript that
// would start a program on resume, an undo that would show the next card (terminal and page), a bot program that
// exits while something it started holds its output, a scenario figure key too large for a number, a resumed
// transcript with a bad player, a variant file played with the wrong number of players. The pseudo-terminal side
// (two people at one terminal, `quit` without --log) is tests/tools/table_terminal_test.sh.
#include <catch2/catch.hpp>

#include <chrono>
#include <optional>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "play/play.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"
#include "testing/testing.hpp"
#include "web/web.hpp"

using Catch::Contains;
namespace fs = std::filesystem;

namespace {

/// A fresh folder for one test.
fs::path temp_folder(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("hr-table-test-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A stopped Lost Cities game (human against greedy, seed 7, two actions) in `log`, its header's players then
/// replaced by `players` (a JSON array's text).
void stopped_game(const fs::path& log, const std::string& players) {
  hr::PlayOptions options;
  options.ruleset = "lost-cities";
  options.players = {"human", "greedy"};
  options.seed = 7;
  options.log = log.string();
  std::istringstream in("1\nquit\n");
  std::ostringstream out, err;
  REQUIRE(hr::play_command(options, in, out, err) == 0);
  std::string text = read_text(log);
  const std::string from = "\"players\":[\"human\",\"greedy\"]";
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "\"players\":" + players);
  std::ofstream(log) << text;
}

}  // namespace

TEST_CASE("trick: a transcript whose header names a cmd: program runs it on play --resume", "[trick][resume]") {
  const fs::path dir = temp_folder("resume-cmd");
  const fs::path marker = dir / "marker";
  const fs::path log = dir / "game.jsonl";
  stopped_game(log, nlohmann::json({"human", "cmd:touch " + marker.string()}).dump());
  hr::PlayOptions resume;
  resume.resume = log.string();
  std::istringstream in("quit\n");
  std::ostringstream out, err;
  CHECK(hr::play_command(resume, in, out, err) == 2);
  INFO(err.str());
  CHECK_FALSE(fs::exists(marker));  // the program did not run
  CHECK_THAT(err.str(), Contains(log.string() + ":1: header players[1] (seat 2): the program cmd:touch"));
  CHECK_THAT(err.str(), Contains("name seat 2's player again"));
  CHECK_THAT(err.str(), Contains("--players"));
  CHECK(read_text(log).find("\"resumed\"") == std::string::npos);  // the transcript is untouched

  // Named again on the command line (here by a bot instead), the game goes on, and nothing runs.
  resume.players = {"human", "greedy"};
  std::istringstream again("1\nquit\n");
  std::ostringstream out2, err2;
  CHECK(hr::play_command(resume, again, out2, err2) == 0);
  INFO(out2.str() << err2.str());
  CHECK_THAT(out2.str(), Contains("Resuming"));
  CHECK_FALSE(fs::exists(marker));
  std::ostringstream replay_out, replay_err;
  CHECK(hr::replay_command(log.string(), true, replay_out, replay_err) == 0);

  // --players for another number of seats than the game's
  resume.players = {"human", "greedy", "greedy"};
  std::ostringstream out3, err3;
  std::istringstream none("");
  CHECK(hr::play_command(resume, none, out3, err3) == 2);
  CHECK_THAT(err3.str(), Contains("--players names 3 players but the game of " + log.string() + " has 2 seats"));
}

TEST_CASE("trick: a resumed transcript's header names an unknown player", "[trick][resume]") {
  const fs::path dir = temp_folder("resume-bad-player");
  const fs::path log = dir / "game.jsonl";
  stopped_game(log, R"(["human","wizard"])");
  hr::PlayOptions resume;
  resume.resume = log.string();
  std::istringstream in("quit\n");
  std::ostringstream out, err;
  CHECK(hr::play_command(resume, in, out, err) == 2);
  CHECK_THAT(err.str(), Contains(log.string() + ":1: header players[1] (seat 2): unknown player 'wizard'"));
  stopped_game(log, R"(["human"])");
  std::ostringstream out2, err2;
  std::istringstream in2("quit\n");
  CHECK(hr::play_command(resume, in2, out2, err2) == 2);
  CHECK_THAT(err2.str(), Contains(log.string() + ":1: header players: 1 players for 2 seats"));
}

TEST_CASE("trick: undo after drawing, to choose again knowing the next card (the terminal refuses)", "[trick][undo]") {
  // Lost Cities, seed 5, human against greedy: the human places at action 1, its draw is forced (the deck only)
  // and shows it a card; greedy plays one from its hand. Undo at action 5 would go back to action 1 knowing them.
  const fs::path log = temp_folder("undo-terminal") / "game.jsonl";
  hr::PlayOptions options;
  options.ruleset = "lost-cities";
  options.players = {"human", "greedy"};
  options.seed = 5;
  options.log = log.string();
  std::istringstream in("1\nundo\n1\nquit\n");
  std::ostringstream out, err;
  REQUIRE(hr::play_command(options, in, out, err) == 0);
  const std::string text = out.str();
  INFO(text);
  const auto refused = text.find("Undo refused: since that decision you have seen ");
  REQUIRE(refused != std::string::npos);
  CHECK_THAT(text, Contains("(hidden before); going back would let you choose again knowing them."));
  CHECK(text.find("Undone:") == std::string::npos);
  // the card drawn at action 2 ("you drew X from the deck") is one of those named
  const auto drew = text.find("you drew ");
  REQUIRE(drew != std::string::npos);
  const std::string card = text.substr(drew + 9, text.find(' ', drew + 9) - drew - 9);
  CHECK(text.substr(refused, text.find('\n', refused) - refused).find(card) != std::string::npos);
  // the game went on from action 5 (not back to 1): the transcript has no undo line and replays
  const std::string transcript = read_text(log);
  CHECK(transcript.find("\"undo\"") == std::string::npos);
  CHECK(transcript.find("\"ply\":6") != std::string::npos);
  std::ostringstream replay_out, replay_err;
  CHECK(hr::replay_command(log.string(), true, replay_out, replay_err) == 0);
}

TEST_CASE("undo_refusal: a move of your own known card reveals nothing, a draw from the deck does", "[trick][undo]") {
  auto rules = hr::load_rules("lost-cities");
  hr::GameState start = rules->new_game(3);
  hr::GameState after_play = start;
  rules->apply(after_play, rules->legal_actions(after_play).front());  // a card from seat 1's hand, face up
  CHECK(hr::undo_refusal(start, after_play, 1).empty());
  CHECK(hr::learned_since(start, after_play, 1).empty());
  CHECK_FALSE(hr::learned_since(start, after_play, 2).empty());  // seat 2 did not know that card
  hr::GameState after_draw = after_play;
  const auto draw = rules->parse_action(after_draw, "draw deck");
  REQUIRE(draw);
  rules->apply(after_draw, *draw);
  const auto learned = hr::learned_since(after_play, after_draw, 1);
  REQUIRE(learned.size() == 1);
  CHECK(hr::learned_since(after_play, after_draw, 2).empty());  // seat 2 sees no card of seat 1's hand
  CHECK_THAT(hr::undo_refusal(after_play, after_draw, 1),
             Contains("you have seen " + start.layout().components[learned.front()].name + " (hidden before)"));
}

TEST_CASE("trick: undo after a hunt, to roll the same dice again knowing how they fall (refused)", "[trick][undo]") {
  // Lost Valley's hunt rolls two dice from the game's RNG (seed 004 B.3); the RNG is part of the position, so a
  // seat that went back before the hunt would meet the same roll again and could choose knowing it.
  hr::LoadOptions three;
  three.seats = 3;
  auto rules = hr::load_rules("lost-valley", three);
  hr::GameState state = rules->new_game(11);
  hr::Rng pick(5);
  for (int step = 0; step < 4000 && !state.over(); ++step) {
    const auto actions = rules->legal_actions(state);
    REQUIRE_FALSE(actions.empty());
    std::optional<hr::Action> hunt;
    for (const hr::Action a : actions)
      if (rules->action_text(state, a).rfind("hunt", 0) == 0) hunt = a;
    const int seat = state.to_move();
    const hr::GameState before = state;
    rules->apply(state, hunt ? *hunt : actions[pick.below(actions.size())]);
    if (!hunt) {
      // an ordinary action that drew nothing random and showed nothing may be taken back
      if (before.rng() == state.rng() && hr::learned_since(before, state, seat).empty())
        CHECK(hr::undo_refusal(before, state, seat).empty());
      continue;
    }
    REQUIRE_FALSE(before.rng() == state.rng());
    CHECK_THAT(hr::undo_refusal(before, state, seat), Contains("random result (a die roll or a shuffle)"));
    return;
  }
  FAIL("no hunt was legal in 4000 actions of seed 11");
}

TEST_CASE("trick: undo after drawing on the page (POST /undo) refuses, an undo that revealed nothing works",
          "[trick][undo][serve]") {
  hr::GameServer server;
  nlohmann::json game = server.new_game({{"ruleset", "lost-cities"}, {"players", {"human", "random"}}, {"seed", 7u}});
  const std::string id = game["id"];
  game = server.play(id, {{"seat", 1}, {"index", 0}});  // a card from the hand, face up: nothing hidden shown
  REQUIRE(game["log"].size() == 1);
  game = server.undo(id, {{"seat", 1}});
  CHECK(game["log"].empty());
  game = server.play(id, {{"seat", 1}, {"index", 0}});
  game = server.play(id, {{"seat", 1}, {"action", "draw deck"}});
  REQUIRE(game["log"].size() == 2);
  const nlohmann::json before = server.game(id, 1);
  try {
    server.undo(id, {{"seat", 1}});
    FAIL("the undo past the draw was not refused");
  } catch (const hr::ApiError& e) {
    CHECK(e.status() == 409);
    CHECK_THAT(e.what(), Contains("Undo refused: since that decision you have seen "));
  }
  CHECK(server.game(id, 1) == before);  // the game unchanged
}

TEST_CASE("trick: a bot program exits with status 3 while a child it started keeps its output open",
          "[trick][external]") {
  hr::PlayOptions options;
  options.ruleset = "lost-cities";
  options.players = {"greedy", "cmd:time=3:sh -c 'sleep 20 & exit 3'"};
  options.seed = 4;
  options.quiet = true;
  std::istringstream in;
  std::ostringstream out, err;
  const auto start = std::chrono::steady_clock::now();
  CHECK(hr::play_command(options, in, out, err) == 1);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(err.str());
  CHECK_THAT(err.str(), Contains("seat 2, external player 'sh -c 'sleep 20 & exit 3'': the program exited with status 3 before answering"));
  CHECK(err.str().find("did not answer") == std::string::npos);
  CHECK(seconds < 2.5);  // said at once, not after the 3 s move time
}

TEST_CASE("trick: a scenario figure key whose seat number is too large for an int", "[trick][scenario]") {
  const fs::path dir = temp_folder("scenario-figure-key");
  const fs::path file = dir / "figures.toml";
  std::ofstream(file) << "ruleset = \"" << HOUSERULES_SOURCE_DIR << "/rulesets/lost-valley\"\n"
                      << "players = 4\n\n[[scenario]]\nname = \"huge seat\"\n[scenario.board.valley]\n"
                      << "figures = { \"prospector.99999999999\" = \"vertex 0,0\" }\n";
  std::ostringstream out;
  CHECK(hr::run_scenario_tests({file.string()}, out, {}) == 1);
  INFO(out.str());
  CHECK_THAT(out.str(), Contains(file.string() + ":7"));
  CHECK_THAT(out.str(), Contains("figures key 'prospector.99999999999': '99999999999' is not a seat (the game has seats 1 to 4"));
  CHECK(out.str().find("stoi") == std::string::npos);
}

TEST_CASE("trick: a variant file played with a seat count it does not allow", "[trick][play]") {
  const std::string variant = std::string(HOUSERULES_SOURCE_DIR) + "/rulesets/lost-cities/variants/three-player.toml";
  hr::PlayOptions options;
  options.ruleset = variant;
  options.players = {"greedy", "greedy"};
  options.quiet = true;
  std::istringstream in;
  std::ostringstream out, err;
  CHECK(hr::play_command(options, in, out, err) == 2);
  INFO(err.str());
  CHECK_THAT(err.str(), Contains(variant));
  CHECK_THAT(err.str(), Contains("--players"));
}

TEST_CASE("trick: a golden transcript whose header names a cmd: program runs it on test --update", "[trick][golden]") {
  const fs::path dir = temp_folder("golden-cmd");
  const fs::path marker = dir / "marker";
  fs::create_directories(dir / "golden");
  const fs::path log = dir / "golden" / "game.jsonl";
  {
    hr::PlayOptions options;
    options.ruleset = "lost-cities";
    options.players = {"random", "random"};
    options.seed = 7;
    options.quiet = true;
    options.log = log.string();
    std::istringstream in;
    std::ostringstream out, err;
    REQUIRE(hr::play_command(options, in, out, err) == 0);
  }
  std::string text = read_text(log);
  const std::string from = "\"players\":[\"random\",\"random\"]";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(),
               "\"players\":" + nlohmann::json({"random", "cmd:touch " + marker.string()}).dump());
  std::ofstream(log) << text;
  hr::ScenarioOptions options;
  options.update = true;
  std::ostringstream out;
  CHECK(hr::run_scenario_tests({(dir / "golden").string()}, out, options) == 1);
  INFO(out.str());
  CHECK_FALSE(fs::exists(marker));
  CHECK_THAT(out.str(), Contains("header players[1] (seat 2): cannot re-record a game with a program seat"));
}
