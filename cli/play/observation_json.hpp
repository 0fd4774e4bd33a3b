// observation_json.hpp — a game as JSON for programs: the static layout once (components and their
// attributes, zones, counters, tracks, figures, boards) and an observation (what one seat sees) at any moment.
// One function per shape, for every ruleset, so that every program that shows or plays a game (the external
// player protocol, docs/external-players.md; a web table) reads the same document. Shapes are in the docs.
#pragma once

#include <array>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "state.hpp"

namespace hr {

// ---- the walks over a game's table that both documents share (this one and web_view_json, cli/web/web_view.hpp) ----

/// An attribute value as JSON: a number, a boolean or a string (Json: nlohmann::json or ordered_json).
template <class Json>
Json attribute_json(const AttributeValue& value) {
  return std::visit([](const auto& v) { return Json(v); }, value);
}

/// The declared name of `phase` (declare{phases=...}), or nullptr when it has none.
const std::string* phase_name(const Layout& layout, int phase);

/// A tile on a lattice board as `view` shows it: the component, and where it lies (anchor face and rotation,
/// `placed`) when the state knows; else `faces` is the one face it was found on.
struct BoardTileView {
  ComponentId component = kNoComponent;
  bool placed = false;
  int anchor = 0;
  int rotation = 0;
  std::vector<std::int32_t> faces;
};
/// The tiles on board `board` of `view`, each once, in the order of the first face they cover.
std::vector<BoardTileView> board_tiles(const GameState& view, int board);

/// The components lying on one site of a lattice board, bottom to top (kUnknownComponent for one `view` hides).
struct LyingView {
  SiteKind kind = SiteKind::Face;
  int site = 0;
  std::span<const ComponentId> cards;
};
/// Every site of board `board` with components lying on it: faces, then edges, then vertices, each by site id.
std::vector<LyingView> board_lying(const GameState& view, int board);

/// The non-zero values of mark `mark` of board `board`: [site id, value], by site id.
std::vector<std::array<int, 2>> mark_values(const GameState& view, int board, int mark);

// ---- the documents -----------------------------------------------------------------------------------------------

/// The static description of a game, in layout order:
///   {"seats": 2, "rounds": 3,
///    "components": {"Y7": {"colour": "yellow", "value": 7}, ...},   // by name; copies share a name
///    "zones": [{"name": "hand.1", "owner": {"seat": 1}, "visibility": "owner"}, ...],  // box left out
///    "counters": [{"name": "coins", "per_seat": true}],
///    "tracks": [{"name": "path.yellow", "values": [0, 0, 1, ...]}],
///    "figures": [{"kind": "explorer", "owner": 1}],       // owner 0: nobody
///    "boards": [{"name": "valley", "kind": "triangular", "width": 9, "height": 9,
///                "faces": 162, "edges": ..., "vertices": 100, "marks": [{"name": "camp", "kind": "vertex"}]}],
///    "phases": {"bidding": 1, ...}}                        // named phases only
/// "owner" is {"seat": n}, {"team": n} or null (nobody). Attribute values are numbers, booleans or strings.
nlohmann::ordered_json layout_json(const Layout& layout);

/// What `observation` (a state masked for seat `seat` by GameState::observation; a full state with seat 0)
/// shows, with every card it cannot see as null:
///   {"seat": 2, "to_move": 1, "round": 1, "rounds": 3, "phase": 0, "phase_name": "play",  // name if declared
///    "ply": 12, "over": false, "match_scores": [0, 0], "round_scores": [[..], ..],
///    "zones": {"hand.2": {"owner": {"seat": 2}, "visibility": "owner", "count": 8, "cards": ["Y7", ...]},
///              "deck": {"owner": null, "visibility": "hidden", "count": 44, "cards": [null, ...]}, ...},
///    "counters": {"coins": {"supply": 0, "seats": [3, 5]}, "pot": {"supply": 12}},
///    "tracks": [{"name": "path.yellow", "tiles": [{"space": 3, "tile": "T1", "rotation": 0}]}],
///    "figures": [{"kind": "explorer", "owner": 1, "at": null | {"track": "path.yellow", "space": 4}
///                                                      | {"board": "valley", "vertex": 17} | {"board": .., "face": 3}}],
///    "boards": [{"name": "valley",
///                "tiles": [{"tile": "R3", "anchor": 40, "rotation": 2, "faces": [12, 13]}],
///                "lying": [{"face": 3, "components": ["gold", null]}],     // also "edge"/"vertex" sites
///                "marks": {"camp": [[17, 1], [40, 2]]}}]}                   // [site id, value], non-zero only
/// Zones are in layout order, cards bottom (index 0) to top; the box (cards out of the game) is left out.
/// Seats are 1-based everywhere; list positions are seat - 1. Board ids are the kernel's 0-based site ids
/// (docs/boards.md). Tracks without tiles, boards with nothing on them still appear (empty lists).
nlohmann::ordered_json observation_json(const GameState& observation, int seat);

}  // namespace hr
