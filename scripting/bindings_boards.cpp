// bindings_boards.cpp — lattice boards for the Lua API: geometry, features, what lies where, paths
// (reference: docs/boards.md).
//
// Binds game:board_size, vertex, face, edge, vertex_text, face_text, edge_text, vertex_coord, face_coord,
// face_vertices, face_edges, edge_vertices, edge_faces, vertex_edges, vertex_faces, neighbour, edge_between
// (geometry); face_feature, edge_feature, vertex_feature, edge_class, edge_sides (features of placed tiles);
// lying, lay, site_of, figures_on, seats_on (components and figures on sites); adjacent (are two sites next to
// each other); board_digest (what the board shows everyone, as one integer); vertex_digest (the same around one
// vertex); reachable and path (searches under an edge filter: the kernel's EdgeMask, and the keys class_in,
// through_covered and allow, which this file reads and tests around Lattice::reachable).
// Also defines the cold board helpers of binding_args.hpp: site_from_text, placement_arg, mask_arg.
//
// Invariants: boards are given by name or number, sites by number (1-based) or their text form ("4,7",
// "4,7u", "4,7-5,7"), and an error names the board; ids come back 1-based, nil for "off the board". Lists
// filled in place are made plain tables first (Sandbox::plain). Only lay changes the game, in setup,
// start_round and apply (writable_state); a kernel error becomes a Lua error (guarded), the game as it was.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "binding_args.hpp"

namespace hr::bindings {

/// Parses the text form of a site of `kind` on `board`: the 0-based id, -1 when well formed but off the board.
/// Raises on malformed text.
int site_from_text(lua_State* L, Impl& impl, int board, SiteKind kind, const char* text) {
  const Lattice& l = lattice_of(impl, board);
  std::string error;
  int id = -1;
  try {
    id = kind == SiteKind::Face ? l.face(text) : kind == SiteKind::Edge ? l.edge(text) : l.vertex(text);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (!error.empty()) luaL_error(L, "board '%s': %s", board_name_of(impl, board), error.c_str());
  return id;
}

/// A placement number (1-based: anchor * rotations + rotation + 1) or text ("4,7 r2") at `index`: anchor, rotation.
std::pair<int, int> placement_arg(lua_State* L, Impl& impl, int board, int index) {
  const Lattice& l = lattice_of(impl, board);
  if (lua_type(L, index) == LUA_TSTRING) {
    const std::string text = lua_tostring(L, index);
    const auto blank = text.rfind(" r");
    int rotation = -1;
    if (blank != std::string::npos) {
      const std::string digits = text.substr(blank + 2);
      if (digits.size() == 1 && digits[0] >= '0' && digits[0] <= '9') rotation = digits[0] - '0';
    }
    if (rotation < 0 || rotation >= l.rotations())
      luaL_error(L, "'%s' is not a placement on board '%s' (write the anchor vertex and a rotation 0..%d, e.g. 4,7 r2)",
                 text.c_str(), board_name_of(impl, board), l.rotations() - 1);
    const int v = site_from_text(L, impl, board, SiteKind::Vertex, text.substr(0, blank).c_str());
    if (v < 0) luaL_error(L, "placement '%s': vertex %s is not on board '%s'", text.c_str(), text.substr(0, blank).c_str(), board_name_of(impl, board));
    return {v, rotation};
  }
  const lua_Integer p = integer_arg(L, index);
  const lua_Integer n = static_cast<lua_Integer>(l.vertices()) * l.rotations();
  if (p < 1 || p > n) luaL_error(L, "no placement number %d on board '%s' (1..%d)", static_cast<int>(p), board_name_of(impl, board), static_cast<int>(n));
  return {static_cast<int>((p - 1) / l.rotations()), static_cast<int>((p - 1) % l.rotations())};
}

namespace {

/// What a filter table says beyond the kernel's EdgeMask (docs/boards.md, "Queries for movement"), for
/// game:reachable and game:path: `class_in` (the edge classes that pass, as exact edge_class values: { 2, 12 }
/// takes the sides between two tiles and a tile's sides on the rim, not the border of the placed area inside the
/// board, class 4), `through_covered` (a move goes on from a reached vertex only when every face around it on the
/// board is covered by a tile: an explored intersection, without a mark to keep) and `allow` (edges that pass
/// whatever the other keys say: a game's own paths, as the inner sides of Lost Valley's start tile).
struct WalkExtra {
  std::uint16_t class_in = 0;           // bit c: an edge of class c passes; 0: every class
  bool through_covered = false;
  std::span<const std::int32_t> allow;  // 0-based edges, sorted, each once
};

/// The allow list's storage: reused, so that a filter allocates nothing once it has grown (one Lua state per
/// thread; a filter is read and used before the next is read).
std::vector<std::int32_t>& allow_scratch() {
  static thread_local std::vector<std::int32_t> edges;
  return edges;
}

/// The edge filter table at `index` (nil or absent: every edge passes); raises on an unknown key or a bad value.
/// `extra` receives class_in, through_covered and allow (nullptr: those keys are refused).
EdgeMask filter_arg(lua_State* L, Impl& impl, int board, int index, WalkExtra* extra) {
  EdgeMask m;
  if (lua_isnoneornil(L, index)) return m;
  luaL_checktype(L, index, LUA_TTABLE);
  index = lua_absindex(L, index);
  impl.sandbox.plain(L, index);
  static constexpr const char* kKeys =
      "class_any, class_none, class_in, feature_any, feature_none, mark, mark_any, mark_none, through, through_any, "
      "through_none, through_covered, allow";
  lua_pushnil(L);
  while (lua_next(L, index)) {
    if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "an edge filter has string keys (%s)", kKeys);
    const std::string key = lua_tostring(L, -2);
    const int value = lua_gettop(L);
    if (extra && key == "class_in") {
      if (!lua_istable(L, value)) luaL_error(L, "edge filter: class_in must be a list of edge classes 0..15");
      extra->class_in = 0;
      const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, value));
      for (lua_Integer i = 1; i <= n; ++i) {
        lua_rawgeti(L, value, i);
        int is_integer = 0;
        const lua_Integer c = lua_tointegerx(L, -1, &is_integer);
        if (!is_integer || c < 0 || c > 15) luaL_error(L, "edge filter: class_in must be a list of edge classes 0..15");
        extra->class_in = static_cast<std::uint16_t>(extra->class_in | (1u << c));
        lua_pop(L, 1);
      }
      if (!extra->class_in) luaL_error(L, "edge filter: class_in lists no class (no edge would pass)");
    } else if (extra && key == "through_covered") {
      if (lua_type(L, value) != LUA_TBOOLEAN) luaL_error(L, "edge filter: through_covered must be true or false");
      extra->through_covered = lua_toboolean(L, value);
    } else if (extra && key == "allow") {
      if (!lua_istable(L, value)) luaL_error(L, "edge filter: allow must be a list of edges (numbers or texts as 4,7-5,7)");
      std::vector<std::int32_t>& edges = allow_scratch();
      edges.clear();
      const int count = impl.layout->sites(board, SiteKind::Edge);
      const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, value));
      for (lua_Integer i = 1; i <= n; ++i) {
        lua_rawgeti(L, value, i);
        int id = -1;
        if (lua_type(L, -1) == LUA_TSTRING) {
          id = site_from_text(L, impl, board, SiteKind::Edge, lua_tostring(L, -1));
          if (id < 0) luaL_error(L, "edge filter: allow: edge %s is not on board '%s'", lua_tostring(L, -1), board_name_of(impl, board));
        } else {
          int is_integer = 0;
          const lua_Integer e = lua_tointegerx(L, -1, &is_integer);
          if (!is_integer || e < 1 || e > count)
            luaL_error(L, "edge filter: allow[%d] is not an edge of board '%s' (a number 1..%d or a text as 4,7-5,7)",
                       static_cast<int>(i), board_name_of(impl, board), count);
          id = static_cast<int>(e - 1);
        }
        edges.push_back(id);
        lua_pop(L, 1);
      }
      std::sort(edges.begin(), edges.end());
      edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
      extra->allow = edges;
    } else if (key == "mark") {
      m.mark = mark_arg(L, impl, board, value);
      if (impl.layout->boards[static_cast<std::size_t>(board)].marks[static_cast<std::size_t>(m.mark)].kind != SiteKind::Edge)
        luaL_error(L, "edge filter: mark '%s' of board '%s' is not an edge mark", lua_tostring(L, -1), board_name_of(impl, board));
    } else if (key == "through") {
      m.through = mark_arg(L, impl, board, value);
      if (impl.layout->boards[static_cast<std::size_t>(board)].marks[static_cast<std::size_t>(m.through)].kind != SiteKind::Vertex)
        luaL_error(L, "edge filter: through mark '%s' of board '%s' is not a vertex mark", lua_tostring(L, -1), board_name_of(impl, board));
    } else {
      const bool known = key == "class_any" || key == "class_none" || key == "feature_any" || key == "feature_none" ||
                         key == "mark_any" || key == "mark_none" || key == "through_any" || key == "through_none";
      if (!known) luaL_error(L, "edge filter: unknown key '%s' (%s)", key.c_str(), kKeys);
      int is_integer = 0;
      const lua_Integer v = lua_tointegerx(L, -1, &is_integer);
      if (!is_integer || v < 0 || v > 65535) luaL_error(L, "edge filter: %s must be an integer 0..65535", key.c_str());
      if (key == "class_any") m.class_any = static_cast<std::uint8_t>(v);
      else if (key == "class_none") m.class_none = static_cast<std::uint8_t>(v);
      else if (key == "feature_any") m.feature_any = static_cast<std::uint16_t>(v);
      else if (key == "feature_none") m.feature_none = static_cast<std::uint16_t>(v);
      else if (key == "mark_any") m.mark_any = static_cast<std::uint8_t>(v);
      else if (key == "mark_none") m.mark_none = static_cast<std::uint8_t>(v);
      else if (key == "through_any") m.through_any = static_cast<std::uint8_t>(v);
      else m.through_none = static_cast<std::uint8_t>(v);
    }
    lua_pop(L, 1);
  }
  if ((m.mark_any || m.mark_none) && m.mark < 0) luaL_error(L, "edge filter: mark_any and mark_none need mark = <edge mark name>");
  if ((m.through_any || m.through_none) && m.through < 0) luaL_error(L, "edge filter: through_any and through_none need through = <vertex mark name>");
  return m;
}

/// The vertices reachable from `from` in 1..k edges that pass `mask` and `extra` (GameState::reachable with the
/// binding's extra keys), in increasing distance then id; distances in scratch.dist.
std::span<const std::int32_t> walk(const GameState& s, const Lattice& l, int b, int from, int k, const EdgeMask& mask,
                                   const WalkExtra& extra, LatticeScratch& scratch, int to = -1,
                                   std::vector<std::int32_t>* path = nullptr) {
  const auto pass = [&](int e) {
    if (!extra.allow.empty() && std::binary_search(extra.allow.begin(), extra.allow.end(), e)) return true;
    if (extra.class_in && !((extra.class_in >> s.edge_class(b, e)) & 1u)) return false;
    return s.edge_passes(b, e, mask);
  };
  const auto through = [&](int v) {
    if (extra.through_covered)
      for (const std::int32_t f : l.vertex_faces(v))
        if (s.tile_on(b, f) == kNoComponent) return false;
    return s.passes_through(b, v, mask);
  };
  if (path) {
    l.path(from, to, k, pass, through, scratch, *path);
    return *path;
  }
  return l.reachable(from, k, pass, through, scratch);
}

}  // namespace

EdgeMask mask_arg(lua_State* L, Impl& impl, int board, int index) { return filter_arg(L, impl, board, index, nullptr); }

namespace {

// game:board_size(b) -> kind, width, height, faces, edges, vertices
GAME_METHOD(board_size) {
  IMPL;
  state_arg(L, impl);
  const Lattice& l = lattice_of(impl, board_arg(L, impl, 2));
  lua_pushstring(L, to_string(l.kind()).data());
  lua_pushinteger(L, l.width());
  lua_pushinteger(L, l.height());
  lua_pushinteger(L, l.faces());
  lua_pushinteger(L, l.edges());
  lua_pushinteger(L, l.vertices());
  return 6;
}
// game:vertex(b, "4,7") or game:vertex(b, q, r) -> id or nil (off the board)
GAME_METHOD(vertex) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  if (lua_type(L, 3) == LUA_TSTRING) push_id(L, site_from_text(L, impl, b, SiteKind::Vertex, lua_tostring(L, 3)));
  else push_id(L, lattice_of(impl, b).vertex_at({static_cast<int>(integer_arg(L, 3)), static_cast<int>(integer_arg(L, 4))}));
  return 1;
}
// game:face(b, "4,7u") or game:face(b, q, r [, "u"|"d"]) -> id or nil
GAME_METHOD(face) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  if (lua_type(L, 3) == LUA_TSTRING) {
    push_id(L, site_from_text(L, impl, b, SiteKind::Face, lua_tostring(L, 3)));
    return 1;
  }
  const Lattice& l = lattice_of(impl, b);
  const int q = static_cast<int>(integer_arg(L, 3)), r = static_cast<int>(integer_arg(L, 4));
  int t = 0;
  if (l.face_types() > 1) {
    const char* type = luaL_checkstring(L, 5);
    if (!std::strcmp(type, "u")) t = 0;
    else if (!std::strcmp(type, "d")) t = 1;
    else luaL_error(L, "a face of a triangular board is \"u\" or \"d\", not '%s'", type);
  }
  push_id(L, l.face_at({q, r, t}));
  return 1;
}
// game:edge(b, "4,7-5,7") -> id or nil
GAME_METHOD(edge) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  push_id(L, site_from_text(L, impl, b, SiteKind::Edge, luaL_checkstring(L, 3)));
  return 1;
}
GAME_METHOD(vertex_text) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); lua_pushstring(L, lattice_of(impl, b).vertex_text(site_arg(L, impl, b, SiteKind::Vertex, 3)).c_str()); return 1; }
GAME_METHOD(face_text) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); lua_pushstring(L, lattice_of(impl, b).face_text(site_arg(L, impl, b, SiteKind::Face, 3)).c_str()); return 1; }
GAME_METHOD(edge_text) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); lua_pushstring(L, lattice_of(impl, b).edge_text(site_arg(L, impl, b, SiteKind::Edge, 3)).c_str()); return 1; }
// game:vertex_coord(b, v) -> q, r, x, y (x, y: the drawing position, unit edges, y up)
GAME_METHOD(vertex_coord) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int v = site_arg(L, impl, b, SiteKind::Vertex, 3);
  const Coord c = lattice_of(impl, b).vertex_coord(v);
  const auto [x, y] = lattice_of(impl, b).vertex_xy(v);
  lua_pushinteger(L, c.q);
  lua_pushinteger(L, c.r);
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  return 4;
}
// game:face_coord(b, f) -> q, r, "u"/"d" (nil on a square board)
GAME_METHOD(face_coord) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const FaceCoord f = lattice_of(impl, b).face_coord(site_arg(L, impl, b, SiteKind::Face, 3));
  lua_pushinteger(L, f.q);
  lua_pushinteger(L, f.r);
  if (lattice_of(impl, b).face_types() > 1) lua_pushstring(L, f.t ? "d" : "u"); else lua_pushnil(L);
  return 3;
}
GAME_METHOD(face_vertices) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); push_ids(L, lattice_of(impl, b).face_vertices(site_arg(L, impl, b, SiteKind::Face, 3))); return 1; }
GAME_METHOD(face_edges) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); push_ids(L, lattice_of(impl, b).face_edges(site_arg(L, impl, b, SiteKind::Face, 3))); return 1; }
GAME_METHOD(edge_vertices) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); push_ids(L, lattice_of(impl, b).edge_vertices(site_arg(L, impl, b, SiteKind::Edge, 3))); return 1; }
GAME_METHOD(edge_faces) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); push_ids(L, lattice_of(impl, b).edge_faces(site_arg(L, impl, b, SiteKind::Edge, 3))); return 1; }
GAME_METHOD(vertex_edges) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); push_ids(L, lattice_of(impl, b).vertex_edges(site_arg(L, impl, b, SiteKind::Vertex, 3))); return 1; }
GAME_METHOD(vertex_faces) { IMPL; state_arg(L, impl); const int b = board_arg(L, impl, 2); push_ids(L, lattice_of(impl, b).vertex_faces(site_arg(L, impl, b, SiteKind::Vertex, 3))); return 1; }
// game:neighbour(b, f, e) -> the face across edge e from face f, or nil
GAME_METHOD(neighbour) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int f = site_arg(L, impl, b, SiteKind::Face, 3);
  const int e = site_arg(L, impl, b, SiteKind::Edge, 4);
  push_id(L, lattice_of(impl, b).neighbour(f, e));
  return 1;
}
// game:edge_between(b, v1, v2) -> the edge joining them, or nil
GAME_METHOD(edge_between) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int v1 = site_arg(L, impl, b, SiteKind::Vertex, 3);
  const int v2 = site_arg(L, impl, b, SiteKind::Vertex, 4);
  push_id(L, lattice_of(impl, b).edge_between(v1, v2));
  return 1;
}
GAME_METHOD(face_feature) { IMPL; const GameState& s = state_arg(L, impl); const int b = board_arg(L, impl, 2); lua_pushinteger(L, s.face_feature(b, site_arg(L, impl, b, SiteKind::Face, 3))); return 1; }
GAME_METHOD(edge_feature) { IMPL; const GameState& s = state_arg(L, impl); const int b = board_arg(L, impl, 2); lua_pushinteger(L, s.edge_feature(b, site_arg(L, impl, b, SiteKind::Edge, 3))); return 1; }
GAME_METHOD(vertex_feature) { IMPL; const GameState& s = state_arg(L, impl); const int b = board_arg(L, impl, 2); lua_pushinteger(L, s.vertex_feature(b, site_arg(L, impl, b, SiteKind::Vertex, 3))); return 1; }
GAME_METHOD(edge_class) { IMPL; const GameState& s = state_arg(L, impl); const int b = board_arg(L, impl, 2); lua_pushinteger(L, s.edge_class(b, site_arg(L, impl, b, SiteKind::Edge, 3))); return 1; }
// game:edge_sides(b, e) -> side feature of the tile on its first face, of the tile on its second (nil: no tile)
GAME_METHOD(edge_sides) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const auto sides = s.edge_sides(b, site_arg(L, impl, b, SiteKind::Edge, 3));
  for (const auto side : sides)
    if (side < 0) lua_pushnil(L); else lua_pushinteger(L, side);
  return 2;
}
// game:lying(b, kind, id [, into]) -> list, count: the components lying there, bottom to top (0: unseen)
GAME_METHOD(lying) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const SiteKind kind = site_kind_arg(L, 3);
  const auto here = s.lying(b, kind, site_arg(L, impl, b, kind, 4));
  if (!lua_isnoneornil(L, 5)) check_into(L, 5, "lying"), lua_settop(L, 5);  // (filled raw)
  else {
    lua_settop(L, 4);
    lua_createtable(L, static_cast<int>(here.size()), 0);
  }
  lua_Integer n = 0;
  for (const ComponentId c : here) {
    push_component(L, c);
    lua_rawseti(L, -2, ++n);
  }
  lua_pushinteger(L, n);
  return 2;
}
// game:lay(c, b, kind, id [, face_down])
GAME_METHOD(lay) {
  IMPL;
  GameState& s = writable_state(L, impl, "lay");
  const ComponentId c = component_arg(L, impl, 2);
  const int b = board_arg(L, impl, 3);
  const SiteKind kind = site_kind_arg(L, 4);
  const int id = site_arg(L, impl, b, kind, 5);
  const bool face_down = lua_toboolean(L, 6);
  return guarded(L, [&] { s.lay(c, b, kind, id, face_down); return 0; });
}
// game:site_of(c) -> board, kind, id (lying), or board, "tile", anchor, rotation (placed tile), or nil
GAME_METHOD(site_of) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const Place p = s.place_of(component_arg(L, impl, 2));
  if (!p.on_board()) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, p.board + 1);
  lua_pushstring(L, to_string(p.site_kind).data());
  lua_pushinteger(L, p.site + 1);
  if (p.site_kind != SiteKind::Tile) return 3;
  lua_pushinteger(L, p.rotation);
  return 4;
}
// game:figures_on(b, "vertex"/"face", id) -> list of figures
GAME_METHOD(figures_on) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const SiteKind kind = site_kind_arg(L, 3);
  const auto figures = s.figures_on(b, kind, site_arg(L, impl, b, kind, 4));
  lua_createtable(L, static_cast<int>(figures.size()), 0);
  for (std::size_t i = 0; i < figures.size(); ++i) {
    lua_pushinteger(L, figures[i] + 1);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}
// game:seats_on(b, kind, id) -> list of seats: "who stands here": the owners of the figures standing on a vertex or
// face, ascending, each once (figures declared without an owner count for nobody).
GAME_METHOD(seats_on) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const SiteKind kind = site_kind_arg(L, 3);
  const auto figures = s.figures_on(b, kind, site_arg(L, impl, b, kind, 4));
  unsigned seen = 0;  // bit s-1 per seat (at most 8 seats)
  for (const int f : figures) {
    const int owner = impl.layout->figures[static_cast<std::size_t>(f)].owner;
    if (owner > 0) seen |= 1u << (owner - 1);
  }
  lua_createtable(L, std::popcount(seen), 0);
  lua_Integer n = 0;
  for (int seat = 1; seen; ++seat, seen >>= 1)
    if (seen & 1u) {
      lua_pushinteger(L, seat);
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}
// game:adjacent(b, kind, a, b2) -> boolean: "are these next to each other": two vertices joined by an edge, two
// faces sharing an edge, two edges sharing a vertex (kind "vertex", "face" or "edge"; sites by number or text)
GAME_METHOD(adjacent) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const SiteKind kind = site_kind_arg(L, 3);
  const int x = site_arg(L, impl, b, kind, 4);
  const int y = site_arg(L, impl, b, kind, 5);
  const Lattice& lattice = lattice_of(impl, b);
  lua_pushboolean(L, kind == SiteKind::Vertex ? lattice.adjacent_vertices(x, y)
                     : kind == SiteKind::Face ? lattice.adjacent_faces(x, y)
                                              : lattice.adjacent_edges(x, y));
  return 1;
}
// game:reachable(b, v, k, filter [, into, dist]) -> vertices, distances, count (increasing distance, then id): the
// vertices 1..k edges from v through edges that pass the filter (EdgeMask's keys, class_in, through_covered, allow:
// filter_arg); `into` and `dist` are filled in place when given.
GAME_METHOD(reachable) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int v = site_arg(L, impl, b, SiteKind::Vertex, 3);
  const lua_Integer k = integer_arg(L, 4);
  WalkExtra extra;
  const EdgeMask mask = filter_arg(L, impl, b, 5, &extra);
  const auto found = walk(s, lattice_of(impl, b), b, v, static_cast<int>(std::clamp<lua_Integer>(k, 0, 1 << 20)), mask, extra,
                          impl.lattice_scratch);
  // the lists are filled raw: plain tables only (check_into)
  if (!lua_isnoneornil(L, 6)) check_into(L, 6, "reachable"), lua_pushvalue(L, 6);
  else lua_createtable(L, static_cast<int>(found.size()), 0);
  if (!lua_isnoneornil(L, 7)) check_into(L, 7, "reachable"), lua_pushvalue(L, 7);
  else lua_createtable(L, static_cast<int>(found.size()), 0);
  for (std::size_t i = 0; i < found.size(); ++i) {
    lua_pushinteger(L, found[i] + 1);
    lua_rawseti(L, -3, static_cast<lua_Integer>(i + 1));
    lua_pushinteger(L, impl.lattice_scratch.dist[static_cast<std::size_t>(found[i])]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_pushinteger(L, static_cast<lua_Integer>(found.size()));
  return 3;
}
// game:board_digest(b) -> integer: GameState::board_digest (engine/board_digest.cpp): a 64-bit digest of what board b
// shows every seat (tiles with anchors and rotations, marks, what lies where; a lying component's identity only when
// every seat knows it), equal for two states whose board looks the same to everyone: a key for memos of the map.
GAME_METHOD(board_digest) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  lua_pushinteger(L, static_cast<lua_Integer>(s.board_digest(b)));
  return 1;
}
// game:vertex_digest(b, v) -> integer: GameState::vertex_digest (engine/vertex_digest.cpp): a 64-bit digest of what board b
// shows every seat around vertex v (which faces around it are covered; the tiles touching it, whole, with their
// anchors, rotations, marks and what lies at their sites, an identity only when every seat knows it): a key for
// memos of what a hook reads near v.
GAME_METHOD(vertex_digest) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int v = site_arg(L, impl, b, SiteKind::Vertex, 3);
  lua_pushinteger(L, static_cast<lua_Integer>(s.vertex_digest(b, v)));
  return 1;
}
// game:path(b, v1, v2, k, filter) -> list of vertices from v1 to v2 (a shortest one), or nil
GAME_METHOD(path) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int from = site_arg(L, impl, b, SiteKind::Vertex, 3);
  const int to = site_arg(L, impl, b, SiteKind::Vertex, 4);
  const lua_Integer k = integer_arg(L, 5);
  WalkExtra extra;
  const EdgeMask mask = filter_arg(L, impl, b, 6, &extra);
  if (walk(s, lattice_of(impl, b), b, from, static_cast<int>(std::clamp<lua_Integer>(k, 0, 1 << 20)), mask, extra,
           impl.lattice_scratch, to, &impl.int_scratch).empty()) {
    lua_pushnil(L);
    return 1;
  }
  push_ids(L, impl.int_scratch);
  return 1;
}

}  // namespace

std::span<const luaL_Reg> board_methods() {
  static const luaL_Reg methods[] = {
      {"board_size", game_board_size}, {"vertex", game_vertex}, {"face", game_face}, {"edge", game_edge},
      {"vertex_text", game_vertex_text}, {"face_text", game_face_text}, {"edge_text", game_edge_text},
      {"vertex_coord", game_vertex_coord}, {"face_coord", game_face_coord},
      {"face_vertices", game_face_vertices}, {"face_edges", game_face_edges}, {"edge_vertices", game_edge_vertices},
      {"edge_faces", game_edge_faces}, {"vertex_edges", game_vertex_edges}, {"vertex_faces", game_vertex_faces},
      {"neighbour", game_neighbour}, {"edge_between", game_edge_between},
      {"face_feature", game_face_feature}, {"edge_feature", game_edge_feature}, {"edge_sides", game_edge_sides},
      {"vertex_feature", game_vertex_feature}, {"edge_class", game_edge_class},
      {"lying", game_lying}, {"lay", game_lay}, {"site_of", game_site_of},
      {"figures_on", game_figures_on}, {"seats_on", game_seats_on}, {"adjacent", game_adjacent},
      {"reachable", game_reachable}, {"path", game_path}, {"board_digest", game_board_digest},
      {"vertex_digest", game_vertex_digest}};
  return methods;
}

}  // namespace hr::bindings
