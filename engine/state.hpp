// state.hpp — the mutable state of one game: where every component is, counters, figures, tiles, whose
// turn it is, phase, round, the RNG, and what each seat has seen.
//
// Invariants (checked by check_invariants()):
//  * every component is in exactly one place: one slot of one zone, or one space of one track;
//  * place_of(c) agrees with the zone slots and track spaces; a zone's slots past its top are empty;
//  * seen_by(c) has the bit of every seat the card's current zone grants sight to.
// A GameState is a handful of flat vectors: copying it is a few memcpy's, so search bots can copy freely.
// A failed rules hook is rolled back by the state's undo log (begin_undo/rollback): while it records, every
// change first saves what it overwrites (the bytes, or one record of the values a move between zones changes),
// so undoing an action costs what the action changed, not a copy.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "layout.hpp"
#include "rng.hpp"

namespace hr {

/// Where a component is: in a zone (zone != kNoZone); on space `space` (1-based) of track `track`; lying on a
/// site of board `board` (site_kind Face, Edge or Vertex, id `site`); or placed as a tile on board `board`
/// (site_kind Tile, anchor vertex `site`, `rotation`). Place{} in an observation: unknown.
struct Place {
  ZoneId zone = kNoZone;
  std::uint8_t track = 0;
  std::uint8_t space = 0;
  std::uint8_t board = 0;
  SiteKind site_kind = SiteKind::None;
  std::uint8_t rotation = 0;
  std::uint16_t site = 0;
  bool in_zone() const { return zone != kNoZone; }
  bool on_board() const { return site_kind != SiteKind::None; }
  bool lying() const { return site_kind == SiteKind::Face || site_kind == SiteKind::Edge || site_kind == SiteKind::Vertex; }
  bool operator==(const Place&) const = default;
};

/// Where a figure stands: nowhere yet (track == -1 and board == -1, in its owner's supply), on a track space
/// (1-based), or on a face or vertex of a board (board >= 0).
struct FigurePlace {
  std::int16_t track = -1;
  std::int16_t space = 0;
  std::int16_t board = -1;
  SiteKind kind = SiteKind::None;
  std::uint16_t site = 0;
  bool on_board() const { return board >= 0; }
  bool operator==(const FigurePlace&) const = default;
};

/// A filter on board edges for the movement queries (docs/boards.md): an edge passes when every given test
/// passes. A zero field does not constrain. `class_*` test edge_class, `feature_*` test edge_feature, `mark_*`
/// test the value of edge mark `mark` (an index into the board's marks, -1 for none). `through_*` test the
/// value of vertex mark `through` at each reached vertex: a move goes on from it only when they pass (the start
/// always; a vertex that fails can still be reached).
struct EdgeMask {
  std::uint8_t class_any = 0, class_none = 0;
  std::uint16_t feature_any = 0, feature_none = 0;
  int mark = -1;
  std::uint8_t mark_any = 0, mark_none = 0;
  int through = -1;
  std::uint8_t through_any = 0, through_none = 0;
};

/// Kernel edge classes (GameState::edge_class), from the tiles alone.
enum EdgeClass : std::uint8_t {
  kEdgeInner = 1,     ///< both faces under the same tile
  kEdgeCovered2 = 2,  ///< both faces covered, by two tiles
  kEdgeCovered1 = 4,  ///< exactly one face covered: the border of the placed area
  kEdgeOffboard = 8,  ///< on the board's rim (one face)
};

/// A tile lying on a track space: the component and its rotation (0..5, in steps the game defines).
struct TilePlacement {
  ComponentId component = kNoComponent;
  std::uint8_t rotation = 0;
  bool operator==(const TilePlacement&) const = default;
};

class GameState {
 public:
  GameState() = default;
  /// A fresh state: every component in the box, counters at their initial values, figures off the board,
  /// seat 1 to move, round 1, phase 0, RNG seeded with `seed`.
  GameState(const Layout& layout, std::uint64_t seed);

  const Layout& layout() const { return *layout_; }

  // ---- zones ---------------------------------------------------------------------------------------
  int size(ZoneId z) const { return zone_size_[z]; }
  /// The cards of zone z, bottom (index 0) to top.
  std::span<const ComponentId> cards(ZoneId z) const {
    return {slots_.data() + static_cast<std::size_t>(z) * capacity_, zone_size_[z]};
  }
  /// The top card of z, or kNoComponent if z is empty.
  ComponentId top(ZoneId z) const { return zone_size_[z] ? cards(z).back() : kNoComponent; }
  Place place_of(ComponentId c) const { return place_[c]; }

  /// Moves component c from wherever it is to zone `to`, on top, or at `index` (0 = bottom) when given.
  /// Throws LayoutError if c or `to` does not exist or index is past the top.
  void move(ComponentId c, ZoneId to, int index = -1);
  /// Moves the top card of `from` onto `to` and returns it; kNoComponent (and no change) if `from` is empty.
  ComponentId move_top(ZoneId from, ZoneId to);
  /// Puts c at the bottom of zone `to` (a deck's "put under").
  void put_under(ComponentId c, ZoneId to) { move(c, to, 0); }
  /// Deals `count` cards from the top of `from` to each zone of `to` in turn, one at a time (round-robin,
  /// as players deal). Stops early when `from` runs out; returns the number of cards dealt.
  int deal(ZoneId from, std::span<const ZoneId> to, int count);
  /// Moves every component (cards in zones, tiles on tracks) into zone `to`, in component-number order, bottom
  /// to top: the state is the same as after `move(c, to)` for c = 0, 1, ... in turn, at the cost of one pass.
  /// The usual start of a round: all the cards back into the deck, before the shuffle. Throws LayoutError if
  /// `to` does not exist or the state is an observation.
  void gather(ZoneId to);
  /// Shuffles zone z with the game's RNG. Cards in a hidden zone are no longer known to anyone after it
  /// (seen-by is reset to the zone's own grant).
  void shuffle(ZoneId z);
  /// Bitmask of the seats (bit s-1) that know the identity of component c where it is now.
  std::uint8_t seen_by(ComponentId c) const { return seen_by_[c]; }
  /// Whether seat `seat` (1..kMaxSeats) knows where card c is and what it is: its zone granted that seat sight of
  /// it, or it lies on top of a top-card zone (everybody sees it). What game:knows answers.
  bool knows(int seat, ComponentId c) const { return ((seen_by_[c] >> (seat - 1)) & 1) || top_shown(c); }
  /// Whether c is the top card of a zone that shows its top card to everybody (Visibility::TopCard).
  bool top_shown(ComponentId c) const {
    const Place p = place_[c];
    return p.in_zone() && layout_->reveals_top(p.zone) && zone_size_[p.zone] > 0 &&
           slots_[static_cast<std::size_t>(p.zone) * capacity_ + zone_size_[p.zone] - 1u] == c;
  }
  /// While set, taking the top card of a top-card zone does not reveal it (game:deal sets it; a scenario sets
  /// it while it arranges the zones). Not part of the state's value (not compared, not hashed).
  void set_quiet_moves(bool quiet) { quiet_ = quiet; }
  /// Who knows card c becomes exactly what its zone shows (as after a fresh deal): a scenario's arranged table.
  void forget(ComponentId c) {
    if (place_[c].in_zone()) note(seen_by_[c]), seen_by_[c] = layout_->grant_mask(place_[c].zone);
  }
  /// Marks c as known to `mask` additionally (a card shown to a player).
  void reveal(ComponentId c, std::uint8_t mask) { note(seen_by_[c]), seen_by_[c] |= mask; }

  // ---- tracks, tiles, figures ------------------------------------------------------------------------
  /// The tile on space `space` (1-based) of `track`, or a placement with component kNoComponent.
  TilePlacement tile_at(int track, int space) const;
  /// Moves tile component c from wherever it is onto (track, space). The space must be free.
  void place_tile(ComponentId c, int track, int space, int rotation = 0);
  FigurePlace figure_place(int figure) const { return figures_.at(figure); }
  /// Puts figure f on (track, space), or off the board with track = -1. Throws LayoutError if out of range.
  void move_figure(int figure, int track, int space);
  /// Figures standing on (track, space), in figure order.
  std::vector<int> figures_at(int track, int space) const;

  // ---- lattice boards (docs/boards.md; ids 0-based; board = index into Layout::boards) -----------------
  /// Places tile c (a component with a shape) on `board` with its anchor at vertex `anchor` and `rotation`,
  /// taking it from wherever it is (a tile already on the board is lifted first). Throws LayoutError naming the
  /// tile and the face when a face is off the board or under another tile, or when c has no shape that fits the
  /// board; nothing changes then.
  void place_tile_on(ComponentId c, int board, int anchor, int rotation);
  /// Why tile c cannot be placed at (anchor, rotation) on `board` (the face off the board or taken), or "".
  std::string placement_problem(ComponentId c, int board, int anchor, int rotation) const;
  /// Appends to `out` (after clearing it) every legal placement of tile c on `board`, encoded as
  /// anchor * rotations + rotation, in increasing order. No allocation once `out` has the capacity.
  void placements(ComponentId c, int board, std::vector<std::int32_t>& out) const;
  /// The faces tile c would cover at (anchor, rotation), in shape order; -1 for a face off the board.
  std::vector<std::int32_t> placement_faces(ComponentId c, int board, int anchor, int rotation) const;
  /// The tile on face f of `board`, or kNoComponent. Its anchor and rotation are in place_of(tile).
  ComponentId tile_on(int board, int face) const { return face_tile_[static_cast<std::size_t>(layout_->board_face_offset(board) + face)]; }
  /// The feature of face f from its tile (0 when free).
  std::uint16_t face_feature(int board, int face) const;
  /// The faces of the tile covering face f of `board`: f first, then breadth-first across the tile's inner edges,
  /// each face's edges in Lattice::face_edges order (so a script that walked the inner edges itself gets the same
  /// order); empty when no tile covers f. Throws LayoutError for a bad board or face.
  std::vector<std::int32_t> tile_faces(int board, int face) const;
  /// The side feature that tile c, placed at (anchor, rotation), has on the edge `e` (0 if not listed).
  std::uint16_t side_feature(ComponentId c, int board, int anchor, int rotation, EdgeCoord e) const;
  /// The side features of the tiles on either face of edge e (in the order of Lattice::edge_faces), -1 where
  /// a face is free or off the board. A tile covering both faces counts once (in [0]; [1] is -1).
  std::array<std::int32_t, 2> edge_sides(int board, int edge) const;
  /// The OR of edge_sides (0 when no tile touches the edge).
  std::uint16_t edge_feature(int board, int edge) const;
  /// The OR of the corner features of every tile around vertex v.
  std::uint16_t vertex_feature(int board, int vertex) const;
  /// kEdgeInner / kEdgeCovered2 / kEdgeCovered1, plus kEdgeOffboard on the rim.
  std::uint8_t edge_class(int board, int edge) const;
  /// True when edge e passes the filter. No range checks (the inner loop of reachable): board and edge must be valid.
  bool edge_passes(int board, int edge, const EdgeMask& mask) const;
  /// True when a move may go on from vertex v (the `through` test of the filter). No range checks.
  bool passes_through(int board, int vertex, const EdgeMask& mask) const;
  /// The vertices reachable from `from` in 1..k edges that pass `mask`, in increasing distance then id;
  /// distances in scratch.dist (see Lattice::reachable). No allocation once the scratch has grown.
  std::span<const std::int32_t> reachable(int board, int from, int k, const EdgeMask& mask, LatticeScratch& scratch) const;
  /// One shortest path (vertices, from and to included) of at most k passing edges into `out`; false if none.
  bool path(int board, int from, int to, int k, const EdgeMask& mask, LatticeScratch& scratch, std::vector<std::int32_t>& out) const;

  /// The value of mark `mark` (index into the board's marks) at site `id` of the mark's kind. Throws
  /// LayoutError on a bad board, mark or id.
  int mark(int board, int mark, int id) const;
  /// Sets it (0..255; throws LayoutError otherwise).
  void set_mark(int board, int mark, int id, int value);

  /// Lays component c on a face, edge or vertex of `board`, on top of what lies there, taking it from wherever
  /// it is. Face up: every seat knows it; face down: nobody does (seen_by 0) until it moves into a zone.
  void lay(ComponentId c, int board, SiteKind kind, int id, bool face_down = false);
  /// The components lying at a site, bottom to top (kUnknownComponent in an observation for an unknown one).
  std::span<const ComponentId> lying(int board, SiteKind kind, int id) const;
  /// Puts figure f on a vertex or face of `board`. Throws LayoutError on a bad figure, board, kind or id.
  void move_figure_to_site(int figure, int board, SiteKind kind, int id);
  /// Figures standing on a site of a board, in figure order.
  std::vector<int> figures_on(int board, SiteKind kind, int id) const;
  /// A 64-bit digest of what board `board` shows every seat: the tile on each face with its anchor and rotation,
  /// every mark, and what lies at each site bottom to top (a component's identity only when every seat knows it,
  /// else only that one lies there). Equal for two states whose board looks the same to everyone (figures, zones,
  /// counters and hidden identities aside: determinizations share it); different, but for a 64-bit collision, when
  /// a tile, mark, count or order at a site or a public identity differs. For memos keyed by the map
  /// (engine/board_digest.cpp). Throws LayoutError for a bad board.
  std::uint64_t board_digest(int board) const;
  /// A 64-bit digest of what `board` shows every seat around vertex `v`: the board and v; for each face around v
  /// (Lattice::vertex_faces order) the tile on it or none; for each tile touching v, once, its id, anchor and
  /// rotation and, at every face of the tile, the face marks, what lies there bottom to top (an identity only when
  /// every seat knows it, else only its presence) and the edge marks of the face's sides. Not in it: vertex marks,
  /// what lies on sides and corners, figures, zones, counters. Equal for two states that show every seat the same
  /// there, whatever lies or is marked elsewhere; different (but for a 64-bit collision) when a tile touching v, its
  /// anchor or rotation, a face or side mark or what lies on a face of one of those tiles, or which faces around v
  /// are covered differs. For memos of what a hook reads near v, kept across maps (engine/vertex_digest.cpp).
  /// Throws LayoutError for a bad board or vertex, or a board with more than 16 face or 16 edge marks.
  std::uint64_t vertex_digest(int board, int v) const;
  /// Bytes of the board contents (for benchmarks): a tile id per face, a byte per mark site, 6 bytes per lying component.
  std::size_t board_bytes() const;

  // ---- counters ----------------------------------------------------------------------------------------
  /// Value of counter `counter` for `owner` (0 = supply, 1..seats). Throws LayoutError for a seat on a
  /// supply-only counter.
  std::int64_t counter(int counter, int owner = 0) const { return counters_[layout_->counter_slot(counter, owner)]; }
  void set_counter(int counter, int owner, std::int64_t value) {
    std::int64_t& slot = counters_[layout_->counter_slot(counter, owner)];
    note(slot);
    slot = value;
  }

  // ---- turn sequencing -----------------------------------------------------------------------------
  int to_move() const { return to_move_; }
  /// Throws LayoutError unless 1 <= seat <= seats.
  void set_to_move(int seat) {
    if (seat < 1 || seat > layout_->seats) [[unlikely]] no_seat(seat);
    to_move_ = seat;
  }
  int phase() const { return phase_; }
  void set_phase(int phase) { phase_ = phase; }
  int round() const { return round_; }
  /// Plies applied so far in the whole match (one action = one ply).
  std::int64_t ply() const { return ply_; }
  void count_ply() { ++ply_; }
  /// The rules ask for the current round to end after the action being applied (scoring follows).
  void request_round_end() { round_end_requested_ = true; }
  bool round_end_requested() const { return round_end_requested_; }
  /// Records the round's scores (one per seat), adds them to the match totals, clears the request and,
  /// if rounds remain, advances to the next round; otherwise marks the game over.
  /// Returns true if a new round begins.
  bool close_round(std::span<const std::int64_t> scores);
  bool over() const { return over_; }
  /// Ends the match now (a rule can end it early). Totals stay as they are.
  void set_over() { over_ = true; }
  std::int64_t match_score(int seat) const { return match_scores_.at(seat - 1); }
  const std::vector<std::int64_t>& match_scores() const { return match_scores_; }
  /// Round scores so far: round_scores()[r][s-1].
  const std::vector<std::vector<std::int64_t>>& round_scores() const { return round_scores_; }
  /// Final places from the match totals: 1 = best, ties share a place (standard competition ranking).
  std::vector<int> ranks() const;

  Rng& rng() { return rng_; }
  const Rng& rng() const { return rng_; }

  // ---- information -------------------------------------------------------------------------------
  /// This state as `seat` sees it: every card the seat does not know is replaced by kUnknownComponent and
  /// the RNG is zeroed. The result is for reading (display, a bot's features); it is marked `masked`.
  /// For such a card c, place_of(c) is Place{} (no zone, space 0) and seen_by(c) is 0, so that nothing in
  /// the view depends on where the cards hidden from `seat` really are.
  GameState observation(int seat) const;
  /// A determinization for `seat`: the cards the seat does not know are dealt at random (from `rng`) into
  /// the places where unknown cards are, and the RNG is reseeded from `rng`. Depends only on what the seat
  /// knows and on `rng`, never on where the hidden cards really are (DESIGN.md §4).
  GameState determinized(int seat, Rng& rng) const;
  /// Seat whose observation this is, or 0 for a full state.
  int masked_for() const { return masked_for_; }

  // ---- undo log (Rules::apply's rollback) ----------------------------------------------------------
  /// Starts recording every change made to this state from now on, so that rollback() can restore it exactly
  /// as it is now. Returns false, and records nothing new, when a recording is already running (the caller then
  /// keeps its own copy). Every change goes through this class's methods, and each first saves what it overwrites,
  /// as it is then (one record for a move between zones, plus any slots it shifts below the tops; whole tables for
  /// gather), so the saves restore it in any order; the turn, phase, round, ply, flags and RNG are
  /// saved here, once. A copy of a state does not copy its log (the copy records nothing); assigning to a
  /// recording state keeps its log, which stays valid as long as the state keeps its layout.
  bool begin_undo();
  /// Restores the state as it was at begin_undo() and stops recording. Never allocates or throws.
  void rollback() noexcept;
  /// Keeps the changes and stops recording (the log keeps its buffers for the next begin_undo).
  void commit_undo() noexcept { undo_.active = false; }
  /// Whether a recording is running.
  bool recording() const { return undo_.active; }
  /// Bytes saved by the running (or last) recording, for tests and benchmarks.
  std::size_t undo_bytes() const { return undo_.used + undo_.moves_used * sizeof(UndoLog::ZoneMove); }

  /// Checks the invariants above; returns an empty string or a description of the first violation.
  std::string check_invariants() const;

  bool operator==(const GameState& other) const;
  /// A 64-bit FNV-1a digest of everything in the state (for golden transcripts and replay checks).
  std::uint64_t digest() const { return digest_of(true); }
  /// The same digest without the ply count and the RNG: equal for two states that show the same position
  /// at different times (the bots' repetition check, engine/bots.hpp PositionHistory).
  std::uint64_t position_digest() const { return digest_of(false); }
  /// observation(seat).position_digest(), without making the observation (no copy, no allocation): the digest of
  /// what `seat` (1..seats) sees, each card it does not know hashed as kUnknownComponent with place and seen-by
  /// blank. Throws LayoutError for a seat out of range. In observation_digest.cpp.
  std::uint64_t observation_digest(int seat) const;
  /// What observation_digest(seat) hashes and the ply count (which the seat sees too), hashed 8 bytes at a time with
  /// each board's faces and marks as its Zobrist key (engine/board_keys.cpp; a different value, ~8x fewer
  /// instructions than observation_digest on Lost Valley's state): equal for two states at the same ply whose
  /// observations by `seat` have the same position digest, different otherwise (but for 64-bit collisions). The key
  /// of IsmctsPlayer's heuristic memo (a value that depends only on what a seat sees). Throws LayoutError for a seat
  /// out of range.
  std::uint64_t observation_key(int seat) const;

 private:
  std::uint64_t digest_of(bool with_history) const;
  /// Feeds `hasher` (bytes(p, n), value(v)) what observation(seat).digest_of(false) feeds Fnv (observation_digest.cpp).
  template <class Hasher>
  void hash_observation(Hasher& hasher, int seat) const;
  void remove_from_place(ComponentId c);
  // Board keys (engine/board_keys.cpp): per board b, board_keys_[2b] is the XOR of a 64-bit code for each face's
  // tile and each nonzero mark cell, board_keys_[2b+1] of a code for each tile placed there (its anchor and
  // rotation) — Zobrist hashing, kept up to date by every change (noted for undo), read by board_digest and
  // observation_key instead of hashing the tables. check_invariants compares them with keys computed afresh.
  void toggle_face_key(int board, int face, ComponentId tile);
  void toggle_mark_key(int board, std::size_t cell, int value);
  void toggle_anchor_key(int board, ComponentId tile, int anchor, int rotation);
  /// The keys computed from the tables (for gather, which rewrites them, and check_invariants).
  std::vector<std::uint64_t> computed_board_keys() const;
  // Inline, the failures out of line: every move asks both.
  void check_component(ComponentId c) const {
    if (c >= capacity_) [[unlikely]] no_component(c);
  }
  void check_zone(ZoneId z) const {
    if (z >= zone_size_.size()) [[unlikely]] no_zone(z);
  }
  [[noreturn]] void no_component(ComponentId c) const;  // throws LayoutError naming the component number
  [[noreturn]] void no_zone(ZoneId z) const;            // throws LayoutError naming the zone number
  [[noreturn]] void no_seat(int seat) const;            // throws LayoutError naming the seat and the seat count
  void check_site(int board, SiteKind kind, int id) const;
  std::uint32_t site_key(int board, SiteKind kind, int id) const {
    return static_cast<std::uint32_t>(board) << 22 | static_cast<std::uint32_t>(kind) << 20 | static_cast<std::uint32_t>(id);
  }
  static Place place_of_key(std::uint32_t key) {
    Place p;
    p.board = static_cast<std::uint8_t>(key >> 22);
    p.site_kind = static_cast<SiteKind>((key >> 20) & 3);
    p.site = static_cast<std::uint16_t>(key & 0xFFFFF);
    return p;
  }
  /// Calls fn(face id) for each on-board face of tile c placed at (anchor, rotation); returns false (and stops)
  /// at the first face off the board, passing -1.
  std::uint8_t edge_class_at(int board, int edge) const;   // edge_class without the range checks
  std::array<std::int32_t, 2> edge_sides_at(int board, int edge) const;
  template <class F>
  bool each_footprint_face(ComponentId c, int board, int anchor, int rotation, F&& fn) const;

  /// The undo log: what each change overwrote (bytes at a fixed address inside one of the fixed-size tables, or a
  /// ZoneMove record of the values a move between zones changes; restored last to first), the whole lying tables
  /// (which change size) once, and the scalars at the start.
  struct UndoLog {
    struct Entry {
      void* at;                    // nullptr: the ZoneMove moves[offset] (size 0)
      std::uint32_t offset, size;  // in `bytes`
    };
    /// A zone-to-zone move in one entry: the values it overwrites, as they were before it (the zones' sizes,
    /// the slot each top changes, the component's place and seen-by); slots shifted in the middle of a zone are
    /// saved as bytes beside it.
    struct ZoneMove {
      ComponentId component, from_top, to_top;
      ZoneId from, to;
      std::uint16_t from_size, to_size, to_top_slot;
      Place place;
      std::uint8_t seen_by;
    };
    bool active = false;
    bool lying_saved = false;
    std::vector<Entry> entries;        // the first `count` are in use (the vector only grows)
    std::vector<unsigned char> bytes;  // the first `used` are in use
    std::vector<ZoneMove> moves;       // the first `moves_used` are in use
    std::size_t count = 0, used = 0, moves_used = 0;
    std::vector<std::uint32_t> lying_key;
    std::vector<ComponentId> lying;
    std::size_t rounds_scored = 0;
    Rng rng;
    std::int64_t ply = 0;
    int to_move = 1, phase = 0, round = 1;
    bool quiet = false, round_end_requested = false, over = false;

    UndoLog() = default;
    UndoLog(const UndoLog&) noexcept {}  // a copy of a state records nothing
    UndoLog(UndoLog&&) noexcept {}
    UndoLog& operator=(const UndoLog&) noexcept { return *this; }  // the state assigned to keeps its own log
    UndoLog& operator=(UndoLog&&) noexcept { return *this; }
    ~UndoLog() = default;
  };
  /// Saves the `size` bytes at `at` (inside one of this state's fixed-size tables) if a recording runs.
  void note(void* at, std::size_t size) {
    if (undo_.active) save(at, size);
  }
  template <class T>
  void note(T& value) { note(&value, sizeof value); }
  void save(void* at, std::size_t size) {  // inline: a constant size makes the copy a move or two
    if (size == 0) return;  // nothing to restore (and `at` may be the null data() of an empty table)
    UndoLog& u = undo_;
    if (u.used + size > u.bytes.size() || u.count == u.entries.size()) grow_undo(size);
    std::memcpy(u.bytes.data() + u.used, at, size);
    u.entries[u.count++] = {at, static_cast<std::uint32_t>(u.used), static_cast<std::uint32_t>(size)};
    u.used += size;
  }
  void grow_undo(std::size_t size);
  /// Saves what move(c, to, index) will overwrite, card c being at index i of zone `from` (a recording runs).
  /// Every value is saved as it is before the move: the record and the byte notes beside it restore the same bytes
  /// whatever order they are undone in, and a state assigned to while recording is still restored exactly.
  [[gnu::always_inline]] void note_zone_move(ComponentId c, ZoneId from, int i, ZoneId to, int index) {
    ComponentId* from_base = slots_.data() + static_cast<std::size_t>(from) * capacity_;
    ComponentId* to_base = slots_.data() + static_cast<std::size_t>(to) * capacity_;
    const int n = zone_size_[from];
    const int top_after = zone_size_[to] - (from == to ? 1 : 0);  // the slot `to` fills at its top
    if (i < n - 1 || index < top_after) [[unlikely]] note_shifted(from_base, i, n, to_base, index, top_after);
    UndoLog& u = undo_;
    if (u.moves_used == u.moves.size() || u.count == u.entries.size()) [[unlikely]] grow_undo(0);
    UndoLog::ZoneMove& r = u.moves[u.moves_used];
    r.component = c;
    r.from_top = from_base[n - 1];
    r.to_top = to_base[top_after];
    r.from = from;
    r.to = to;
    r.from_size = static_cast<std::uint16_t>(n);
    r.to_size = zone_size_[to];
    r.to_top_slot = static_cast<std::uint16_t>(top_after);
    r.place = place_[c];
    r.seen_by = seen_by_[c];
    u.entries[u.count++] = {nullptr, static_cast<std::uint32_t>(u.moves_used++), 0};
  }
  /// The slots a move shifts in the middle of its zones (below the tops), saved as bytes.
  void note_shifted(ComponentId* from_base, int i, int n, ComponentId* to_base, int index, int top_after);
  void note_lying();  // saves the lying tables, once per recording

  const Layout* layout_ = nullptr;
  std::size_t capacity_ = 0;              // slots per zone = number of components
  std::vector<ComponentId> slots_;        // zone z: [z*capacity_, z*capacity_ + zone_size_[z])
  std::vector<std::uint16_t> zone_size_;
  std::vector<Place> place_;              // per component
  std::vector<std::uint8_t> seen_by_;     // per component, bit s-1 = seat s knows it
  std::vector<TilePlacement> tiles_;      // per track space (Layout::track_offset)
  std::vector<FigurePlace> figures_;
  std::vector<ComponentId> face_tile_;       // per board face (Layout::board_face_offset): the tile on it
  std::vector<std::uint8_t> marks_;          // Layout::mark_offset
  std::vector<std::uint64_t> board_keys_;    // two per board (toggle_face_key above)
  std::vector<std::uint32_t> lying_key_;     // sorted by site key; within a site bottom to top
  std::vector<ComponentId> lying_;           // the component of each entry of lying_key_
  std::vector<std::int64_t> counters_;
  std::vector<std::int64_t> match_scores_;
  std::vector<std::vector<std::int64_t>> round_scores_;
  Rng rng_;
  std::int64_t ply_ = 0;
  int to_move_ = 1;
  int phase_ = 0;
  int round_ = 1;
  int masked_for_ = 0;
  bool quiet_ = false;  // set_quiet_moves
  bool round_end_requested_ = false;
  bool over_ = false;
  UndoLog undo_;
};

}  // namespace hr
