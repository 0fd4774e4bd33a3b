// layout.cpp — validation and look-up tables of the static game description.
#include "layout.hpp"

#include <string>

namespace hr {

std::string_view to_string(Visibility v) {
  switch (v) {
    case Visibility::Hidden: return "hidden";
    case Visibility::Owner: return "owner";
    case Visibility::Public: return "public";
    case Visibility::Top: return "top";
  }
  return "?";
}

Visibility visibility_from_string(std::string_view text) {
  if (text == "hidden") return Visibility::Hidden;
  if (text == "owner") return Visibility::Owner;
  if (text == "public") return Visibility::Public;
  if (text == "top") return Visibility::Top;
  throw std::invalid_argument("unknown visibility '" + std::string(text) +
                              "' (expected hidden, owner, public or top)");
}

const AttributeValue* Component::attribute(std::string_view key) const {
  for (const auto& [name, value] : attributes)
    if (name == key) return &value;
  return nullptr;
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
      case Visibility::Hidden: grant_[z] = 0; break;
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
