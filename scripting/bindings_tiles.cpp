// bindings_tiles.cpp — tiles, tracks and figures for the Lua API (reference: docs/boards.md,
// docs/writing-rules.md).
//
// Binds game:tile_at, tile_faces, placements, placement, placement_text, placement_anchor, placement_faces,
// placement_sides (tiles on a lattice board); tile, track_tiles, place_tile (on a board or a track); figure, move_figure,
// figures_at (figures on tracks and boards).
//
// Invariants: a placement is a number, anchor * rotations + rotation + 1 (anchor 0-based), or its text
// "4,7 r2"; place_tile tells a board from a track by name, or by number when the game has only one of them (a
// number is refused when it has both). Lists filled in place are made plain tables first. place_tile and
// move_figure change the game, only in setup, start_round and apply (writable_state); a kernel error becomes a
// Lua error (guarded), the game as it was.
#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "binding_args.hpp"

namespace hr::bindings {

namespace {

// game:tile_at(b, f) -> tile, rotation, anchor vertex — or nil
GAME_METHOD(tile_at) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const ComponentId c = s.tile_on(b, site_arg(L, impl, b, SiteKind::Face, 3));
  if (c == kNoComponent) {
    lua_pushnil(L);
    return 1;
  }
  const Place p = s.place_of(c);
  lua_pushinteger(L, c + 1);
  lua_pushinteger(L, p.rotation);
  lua_pushinteger(L, p.site + 1);
  return 3;
}
// game:tile_faces(b, f) -> list of faces: those of the tile covering face f (f first, then breadth-first across
// the tile's inner edges, in game:face_edges order); {} when no tile covers f. Errors: a bad board or face.
GAME_METHOD(tile_faces) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  push_ids(L, s.tile_faces(b, site_arg(L, impl, b, SiteKind::Face, 3)));
  return 1;
}
// game:placements(b, tile [, into]) -> list, count: every legal placement (free faces on the board)
GAME_METHOD(placements) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const ComponentId c = tile_arg(L, impl, 3);
  guarded(L, [&] { s.placements(c, b, impl.int_scratch); return 0; });
  if (!lua_isnoneornil(L, 4)) check_into(L, 4, "placements"), lua_pushvalue(L, 4);  // (filled raw)
  else lua_createtable(L, static_cast<int>(impl.int_scratch.size()), 0);
  for (std::size_t i = 0; i < impl.int_scratch.size(); ++i) {
    lua_pushinteger(L, impl.int_scratch[i] + 1);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_pushinteger(L, static_cast<lua_Integer>(impl.int_scratch.size()));
  return 2;
}
// game:placement(b, "4,7 r2") -> placement number; game:placement(b, anchor, rotation) too
GAME_METHOD(placement) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const Lattice& l = lattice_of(impl, b);
  int anchor = 0, rotation = 0;
  if (lua_type(L, 3) == LUA_TSTRING && lua_isnoneornil(L, 4)) {
    std::tie(anchor, rotation) = placement_arg(L, impl, b, 3);
  } else {
    anchor = site_arg(L, impl, b, SiteKind::Vertex, 3);
    const lua_Integer r = integer_arg(L, 4);
    if (r < 0 || r >= l.rotations()) luaL_error(L, "rotation %d is not one of 0..%d", static_cast<int>(r), l.rotations() - 1);
    rotation = static_cast<int>(r);
  }
  lua_pushinteger(L, static_cast<lua_Integer>(anchor) * l.rotations() + rotation + 1);
  return 1;
}
// game:placement_text(b, p) -> "4,7 r2"; game:placement_anchor(b, p) -> anchor, rotation
GAME_METHOD(placement_text) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const auto [anchor, rotation] = placement_arg(L, impl, b, 3);
  lua_pushstring(L, (lattice_of(impl, b).vertex_text(anchor) + " r" + std::to_string(rotation)).c_str());
  return 1;
}
GAME_METHOD(placement_anchor) {
  IMPL;
  state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const auto [anchor, rotation] = placement_arg(L, impl, b, 3);
  lua_pushinteger(L, anchor + 1);
  lua_pushinteger(L, rotation);
  return 2;
}
// game:placement_faces(b, tile, p) -> the faces it would cover, or nil and the reason when a face is off the board
GAME_METHOD(placement_faces) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const ComponentId c = tile_arg(L, impl, 3);
  const auto placement = placement_arg(L, impl, b, 4);
  const int anchor = placement.first, rotation = placement.second;  // (clang 14: lambdas cannot capture bindings)
  std::vector<std::int32_t> faces;
  guarded(L, [&] { faces = s.placement_faces(c, b, anchor, rotation); return 0; });
  if (std::find(faces.begin(), faces.end(), -1) != faces.end()) {
    lua_pushnil(L);
    lua_pushstring(L, s.placement_problem(c, b, anchor, rotation).c_str());
    return 2;
  }
  push_ids(L, faces);
  return 1;
}
// game:placement_sides(b, tile, p) -> list of { edge =, side =, across =, across_tile = } for each boundary edge
// of the placement (faces order, then edge order): the tile's side feature there, and the side feature and
// component of the placed tile across it (nil when free or off the board).
GAME_METHOD(placement_sides) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const ComponentId c = tile_arg(L, impl, 3);
  const auto placement = placement_arg(L, impl, b, 4);
  const int anchor = placement.first, rotation = placement.second;  // (clang 14: lambdas cannot capture bindings)
  std::vector<std::int32_t> faces;
  guarded(L, [&] { faces = s.placement_faces(c, b, anchor, rotation); return 0; });
  if (std::find(faces.begin(), faces.end(), -1) != faces.end())
    luaL_error(L, "game:placement_sides: %s", s.placement_problem(c, b, anchor, rotation).c_str());
  const Lattice& l = lattice_of(impl, b);
  lua_newtable(L);
  lua_Integer n = 0;
  for (const int f : faces)
    for (const int e : l.face_edges(f)) {
      const int across = l.neighbour(f, e);
      if (across >= 0 && std::find(faces.begin(), faces.end(), across) != faces.end()) continue;  // inner edge
      lua_createtable(L, 0, 4);
      lua_pushinteger(L, e + 1);
      lua_setfield(L, -2, "edge");
      lua_pushinteger(L, s.side_feature(c, b, anchor, rotation, l.edge_coord(e)));
      lua_setfield(L, -2, "side");
      const ComponentId other = across >= 0 ? s.tile_on(b, across) : kNoComponent;
      if (other != kNoComponent && other != c) {
        const Place p = s.place_of(other);
        lua_pushinteger(L, s.side_feature(other, b, p.site, p.rotation, l.edge_coord(e)));
        lua_setfield(L, -2, "across");
        lua_pushinteger(L, other + 1);
        lua_setfield(L, -2, "across_tile");
      }
      lua_rawseti(L, -2, ++n);
    }
  return 1;
}
GAME_METHOD(tile) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int track = track_arg(L, impl, 2);
  const int space = static_cast<int>(integer_arg(L, 3));
  return guarded(L, [&] {
    const TilePlacement t = s.tile_at(track, space);
    if (t.component == kNoComponent) {
      lua_pushnil(L);
      return 1;
    }
    lua_pushinteger(L, t.component + 1);
    lua_pushinteger(L, t.rotation);
    return 2;
  });
}
// game:track_tiles(track, into [, first [, last]]) -> into: into[s] = the tile on space s of the track (its
// component number), false for none, for s = first..last (default: every space, 1..n): a walk along a path reads
// the tiles it passes from one call. Errors: a bad track, a space outside 1..n, an `into` that is not a plain table.
GAME_METHOD(track_tiles) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int track = track_arg(L, impl, 2);
  check_into(L, 3, "track_tiles");
  const auto spaces = static_cast<lua_Integer>(impl.layout->tracks[static_cast<std::size_t>(track)].values.size());
  const lua_Integer first = lua_isnoneornil(L, 4) ? 1 : integer_arg(L, 4);
  const lua_Integer last = lua_isnoneornil(L, 5) ? spaces : integer_arg(L, 5);
  if (first < 1 || last > spaces)
    luaL_error(L, "game:track_tiles: spaces %d..%d are not within 1..%d of track '%s'", static_cast<int>(first),
               static_cast<int>(last), static_cast<int>(spaces), impl.layout->tracks[static_cast<std::size_t>(track)].name.c_str());
  lua_settop(L, 3);
  for (lua_Integer space = first; space <= last; ++space) {
    const ComponentId c = s.tile_at(track, static_cast<int>(space)).component;
    if (c == kNoComponent) lua_pushboolean(L, 0);
    else lua_pushinteger(L, c + 1);
    lua_rawseti(L, 3, space);
  }
  return 1;
}
/// True when argument `index` of game:place_tile names a board rather than a track: a board's name, or a number
/// when the game has boards and no tracks. Raises on a number when it has both (name it then).
bool names_board(lua_State* L, Impl& impl, int index) {
  if (lua_type(L, index) == LUA_TSTRING) {
    const char* name = lua_tostring(L, index);
    for (const BoardDef& b : impl.layout->boards)
      if (b.name == name) return true;
    return false;
  }
  if (impl.layout->boards.empty()) return false;
  if (impl.layout->tracks.empty()) return true;
  luaL_error(L, "the game has boards and tracks: name the board or track (a number is ambiguous)");
  return false;
}

// game:place_tile(tile, board, placement) / (tile, board, "4,7 r2") / (tile, board, "4,7" or vertex, rotation):
// lays a tile on a lattice board; game:place_tile(tile, track, space [, rotation]) on a track.
GAME_METHOD(place_tile) {
  IMPL;
  GameState& s = writable_state(L, impl, "place_tile");
  const ComponentId c = component_arg(L, impl, 2);
  if (names_board(L, impl, 3)) {
    const int b = board_arg(L, impl, 3);
    tile_arg(L, impl, 2);
    int anchor = 0, rotation = 0;
    if (!lua_isnoneornil(L, 5)) {
      anchor = site_arg(L, impl, b, SiteKind::Vertex, 4);
      const lua_Integer r = integer_arg(L, 5);
      if (r < 0 || r >= lattice_of(impl, b).rotations())
        luaL_error(L, "rotation %d is not one of 0..%d", static_cast<int>(r), lattice_of(impl, b).rotations() - 1);
      rotation = static_cast<int>(r);
    } else {
      std::tie(anchor, rotation) = placement_arg(L, impl, b, 4);
    }
    return guarded(L, [&] { s.place_tile_on(c, b, anchor, rotation); return 0; });
  }
  const int track = track_arg(L, impl, 3);
  const int space = static_cast<int>(integer_arg(L, 4));
  const int rotation = static_cast<int>(luaL_optinteger(L, 5, 0));
  return guarded(L, [&] { s.place_tile(c, track, space, rotation); return 0; });
}
GAME_METHOD(figure) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const lua_Integer f = integer_arg(L, 2);
  return guarded(L, [&] {
    const FigurePlace p = s.figure_place(static_cast<int>(f - 1));
    if (p.on_board()) {  // board, "vertex"/"face", id
      lua_pushinteger(L, p.board + 1);
      lua_pushstring(L, to_string(p.kind).data());
      lua_pushinteger(L, p.site + 1);
      return 3;
    }
    if (p.track < 0) {
      lua_pushnil(L);
      return 1;
    }
    lua_pushinteger(L, p.track + 1);
    lua_pushinteger(L, p.space);
    return 2;
  });
}
GAME_METHOD(move_figure) {
  IMPL;
  GameState& s = writable_state(L, impl, "move_figure");
  const lua_Integer f = integer_arg(L, 2);
  if (lua_type(L, 4) == LUA_TSTRING) {  // game:move_figure(f, board, "vertex"/"face", id)
    const int b = board_arg(L, impl, 3);
    const SiteKind kind = site_kind_arg(L, 4);
    if (kind == SiteKind::Edge) luaL_error(L, "a figure stands on a vertex or a face, not on an edge");
    const int id = site_arg(L, impl, b, kind, 5);
    return guarded(L, [&] { s.move_figure_to_site(static_cast<int>(f - 1), b, kind, id); return 0; });
  }
  const int track = lua_isnoneornil(L, 3) ? -1 : track_arg(L, impl, 3);
  const int space = static_cast<int>(luaL_optinteger(L, 4, 0));
  return guarded(L, [&] { s.move_figure(static_cast<int>(f - 1), track, space); return 0; });
}
GAME_METHOD(figures_at) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int track = track_arg(L, impl, 2);
  const int space = static_cast<int>(integer_arg(L, 3));
  const auto figures = s.figures_at(track, space);
  lua_createtable(L, static_cast<int>(figures.size()), 0);
  for (std::size_t i = 0; i < figures.size(); ++i) {
    lua_pushinteger(L, figures[i] + 1);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  return 1;
}

}  // namespace

std::span<const luaL_Reg> tile_methods() {
  static const luaL_Reg methods[] = {
      {"tile_at", game_tile_at}, {"tile_faces", game_tile_faces},
      {"placements", game_placements}, {"placement", game_placement}, {"placement_text", game_placement_text},
      {"placement_anchor", game_placement_anchor}, {"placement_faces", game_placement_faces},
      {"placement_sides", game_placement_sides},
      {"tile", game_tile}, {"track_tiles", game_track_tiles}, {"place_tile", game_place_tile}, {"figure", game_figure}, {"move_figure", game_move_figure},
      {"figures_at", game_figures_at}};
  return methods;
}

}  // namespace hr::bindings
