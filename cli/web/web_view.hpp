// web_view.hpp — a game state as the JSON the browser page of `houserules serve` draws (docs/serve.md, "The
// view"). Generic: it reads only the kernel's layout (zones, counters, tracks, figures, lattice boards) and the
// state, so every ruleset and house rule is drawn with no code of its own.
//
// The external-player document (observation_json, cli/play/observation_json.hpp) describes the same table for programs:
// both walk it with the same functions there (board_tiles, board_lying, mark_values, phase_name, attribute_json);
// this one differs in shape for the page: cards carry their id and attributes (the page colours them and a scene is
// keyed by id), zones and counters are lists in layout order, boards carry their geometry (vertices, faces, edges).
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

#include "rules.hpp"

namespace hr {
class ScriptedRules;
}

namespace hr {

/// The view of `state` for the page. `state` is either an observation (GameState::observation(seat): cards the
/// seat cannot see are null) or a full state (masked_for() == 0: every card shown, as in a replay). Shape:
///   {"seats", "to_move", "round", "rounds", "phase", "phase_name", "ply", "over", "viewer" (0 = everything),
///    "match_scores": [..], "round_scores": [[..], ..],
///    "zones": [{"name", "owner": {"kind": "nobody"|"seat"|"team", "index"}, "visibility", "count",
///               "cards": [card | null, ...]  (bottom to top; absent for a hidden zone: only "count")}],
///    "counters": [{"name", "per_seat", "supply", "seats": [..]}],
///    "tracks": [{"name", "values": [..], "tiles": [{"space", "card", "rotation"}], "figures": [{"space", "figure"}]}],
///    "figures": [{"figure", "kind", "owner", "where": "supply"|"track"|"board", "track", "space", "board",
///                 "site_kind", "site"}],
///    "boards": [{"name", "kind": "triangular"|"square", "width", "height",
///                "vertices": [[x, y], ..] (unit edge, y up), "faces": [[v0, v1, v2(, v3)], ..],
///                "tiles": [{"card", "anchor", "rotation" (when known), "faces": [..]}],
///                "face_features": [[face, feature], ..] (non-zero only),
///                "marks": [{"name", "kind": "face"|"edge"|"vertex", "values": [[site, value], ..]}],
///                "edges": [[v0, v1], ..] (only when an edge mark or edge-lying component needs them: else []),
///                "lying": [{"kind", "site", "cards": [card | null, ..]}],
///                "figures": [{"figure", "kind", "owner", "site_kind", "site"}]}]}
/// where card = {"id": component id (0-based), "name", "attrs": {key: value}}.
/// Throws nothing for a valid state (the layout and state are trusted).
nlohmann::json web_view_json(const Rules& rules, const GameState& state);

/// Adds to `view` (web_view_json of `state`) the scenes of the rules' `draw_component` hook (docs/writing-rules.md,
/// "Drawing a component"), for every component the view shows (cards, track tiles, board tiles, lying components;
/// not the unknown ones): "scenes": {"<component id>": {"aspect", "shapes": [...]}} (scene.hpp), only for those the
/// hook draws. When the hook fails or a scene breaks a rule, the view keeps no scene (the page draws everything
/// the generic way) and gets "draw_error": the message (naming the card and the shape); no further call is made.
/// Without the hook, nothing is added. When `out_of_time` (if given) returns true before a component is drawn (the
/// request's time budget of `serve` is spent), drawing stops the same way, with a draw_error saying so.
void add_scenes(nlohmann::json& view, ScriptedRules& rules, const GameState& state,
                const std::function<bool()>& out_of_time = {});

/// A component as the view shows it: {"id", "name", "attrs"}; null for kUnknownComponent.
nlohmann::json web_card_json(const Layout& layout, ComponentId c);

}  // namespace hr
