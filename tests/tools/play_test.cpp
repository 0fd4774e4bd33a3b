// play_test.cpp — what a person sees at the end of a round in `houserules play` (issue 12): the final
// position of the round (not the one before its last action), drawn for the human's seat.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "play.hpp"

namespace {

/// The text of `out` from the first end-of-round table to the blank line that ends it.
std::string first_round_end_table(const std::string& out) {
  const auto begin = out.find("Table at the end of the round");
  REQUIRE(begin != std::string::npos);
  return out.substr(begin, out.find("\n\n", begin) - begin);
}

}  // namespace

TEST_CASE("play: the end-of-round table shows the round's final position for the human's seat", "[play]") {
  hr::PlayOptions options;
  options.ruleset = "lost-cities";
  options.players = {"random", "human"};
  options.seed = 3;
  std::string answers;
  for (int i = 0; i < 400; ++i) answers += "1\n";  // the human plays its first legal action every time
  std::istringstream in(answers);
  std::ostringstream out, err;
  REQUIRE(hr::play_command(options, in, out, err) == 0);
  const std::string table = first_round_end_table(out.str());
  INFO(table);
  CHECK(table.find("as seat 2 sees it") != std::string::npos);
  // The round ends when the last card is drawn: the final position has an empty deck. The position before
  // the last action (what was shown before) still had one card in the deck.
  CHECK(table.find("Round 1 of 3") != std::string::npos);
  CHECK(table.find("deck: 0 cards") != std::string::npos);
  CHECK(table.find("Your expeditions (seat 2)") != std::string::npos);
}
