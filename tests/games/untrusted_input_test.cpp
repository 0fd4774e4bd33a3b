// untrusted_input_test.cpp — the human prompt and transcripts against hostile input (issue 18): a line of
// 200,000 blanks and words at the prompt is refused at once (it made Lost Cities' explain hook backtrack for
// minutes), and transcript errors name the file and line in words a person reads (no JSON-library codes, no
// 100 KB echoes). The same inputs are fuzz corpus entries (tests/fuzz/corpus/*/regression-*).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "testing/testing.hpp"
#include "play/play.hpp"
#include "scripted_rules.hpp"

using Catch::Contains;
namespace fs = std::filesystem;

namespace {

/// Writes `text` to a fresh temporary file named `name`; returns its path.
std::string temp_file(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("hr-untrusted-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

std::string transcript_error(const std::string& file) {
  try {
    hr::read_transcript(file);
  } catch (const hr::TranscriptError& e) {
    return e.what();
  }
  FAIL("no TranscriptError");
  return {};
}

const std::string kHeader = R"({"type":"header","format":1,"ruleset":"lost-cities","seats":2,"seed":1})";

}  // namespace

TEST_CASE("a prompt line of 200,000 blanks and words is refused at once, then play goes on", "[input][human]") {
  for (const char* id : {"lost-cities", "lost-cities-rivals"}) {
    INFO(id);
    auto rules = hr::load_rules(id);
    hr::GameState state = rules->new_game(1);
    auto legal = rules->legal_actions(state);
    while (legal.size() == 1) {  // a forced action (Rivals' first reveal) is played without asking: skip it
      rules->apply(state, legal.front());
      legal = rules->legal_actions(state);
    }
    const std::string first = rules->action_text(state, legal.front());
    std::istringstream in("a" + std::string(200000, ' ') + "b c\n" + std::string(200, ' ') + "play x y\n" +
                          std::string(200000, 'x') + "\n" + first + "\n");
    std::ostringstream out;
    hr::HumanPlayer human(in, out);
    const auto start = std::chrono::steady_clock::now();
    const hr::Action chosen = human.choose(*rules, hr::InformationSet(state, state.to_move(), legal));
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 2.0);
    CHECK(chosen == legal.front());
    const std::string printed = out.str();
    CHECK_THAT(printed, Contains("Not understood: the line is too long (more than 256 characters)."));
    CHECK_THAT(printed, Contains("Not legal: "));  // the 200 blanks + words line reached explain, normalised
    CHECK(printed.size() < 20000);                 // nothing echoed the long lines
  }
}

TEST_CASE("transcript header errors name the file and line", "[input][transcript]") {
  const std::string seats = temp_file("seats.jsonl", R"({"type":"header","format":1,"ruleset":"lost-cities","seats":-1,"seed":1})" "\n");
  CHECK(transcript_error(seats) == seats + ":1: 'seats' must be between 1 and 8, not -1");
  // a ruleset that does not exist, or a seat count it does not allow: replay names the header's line
  const std::string missing = temp_file("missing.jsonl", "\n" R"({"type":"header","format":1,"ruleset":"X","seats":2,"seed":1})" "\n");
  std::ostringstream out, err;
  CHECK(hr::replay_command(missing, true, out, err) == 2);
  CHECK_THAT(err.str(), Contains(missing + ":2: no ruleset 'X'"));
  const std::string three = temp_file("three.jsonl", R"({"type":"header","format":1,"ruleset":"lost-cities-board","seats":7,"seed":1})" "\n");
  std::ostringstream err3;
  CHECK(hr::replay_command(three, true, out, err3) == 2);
  CHECK_THAT(err3.str(), Contains(three + ":1: "));
}

TEST_CASE("transcript errors say 'a number is too large', not the JSON library's words", "[input][transcript]") {
  const std::string huge = temp_file("huge.jsonl", R"({"type":"header","format":1,"ruleset":"lost-cities","seats":2,"seed":1e999})" "\n");
  const std::string message = transcript_error(huge);
  CHECK(message == huge + ":1: not valid JSON (a number is too large)");
  const std::string floating = temp_file("float.jsonl", kHeader + "\n" + R"({"type":"action","ply":1,"seat":1e300,"action":"x"})" "\n");
  CHECK(transcript_error(floating) == floating + ":2: 'seat' must be an integer");
  const std::string mistyped = temp_file("mistyped.jsonl", kHeader + "\n" + R"({"type":"action","ply":1,"seat":1,"action":7})" "\n");
  const std::string m = transcript_error(mistyped);
  CHECK_THAT(m, Contains(mistyped + ":2: missing or mistyped field ("));
  CHECK(m.find("[json.exception") == std::string::npos);
}

TEST_CASE("a transcript's seed, seats and scores that are floats are refused, not converted", "[input][transcript]") {
  // fuzz_transcript's finding (tests/fuzz/corpus/transcript/regression-seed-float.jsonl): the seed 1.2e51 was
  // converted to an unsigned integer, undefined behaviour (UBSan: outside the range of representable values)
  const std::string seed = temp_file("seed.jsonl", R"({"type":"header","format":1,"ruleset":"lost-cities","seats":2,"seed":1.2e51})" "\n");
  CHECK(transcript_error(seed) == seed + ":1: 'seed' must be a whole number from 0 to 18446744073709551615");
  const std::string negative = temp_file("negative.jsonl", R"({"type":"header","format":1,"ruleset":"lost-cities","seats":2,"seed":-3})" "\n");
  CHECK(transcript_error(negative) == negative + ":1: 'seed' must be a whole number from 0 to 18446744073709551615");
  const std::string biggest = temp_file("biggest.jsonl", R"({"type":"header","format":1,"ruleset":"lost-cities","seats":2,"seed":18446744073709551615})" "\n");
  CHECK(hr::read_transcript(biggest).seed == UINT64_MAX);
  // a golden game reads the same fields through the same checks
  const fs::path golden = fs::temp_directory_path() / ("hr-untrusted-test-" + std::to_string(::getpid())) / "golden";
  fs::create_directories(golden);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"type":"header","format":1,"ruleset":"lost-cities","seats":2,"seed":1.2e51})", ":1: 'seed' must be a whole number"},
      {R"({"type":"header","format":1,"ruleset":"lost-cities","seats":2.5,"seed":1})", ":1: 'seats' must be an integer"},
      {kHeader + "\n" + R"({"type":"action","ply":1e300,"seat":1,"action":"x"})", ":2: 'ply' must be an integer"},
      {kHeader + "\n" + R"({"type":"result","match_scores":[1,2.5e40]})", ":2: 'match_scores' must be a list of integers"}};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const fs::path file = golden / ("case" + std::to_string(i) + ".jsonl");
    std::ofstream(file) << cases[i].first << "\n";
    std::ostringstream out;
    CHECK_FALSE(hr::run_golden_file(file, out, {}));
    CHECK_THAT(out.str(), Contains(cases[i].second));
  }
}

TEST_CASE("replay cuts a 100 KB action text in its message and does not pass it to the rules", "[input][transcript]") {
  const std::string file =
      temp_file("long-action.jsonl", kHeader + "\n" + R"({"type":"action","ply":1,"seat":1,"action":")" +
                                         std::string(100000, 'y') + R"("})" "\n");
  std::ostringstream out, err;
  CHECK(hr::replay_command(file, true, out, err) == 1);
  CHECK_THAT(err.str(), Contains("differs: not an action: the line is too long"));
  CHECK(err.str().size() < 1000);
}

TEST_CASE("a ruleset name longer than the system allows in a file name is 'no ruleset', not a filesystem error",
          "[input][transcript]") {
  // 300 bytes: past NAME_MAX, so a file-system check of it fails with ENAMETOOLONG; the golden-file runner
  // (`houserules test x.jsonl`) printed "filesystem error: status: File name too long [/abs/path/aaa...]".
  const std::string name(300, 'a');
  const std::string file = temp_file("long-name.jsonl", R"({"type":"header","format":1,"ruleset":")" + name +
                                                            R"(","seats":2,"seed":1})" "\n");
  std::ostringstream out;
  CHECK_FALSE(hr::run_golden_file(file, out, {}));
  CHECK_THAT(out.str(), Contains(":1: cannot load the ruleset: no ruleset 'aaaa"));
  CHECK(out.str().find("File name too long") == std::string::npos);
  CHECK(out.str().find(name) == std::string::npos);  // cut in the message
  std::ostringstream replay_out, replay_err;
  CHECK(hr::replay_command(file, true, replay_out, replay_err) == 2);
  CHECK_THAT(replay_err.str(), Contains(file + ":1: no ruleset 'aaaa"));
  CHECK(replay_err.str().find("File name too long") == std::string::npos);
}
