// scenario_file.hpp — private to cli/testing/: a scenario file as read (the [[scenario]] tables of a file, in the
// format scenario.hpp documents), shared by the reader (scenario_file.cpp) and the runner (scenario.cpp). Every
// value keeps the line it came from, so that a failure names the line.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "layout.hpp"
#include "state.hpp"

namespace hr::scenario_detail {

/// A problem with a scenario (bad input or an unmet expectation), with the line it concerns.
class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(int line, const std::string& message) : std::runtime_error(message), line(line) {}
  int line;
};

template <typename T>
struct Located {
  T value{};
  int line = 0;
};

inline int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }
inline int line_of(const toml::key& key) { return static_cast<int>(key.source().begin.line); }

/// `text` in quotes, cut at 200 bytes with "…" (a fuzzed file may hold a 100 KB string).
std::string in_quotes(std::string_view text);
/// Folds a multi-line message (a Lua traceback) onto one line.
std::string one_line(std::string_view text);
/// Throws naming the first key of `table` that is not in `allowed`.
void check_keys(const toml::table& table, std::initializer_list<std::string_view> allowed, std::string_view where);
/// The string, integer at `node`; throws a ScenarioError naming `what` and the type found otherwise.
std::string get_string(const toml::node& node, std::string_view what);
std::int64_t get_int(const toml::node& node, std::string_view what);

/// "[a, b, c]".
template <typename T>
std::string join(const std::vector<T>& values) {
  std::ostringstream text;
  text << '[';
  for (std::size_t i = 0; i < values.size(); ++i) text << (i ? ", " : "") << values[i];
  text << ']';
  return text.str();
}

/// The names of `cards` as "[Y7, B2]" ("?" for an id out of range).
std::string join_names(const Layout& layout, std::span<const ComponentId> cards);

// ---- one scenario, as read from the file ------------------------------------------------------------------

struct ZoneContents {
  std::string zone;
  std::vector<Located<std::string>> cards;
  int line = 0;
};

/// Values of one counter: one per seat (an array in the file) or the supply's (an integer).
struct CounterValues {
  std::string counter;
  std::vector<std::int64_t> values;
  bool supply = false;
  int line = 0;
};

/// Where the figures of one kind and owner stand: "<kind>.<owner>" (or "<kind>" for owner 0) =
/// ["<track> <space>" or "off", ...], in figure order.
struct FigurePlaces {
  std::string key, kind;
  int owner = 0;  ///< the seat after the key's last dot (0: no seat's); -1 for a number too long to be a seat
  std::vector<Located<std::string>> places;
  int line = 0;
};

/// The tiles on one track: space -> tile name.
struct TrackTiles {
  std::string track;
  std::vector<std::pair<std::int64_t, Located<std::string>>> tiles;
  int line = 0;
};

/// One board's part of a scenario or its expectations ([scenario.board.<name>], docs/boards.md).
struct BoardContents {
  std::string board;
  int line = 0;
  std::vector<std::pair<Located<std::string>, Located<std::string>>> tiles;  // "4,7 r2" = tile name
  struct Site {
    Located<std::string> site;  // "face 4,7u"
    std::vector<Located<std::string>> names;
    bool face_down = false;
  };
  std::vector<Site> lying;
  struct MarkValue {
    std::string mark;
    Located<std::string> site;
    std::int64_t value = 0;
  };
  std::vector<MarkValue> marks;
  std::vector<FigurePlaces> figures;       // places as "<board> vertex 4,7"
  std::vector<Located<std::string>> free;  // expect only: faces without a tile
};

/// A phase as a scenario names it: a name the ruleset declared (declare{phases=...}) or a number.
struct PhaseSpec {
  std::string name;                   // empty when given as a number
  std::int64_t number = 0;
  int line = 0;
};

/// expect.sees.<seat>: what that seat's observation shows of each listed zone ("?" for a card it cannot see).
struct SeatView {
  std::string seat_text;
  int line = 0;
  std::vector<ZoneContents> zones;
};

struct Expectations {
  std::optional<PhaseSpec> phase;
  std::vector<SeatView> sees;
  std::optional<Located<std::vector<std::int64_t>>> scores, match_scores;
  std::optional<Located<std::vector<std::vector<std::int64_t>>>> round_scores;
  std::optional<Located<std::vector<std::int64_t>>> ranks;
  std::optional<Located<bool>> over;
  std::optional<Located<std::int64_t>> to_move, round;
  std::vector<Located<std::string>> legal, illegal;
  /// expect.legal_actions: the exact list of the legal actions' texts, in any order (absent: not checked; an
  /// empty list: no legal action). The line is the key's.
  std::optional<Located<std::vector<std::string>>> legal_actions;
  std::optional<Located<std::string>> error;
  std::vector<ZoneContents> zones;
  std::vector<std::pair<std::string, Located<std::int64_t>>> sizes;
  std::vector<CounterValues> counters;
  std::vector<FigurePlaces> figures;
  std::vector<TrackTiles> tiles;
  std::vector<BoardContents> boards;
  /// expect.heuristic: the heuristic hook's value for each listed seat (the key is the seat number).
  std::vector<std::pair<std::string, Located<double>>> heuristic;
  /// expect.describe: a text the describe hook's table, as each listed seat sees it, must contain.
  std::vector<std::pair<std::string, Located<std::string>>> describe;
  /// expect.score_breakdown: a text the score_breakdown hook's lines for each listed seat must contain (on the
  /// position with every card revealed, as `play` shows it at the end of a round).
  std::vector<std::pair<std::string, Located<std::string>>> score_breakdown;
  /// expect.turn_summary: a text the line `play` prints for the scenario's last turn (the turn_summary hook, else
  /// the actions and a generic account), as each listed seat saw that turn, must contain.
  std::vector<std::pair<std::string, Located<std::string>>> turn_summary;
  /// expect.violation: a text the invariants hook's message must contain, or "" (written `false`): none.
  std::optional<Located<std::string>> violation;
};

struct Scenario {
  std::string name;
  int line = 0;
  std::uint64_t seed = 1;
  std::optional<Located<std::int64_t>> to_move;
  std::optional<PhaseSpec> phase;
  Located<std::vector<std::vector<std::int64_t>>> previous_rounds;
  std::vector<ZoneContents> zones;
  std::vector<CounterValues> counters;
  std::vector<FigurePlaces> figures;
  std::vector<TrackTiles> tiles;
  std::vector<BoardContents> boards;
  std::vector<Located<std::string>> actions;
  Expectations expect;
};

/// Reads one [[scenario]] table. `name` is filled in first, so that an error can name the scenario.
void read_scenario(const toml::table& table, Scenario& s);

}  // namespace hr::scenario_detail
