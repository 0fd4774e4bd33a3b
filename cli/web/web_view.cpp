// web_view.cpp — the JSON view of a game state for the page of `houserules serve` (see web_view.hpp).
#include "web_view.hpp"

#include <set>
#include <string>

#include "play/play.hpp"
#include "scripted_rules.hpp"

namespace hr {

using nlohmann::json;

namespace {

std::string_view owner_kind_text(Owner::Kind kind) {
  switch (kind) {
    case Owner::Kind::Seat: return "seat";
    case Owner::Kind::Team: return "team";
    default: return "nobody";
  }
}

/// The cards of `cards` as the view shows them. In a full state (masked_for() == 0: a replay, a table of bots) a card
/// no seat knows (seen_by 0, not a shown top: a face-down pile, a token lying face down) gets "face_down": true, so
/// that the page shows it as a back unless its viewer asks to reveal everything.
json cards_json(const Layout& layout, const GameState& state, std::span<const ComponentId> cards) {
  json out = json::array();
  for (const ComponentId c : cards) {
    json card = web_card_json(layout, c);
    if (card.is_object() && state.masked_for() == 0 && state.seen_by(c) == 0 && !state.top_shown(c))
      card["face_down"] = true;
    out.push_back(std::move(card));
  }
  return out;
}

json zones_json(const Layout& layout, const GameState& state) {
  json zones = json::array();
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    const ZoneDef& def = layout.zones[z];
    const auto id = static_cast<ZoneId>(z);
    if (id == layout.box()) continue;  // the box holds what left the game: not on the table
    json zone = {{"name", def.name},
                 {"owner", {{"kind", owner_kind_text(def.owner.kind)}, {"index", def.owner.index}}},
                 {"visibility", to_string(def.visibility)},
                 {"count", state.size(id)}};
    // A hidden zone shows only its count, unless this is a full state (a replay shows everything) or the
    // viewer knows some of its cards: then the known ones are drawn, the rest as backs.
    bool any_known = state.masked_for() == 0;
    for (const ComponentId c : state.cards(id)) any_known = any_known || c != kUnknownComponent;
    if (def.visibility != Visibility::Hidden || any_known) zone["cards"] = cards_json(layout, state, state.cards(id));
    zones.push_back(std::move(zone));
  }
  return zones;
}

json counters_json(const Layout& layout, const GameState& state) {
  json counters = json::array();
  for (std::size_t i = 0; i < layout.counters.size(); ++i) {
    const CounterDef& def = layout.counters[i];
    const int c = static_cast<int>(i);
    json seats = json::array();
    if (def.per_seat)
      for (int s = 1; s <= layout.seats; ++s) seats.push_back(state.counter(c, s));
    counters.push_back({{"name", def.name}, {"per_seat", def.per_seat}, {"supply", state.counter(c, 0)}, {"seats", seats}});
  }
  return counters;
}

json tracks_json(const Layout& layout, const GameState& state) {
  json tracks = json::array();
  for (std::size_t t = 0; t < layout.tracks.size(); ++t) {
    const TrackDef& def = layout.tracks[t];
    json tiles = json::array(), figures = json::array();
    for (std::size_t s = 1; s <= def.values.size(); ++s) {
      const TilePlacement tile = state.tile_at(static_cast<int>(t), static_cast<int>(s));
      if (tile.component != kNoComponent)
        tiles.push_back({{"space", s}, {"card", web_card_json(layout, tile.component)}, {"rotation", tile.rotation}});
      for (const int f : state.figures_at(static_cast<int>(t), static_cast<int>(s)))
        figures.push_back({{"space", s}, {"figure", f}});
    }
    tracks.push_back({{"name", def.name}, {"values", def.values}, {"tiles", tiles}, {"figures", figures}});
  }
  return tracks;
}

json figures_json(const Layout& layout, const GameState& state) {
  json figures = json::array();
  for (std::size_t f = 0; f < layout.figures.size(); ++f) {
    const FigurePlace p = state.figure_place(static_cast<int>(f));
    json fig = {{"figure", f}, {"kind", layout.figures[f].kind}, {"owner", layout.figures[f].owner}};
    if (p.on_board()) {
      fig.update({{"where", "board"}, {"board", p.board}, {"site_kind", to_string(p.kind)}, {"site", p.site}});
    } else if (p.track >= 0) {
      fig.update({{"where", "track"}, {"track", p.track}, {"space", p.space}});
    } else {
      fig["where"] = "supply";
    }
    figures.push_back(std::move(fig));
  }
  return figures;
}

json board_json(const Layout& layout, const GameState& state, int b) {
  const BoardDef& def = layout.boards[static_cast<std::size_t>(b)];
  const Lattice& lat = def.lattice;
  json vertices = json::array(), faces = json::array(), tiles = json::array(), features = json::array();
  for (int v = 0; v < lat.vertices(); ++v) {
    const auto [x, y] = lat.vertex_xy(v);
    vertices.push_back({x, y});
  }
  for (int f = 0; f < lat.faces(); ++f) {
    json corners = json::array();
    for (const std::int32_t v : lat.face_vertices(f)) corners.push_back(v);
    faces.push_back(std::move(corners));
    if (const std::uint16_t feature = state.face_feature(b, f)) features.push_back({f, feature});
  }
  for (const BoardTileView& t : board_tiles(state, b)) {
    json tile = {{"card", web_card_json(layout, t.component)}, {"faces", t.faces}};
    if (t.placed) tile.update({{"anchor", t.anchor}, {"rotation", t.rotation}});
    tiles.push_back(std::move(tile));
  }
  bool need_edges = false;
  json marks = json::array();
  for (std::size_t m = 0; m < def.marks.size(); ++m) {
    const MarkDef& mark = def.marks[m];
    json values = json::array();
    for (const auto& [site, value] : mark_values(state, b, static_cast<int>(m))) values.push_back({site, value});
    need_edges = need_edges || (mark.kind == SiteKind::Edge && !values.empty());
    marks.push_back({{"name", mark.name}, {"kind", to_string(mark.kind)}, {"values", values}});
  }
  json lying = json::array();
  for (const LyingView& l : board_lying(state, b)) {
    need_edges = need_edges || l.kind == SiteKind::Edge;
    lying.push_back({{"kind", to_string(l.kind)}, {"site", l.site}, {"cards", cards_json(layout, state, l.cards)}});
  }
  json edges = json::array();
  if (need_edges)
    for (int e = 0; e < lat.edges(); ++e) edges.push_back({lat.edge_vertices(e)[0], lat.edge_vertices(e)[1]});
  json figures = json::array();
  for (std::size_t f = 0; f < layout.figures.size(); ++f) {
    const FigurePlace p = state.figure_place(static_cast<int>(f));
    if (p.board != b) continue;
    figures.push_back({{"figure", f}, {"kind", layout.figures[f].kind}, {"owner", layout.figures[f].owner},
                       {"site_kind", to_string(p.kind)}, {"site", p.site}});
  }
  return {{"name", def.name},   {"kind", to_string(lat.kind())}, {"width", lat.width()},
          {"height", lat.height()}, {"vertices", vertices},        {"faces", faces},
          {"tiles", tiles},     {"face_features", features},     {"marks", marks},
          {"edges", edges},     {"lying", lying},                {"figures", figures}};
}

}  // namespace

json web_card_json(const Layout& layout, ComponentId c) {
  if (c == kUnknownComponent || c >= layout.components.size()) return nullptr;
  const Component& comp = layout.components[c];
  json attrs = json::object();
  for (const auto& [key, value] : comp.attributes) attrs[key] = attribute_json<json>(value);
  return {{"id", c}, {"name", comp.name}, {"attrs", attrs}};
}

json web_view_json(const Rules& rules, const GameState& state) {
  const Layout& layout = rules.layout();
  const std::string* phase = phase_name(layout, state.phase());
  json boards = json::array();
  for (std::size_t b = 0; b < layout.boards.size(); ++b) boards.push_back(board_json(layout, state, static_cast<int>(b)));
  return {{"seats", layout.seats},
          {"to_move", state.to_move()},
          {"round", state.round()},
          {"rounds", layout.rounds},
          {"phase", state.phase()},
          {"phase_name", phase ? *phase : std::string()},
          {"ply", state.ply()},
          {"over", state.over()},
          {"viewer", state.masked_for()},
          {"match_scores", state.match_scores()},
          {"round_scores", state.round_scores()},
          {"zones", zones_json(layout, state)},
          {"counters", counters_json(layout, state)},
          {"tracks", tracks_json(layout, state)},
          {"figures", figures_json(layout, state)},
          {"boards", boards}};
}

namespace {

/// The component ids of the cards `view` shows (null cards left out), each once, in ascending order.
std::set<ComponentId> shown_components(const json& view) {
  std::set<ComponentId> ids;
  const auto add = [&](const json& card) {
    if (card.is_object()) ids.insert(card["id"].get<ComponentId>());
  };
  for (const json& zone : view["zones"])
    if (zone.contains("cards"))
      for (const json& card : zone["cards"]) add(card);
  for (const json& track : view["tracks"])
    for (const json& tile : track["tiles"]) add(tile["card"]);
  for (const json& board : view["boards"]) {
    for (const json& tile : board["tiles"]) add(tile["card"]);
    for (const json& lying : board["lying"])
      for (const json& card : lying["cards"]) add(card);
  }
  return ids;
}

}  // namespace

void add_scenes(json& view, ScriptedRules& rules, const GameState& state, const std::function<bool()>& out_of_time) {
  if (!rules.has_draw_component()) return;
  json scenes = json::object();
  try {
    for (const ComponentId c : shown_components(view)) {
      if (out_of_time && out_of_time()) {
        view["draw_error"] = "hook 'draw_component': drawing stopped, the server's time budget for one request ran "
                             "out (the rules' drawing hook is too slow)";
        return;
      }
      if (const auto scene = rules.draw_component(state, c)) scenes[std::to_string(c)] = json::parse(*scene);
    }
  } catch (const std::exception& e) {
    view["draw_error"] = e.what();
    return;
  }
  view["scenes"] = std::move(scenes);
}

}  // namespace hr
