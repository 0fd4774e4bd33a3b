// tile_previews.cpp — where a legal action would lay a tile (see tile_previews.hpp).
#include "tile_previews.hpp"

#include <string>

#include "web_view.hpp"

namespace hr {

using nlohmann::json;

json tile_previews(Rules& rules, const GameState& state, int seat, std::span<const Action> legal,
                   const std::function<bool()>& out_of_time) {
  json out = json::object();
  const Layout& layout = rules.layout();
  if (layout.boards.empty() || seat < 1) return out;
  const std::uint8_t bit = static_cast<std::uint8_t>(1u << (seat - 1));
  for (std::size_t i = 0; i < legal.size() && i < kMaxPreviewActions; ++i) {
    if (out_of_time && out_of_time()) break;
    GameState after = state;
    try {
      rules.apply(after, legal[i]);
    } catch (const std::exception&) {
      continue;  // the page shows the rules' error when the action is played
    }
    json tiles = json::array();
    for (std::size_t c = 0; c < layout.components.size(); ++c) {
      const auto id = static_cast<ComponentId>(c);
      if (layout.components[c].shape < 0) continue;
      const Place now = after.place_of(id), was = state.place_of(id);
      if (now.site_kind != SiteKind::Tile || now == was) continue;
      if (!(state.seen_by(id) & bit) && was.site_kind != SiteKind::Tile) continue;  // a card the seat did not know
      json faces = json::array(), features = json::array();
      for (const std::int32_t f : after.placement_faces(id, now.board, now.site, now.rotation)) {
        if (f < 0) continue;
        faces.push_back(f);
        if (const std::uint16_t feature = after.face_feature(now.board, f)) features.push_back({f, feature});
      }
      tiles.push_back({{"card", web_card_json(layout, id)}, {"board", now.board}, {"anchor", now.site},
                       {"rotation", now.rotation}, {"faces", std::move(faces)}, {"features", std::move(features)}});
    }
    if (!tiles.empty()) out[std::to_string(i)] = std::move(tiles);
  }
  return out;
}

}  // namespace hr
