// observation_json.cpp — layout_json and observation_json (shapes in observation_json.hpp).
#include "observation_json.hpp"

#include <algorithm>

namespace hr {

using ojson = nlohmann::ordered_json;

namespace {

ojson owner_json(const Owner& owner) {
  switch (owner.kind) {
    case Owner::Kind::Seat: return ojson{{"seat", owner.index}};
    case Owner::Kind::Team: return ojson{{"team", owner.index}};
    case Owner::Kind::Nobody: break;
  }
  return nullptr;
}

/// A component's name, or null for one this seat cannot see (or no component).
ojson card_json(const Layout& layout, ComponentId c) {
  if (c == kUnknownComponent || c == kNoComponent || c >= layout.components.size()) return nullptr;
  return layout.components[c].name;
}

constexpr SiteKind kSiteKinds[] = {SiteKind::Face, SiteKind::Edge, SiteKind::Vertex};

}  // namespace

const std::string* phase_name(const Layout& layout, int phase) {
  for (const auto& [name, number] : layout.phase_names)
    if (number == phase) return &name;
  return nullptr;
}

std::vector<BoardTileView> board_tiles(const GameState& view, int board) {
  const Layout& layout = view.layout();
  std::vector<BoardTileView> tiles;
  std::vector<ComponentId> seen;
  for (int face = 0, n = layout.boards[static_cast<std::size_t>(board)].lattice.faces(); face < n; ++face) {
    const ComponentId c = view.tile_on(board, face);
    if (c == kNoComponent || std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
    seen.push_back(c);
    BoardTileView tile;
    tile.component = c;
    const Place p = c < layout.components.size() ? view.place_of(c) : Place{};
    if (p.site_kind == SiteKind::Tile && p.board == board) {
      tile.placed = true;
      tile.anchor = p.site;
      tile.rotation = p.rotation;
      tile.faces = view.placement_faces(c, board, p.site, p.rotation);
    } else {
      tile.faces = {face};
    }
    tiles.push_back(std::move(tile));
  }
  return tiles;
}

std::vector<LyingView> board_lying(const GameState& view, int board) {
  std::vector<LyingView> out;
  for (SiteKind kind : kSiteKinds)
    for (int id = 0, n = view.layout().sites(board, kind); id < n; ++id) {
      const auto here = view.lying(board, kind, id);
      if (!here.empty()) out.push_back({kind, id, here});
    }
  return out;
}

std::vector<std::array<int, 2>> mark_values(const GameState& view, int board, int mark) {
  std::vector<std::array<int, 2>> out;
  const SiteKind kind = view.layout().boards[static_cast<std::size_t>(board)].marks[static_cast<std::size_t>(mark)].kind;
  for (int id = 0, n = view.layout().sites(board, kind); id < n; ++id)
    if (const int value = view.mark(board, mark, id)) out.push_back({id, value});
  return out;
}

ojson layout_json(const Layout& layout) {
  ojson out;
  out["seats"] = layout.seats;
  out["rounds"] = layout.rounds;
  ojson components = ojson::object();
  for (const Component& c : layout.components) {
    if (components.contains(c.name)) continue;  // copies share a name and their attributes
    ojson attributes = ojson::object();
    for (const auto& [key, value] : c.attributes) attributes[key] = attribute_json<ojson>(value);
    components[c.name] = std::move(attributes);
  }
  out["components"] = std::move(components);
  ojson zones = ojson::array();
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    if (static_cast<ZoneId>(z) == layout.box()) continue;
    const ZoneDef& def = layout.zones[z];
    zones.push_back({{"name", def.name}, {"owner", owner_json(def.owner)}, {"visibility", std::string(to_string(def.visibility))}});
  }
  out["zones"] = std::move(zones);
  ojson counters = ojson::array();
  for (const CounterDef& def : layout.counters) counters.push_back({{"name", def.name}, {"per_seat", def.per_seat}});
  out["counters"] = std::move(counters);
  ojson tracks = ojson::array();
  for (const TrackDef& def : layout.tracks) tracks.push_back({{"name", def.name}, {"values", def.values}});
  out["tracks"] = std::move(tracks);
  ojson figures = ojson::array();
  for (const FigureDef& def : layout.figures) figures.push_back({{"kind", def.kind}, {"owner", def.owner}});
  out["figures"] = std::move(figures);
  ojson boards = ojson::array();
  for (const BoardDef& def : layout.boards) {
    ojson marks = ojson::array();
    for (const MarkDef& m : def.marks) marks.push_back({{"name", m.name}, {"kind", std::string(to_string(m.kind))}});
    boards.push_back({{"name", def.name},
                      {"kind", std::string(to_string(def.lattice.kind()))},
                      {"width", def.lattice.width()},
                      {"height", def.lattice.height()},
                      {"faces", def.lattice.faces()},
                      {"edges", def.lattice.edges()},
                      {"vertices", def.lattice.vertices()},
                      {"marks", std::move(marks)}});
  }
  out["boards"] = std::move(boards);
  ojson phases = ojson::object();
  for (const auto& [name, number] : layout.phase_names)  // a range's name (an entry per number): its first
    if (!phases.contains(name)) phases[name] = number;
  out["phases"] = std::move(phases);
  return out;
}

ojson observation_json(const GameState& view, int seat) {
  const Layout& layout = view.layout();
  ojson out;
  out["seat"] = seat;
  out["to_move"] = view.to_move();
  out["round"] = view.round();
  out["rounds"] = layout.rounds;
  out["phase"] = view.phase();
  if (const std::string* name = phase_name(layout, view.phase())) out["phase_name"] = *name;
  out["ply"] = view.ply();
  out["over"] = view.over();
  out["match_scores"] = view.match_scores();
  out["round_scores"] = view.round_scores();

  ojson zones = ojson::object();
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    if (static_cast<ZoneId>(z) == layout.box()) continue;
    const ZoneDef& def = layout.zones[z];
    ojson cards = ojson::array();
    for (ComponentId c : view.cards(static_cast<ZoneId>(z))) cards.push_back(card_json(layout, c));
    zones[def.name] = {{"owner", owner_json(def.owner)},
                       {"visibility", std::string(to_string(def.visibility))},
                       {"count", cards.size()},
                       {"cards", std::move(cards)}};
  }
  out["zones"] = std::move(zones);

  ojson counters = ojson::object();
  for (std::size_t i = 0; i < layout.counters.size(); ++i) {
    const CounterDef& def = layout.counters[i];
    ojson value = {{"supply", view.counter(static_cast<int>(i), 0)}};
    if (def.per_seat) {
      ojson seats = ojson::array();
      for (int s = 1; s <= layout.seats; ++s) seats.push_back(view.counter(static_cast<int>(i), s));
      value["seats"] = std::move(seats);
    }
    counters[def.name] = std::move(value);
  }
  out["counters"] = std::move(counters);

  ojson tracks = ojson::array();
  for (std::size_t t = 0; t < layout.tracks.size(); ++t) {
    ojson tiles = ojson::array();
    for (std::size_t space = 1; space <= layout.tracks[t].values.size(); ++space) {
      const TilePlacement tile = view.tile_at(static_cast<int>(t), static_cast<int>(space));
      if (tile.component != kNoComponent)
        tiles.push_back({{"space", space}, {"tile", card_json(layout, tile.component)}, {"rotation", tile.rotation}});
    }
    tracks.push_back({{"name", layout.tracks[t].name}, {"tiles", std::move(tiles)}});
  }
  out["tracks"] = std::move(tracks);

  ojson figures = ojson::array();
  for (std::size_t f = 0; f < layout.figures.size(); ++f) {
    const FigurePlace at = view.figure_place(static_cast<int>(f));
    ojson where = nullptr;
    if (at.on_board())
      where = {{"board", layout.boards[static_cast<std::size_t>(at.board)].name},
               {std::string(to_string(at.kind)), at.site}};
    else if (at.track >= 0)
      where = {{"track", layout.tracks[static_cast<std::size_t>(at.track)].name}, {"space", at.space}};
    figures.push_back({{"kind", layout.figures[f].kind}, {"owner", layout.figures[f].owner}, {"at", std::move(where)}});
  }
  out["figures"] = std::move(figures);

  ojson boards = ojson::array();
  for (std::size_t b = 0; b < layout.boards.size(); ++b) {
    const BoardDef& def = layout.boards[b];
    const int board = static_cast<int>(b);
    ojson tiles = ojson::array();
    for (const BoardTileView& t : board_tiles(view, board)) {
      ojson tile = {{"tile", card_json(layout, t.component)}};
      if (t.placed) {
        tile["anchor"] = t.anchor;
        tile["rotation"] = t.rotation;
      }
      tile["faces"] = t.faces;
      tiles.push_back(std::move(tile));
    }
    ojson lying = ojson::array();
    for (const LyingView& l : board_lying(view, board)) {
      ojson components = ojson::array();
      for (ComponentId c : l.cards) components.push_back(card_json(layout, c));
      lying.push_back({{std::string(to_string(l.kind)), l.site}, {"components", std::move(components)}});
    }
    ojson marks = ojson::object();
    for (std::size_t m = 0; m < def.marks.size(); ++m) {
      ojson set = ojson::array();
      for (const auto& [site, value] : mark_values(view, board, static_cast<int>(m))) set.push_back({site, value});
      marks[def.marks[m].name] = std::move(set);
    }
    boards.push_back({{"name", def.name}, {"tiles", std::move(tiles)}, {"lying", std::move(lying)}, {"marks", std::move(marks)}});
  }
  out["boards"] = std::move(boards);
  return out;
}

}  // namespace hr
