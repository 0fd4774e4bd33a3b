// transcript.hpp — game transcripts as JSON Lines: a header, one line per action, and a closing line.
//
//   {"type":"header","format":1,"ruleset":"lost-cities","seats":2,"seed":7,"players":["random","greedy"],
//    "params":{...}, "ruleset_id":"lost-cities", "ruleset_path":"../my-rule.toml", "set":["hand_size=6"]}
// `params` are the effective parameters: replay refuses a transcript whose rules now have other values, naming
// the parameter. `ruleset_path` (only for a ruleset given by path) is that path relative to the transcript's
// folder, so the transcript replays from any folder; `ruleset_id` is the id the rules had, the last resort;
// `set` the `--set name=value` overrides, applied again at replay. The last three are optional.
//   {"type":"action","ply":1,"round":1,"seat":1,"action":"play Y7","legal":16,"digest":"9f1c..."}
//   {"type":"result","match_scores":[..],"round_scores":[[..],..],"ranks":[..],"plies":176}
//   or {"type":"stopped","reason":"end of input","plies":12} when a game was abandoned; `play --resume`
//   continues it after a {"type":"resumed","plies":12} line; {"type":"undo","to_ply":9} takes back the
//   actions after the 9th (the human's `undo`).
// `legal` is the number of legal actions before the action, `digest` the state digest after it: replay
// compares both, so any change in the rules shows at the first action it affects.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rules.hpp"

namespace hr {

class ScriptedRules;

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
  std::string params_json;  ///< the effective parameters when it was recorded ("" when the header has none)
  std::vector<std::string> overrides;  ///< `set`: the --set texts the game was played with
  std::string ruleset_path;  ///< relative to the transcript's folder, when the ruleset was given by path
  std::string ruleset_id;    ///< the id of the rules that played it
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
  /// `file` is the transcript's path (for `ruleset_path`); empty when the lines go elsewhere.
  explicit TranscriptWriter(std::ostream& out, std::string file = {}) : out_(out), file_(std::move(file)) {}
  void header(const std::string& ruleset, int seats, std::uint64_t seed, const std::vector<std::string>& players,
              const std::string& params_json, const std::vector<std::string>& overrides = {},
              const std::string& ruleset_id = {});
  void action(const GameState& after, int round, int seat, const std::string& text, std::size_t legal_count);
  void result(Rules& rules, const GameState& final_state);
  void stopped(const std::string& reason, const GameState& state);
  /// `undo` at the prompt: {"type":"undo","to_ply":N}, the actions after the N-th are taken back (read_transcript
  /// drops them, so replay checks the game as it was played on).
  void undo(const GameState& back_to);
  /// `play --resume`: {"type":"resumed","plies":N}, the game continues after a stopped line.
  void resumed(const GameState& state);

 private:
  std::ostream& out_;
  std::string file_;
};

/// Reads a transcript file. Throws TranscriptError naming the file and line of the first bad line
/// (invalid JSON, unknown type, missing field, a header that is not first).
Transcript read_transcript(const std::string& file);
/// The same from a stream (a transcript sent to `serve`); `file` is the name messages give it.
Transcript read_transcript(std::istream& in, const std::string& file);

/// A JSON library error as a person reads it: without the "[json.exception...]" prefix, "number overflow"
/// said plainly, and cut at 200 characters (a fuzzed line may hold a 100 KB token).
std::string json_error_text(const std::exception& e);

/// Typed fields of a transcript line (`replay`, golden games, `serve --replay`). A float or an out-of-range
/// number is refused, never converted: converting 1e51 to an integer type is undefined behaviour.
/// integer_field: the integer `key` of `line`, in [min, max]; throws TranscriptError ("'seats' must be an
/// integer", "'seats' must be between 1 and 8, not 9"), or nlohmann::json::out_of_range when the key is missing.
std::int64_t integer_field(const nlohmann::json& line, const char* key, std::int64_t min, std::int64_t max);
/// A seed: an integer from 0 to 2^64 - 1 (the header's "seed"); errors as integer_field.
std::uint64_t seed_field(const nlohmann::json& line, const char* key);
/// A list of integers of int64 range ("match_scores", "ranks"); errors as integer_field.
std::vector<std::int64_t> integer_list(const nlohmann::json& line, const char* key);

/// A ruleset folder or variant file given by path (`ruleset`, found from `file`'s folder, else from the current
/// folder) as a path relative to `file`'s folder, so that `file` can name it from anywhere; an id, or a path
/// that does not exist, is returned as it is.
std::string portable_ruleset(const std::filesystem::path& file, const std::string& ruleset);

/// Loads the rules transcript `t` (read from `file`) was recorded with: its `ruleset_path` from the transcript's
/// folder, else its `ruleset` as given (from the current folder, or from the transcript's), else its
/// `ruleset_id`; with its seats and `set` overrides. Then checks the header's `params` against the loaded rules'
/// parameters. Throws LoadError, or TranscriptError "file:line: parameter 'x' is A in the transcript but B in
/// the rules ..." for the first parameter that differs.
std::unique_ptr<ScriptedRules> load_transcript_rules(const std::string& file, const Transcript& t);

/// Hexadecimal text of a state digest, as transcripts hold it.
std::string digest_text(std::uint64_t digest);

}  // namespace hr
