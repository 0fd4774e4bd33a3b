// layout.cpp — validation and look-up tables of the static game description.
#include "layout.hpp"

#include <algorithm>
#include <string>

namespace hr {

std::string_view to_string(Visibility v) {
  switch (v) {
    case Visibility::Hidden: return "hidden";
    case Visibility::Owner: return "owner";
    case Visibility::Public: return "public";
    case Visibility::Top: return "top";
    case Visibility::TopCard: return "top-card";
  }
  return "?";
}

Visibility visibility_from_string(std::string_view text) {
  if (text == "hidden") return Visibility::Hidden;
  if (text == "owner") return Visibility::Owner;
  if (text == "public") return Visibility::Public;
  if (text == "top") return Visibility::Top;
  if (text == "top-card") return Visibility::TopCard;
  throw std::invalid_argument("unknown visibility '" + std::string(text) +
                              "' (expected hidden, owner, public, top or top-card)");
}

std::string_view to_string(SiteKind kind) {
  switch (kind) {
    case SiteKind::Face: return "face";
    case SiteKind::Edge: return "edge";
    case SiteKind::Vertex: return "vertex";
    case SiteKind::Tile: return "tile";
    case SiteKind::None: break;
  }
  return "none";
}

SiteKind site_kind_from_string(std::string_view text) {
  if (text == "face") return SiteKind::Face;
  if (text == "edge") return SiteKind::Edge;
  if (text == "vertex") return SiteKind::Vertex;
  throw std::invalid_argument("unknown site kind '" + std::string(text) + "' (expected face, edge or vertex)");
}

int BoardDef::mark_index(std::string_view mark) const {
  for (std::size_t m = 0; m < marks.size(); ++m)
    if (marks[m].name == mark) return static_cast<int>(m);
  return -1;
}

const AttributeValue* Component::attribute(std::string_view key) const {
  for (const auto& [name, value] : attributes)
    if (name == key) return &value;
  return nullptr;
}

bool attribute_set(const AttributeValue* v) {
  if (v == nullptr) return false;
  if (const bool* b = std::get_if<bool>(v)) return *b;
  if (const std::int64_t* i = std::get_if<std::int64_t>(v)) return *i != 0;
  if (const double* d = std::get_if<double>(v)) return *d != 0;
  return !std::get<std::string>(*v).empty();
}

std::uint8_t Layout::owner_mask(const Owner& owner) const {
  switch (owner.kind) {
    case Owner::Kind::Nobody: return 0;
    case Owner::Kind::Seat: return static_cast<std::uint8_t>(1u << (owner.index - 1));
    case Owner::Kind::Team: {
      std::uint8_t mask = 0;
      for (int s = 1; s <= seats; ++s)
        if (team_of(s) == owner.index) mask |= static_cast<std::uint8_t>(1u << (s - 1));
      return mask;
    }
  }
  return 0;
}

void Layout::finalize() {
  if (seats < 1 || seats > kMaxSeats)
    throw LayoutError("a game has 1 to " + std::to_string(kMaxSeats) + " seats, not " + std::to_string(seats));
  if (!team_of_seat.empty() && static_cast<int>(team_of_seat.size()) != seats + 1)
    throw LayoutError("team_of_seat must have an entry for each seat");
  if (rounds < 1) throw LayoutError("a match has at least one round");
  if (components.size() >= kUnknownComponent) throw LayoutError("too many components");
  zone_by_name_.clear();
  box_ = kNoZone;
  for (std::size_t z = 0; z < zones.size(); ++z)
    if (zones[z].name == "box") box_ = static_cast<ZoneId>(z);
  if (box_ == kNoZone) {
    zones.push_back({"box", {}, Visibility::Public});
    box_ = static_cast<ZoneId>(zones.size() - 1);
  }
  if (zones.size() >= kNoZone) throw LayoutError("too many zones");
  // A game state holds a slot for every (zone, component) pair, and bots copy states: bound the product.
  if (zones.size() * components.size() > kMaxLayoutSlots)
    throw LayoutError(std::to_string(zones.size()) + " zones x " + std::to_string(components.size()) +
                      " components make " + std::to_string(zones.size() * components.size()) +
                      " slots in every game state; the limit is " + std::to_string(kMaxLayoutSlots) +
                      " (fewer zones or components)");
  grant_.assign(zones.size(), 0);
  reveals_top_.assign(zones.size(), 0);
  for (std::size_t z = 0; z < zones.size(); ++z) {
    const ZoneDef& def = zones[z];
    if (def.name.empty()) throw LayoutError("zone " + std::to_string(z + 1) + " has no name");
    if (!zone_by_name_.emplace(def.name, static_cast<ZoneId>(z)).second)
      throw LayoutError("zone '" + def.name + "' is declared twice");
    if (def.owner.kind == Owner::Kind::Seat && (def.owner.index < 1 || def.owner.index > seats))
      throw LayoutError("zone '" + def.name + "' is owned by seat " + std::to_string(def.owner.index) +
                        " but the game has " + std::to_string(seats) + " seats");
    if (def.owner.kind == Owner::Kind::Team && owner_mask(def.owner) == 0)
      throw LayoutError("zone '" + def.name + "' is owned by team " + std::to_string(def.owner.index) +
                        ", which has no seat");
    switch (def.visibility) {
      case Visibility::Hidden:
      case Visibility::TopCard: grant_[z] = 0; reveals_top_[z] = def.visibility == Visibility::TopCard; break;
      case Visibility::Owner: grant_[z] = owner_mask(def.owner); break;
      case Visibility::Public:
      case Visibility::Top: grant_[z] = all_seats_mask(); break;
    }
  }
  components_by_name_.clear();
  for (std::size_t c = 0; c < components.size(); ++c)
    components_by_name_[components[c].name].push_back(static_cast<ComponentId>(c));
  name_class_.resize(components.size());
  for (std::size_t c = 0; c < components.size(); ++c) name_class_[c] = components_by_name_[components[c].name].front();
  // Backs (the string attribute `back`; none: the common back), numbered in order of first appearance.
  std::vector<std::string_view> backs;
  back_index_.assign(components.size(), 0);
  for (std::size_t c = 0; c < components.size(); ++c) {
    const AttributeValue* a = components[c].attribute("back");
    const std::string_view b = a && std::holds_alternative<std::string>(*a) ? std::string_view(std::get<std::string>(*a)) : std::string_view();
    std::size_t k = 0;
    while (k < backs.size() && backs[k] != b) ++k;
    if (k == backs.size()) backs.push_back(b);
    back_index_[c] = static_cast<std::uint16_t>(k);
  }
  back_count_ = static_cast<int>(backs.size());
  counter_offset_.clear();
  counter_slots_ = 0;
  for (const auto& def : counters) {
    counter_offset_.push_back(counter_slots_);
    counter_slots_ += def.per_seat ? seats + 1 : 1;
  }
  track_offset_.clear();
  track_spaces_ = 0;
  if (tracks.size() > 255) throw LayoutError("too many tracks");
  for (const auto& def : tracks) {
    if (def.values.empty() || def.values.size() > 255)
      throw LayoutError("track '" + def.name + "' must have 1 to 255 spaces");
    track_offset_.push_back(track_spaces_);
    track_spaces_ += static_cast<int>(def.values.size());
  }
  for (const auto& figure : figures)
    if (figure.owner < 0 || figure.owner > seats)
      throw LayoutError("figure '" + figure.kind + "' is owned by seat " + std::to_string(figure.owner));
  finalize_boards();
}

void Layout::finalize_boards() {
  if (boards.size() > 255) throw LayoutError("too many boards");
  board_face_offset_.clear();
  mark_offset_.clear();
  board_faces_ = 0;
  mark_cells_ = 0;
  for (std::size_t b = 0; b < boards.size(); ++b) {
    BoardDef& board = boards[b];
    if (board.name.empty()) throw LayoutError("board " + std::to_string(b + 1) + " has no name");
    for (std::size_t o = 0; o < b; ++o)
      if (boards[o].name == board.name) throw LayoutError("board '" + board.name + "' is declared twice");
    if (board.lattice.vertices() <= 1) throw LayoutError("board '" + board.name + "' has no lattice");
    if (board.lattice.edges() > 65535 || board.lattice.faces() > 65535)
      throw LayoutError("board '" + board.name + "' is too large (at most 65535 faces and edges)");
    board_face_offset_.push_back(board_faces_);
    board_faces_ += board.lattice.faces();
    mark_offset_.emplace_back();
    for (std::size_t m = 0; m < board.marks.size(); ++m) {
      const MarkDef& mark = board.marks[m];
      if (board.mark_index(mark.name) != static_cast<int>(m))
        throw LayoutError("board '" + board.name + "': mark '" + mark.name + "' is declared twice");
      if (mark.kind != SiteKind::Face && mark.kind != SiteKind::Edge && mark.kind != SiteKind::Vertex)
        throw LayoutError("board '" + board.name + "': mark '" + mark.name + "' must be on faces, edges or vertices");
      mark_offset_.back().push_back(mark_cells_);
      mark_cells_ += sites(static_cast<int>(b), mark.kind);
    }
  }
  // shapes: the kind from the face suffixes, then the footprint per board and rotation
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    ShapeDef& shape = shapes[s];
    if (shape.faces.empty()) throw LayoutError("shape '" + shape.name + "' has no face");
    for (std::size_t o = 0; o < s; ++o)
      if (shapes[o].name == shape.name) throw LayoutError("shape '" + shape.name + "' is declared twice");
    const bool square = shape.faces[0].t < 0;
    for (FaceCoord& f : shape.faces) {
      if ((f.t < 0) != square)
        throw LayoutError("shape '" + shape.name + "' mixes triangular faces (4,7u) and square faces (4,7)");
      if (square) f.t = 0;
    }
    shape.kind = square ? LatticeKind::Square : LatticeKind::Triangular;
    for (std::size_t i = 0; i < shape.faces.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (shape.faces[i] == shape.faces[j]) throw LayoutError("shape '" + shape.name + "' lists a face twice");
  }
  for (BoardDef& board : boards) {
    board.footprints.assign(shapes.size(), {});
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      if (shapes[s].kind != board.lattice.kind()) continue;
      auto& per_rotation = board.footprints[s];
      per_rotation.resize(static_cast<std::size_t>(board.lattice.rotations()));
      for (int r = 0; r < board.lattice.rotations(); ++r)
        for (const FaceCoord& f : shapes[s].faces) per_rotation[static_cast<std::size_t>(r)].push_back(board.lattice.rotate(f, r));
    }
  }
  // tiles: features in their shape
  for (Component& c : components) {
    if (c.shape < 0) {
      if (!c.features.faces.empty() || !c.features.sides.empty() || !c.features.corners.empty())
        throw LayoutError("component '" + c.name + "' has features but no shape");
      continue;
    }
    if (c.shape >= static_cast<int>(shapes.size())) throw LayoutError("component '" + c.name + "' has no valid shape");
    const ShapeDef& shape = shapes[static_cast<std::size_t>(c.shape)];
    const Lattice geometry(shape.kind, 1, 1);
    auto in_shape = [&](FaceCoord f) { return std::find(shape.faces.begin(), shape.faces.end(), f) != shape.faces.end(); };
    auto fail = [&](const std::string& what) {
      throw LayoutError("tile '" + c.name + "': " + what + " is not part of its shape '" + shape.name + "'");
    };
    for (auto& [f, feature] : c.features.faces) {
      if ((f.t < 0) != (shape.kind == LatticeKind::Square)) fail("face " + Lattice::coord_text({f.q, f.r}) + (f.t < 0 ? "" : f.t ? "d" : "u"));
      if (f.t < 0) f.t = 0;
      if (!in_shape(f)) fail("face " + geometry.face_text(f));
    }
    for (const auto& [e, feature] : c.features.sides) {
      bool found = false;
      for (const FaceCoord& f : shape.faces) {
        const auto cs = geometry.corners(f);
        for (int i = 0; i < geometry.face_size() && !found; ++i)
          found = make_edge(cs[static_cast<std::size_t>(i)], cs[static_cast<std::size_t>((i + 1) % geometry.face_size())]) == e;
      }
      if (!found) fail("side " + Lattice::edge_text(e));
    }
    for (const auto& [v, feature] : c.features.corners) {
      bool found = false;
      for (const FaceCoord& f : shape.faces) {
        const auto cs = geometry.corners(f);
        found |= std::find(cs.begin(), cs.begin() + geometry.face_size(), v) != cs.begin() + geometry.face_size();
      }
      if (!found) fail("corner " + Lattice::coord_text(v));
    }
  }
}

int Layout::board_index(std::string_view name) const {
  for (std::size_t b = 0; b < boards.size(); ++b)
    if (boards[b].name == name) return static_cast<int>(b);
  throw LayoutError("unknown board '" + std::string(name) + "'");
}

int Layout::shape_index(std::string_view name) const {
  for (std::size_t s = 0; s < shapes.size(); ++s)
    if (shapes[s].name == name) return static_cast<int>(s);
  return -1;
}

int Layout::sites(int board, SiteKind kind) const {
  const Lattice& l = boards.at(static_cast<std::size_t>(board)).lattice;
  switch (kind) {
    case SiteKind::Face: return l.faces();
    case SiteKind::Edge: return l.edges();
    case SiteKind::Vertex: return l.vertices();
    default: return 0;
  }
}

const ZoneId* Layout::find_zone(std::string_view name) const {
  auto it = zone_by_name_.find(std::string(name));
  return it == zone_by_name_.end() ? nullptr : &it->second;
}

ZoneId Layout::zone_id(std::string_view name) const {
  if (const ZoneId* z = find_zone(name)) return *z;
  throw LayoutError("unknown zone '" + std::string(name) + "'");
}

int Layout::counter_index(std::string_view name) const {
  for (std::size_t i = 0; i < counters.size(); ++i)
    if (counters[i].name == name) return static_cast<int>(i);
  throw LayoutError("unknown counter '" + std::string(name) + "'");
}

int Layout::track_index(std::string_view name) const {
  for (std::size_t i = 0; i < tracks.size(); ++i)
    if (tracks[i].name == name) return static_cast<int>(i);
  throw LayoutError("unknown track '" + std::string(name) + "'");
}

const std::vector<ComponentId>& Layout::components_named(std::string_view name) const {
  static const std::vector<ComponentId> none;
  auto it = components_by_name_.find(std::string(name));
  return it == components_by_name_.end() ? none : it->second;
}

int Layout::counter_slot(int counter, int owner) const {
  if (counter < 0 || counter >= static_cast<int>(counters.size()))
    throw LayoutError("no counter number " + std::to_string(counter + 1));
  const CounterDef& def = counters[counter];
  if (owner == 0) return counter_offset_[counter];
  if (!def.per_seat)
    throw LayoutError("counter '" + def.name + "' belongs to the supply only, not to seat " + std::to_string(owner));
  if (owner < 0 || owner > seats)
    throw LayoutError("counter '" + def.name + "': no seat " + std::to_string(owner));
  return counter_offset_[counter] + owner;
}

}  // namespace hr
