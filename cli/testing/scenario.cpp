// scenario.cpp — the scenario-test runner: reads scenario files (format in scenario.hpp; the reader is
// scenario_file.cpp), plays each scenario against its ruleset and reports the failures. Every check is made
// through hr::Rules, so it serves every ruleset.
#include "scenario.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "input_line.hpp"
#include "rules.hpp"
#include "ruleset.hpp"
#include "golden.hpp"
#include "play/play.hpp"
#include "scripted_rules.hpp"
#include "state.hpp"
#include "scenario_file.hpp"
#include "toml_util.hpp"

namespace hr {

using namespace scenario_detail;  // the records of a scenario file, as read (scenario_file.hpp)

namespace {

namespace fs = std::filesystem;

// ---- playing a scenario -----------------------------------------------------------------------------------

ZoneId zone_named(const Layout& layout, const std::string& name, int line) {
  if (const ZoneId* z = layout.find_zone(name)) return *z;
  throw ScenarioError(line, "unknown zone " + in_quotes(name));
}

/// Makes each listed zone hold exactly its listed cards (see scenario.hpp). `placed` marks the components this
/// scenario has placed already (shared with set_tiles).
void set_zones(GameState& state, const std::vector<ZoneContents>& zones, std::vector<bool>& placed) {
  const Layout& layout = state.layout();
  for (const ZoneContents& zc : zones) {
    const ZoneId z = zone_named(layout, zc.zone, zc.line);
    std::vector<ComponentId> wanted;
    for (const auto& card : zc.cards) {
      const auto& copies = layout.components_named(card.value);
      if (copies.empty())
        throw ScenarioError(card.line, "unknown card " + in_quotes(card.value) + " in zone " + in_quotes(zc.zone));
      auto free = std::find_if(copies.begin(), copies.end(), [&](ComponentId c) { return !placed[c]; });
      if (free == copies.end())
        throw ScenarioError(card.line, "no copy of " + in_quotes(card.value) + " is left to place in zone " +
                                           in_quotes(zc.zone) + " (the game has " + std::to_string(copies.size()) +
                                           ")");
      placed[*free] = true;
      wanted.push_back(*free);
    }
    const auto held = state.cards(z);
    const std::vector<ComponentId> before(held.begin(), held.end());
    for (ComponentId c : before)
      if (std::find(wanted.begin(), wanted.end(), c) == wanted.end()) state.move(c, layout.box());
    for (ComponentId c : wanted) state.move(c, z);
  }
}

int track_named(const Layout& layout, const std::string& name, int line) {
  for (std::size_t t = 0; t < layout.tracks.size(); ++t)
    if (layout.tracks[t].name == name) return static_cast<int>(t);
  throw ScenarioError(line, "unknown track " + in_quotes(name));
}

int counter_named(const Layout& layout, const std::string& name, int line) {
  for (std::size_t c = 0; c < layout.counters.size(); ++c)
    if (layout.counters[c].name == name) return static_cast<int>(c);
  throw ScenarioError(line, "unknown counter " + in_quotes(name));
}

int board_named(const Layout& layout, const std::string& name, int line) {
  for (std::size_t b = 0; b < layout.boards.size(); ++b)
    if (layout.boards[b].name == name) return static_cast<int>(b);
  throw ScenarioError(line, "unknown board " + in_quotes(name));
}

/// A site of a board: "face 4,7u", "edge 4,7-5,7" or "vertex 4,7"; errors name the text.
std::pair<SiteKind, int> parse_site(const Layout& layout, int board, const Located<std::string>& text) {
  const auto blank = text.value.find(' ');
  const std::string kind_text = text.value.substr(0, blank);
  const BoardDef& def = layout.boards[static_cast<std::size_t>(board)];
  if (blank == std::string::npos || (kind_text != "face" && kind_text != "edge" && kind_text != "vertex"))
    throw ScenarioError(text.line, in_quotes(text.value) + " is not a site of board " + in_quotes(def.name) +
                                       ": write \"face 4,7u\", \"edge 4,7-5,7\" or \"vertex 4,7\"");
  const SiteKind kind = site_kind_from_string(kind_text);
  const std::string where = text.value.substr(blank + 1);
  int id = -1;
  try {
    id = kind == SiteKind::Face ? def.lattice.face(where) : kind == SiteKind::Edge ? def.lattice.edge(where) : def.lattice.vertex(where);
  } catch (const LatticeError& e) {
    throw ScenarioError(text.line, "board " + in_quotes(def.name) + ": " + e.what());
  }
  if (id < 0) throw ScenarioError(text.line, kind_text + " " + where + " is not on board " + in_quotes(def.name));
  return {kind, id};
}

/// A site as text: "face 4,7u", "edge 4,7-5,7", "vertex 4,7".
std::string site_text(const Layout& layout, int board, SiteKind kind, int id) {
  const Lattice& l = layout.boards[static_cast<std::size_t>(board)].lattice;
  return std::string(to_string(kind)) + " " +
         (kind == SiteKind::Face ? l.face_text(id) : kind == SiteKind::Edge ? l.edge_text(id) : l.vertex_text(id));
}

/// A placement "4,7 r2" on a board: anchor vertex and rotation.
std::pair<int, int> parse_placement(const Layout& layout, int board, const Located<std::string>& text) {
  const BoardDef& def = layout.boards[static_cast<std::size_t>(board)];
  const auto blank = text.value.rfind(" r");
  const std::string rotation = blank == std::string::npos ? "" : text.value.substr(blank + 2);
  if (rotation.size() != 1 || rotation[0] < '0' || rotation[0] - '0' >= def.lattice.rotations())
    throw ScenarioError(text.line, in_quotes(text.value) + " is not a placement on board " + in_quotes(def.name) +
                                       ": write the anchor vertex and a rotation 0.." +
                                       std::to_string(def.lattice.rotations() - 1) + ", e.g. \"4,7 r2\"");
  const auto [kind, v] = parse_site(layout, board, {"vertex " + text.value.substr(0, blank), text.line});
  return {v, rotation[0] - '0'};
}

/// A figure's place as text: "<track> <space>", "<board> vertex 4,7", "<board> face 4,7u", or "off".
std::string place_text(const Layout& layout, FigurePlace p) {
  if (p.on_board()) return layout.boards[static_cast<std::size_t>(p.board)].name + " " + site_text(layout, p.board, p.kind, p.site);
  return p.track < 0 ? "off" : layout.tracks[static_cast<std::size_t>(p.track)].name + " " + std::to_string(p.space);
}

/// Parses "<track> <space>", "<board> vertex|face <text>" or "off".
FigurePlace parse_place(const Layout& layout, const Located<std::string>& text) {
  if (text.value == "off") return {};
  if (const auto blank = text.value.find(' '); blank != std::string::npos)
    for (std::size_t b = 0; b < layout.boards.size(); ++b)
      if (layout.boards[b].name == text.value.substr(0, blank)) {
        const auto [kind, id] = parse_site(layout, static_cast<int>(b), {text.value.substr(blank + 1), text.line});
        if (kind == SiteKind::Edge) throw ScenarioError(text.line, "a figure stands on a vertex or a face, not on an edge");
        FigurePlace p;
        p.board = static_cast<std::int16_t>(b);
        p.kind = kind;
        p.site = static_cast<std::uint16_t>(id);
        return p;
      }
  const auto blank = text.value.rfind(' ');
  const std::string number = blank == std::string::npos ? "" : text.value.substr(blank + 1);
  if (number.empty() || number.size() > 4 || number.find_first_not_of("0123456789") != std::string::npos)
    throw ScenarioError(text.line, in_quotes(text.value) + " is not a place: write \"<track> <space>\" or \"off\"");
  const int track = track_named(layout, text.value.substr(0, blank), text.line);
  const int space = std::stoi(number);
  if (space < 1 || space > static_cast<int>(layout.tracks[static_cast<std::size_t>(track)].values.size()))
    throw ScenarioError(text.line, "track " + in_quotes(layout.tracks[static_cast<std::size_t>(track)].name) +
                                       " has no space " + number);
  return {static_cast<std::int16_t>(track), static_cast<std::int16_t>(space)};
}

/// The figure numbers of `fp`'s kind and owner, in figure order; an error if there is none.
std::vector<int> figures_of(const Layout& layout, const FigurePlaces& fp) {
  if (fp.owner < 0 || fp.owner > layout.seats)
    throw ScenarioError(fp.line, "figures key " + in_quotes(fp.key) + ": " +
                                     in_quotes(cut_for_message(fp.key.substr(fp.key.rfind('.') + 1), 40)) +
                                     " is not a seat (the game has seats 1 to " + std::to_string(layout.seats) +
                                     "; 0 for figures of no seat)");
  std::vector<int> out;
  for (std::size_t f = 0; f < layout.figures.size(); ++f)
    if (layout.figures[f].kind == fp.kind && layout.figures[f].owner == fp.owner) out.push_back(static_cast<int>(f));
  if (out.empty()) throw ScenarioError(fp.line, "no figure of kind " + in_quotes(fp.kind) + " and owner " + std::to_string(fp.owner));
  return out;
}

/// The values of `cv` as (owner, value) pairs, checked against the counter's definition.
std::vector<std::pair<int, std::int64_t>> counter_slots(const Layout& layout, const CounterValues& cv) {
  const CounterDef& def = layout.counters[static_cast<std::size_t>(counter_named(layout, cv.counter, cv.line))];
  if (cv.supply) return {{0, cv.values[0]}};
  if (!def.per_seat)
    throw ScenarioError(cv.line, "counter " + in_quotes(cv.counter) + " is the supply's only: give one integer");
  if (cv.values.size() != static_cast<std::size_t>(layout.seats))
    throw ScenarioError(cv.line, "counter " + in_quotes(cv.counter) + " has " + std::to_string(cv.values.size()) +
                                     " values, the game has " + std::to_string(layout.seats) + " seats");
  std::vector<std::pair<int, std::int64_t>> out;
  for (int s = 1; s <= layout.seats; ++s) out.push_back({s, cv.values[static_cast<std::size_t>(s - 1)]});
  return out;
}

/// Puts the figures of one `figures` key where it lists them (a place each, in figure order; figures past the list
/// go off the board). Throws naming the key's line when it lists more places than the game has such figures.
void place_figures(GameState& state, const FigurePlaces& fp) {
  const Layout& layout = state.layout();
  const std::vector<int> figures = figures_of(layout, fp);
  if (fp.places.size() > figures.size())
    throw ScenarioError(fp.line, in_quotes(fp.key) + " lists " + std::to_string(fp.places.size()) +
                                     " places, the game has " + std::to_string(figures.size()) + " such figures");
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const FigurePlace p = i < fp.places.size() ? parse_place(layout, fp.places[i]) : FigurePlace{};
    if (p.on_board()) state.move_figure_to_site(figures[i], p.board, p.kind, p.site);
    else state.move_figure(figures[i], p.track, p.space);
  }
}

/// A free copy of component `name` (the lowest-numbered one this scenario has not placed yet), marked placed.
ComponentId take_copy(const Layout& layout, const Located<std::string>& name, std::vector<bool>& placed, const std::string& where) {
  const auto& copies = layout.components_named(name.value);
  if (copies.empty()) throw ScenarioError(name.line, "unknown component " + in_quotes(name.value));
  auto free = std::find_if(copies.begin(), copies.end(), [&](ComponentId c) { return !placed[c]; });
  if (free == copies.end())
    throw ScenarioError(name.line, "no copy of " + in_quotes(name.value) + " is left to place " + where + " (the game has " +
                                       std::to_string(copies.size()) + ")");
  placed[*free] = true;
  return *free;
}

/// Sets one lattice board (see scenario.hpp): with `tiles`, exactly those tiles (the others go to the box); each
/// listed site holds exactly its components (face up, or face down under face_down); marks; figures.
void set_lattice_board(GameState& state, const BoardContents& bc, std::vector<bool>& placed) {
  const Layout& layout = state.layout();
  const int b = board_named(layout, bc.board, bc.line);
  const BoardDef& def = layout.boards[static_cast<std::size_t>(b)];
  if (!bc.tiles.empty()) {
    for (int f = 0; f < def.lattice.faces(); ++f)
      if (const ComponentId c = state.tile_on(b, f); c != kNoComponent) state.move(c, layout.box());
    for (const auto& [placement, tile] : bc.tiles) {
      const auto [anchor, rotation] = parse_placement(layout, b, placement);
      const ComponentId c = take_copy(layout, tile, placed, "on board " + in_quotes(bc.board));
      if (layout.components[c].shape < 0) throw ScenarioError(tile.line, in_quotes(tile.value) + " is not a tile (it has no shape)");
      if (const std::string problem = state.placement_problem(c, b, anchor, rotation); !problem.empty())
        throw ScenarioError(placement.line, problem);
      state.place_tile_on(c, b, anchor, rotation);
    }
  }
  for (const auto& site : bc.lying) {
    const auto [kind, id] = parse_site(layout, b, site.site);
    const auto here = state.lying(b, kind, id);
    const std::vector<ComponentId> before(here.begin(), here.end());
    for (const ComponentId c : before) state.move(c, layout.box());
    for (const auto& name : site.names)
      state.lay(take_copy(layout, name, placed, "at " + site.site.value), b, kind, id, site.face_down);
  }
  for (const auto& m : bc.marks) {
    const int mark = def.mark_index(m.mark);
    if (mark < 0) throw ScenarioError(m.site.line, "board " + in_quotes(bc.board) + " has no mark " + in_quotes(m.mark));
    const auto [kind, id] = parse_site(layout, b, {std::string(to_string(def.marks[static_cast<std::size_t>(mark)].kind)) + " " + m.site.value, m.site.line});
    if (m.value < 0 || m.value > 255) throw ScenarioError(m.site.line, "a mark holds 0..255, not " + std::to_string(m.value));
    state.set_mark(b, mark, id, static_cast<int>(m.value));
    (void)kind;
  }
  for (const FigurePlaces& fp : bc.figures) place_figures(state, fp);
}

/// Checks one lattice board's expectations, adding failures through `fail`.
template <class Fail>
void check_lattice_board(const GameState& state, const BoardContents& bc, Fail&& fail) {
  const Layout& layout = state.layout();
  const int b = board_named(layout, bc.board, bc.line);
  const BoardDef& def = layout.boards[static_cast<std::size_t>(b)];
  const std::string board = "board " + in_quotes(bc.board);
  for (const auto& [placement, tile] : bc.tiles) {  // each listed placement holds that tile
    const auto [anchor, rotation] = parse_placement(layout, b, placement);
    if (layout.components_named(tile.value).empty()) throw ScenarioError(tile.line, "unknown tile " + in_quotes(tile.value));
    bool found = false;
    std::string there;
    for (int f = 0; f < def.lattice.faces() && !found; ++f) {
      const ComponentId c = state.tile_on(b, f);
      if (c == kNoComponent) continue;
      const Place p = state.place_of(c);
      if (p.site == anchor) there = layout.components[c].name + " r" + std::to_string(p.rotation);
      found = p.site == anchor && p.rotation == rotation && layout.components[c].name == tile.value;
    }
    if (!found)
      fail(placement.line, board + ": " + in_quotes(placement.value) + " does not hold " + in_quotes(tile.value) +
                               (there.empty() ? " (no tile is anchored there)" : " (anchored there: " + there + ")"));
  }
  for (const auto& face : bc.free) {
    const auto [kind, id] = parse_site(layout, b, {"face " + face.value, face.line});
    (void)kind;
    if (const ComponentId c = state.tile_on(b, id); c != kNoComponent)
      fail(face.line, board + ": face " + face.value + " is under tile " + in_quotes(layout.components[c].name) + ", expected free");
  }
  for (const auto& site : bc.lying) {
    const auto [kind, id] = parse_site(layout, b, site.site);
    std::vector<std::string> want;
    for (const auto& name : site.names) {
      if (layout.components_named(name.value).empty()) throw ScenarioError(name.line, "unknown component " + in_quotes(name.value));
      want.push_back(name.value);
    }
    std::vector<std::string> got;
    for (const ComponentId c : state.lying(b, kind, id)) got.push_back(layout.components[c].name);
    if (got != want) fail(site.site.line, board + ": " + site.site.value + " holds " + join(got) + ", expected " + join(want));
  }
  for (const auto& m : bc.marks) {
    const int mark = def.mark_index(m.mark);
    if (mark < 0) throw ScenarioError(m.site.line, board + " has no mark " + in_quotes(m.mark));
    const auto [kind, id] = parse_site(layout, b, {std::string(to_string(def.marks[static_cast<std::size_t>(mark)].kind)) + " " + m.site.value, m.site.line});
    (void)kind;
    if (const int got = state.mark(b, mark, id); got != m.value)
      fail(m.site.line, board + ": mark " + in_quotes(m.mark) + " at " + m.site.value + " is " + std::to_string(got) +
                            ", expected " + std::to_string(m.value));
  }
  for (const FigurePlaces& fp : bc.figures) {
    std::vector<std::string> got, want;
    for (int f : figures_of(layout, fp))
      if (const FigurePlace p = state.figure_place(f); p.on_board() || p.track >= 0) got.push_back(place_text(layout, p));
    for (const auto& place : fp.places)
      if (const FigurePlace p = parse_place(layout, place); p.on_board() || p.track >= 0) want.push_back(place_text(layout, p));
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    if (got != want) fail(fp.line, "figures " + in_quotes(fp.key) + " stand on " + join(got) + ", expected " + join(want));
  }
}

/// Sets counters, figures and the tiles of the listed tracks (see scenario.hpp).
void set_board(GameState& state, const Scenario& s, std::vector<bool>& placed) {
  const Layout& layout = state.layout();
  for (const CounterValues& cv : s.counters)
    for (auto [owner, value] : counter_slots(layout, cv))
      state.set_counter(counter_named(layout, cv.counter, cv.line), owner, value);
  for (const FigurePlaces& fp : s.figures) place_figures(state, fp);
  for (const TrackTiles& tt : s.tiles) {
    const int track = track_named(layout, tt.track, tt.line);
    const int spaces = static_cast<int>(layout.tracks[static_cast<std::size_t>(track)].values.size());
    for (int space = 1; space <= spaces; ++space)
      if (const ComponentId c = state.tile_at(track, space).component; c != kNoComponent) state.move(c, layout.box());
    for (const auto& [space, tile] : tt.tiles) {
      if (space < 1 || space > spaces)
        throw ScenarioError(tile.line, "track " + in_quotes(tt.track) + " has no space " + std::to_string(space));
      const auto& copies = layout.components_named(tile.value);
      if (copies.empty()) throw ScenarioError(tile.line, "unknown tile " + in_quotes(tile.value));
      auto free = std::find_if(copies.begin(), copies.end(), [&](ComponentId c) { return !placed[c]; });
      if (free == copies.end())
        throw ScenarioError(tile.line, "no copy of " + in_quotes(tile.value) + " is left to place on track " +
                                           in_quotes(tt.track) + " (the game has " + std::to_string(copies.size()) + ")");
      placed[*free] = true;
      state.place_tile(*free, track, static_cast<int>(space));
    }
  }
  for (const BoardContents& bc : s.boards) set_lattice_board(state, bc, placed);
}

void check_seat(const Layout& layout, std::int64_t seat, int line, std::string_view what) {
  if (seat < 1 || seat > layout.seats)
    throw ScenarioError(line, std::string(what) + " = " + std::to_string(seat) + " is not a seat (the game has " +
                                  std::to_string(layout.seats) + ")");
}

/// The phase number `spec` names: a declared phase name, or the number itself.
int phase_of(const Layout& layout, const PhaseSpec& spec, std::string_view what) {
  if (spec.name.empty()) {
    if (spec.number < std::numeric_limits<int>::min() || spec.number > std::numeric_limits<int>::max())
      throw ScenarioError(spec.line, std::string(what) + " = " + std::to_string(spec.number) + " is out of range");
    return static_cast<int>(spec.number);
  }
  if (const auto number = layout.phase_number(spec.name)) return *number;
  std::string known;
  for (std::size_t i = 0; i < layout.phase_names.size(); ++i)  // (a range's name once)
    if (i == 0 || layout.phase_names[i].first != layout.phase_names[i - 1].first)
      known += (known.empty() ? "" : ", ") + layout.phase_names[i].first;
  throw ScenarioError(spec.line, "unknown phase " + in_quotes(spec.name) + " in " + std::string(what) +
                                     (known.empty() ? " (the ruleset names no phases: declare{phases = {...}})"
                                                    : " (its phases: " + known + ")"));
}

/// A phase as text: its declared name and number ("draw (2)"), or the number alone.
std::string phase_text(const Layout& layout, int phase) {
  for (const auto& [name, number] : layout.phase_names)
    if (number == phase) return in_quotes(name) + " (" + std::to_string(phase) + ")";
  return std::to_string(phase);
}

/// expect.legal_actions: the legal actions' texts (rules.action_text) are exactly `want`, in any order, compared
/// as parse_action compares texts (case and runs of blanks aside). Reports through `fail` the texts missing and
/// the ones not expected, then the whole list as the rules give it (their order).
template <class Fail>
void check_legal_actions(Rules& rules, const GameState& state, const Located<std::vector<std::string>>& want,
                         const Fail& fail) {
  std::vector<std::string> got;
  if (!state.over())
    for (const Action a : rules.legal_actions(state)) got.push_back(rules.action_text(state, a));
  std::multiset<std::string> expected, actual;
  for (const auto& t : want.value) expected.insert(normalized_action_text(t));
  for (const auto& t : got) actual.insert(normalized_action_text(t));
  if (expected == actual) return;
  const auto quoted_list = [](const std::vector<std::string>& texts) {
    std::string out;
    for (const auto& t : texts) out += (out.empty() ? "" : ", ") + in_quotes(t);
    return "[" + out + "]";
  };
  std::vector<std::string> missing, extra;
  std::multiset<std::string> left = actual;
  for (const auto& t : want.value)
    if (auto it = left.find(normalized_action_text(t)); it != left.end()) left.erase(it); else missing.push_back(t);
  std::multiset<std::string> wanted = expected;
  for (const auto& t : got)
    if (auto it = wanted.find(normalized_action_text(t)); it != wanted.end()) wanted.erase(it); else extra.push_back(t);
  std::string message = "the legal actions of seat " + std::to_string(state.to_move()) + " are not the list expected";
  if (!missing.empty()) message += "; missing (not legal): " + quoted_list(missing);
  if (!extra.empty()) message += "; legal but not listed: " + quoted_list(extra);
  fail(want.line, message + "; the legal actions: " + quoted_list(got));
}

/// Throws if two legal actions of the seat to move read the same text (as `houserules check` does): a person
/// or a scenario could not tell them apart. `where` says which position of the scenario this is. Checked in
/// each position a scenario plays an action from, and in its last one when it lists legal or illegal texts.
void check_unique_texts(Rules& rules, const GameState& state, int line, const std::string& where) {
  if (state.over()) return;
  const std::vector<Action> legal = rules.legal_actions(state);
  std::map<std::string, std::pair<Action, std::string>> seen;
  for (const Action a : legal) {
    std::string text = rules.action_text(state, a);
    const auto [it, fresh] = seen.emplace(normalized_action_text(text), std::make_pair(a, text));
    if (!fresh)
      throw ScenarioError(line, where + ": legal actions " + std::to_string(it->second.first) + " " +
                                    in_quotes(it->second.second) + " and " + std::to_string(a) + " " + in_quotes(text) +
                                    " of seat " + std::to_string(state.to_move()) +
                                    " have the same text (every legal action needs its own text)");
  }
}

/// The scenario's last turn, for expect.turn_summary: the actions the seat that played the last one played in a
/// row (as `play` groups a turn's actions into one line), the position before the first of them and after the
/// last (the round's end position when the last ended the round, as `play` shows it).
struct LastTurn {
  int seat = 0;  ///< 0: no action was played
  std::vector<std::string> texts;
  std::optional<GameState> before, after;
};

/// Plays the scenario's actions; fills `turn` when the scenario expects a turn summary.
void play_actions(Rules& rules, GameState& state, const Scenario& s, LastTurn& turn) {
  const bool keep_turn = !s.expect.turn_summary.empty();
  for (std::size_t i = 0; i < s.actions.size(); ++i) {
    const auto& [text, line] = s.actions[i];
    const std::string label = "action " + std::to_string(i + 1) + " " + in_quotes(text);
    const bool must_fail = s.expect.error && i + 1 == s.actions.size();
    check_unique_texts(rules, state, line,
                       i == 0 ? std::string("in the starting position")
                              : "after action " + std::to_string(i) + " " + in_quotes(s.actions[i - 1].value));
    const GameState before = state;
    const int seat = state.to_move();
    std::optional<std::string> rejection;
    if (auto action = rules.parse_action(state, text)) {
      try {
        const std::string canonical = keep_turn ? rules.action_text(state, *action) : std::string();
        GameState round_end;
        rules.apply(state, *action, keep_turn ? &round_end : nullptr);
        if (keep_turn) {
          if (seat != turn.seat) {
            turn.seat = seat;
            turn.texts.clear();
            turn.before = before;
          }
          turn.texts.push_back(canonical);
          turn.after = state.round() != before.round() || state.over() ? round_end : state;
        }
      } catch (const RulesError& e) {
        rejection = e.what();
      }
    } else {
      rejection = rules.explain_illegal(state, text);
    }
    if (must_fail) {
      const std::string& expected = s.expect.error->value;
      if (!rejection)
        throw ScenarioError(line,
                            label + " was accepted, but expect.error wants it rejected with \"" + expected + "\"");
      if (rejection->find(expected) == std::string::npos)
        throw ScenarioError(line, label + " was rejected with \"" + one_line(*rejection) +
                                      "\", which does not contain \"" + expected + "\"");
      if (!(state == before)) throw ScenarioError(line, label + " was rejected but the state changed");
    } else if (rejection) {
      throw ScenarioError(line, label + " by seat " + std::to_string(seat) + " was rejected: " + one_line(*rejection));
    }
  }
}

/// Checks every expectation; returns the failures (line and text), empty if all hold.
std::vector<std::pair<int, std::string>> check_expectations(Rules& rules, const GameState& state,
                                                            const Expectations& e, const LastTurn& turn) {
  const Layout& layout = state.layout();
  std::vector<std::pair<int, std::string>> failures;
  auto fail = [&](int line, std::string text) { failures.emplace_back(line, std::move(text)); };
  auto per_seat = [&](const Located<std::vector<std::int64_t>>& wanted, std::string_view what) {
    if (wanted.value.size() != static_cast<std::size_t>(layout.seats))
      throw ScenarioError(wanted.line, std::string(what) + " has " + std::to_string(wanted.value.size()) +
                                           (wanted.value.size() == 1 ? " entry" : " entries") +
                                           std::string(", the game has ") + std::to_string(layout.seats) + " seats");
  };

  if (e.scores) {
    per_seat(*e.scores, "expect.scores");
    std::vector<std::int64_t> got;
    for (int s = 1; s <= layout.seats; ++s) got.push_back(rules.score(state, s));
    if (got != e.scores->value) fail(e.scores->line, "scores are " + join(got) + ", expected " + join(e.scores->value));
  }
  if (e.match_scores) {
    per_seat(*e.match_scores, "expect.match_scores");
    if (state.match_scores() != e.match_scores->value)
      fail(e.match_scores->line,
           "match scores are " + join(state.match_scores()) + ", expected " + join(e.match_scores->value));
  }
  if (e.round_scores) {
    for (const auto& r : e.round_scores->value) per_seat({r, e.round_scores->line}, "an entry of expect.round_scores");
    if (state.round_scores() != e.round_scores->value) {
      std::vector<std::string> got, want;
      for (const auto& r : state.round_scores()) got.push_back(join(r));
      for (const auto& r : e.round_scores->value) want.push_back(join(r));
      fail(e.round_scores->line, "round scores are " + join(got) + ", expected " + join(want));
    }
  }
  if (e.ranks) {
    per_seat(*e.ranks, "expect.ranks");
    const std::vector<int> got = rules.ranks(state);
    const std::vector<std::int64_t> got64(got.begin(), got.end());
    if (got64 != e.ranks->value) fail(e.ranks->line, "ranks are " + join(got) + ", expected " + join(e.ranks->value));
  }
  if (e.over && state.over() != e.over->value)
    fail(e.over->line,
         state.over() ? "the match is over, expected it not to be" : "the match is not over, expected it to be");
  if (e.to_move) {
    check_seat(layout, e.to_move->value, e.to_move->line, "expect.to_move");
    if (state.to_move() != e.to_move->value)
      fail(e.to_move->line, "seat " + std::to_string(state.to_move()) + " is to move, expected seat " +
                                std::to_string(e.to_move->value));
  }
  if (e.phase) {
    const int want = phase_of(layout, *e.phase, "expect.phase");
    bool named = false;  // a name matches each number of its range (declare{phases = {draw = {10, 15}}})
    for (const auto& [name, number] : layout.phase_names) named = named || (number == state.phase() && name == e.phase->name);
    if (e.phase->name.empty() ? state.phase() != want : !named)
      fail(e.phase->line, "the phase is " + phase_text(layout, state.phase()) + ", expected " + phase_text(layout, want));
  }
  for (const SeatView& view : e.sees) {
    const std::string& t = view.seat_text;
    if (t.empty() || t.size() > 3 || t.find_first_not_of("0123456789") != std::string::npos)
      throw ScenarioError(view.line, "expect.sees." + in_quotes(t) + ": the key is a seat number, e.g. [scenario.expect.sees.2]");
    const int seat = std::stoi(t);
    check_seat(layout, seat, view.line, "expect.sees");
    const GameState observation = state.observation(seat);
    for (const ZoneContents& zc : view.zones) {
      const ZoneId z = zone_named(layout, zc.zone, zc.line);
      std::vector<std::string> want;
      for (const auto& card : zc.cards) {
        if (card.value != "?" && layout.components_named(card.value).empty())
          throw ScenarioError(card.line, "unknown card " + in_quotes(card.value) + " in expect.sees." + t + "." + zc.zone +
                                             " (write \"?\" for a card the seat cannot see)");
        want.push_back(card.value);
      }
      std::vector<std::string> got;
      for (ComponentId c : observation.cards(z))
        got.push_back(c == kUnknownComponent || c >= layout.components.size() ? "?" : layout.components[c].name);
      if (got != want)
        fail(zc.line, "seat " + t + " sees zone " + in_quotes(zc.zone) + " as " + join(got) + ", expected " + join(want));
    }
  }
  for (const auto& [t, want] : e.heuristic) {  // the bots' estimate, within 0.001 (docs/writing-rules.md)
    if (t.empty() || t.size() > 3 || t.find_first_not_of("0123456789") != std::string::npos)
      throw ScenarioError(want.line, "expect.heuristic." + in_quotes(t) + ": the key is a seat number, e.g. heuristic = { 1 = 12.5 }");
    const int seat = std::stoi(t);
    check_seat(layout, seat, want.line, "expect.heuristic");
    const std::optional<double> got = rules.heuristic(state, seat);
    if (!got) {
      fail(want.line, "the ruleset has no heuristic hook (expect.heuristic." + t + ")");
    } else if (!(std::abs(*got - want.value) <= 0.001)) {
      char text[160];
      std::snprintf(text, sizeof text, "the heuristic of seat %d is %.4f, expected %.4f (within 0.001)", seat, *got,
                    want.value);
      fail(want.line, text);
    }
  }
  auto seat_key = [&](const std::string& t, int line, const std::string& key) {
    if (t.empty() || t.size() > 3 || t.find_first_not_of("0123456789") != std::string::npos)
      throw ScenarioError(line, "expect." + key + "." + in_quotes(t) + ": the key is a seat number, e.g. " + key +
                                    " = { 1 = \"Pile 1\" }");
    const int seat = std::stoi(t);
    check_seat(layout, seat, line, "expect." + key);
    return seat;
  };
  for (const auto& [t, want] : e.describe) {  // the table a player reads (the describe hook, on its observation)
    const int seat = seat_key(t, want.line, "describe");
    const std::string got = rules.describe(state.observation(seat), seat);
    if (got.find(want.value) == std::string::npos)
      fail(want.line, "the table seat " + t + " reads does not contain " + in_quotes(want.value) + ":\n" + got);
  }
  for (const auto& [t, want] : e.score_breakdown) {  // the score's parts, as `play` shows them after a round
    const int seat = seat_key(t, want.line, "score_breakdown");
    auto* scripted = dynamic_cast<ScriptedRules*>(&rules);
    const std::optional<std::string> got =
        scripted ? scripted->score_breakdown(every_card_revealed(state), seat) : std::nullopt;
    if (!got)
      fail(want.line, "the ruleset has no score_breakdown hook (expect.score_breakdown." + t + ")");
    else if (got->find(want.value) == std::string::npos)
      fail(want.line, "the score breakdown of seat " + t + " does not contain " + in_quotes(want.value) + ":\n" + *got);
  }
  // The line `play` prints for the last turn to the person at the seat (`you` in its words).
  for (const auto& [t, want] : e.turn_summary) {
    const int viewer = seat_key(t, want.line, "turn_summary");
    if (turn.seat == 0) {
      fail(want.line, "expect.turn_summary." + t + " reads the line of the last turn, but the scenario plays no action");
      continue;
    }
    const GameState before = turn.before->observation(viewer), after = turn.after->observation(viewer);
    const std::string got =
        turn_summary_text(rules, after, turn.seat, turn_changes(before, after, viewer, true, turn.texts));
    if (got.find(want.value) == std::string::npos) {
      std::string texts;
      for (const std::string& a : turn.texts) texts += (texts.empty() ? "" : ", ") + in_quotes(a);
      fail(want.line, "the line of seat " + std::to_string(turn.seat) + "'s turn (" + texts + ") as seat " + t +
                          " reads it does not contain " + in_quotes(want.value) + ":\n" + got);
    }
  }
  if (e.violation) {
    const std::string got = rules.invariant_violation(state);
    if (e.violation->value.empty() && !got.empty())
      fail(e.violation->line, "the invariants report " + in_quotes(one_line(got)) + ", expected none broken");
    else if (!e.violation->value.empty() && got.empty())
      fail(e.violation->line, "the invariants hold, expected a violation containing " + in_quotes(e.violation->value));
    else if (got.find(e.violation->value) == std::string::npos)
      fail(e.violation->line, "the invariants report " + in_quotes(one_line(got)) + ", which does not contain " +
                                  in_quotes(e.violation->value));
  }
  if (e.round && state.round() != e.round->value)
    fail(e.round->line,
         "the round is " + std::to_string(state.round()) + ", expected " + std::to_string(e.round->value));
  for (const auto& [text, line] : e.legal)
    if (!rules.parse_action(state, text))
      fail(line, in_quotes(text) + " should be legal for seat " + std::to_string(state.to_move()) +
                     " but is not: " + one_line(rules.explain_illegal(state, text)));
  for (const auto& [text, line] : e.illegal)
    if (rules.parse_action(state, text))
      fail(line, in_quotes(text) + " should be illegal for seat " + std::to_string(state.to_move()) + " but is legal");
  if (e.legal_actions) check_legal_actions(rules, state, *e.legal_actions, fail);
  for (const ZoneContents& zc : e.zones) {
    const ZoneId z = zone_named(layout, zc.zone, zc.line);
    std::vector<std::string> want;
    for (const auto& card : zc.cards) {
      if (layout.components_named(card.value).empty())
        throw ScenarioError(card.line, "unknown card " + in_quotes(card.value) + " in expect.zones." + zc.zone);
      want.push_back(card.value);
    }
    std::vector<std::string> got;
    for (ComponentId c : state.cards(z)) got.push_back(layout.components[c].name);
    if (got != want)
      fail(zc.line,
           "zone " + in_quotes(zc.zone) + " holds " + join_names(layout, state.cards(z)) + ", expected " + join(want));
  }
  for (const CounterValues& cv : e.counters) {
    std::vector<std::int64_t> got;
    for (auto [owner, value] : counter_slots(layout, cv))
      got.push_back(state.counter(counter_named(layout, cv.counter, cv.line), owner));
    if (got != cv.values)
      fail(cv.line, "counter " + in_quotes(cv.counter) + " is " + (cv.supply ? std::to_string(got[0]) : join(got)) +
                        ", expected " + (cv.supply ? std::to_string(cv.values[0]) : join(cv.values)));
  }
  for (const FigurePlaces& fp : e.figures) {  // the places of these figures on the board, in any order
    std::vector<std::string> got, want;
    for (int f : figures_of(layout, fp))
      if (const FigurePlace p = state.figure_place(f); p.track >= 0 || p.on_board()) got.push_back(place_text(layout, p));
    for (const auto& place : fp.places)
      if (const FigurePlace p = parse_place(layout, place); p.track >= 0 || p.on_board()) want.push_back(place_text(layout, p));
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    if (got != want) fail(fp.line, "figures " + in_quotes(fp.key) + " stand on " + join(got) + ", expected " + join(want));
  }
  for (const BoardContents& bc : e.boards) check_lattice_board(state, bc, fail);
  for (const TrackTiles& tt : e.tiles) {
    const int track = track_named(layout, tt.track, tt.line);
    std::vector<std::string> got, want;
    for (int space = 1; space <= static_cast<int>(layout.tracks[static_cast<std::size_t>(track)].values.size()); ++space)
      if (const ComponentId c = state.tile_at(track, space).component; c != kNoComponent)
        got.push_back(std::to_string(space) + " = " + layout.components[c].name);
    auto sorted = tt.tiles;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [space, tile] : sorted) want.push_back(std::to_string(space) + " = " + tile.value);
    if (got != want) fail(tt.line, "track " + in_quotes(tt.track) + " holds tiles " + join(got) + ", expected " + join(want));
  }
  for (const auto& [zone, count] : e.sizes) {
    const ZoneId z = zone_named(layout, zone, count.line);
    if (state.size(z) != count.value)
      fail(count.line, "zone " + in_quotes(zone) + " holds " + std::to_string(state.size(z)) + " cards, expected " +
                           std::to_string(count.value));
  }
  return failures;
}

void run_scenario(Rules& rules, const Scenario& s) {
  const Layout& layout = rules.layout();
  GameState state = rules.new_game(s.seed);
  for (const auto& scores : s.previous_rounds.value) {
    if (scores.size() != static_cast<std::size_t>(layout.seats))
      throw ScenarioError(s.previous_rounds.line, "an entry of previous_rounds has " + std::to_string(scores.size()) +
                                                      " scores, the game has " + std::to_string(layout.seats) +
                                                      " seats");
    if (state.over())
      throw ScenarioError(s.previous_rounds.line, "previous_rounds lists more rounds than the match has (" +
                                                      std::to_string(layout.rounds) + ")");
    state.close_round(scores);
  }
  try {
    std::vector<bool> placed(layout.components.size(), false);
    state.set_quiet_moves(true);  // arranging the table reveals nothing (a top-card deck shows its final top)
    set_zones(state, s.zones, placed);
    set_board(state, s, placed);
    state.set_quiet_moves(false);
    for (std::size_t c = 0; c < placed.size(); ++c)  // an arranged card is known as its zone shows it, no more
      if (placed[c]) state.forget(static_cast<ComponentId>(c));
    if (s.to_move) {
      check_seat(layout, s.to_move->value, s.to_move->line, "to_move");
      state.set_to_move(static_cast<int>(s.to_move->value));
    }
    if (s.phase) state.set_phase(phase_of(layout, *s.phase, "phase"));
  } catch (const LayoutError& e) {
    throw ScenarioError(s.line, std::string("setting up the zones: ") + e.what());
  }
  LastTurn turn;
  play_actions(rules, state, s, turn);  // checks the unique texts of each position an action is played from
  if (!s.expect.legal.empty() || !s.expect.illegal.empty() || s.expect.legal_actions)  // and of the last one, when the scenario lists texts
    check_unique_texts(rules, state,
                       !s.expect.legal.empty()     ? s.expect.legal.front().line
                       : !s.expect.illegal.empty() ? s.expect.illegal.front().line
                                                   : s.expect.legal_actions->line,
                       s.actions.empty() ? std::string("in the starting position")
                                         : "after the last action " + in_quotes(s.actions.back().value));
  const auto failures = check_expectations(rules, state, s.expect, turn);
  if (failures.empty()) return;
  std::string text;
  for (const auto& [line, message] : failures) text += (text.empty() ? "" : "; ") + message;
  throw ScenarioError(failures.front().first, text);
}

// ---- files, rulesets and the run --------------------------------------------------------------------------

struct Run {
  Run(std::ostream& out, const ScenarioOptions& options)
      : out(out), options(options), loaded(options.loaded ? *options.loaded : own) {}
  std::ostream& out;
  const ScenarioOptions& options;
  int passed = 0;
  int failed = 0;
  /// Loaded rules (or the load error) per "ruleset|players".
  LoadedRulesets own;
  LoadedRulesets& loaded;
  std::map<std::string, std::unique_ptr<ScriptedRules>>& rules = loaded.rules;
  std::map<std::string, std::string>& load_errors = loaded.errors;

  void fail_file(const std::string& file, int line, const std::string& reason) {
    out << "FAIL " << file << ':' << line << ": " << one_line(reason) << '\n';
    ++failed;
    record({file, "(file)", line, false, file + ":" + std::to_string(line) + ": " + one_line(reason), 0});
  }

  /// Keeps `result` for --json and --junit, when the caller asked for them.
  void record(TestCaseResult result) {
    if (options.results) options.results->push_back(std::move(result));
  }

  /// Replays (or re-records) one golden file, counting it as one test.
  void run_golden(const fs::path& path) {
    std::ostringstream text;
    const auto start = std::chrono::steady_clock::now();
    const bool ok = run_golden_file(path, text, {options.update, options.verbose});
    out << text.str();
    ++(ok ? passed : failed);
    std::string message = text.str();
    while (!message.empty() && message.back() == '\n') message.pop_back();
    if (message.starts_with("FAIL ")) message.erase(0, 5);
    record({path.string(), "golden game", 0, ok, ok ? std::string() : message,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
  }

  /// The rules for `ruleset` (and its `variant`, if not empty) as written in `file`, with `players` seats
  /// (0 = default). A ruleset path is relative to the scenario file. Throws LoadError.
  Rules& load(const fs::path& file, const std::string& ruleset, const std::string& variant, int players) {
    std::string target = ruleset;
    if (ruleset.starts_with('.') || ruleset.starts_with('/') || ruleset.ends_with(".toml")) {
      fs::path p(ruleset);
      if (p.is_relative()) p = file.parent_path() / p;
      std::error_code ec;
      const fs::path canonical = fs::weakly_canonical(p, ec);
      target = (ec ? p : canonical).string();
    }
    if (!variant.empty()) target += "/" + variant;  // "<ruleset>/<variant>": its variants/<variant>.toml
    const std::string key = target + "|" + std::to_string(players);
    if (auto it = rules.find(key); it != rules.end()) return *it->second;
    if (auto it = load_errors.find(key); it != load_errors.end()) throw LoadError(it->second);
    try {
      LoadOptions options;
      options.seats = players;
      return *(rules[key] = load_rules(target, options));
    } catch (const std::exception& e) {
      rules.erase(key);
      if (load_errors.size() >= 1000) load_errors.clear();  // bounded when a caller keeps them across calls
      load_errors[key] = e.what();
      throw LoadError(e.what());
    }
  }

  void run_file(const fs::path& path) {
    const std::string file = path.string();
    toml::table doc;
    try {
      doc = parse_toml_file(path);
    } catch (const TomlFileError& e) {
      std::string at = file;
      if (e.line > 0) at += ':' + std::to_string(e.line) + ':' + std::to_string(e.column);
      out << "FAIL " << at << ": " << one_line(e.description) << '\n';
      ++failed;
      record({file, "(file)", static_cast<int>(e.line), false, at + ": " + one_line(e.description), 0});
      return;
    }

    Rules* game = nullptr;
    const toml::array* scenarios = nullptr;
    try {
      check_keys(doc, {"ruleset", "variant", "players", "scenario"}, "the file header");
      const toml::node* ruleset = doc.get("ruleset");
      if (!ruleset) throw ScenarioError(1, "the file names no ruleset (ruleset = \"<id or path>\")");
      const std::string ruleset_name = get_string(*ruleset, "ruleset");
      std::string variant_name;
      if (const toml::node* variant = doc.get("variant")) variant_name = get_string(*variant, "variant");
      int players = 0;
      if (const toml::node* p = doc.get("players")) {
        const std::int64_t n = get_int(*p, "players");
        if (n < 1 || n > kMaxSeats)
          throw ScenarioError(line_of(*p), "players must be between 1 and " + std::to_string(kMaxSeats));
        players = static_cast<int>(n);
      }
      const toml::node* list = doc.get("scenario");
      if (!list) throw ScenarioError(1, "the file has no [[scenario]]");
      scenarios = list->as_array();
      if (!scenarios || !scenarios->is_array_of_tables() || scenarios->empty())
        throw ScenarioError(line_of(*list), "scenario must be an array of tables ([[scenario]])");
      try {
        game = &load(path, ruleset_name, variant_name, players);
      } catch (const std::exception& e) {
        throw ScenarioError(line_of(*ruleset), "cannot load ruleset " + in_quotes(ruleset_name) + ": " + e.what());
      }
    } catch (const ScenarioError& e) {
      fail_file(file, e.line, e.what());
      return;
    }

    int index = 0;
    for (const toml::node& node : *scenarios) {
      ++index;
      Scenario s;
      s.line = line_of(node);
      s.name = "scenario " + std::to_string(index);
      const auto start = std::chrono::steady_clock::now();
      auto seconds = [&start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
      try {
        read_scenario(*node.as_table(), s);
        run_scenario(*game, s);
      } catch (const std::exception& e) {
        const auto* scenario_error = dynamic_cast<const ScenarioError*>(&e);
        const std::string at = file + ':' + std::to_string(scenario_error ? scenario_error->line : s.line);
        out << "FAIL " << at << " '" << s.name << "': " << one_line(e.what()) << '\n';
        ++failed;
        record({file, s.name, s.line, false, at + ": " + one_line(e.what()), seconds()});
        continue;
      }
      ++passed;
      record({file, s.name, s.line, true, {}, seconds()});
      if (options.verbose) out << "ok " << file << " '" << s.name << "'\n";
    }
  }
};

/// Whether a .toml file found in a folder is a scenario file, not a ruleset's ruleset.toml or a variant (a
/// house rule's folder holds its variant file beside its tests). Files named on the command line always run.
bool is_scenario_file(const fs::path& file) {
  // A ruleset folder's own files: its parameters, and the mutants its tests cannot kill (cli/testing/mutate.hpp).
  if (file.filename() == "ruleset.toml" || file.filename() == "equivalent-mutants.toml") return false;
  try {
    const toml::table doc = parse_toml_file(file);
    return !doc.contains("extends");
  } catch (const TomlFileError&) {
    return true;  // run it, so that the syntax error is reported
  }
}

}  // namespace

bool list_test_files(const fs::path& folder, std::vector<fs::path>& files, std::error_code& ec) {
  std::vector<fs::path> golden;
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ".toml" && is_scenario_file(it->path()))
      files.push_back(it->path());
    else if (it->is_regular_file(ec) && is_golden_file(it->path())) golden.push_back(it->path());
  if (ec) return false;
  std::sort(files.begin(), files.end());
  std::sort(golden.begin(), golden.end());
  files.insert(files.end(), golden.begin(), golden.end());
  return true;
}

LoadedRulesets::LoadedRulesets() = default;
LoadedRulesets::~LoadedRulesets() = default;

int run_scenario_tests(const std::vector<std::string>& files_or_folders, std::ostream& out,
                       const ScenarioOptions& options) {
  Run run(out, options);
  for (const std::string& arg : files_or_folders) {
    std::error_code ec;
    const fs::path root(arg);
    if (fs::is_directory(root, ec)) {
      std::vector<fs::path> files;
      if (!list_test_files(root, files, ec)) {
        run.fail_file(arg, 0, "cannot read folder: " + ec.message());
        continue;
      }
      for (const fs::path& f : files)  // scenario files first, then golden games, each sorted (list_test_files)
        if (is_golden_file(f)) run.run_golden(f);
        else run.run_file(f);
    } else if (fs::is_regular_file(root, ec) && root.extension() == ".jsonl") {
      run.run_golden(root);
    } else if (fs::is_regular_file(root, ec)) {
      run.run_file(root);
    } else {
      out << "FAIL " << cut_for_message(arg) << ": no such file or folder\n";
      ++run.failed;
      run.record({cut_for_message(arg), "(file)", 0, false, cut_for_message(arg) + ": no such file or folder", 0});
    }
  }
  if (run.passed + run.failed == 0) out << "no scenarios found\n";
  out << run.passed << " passed, " << run.failed << " failed\n";
  return run.failed == 0 && run.passed > 0 ? 0 : 1;
}

}  // namespace hr
