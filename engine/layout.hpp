// layout.hpp — the static description of a game: seats and teams, components and their attributes, zones,
// counters, tracks and figures. A ruleset declares it once per load; every GameState of that ruleset points
// at it and holds only the mutable part (which component is where, counter values, figure positions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "lattice.hpp"

namespace hr {

using ComponentId = std::uint16_t;  ///< index into Layout::components (0-based in C++, 1-based in Lua)
using ZoneId = std::uint16_t;       ///< index into Layout::zones
constexpr ComponentId kNoComponent = 0xFFFF;   ///< "no card here"
constexpr ComponentId kUnknownComponent = 0xFFFE;  ///< in an observation: a card this seat cannot see
constexpr ZoneId kNoZone = 0xFFFF;
constexpr int kMaxSeats = 8;  ///< seen-by masks are one byte
/// zones x components: a game state has a slot for each pair (2 bytes), copied with the state by bots.
constexpr std::size_t kMaxLayoutSlots = std::size_t{1} << 22;

/// Who may see the cards of a zone (DESIGN.md §2).
enum class Visibility : std::uint8_t {
  Hidden,  ///< nobody: only the count is public (a draw pile, a token bag)
  Owner,   ///< the owning seat, or every seat of the owning team (a hand)
  Public,  ///< everybody (an expedition column)
  Top,     ///< everybody saw each card arrive; the top one is what may be taken (a discard pile)
  TopCard, ///< as hidden, but everybody sees the card on top (a deck whose top card lies face up); each card
           ///< is revealed to all when it becomes the top one, and stays known once seen
};
std::string_view to_string(Visibility v);
/// Parses "hidden", "owner", "public", "top", "top-card"; throws std::invalid_argument otherwise.
Visibility visibility_from_string(std::string_view text);

/// Owner of a zone or counter: nobody (the supply), a seat 1..N, or a team 1..T.
struct Owner {
  enum class Kind : std::uint8_t { Nobody, Seat, Team } kind = Kind::Nobody;
  int index = 0;
  bool operator==(const Owner&) const = default;
};

using AttributeValue = std::variant<std::int64_t, double, bool, std::string>;

/// Per-tile features in the tile's local coordinates (docs/boards.md): small integers the ruleset defines.
/// Faces, sides (edges) and corners (vertices) not listed have feature 0.
struct TileFeatures {
  std::vector<std::pair<FaceCoord, std::uint16_t>> faces;
  std::vector<std::pair<EdgeCoord, std::uint16_t>> sides;
  std::vector<std::pair<Coord, std::uint16_t>> corners;
};

/// A card, tile or token: a name (its text form, e.g. "Y7"; copies share a name) and static attributes.
/// A tile for a lattice board also has a shape (an index into Layout::shapes) and features.
struct Component {
  std::string name;
  std::vector<std::pair<std::string, AttributeValue>> attributes;
  int shape = -1;         ///< index into Layout::shapes, or -1: not a board tile
  TileFeatures features{};  ///< local coordinates; only for a component with a shape
  /// The attribute `key`, or nullptr.
  const AttributeValue* attribute(std::string_view key) const;
};

struct ZoneDef {
  std::string name;
  Owner owner;
  Visibility visibility = Visibility::Hidden;
  /// What everybody knows of the components in this zone, by the rules: only components with this attribute (set,
  /// and not false, 0 or "") are ever put here ("" : any). A determinization refills the zone's unknown slots
  /// only with such components (GameState::determinized). Lost Valley: a seat's hidden goods are goods.
  std::string holds = {};
};

/// Whether attribute value `v` counts as set for ZoneDef::holds (not null, false, 0 or "").
bool attribute_set(const AttributeValue* v);

/// A named integer, one per seat (and one for the supply, owner 0) or one in the supply only.
struct CounterDef {
  std::string name;
  bool per_seat = false;
  std::int64_t initial = 0;
};

/// A linear path of spaces numbered 1..n, each with a value (the board game's expedition paths).
struct TrackDef {
  std::string name;
  std::vector<std::int64_t> values;  ///< values[i] is the value of space i+1
};

/// A pawn or marker: a kind ("explorer"), an owning seat (0 = nobody) and, in the state, a location.
struct FigureDef {
  std::string kind;
  int owner = 0;
};

/// What a site of a board is: where components lie, figures stand and marks are kept.
enum class SiteKind : std::uint8_t { None = 0, Face = 1, Edge = 2, Vertex = 3, Tile = 4 };
std::string_view to_string(SiteKind kind);
/// Parses "face", "edge" or "vertex"; throws std::invalid_argument otherwise.
SiteKind site_kind_from_string(std::string_view text);

/// A mark: one small integer (0..255) per face, per edge or per vertex of its board.
struct MarkDef {
  std::string name;
  SiteKind kind = SiteKind::Vertex;
};

/// A lattice board: its name, geometry and marks (docs/boards.md).
struct BoardDef {
  std::string name;
  Lattice lattice;
  std::vector<MarkDef> marks;
  /// footprints[shape][rotation]: the faces of the shape rotated about the anchor (relative to it); empty for a
  /// shape that does not fit this lattice kind (built by Layout::finalize).
  std::vector<std::vector<std::vector<FaceCoord>>> footprints;
  /// The mark named `name`, or -1.
  int mark_index(std::string_view name) const;
};

/// A tile footprint: faces in local coordinates around the origin vertex (0,0). The face type t is -1 when the
/// text had no type suffix (a square face), otherwise 0 = u, 1 = d.
struct ShapeDef {
  std::string name;
  std::vector<FaceCoord> faces;
  /// The lattice kind the faces are written for (set by Layout::finalize from the suffixes: "u"/"d" faces are
  /// triangular, plain "q,r" ones square; finalize then sets t = 0 for square faces).
  LatticeKind kind = LatticeKind::Triangular;
};

/// Raised when a layout or a state operation is given something that does not exist or is not allowed.
class LayoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The static part of a game. Build it, call finalize(), then never change it while states point at it.
class Layout {
 public:
  int seats = 2;
  std::vector<int> team_of_seat;  ///< index 1..seats; 0 = no team. Empty = no teams at all.
  int rounds = 1;                 ///< rounds in a match; the kernel scores each and adds them up
  std::vector<Component> components;
  std::vector<ZoneDef> zones;
  std::vector<CounterDef> counters;
  std::vector<TrackDef> tracks;
  std::vector<FigureDef> figures;
  std::vector<BoardDef> boards;
  std::vector<ShapeDef> shapes;
  /// Names of phases (declare{phases=...}): name -> the phase number GameState holds. Optional; phases stay
  /// numbers in the state, the names serve scenario files, `describe` and scripts.
  std::vector<std::pair<std::string, int>> phase_names;

  /// The phase numbered `name`, if declared.
  std::optional<int> phase_number(std::string_view name) const {
    for (const auto& [n, number] : phase_names)
      if (n == name) return number;
    return std::nullopt;
  }

  /// Checks the definitions, adds the `box` zone (where cards that leave the game go) if missing, and
  /// builds the look-up tables (board footprints per shape and rotation included). Throws LayoutError naming
  /// the first bad definition (duplicate zone name, owner seat out of range, too many seats or components,
  /// duplicate board or mark, a shape with no face, a tile feature outside its shape).
  void finalize();

  ZoneId zone_id(std::string_view name) const;  ///< throws LayoutError("unknown zone 'x'")
  const ZoneId* find_zone(std::string_view name) const;
  int counter_index(std::string_view name) const;  ///< throws LayoutError
  int track_index(std::string_view name) const;    ///< throws LayoutError
  /// The lowest id of the components named like c (copies share a name): equal for copies, else different.
  ComponentId name_class(ComponentId c) const { return name_class_[c]; }
  /// The back of component c (its string attribute `back`; none: the common back) as a number from 0 to
  /// back_count() - 1: equal for components that look alike face down (GameState::determinized).
  int back_index(ComponentId c) const { return back_index_[c]; }
  int back_count() const { return back_count_; }
  /// Every component id whose name is `name`, ascending (copies share names). Empty if none.
  const std::vector<ComponentId>& components_named(std::string_view name) const;
  ZoneId box() const { return box_; }
  /// Bit s-1 set for each seat that may see the cards of zone z by its visibility.
  std::uint8_t grant_mask(ZoneId z) const { return grant_[z]; }
  /// Whether zone z shows its top card to everybody (Visibility::TopCard).
  bool reveals_top(ZoneId z) const { return reveals_top_[z] != 0; }
  std::uint8_t all_seats_mask() const { return static_cast<std::uint8_t>((1u << seats) - 1); }
  /// Seats of `team` (team numbers 1..T), or {seat} when `owner` is a seat.
  std::uint8_t owner_mask(const Owner& owner) const;
  int team_of(int seat) const { return team_of_seat.empty() ? 0 : team_of_seat.at(seat); }
  /// Whether `seat` (1..seats) owns zone z: the zone is declared with owner = seat, or team = the seat's team
  /// (what "does this seat own / hold" reads: game:owns, game:holdings).
  bool owned_by(ZoneId z, int seat) const { return (owner_mask(zones[z].owner) >> (seat - 1)) & 1u; }
  /// Offset of counter c for owner o (0 = supply, 1..seats) in GameState's counter array.
  int counter_slot(int counter, int owner) const;
  int counter_slots() const { return counter_slots_; }
  /// Total number of spaces on all tracks, and the offset of track t's first space.
  int track_spaces() const { return track_spaces_; }
  int track_offset(int track) const { return track_offset_[track]; }
  int board_index(std::string_view name) const;    ///< throws LayoutError("unknown board 'x'")
  int shape_index(std::string_view name) const;    ///< -1 if none
  /// Total faces of all boards, and the offset of board b's first face in GameState's face table.
  int board_faces() const { return board_faces_; }
  int board_face_offset(int board) const { return board_face_offset_[static_cast<std::size_t>(board)]; }
  /// Total mark cells of all boards, and the offset of mark m of board b (one byte per site of its kind).
  int mark_cells() const { return mark_cells_; }
  int mark_offset(int board, int mark) const { return mark_offset_[static_cast<std::size_t>(board)][static_cast<std::size_t>(mark)]; }
  /// Number of sites of a kind on board b (faces, edges or vertices).
  int sites(int board, SiteKind kind) const;

 private:
  void finalize_boards();
  std::unordered_map<std::string, ZoneId> zone_by_name_;
  std::unordered_map<std::string, std::vector<ComponentId>> components_by_name_;
  std::vector<ComponentId> name_class_;
  std::vector<std::uint16_t> back_index_;
  int back_count_ = 0;
  std::vector<std::uint8_t> grant_;
  std::vector<std::uint8_t> reveals_top_;  // per zone: 1 for Visibility::TopCard
  std::vector<int> counter_offset_;
  int counter_slots_ = 0;
  std::vector<int> track_offset_;
  int track_spaces_ = 0;
  ZoneId box_ = kNoZone;
  std::vector<int> board_face_offset_;
  int board_faces_ = 0;
  std::vector<std::vector<int>> mark_offset_;
  int mark_cells_ = 0;
};

}  // namespace hr
