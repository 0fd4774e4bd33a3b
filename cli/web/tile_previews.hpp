// tile_previews.hpp — where a legal action would lay a tile, for the page of `houserules serve` to draw before the
// player chooses (docs/serve.md, "Boards": hovering `lay 2,0 r1` shows the drawn tile, rotated, on the map).
#pragma once

#include <functional>
#include <span>

#include <nlohmann/json.hpp>

#include "rules.hpp"

namespace hr {

/// For the legal actions `legal` of `seat` in `state` (the real state; the seat is to move): the tiles each one
/// lays on a lattice board, found by applying it to a copy of `state` and comparing where the shaped components are.
/// Shape: {"<index in legal>": [{"card": web card, "board": 0-based, "anchor", "rotation", "faces": [face, ...],
/// "features": [[face, feature], ...]}], ...}, only for the actions that lay a tile. A tile is told only when `seat`
/// knew it before the action (it sees the card: the drawn tile) or it already lay on a board: the copy's hidden
/// cards (piles, pools) never reach the answer. An action whose rules fail is left out. At most `kMaxPreviewActions`
/// actions are tried (a long list of legal actions costs at most that many applications), and none once
/// `out_of_time` (when given) says the request's time budget is spent: slow rules cost the page its previews, not
/// the server a stalled request.
nlohmann::json tile_previews(Rules& rules, const GameState& state, int seat, std::span<const Action> legal,
                             const std::function<bool()>& out_of_time = {});

inline constexpr std::size_t kMaxPreviewActions = 200;

}  // namespace hr
