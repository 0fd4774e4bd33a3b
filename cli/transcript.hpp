// transcript.hpp — game transcripts as JSON Lines: a header, one line per action, and a closing line.
//
//   {"type":"header","format":1,"ruleset":"lost-cities","seats":2,"seed":7,"players":["random","greedy"],
//    "params":{...}}
//   {"type":"action","ply":1,"round":1,"seat":1,"action":"play Y7","legal":16,"digest":"9f1c..."}
//   {"type":"result","match_scores":[..],"round_scores":[[..],..],"ranks":[..],"plies":176}
//   or {"type":"stopped","reason":"end of input","plies":12} when a game was abandoned.
// `legal` is the number of legal actions before the action, `digest` the state digest after it: replay
// compares both, so any change in the rules shows at the first action it affects.
#pragma once

#include <cstdint>
#include <optional>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "rules.hpp"

namespace hr {

/// A transcript could not be read (names the file and line) or does not match the replayed game.
class TranscriptError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TranscriptAction {
  std::int64_t ply = 0;
  int round = 0;
  int seat = 0;
  std::string action;
  std::int64_t legal = -1;  ///< -1 when not recorded
  std::string digest;       ///< empty when not recorded
  int line = 0;             ///< line number in the file
};

struct Transcript {
  std::string ruleset;  ///< as given to `play`: an id or a path
  int seats = 0;
  std::uint64_t seed = 0;
  std::vector<std::string> players;
  std::string params_json;  ///< informational: the effective parameters when it was recorded
  std::vector<TranscriptAction> actions;
  bool has_result = false;
  std::vector<std::int64_t> match_scores;
  std::vector<int> ranks;
  std::string stopped_reason;  ///< non-empty for an abandoned game
  int header_line = 0;         ///< line number of the header in the file
};

/// Writes transcript lines as the game goes (each line flushed, so a crash loses nothing written).
class TranscriptWriter {
 public:
  explicit TranscriptWriter(std::ostream& out) : out_(out) {}
  void header(const std::string& ruleset, int seats, std::uint64_t seed, const std::vector<std::string>& players,
              const std::string& params_json);
  void action(const GameState& after, int round, int seat, const std::string& text, std::size_t legal_count);
  void result(Rules& rules, const GameState& final_state);
  void stopped(const std::string& reason, const GameState& state);

 private:
  std::ostream& out_;
};

/// Reads a transcript file. Throws TranscriptError naming the file and line of the first bad line
/// (invalid JSON, unknown type, missing field, a header that is not first).
Transcript read_transcript(const std::string& file);
/// The same from a stream (a transcript sent to `serve`); `file` is the name messages give it.
Transcript read_transcript(std::istream& in, const std::string& file);

/// A JSON library error as a person reads it: without the "[json.exception...]" prefix, "number overflow"
/// said plainly, and cut at 200 characters (a fuzzed line may hold a 100 KB token).
std::string json_error_text(const std::exception& e);

/// Hexadecimal text of a state digest, as transcripts hold it.
std::string digest_text(std::uint64_t digest);

}  // namespace hr
