// binding_args.hpp — private to scripting/bindings_*.cpp: reading the arguments of the Lua API's C functions.
//
// Numbering in Lua is 1-based: components 1..N, zones 1..Z, seats 1..S, tracks 1..T, figures 1..F, boards and
// their sites (faces, edges, vertices) 1..n; these helpers return the kernel's 0-based ids (seats stay 1-based).
// Each raises a Lua error naming the bad argument; none leaves anything on the Lua stack.
//
// The helpers the per-ply path calls (integer_arg, state_arg, writable_state, zone_arg, component_arg, seat_arg,
// counter_arg, check_into, push_component, Appender, board_arg, site_arg, ...) are `inline` here, so that every
// bindings_*.cpp may inline them as the one bindings.cpp they came from could (they were in its anonymous
// namespace); the split must not cost a call per argument (bench_lost_cities: the same ns/ply before and after).
// The long, cold ones (site_from_text, placement_arg, mask_arg) are defined in bindings_boards.cpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <lua.hpp>

#include "binding_context.hpp"

namespace hr::bindings {

using Impl = ScriptedRules::Impl;

/// Runs `body`, turning a kernel exception into a Lua error with its message (raised after the exception
/// object is gone: a Lua error unwinds as a C++ exception of its own).
template <class F>
int guarded(lua_State* L, F&& body) {
  std::string message;
  try {
    return body();
  } catch (const std::exception& e) {
    message = e.what();
  }
  return luaL_error(L, "%s", message.c_str());
}

/// luaL_checkinteger, with its hot case inline: the C API call that converts, and luaL_checkinteger itself only
/// to raise its error (the same message) when the argument is no integer.
inline lua_Integer integer_arg(lua_State* L, int index) {
  int is_integer = 0;
  const lua_Integer value = lua_tointegerx(L, index, &is_integer);
  return is_integer ? value : luaL_checkinteger(L, index);
}

/// The state behind the `game` argument at index 1; raises if arg 1 is not the game or no hook runs.
inline GameState& state_arg(lua_State* L, Impl& impl) {
  if (!impl.binding) luaL_error(L, "the game may only be used while a hook runs (not while the rules load)");
  if (lua_touserdata(L, 1) != impl.binding) luaL_error(L, "expected the game as first argument (call it as game:method(...))");
  if (!impl.binding->state) luaL_error(L, "the game may only be used while a hook runs");
  ++impl.game_reads;  // (game:append_allowed remembers the answers of rule calls that read nothing of the game)
  return *impl.binding->state;
}

/// state_arg, for a method that changes the game: raises unless the running hook may (setup, start_round, apply).
inline GameState& writable_state(lua_State* L, Impl& impl, const char* method) {
  GameState& state = state_arg(L, impl);
  if (!impl.binding->writable)
    luaL_error(L, "game:%s changes the game, which %s may not do (only setup, start_round and apply may)", method,
               impl.binding->hook);
  return state;
}

/// A zone by number (the fast path: one API call) or by name (declare's zone names).
inline ZoneId zone_arg(lua_State* L, Impl& impl, int index) {
  int is_integer = 0;
  const lua_Integer number = lua_tointegerx(L, index, &is_integer);  // the fast path: one API call
  if (is_integer && lua_type(L, index) == LUA_TNUMBER) {
    if (number < 1 || number > static_cast<lua_Integer>(impl.layout->zones.size()))
      luaL_error(L, "no zone number %d", static_cast<int>(number));
    return static_cast<ZoneId>(number - 1);
  }
  if (lua_type(L, index) != LUA_TSTRING) luaL_typeerror(L, index, "zone (number or name)");
  index = lua_absindex(L, index);
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.zone_names_ref);
  lua_pushvalue(L, index);
  if (lua_rawget(L, -2) != LUA_TNUMBER) luaL_error(L, "unknown zone '%s'", lua_tostring(L, index));
  const auto z = static_cast<ZoneId>(lua_tointeger(L, -1) - 1);
  lua_pop(L, 2);
  return z;
}

inline ComponentId component_arg(lua_State* L, Impl& impl, int index) {
  const lua_Integer c = integer_arg(L, index);
  if (c < 1 || c > static_cast<lua_Integer>(impl.layout->components.size()))
    luaL_error(L, "no component number %d (the game has %d)", static_cast<int>(c),
               static_cast<int>(impl.layout->components.size()));
  return static_cast<ComponentId>(c - 1);
}

/// A seat, 1-based (returned as given).
inline int seat_arg(lua_State* L, Impl& impl, int index) {
  const lua_Integer s = integer_arg(L, index);
  if (s < 1 || s > impl.layout->seats) luaL_error(L, "no seat %d in a game of %d seats", static_cast<int>(s), impl.layout->seats);
  return static_cast<int>(s);
}

/// A track by name or number.
inline int track_arg(lua_State* L, Impl& impl, int index) {
  if (lua_type(L, index) == LUA_TSTRING) {
    const char* name = lua_tostring(L, index);
    for (std::size_t t = 0; t < impl.layout->tracks.size(); ++t)
      if (impl.layout->tracks[t].name == name) return static_cast<int>(t);
    luaL_error(L, "unknown track '%s'", name);
  }
  const lua_Integer t = integer_arg(L, index);
  if (t < 1 || t > static_cast<lua_Integer>(impl.layout->tracks.size())) luaL_error(L, "no track number %d", static_cast<int>(t));
  return static_cast<int>(t - 1);
}

/// A counter's value given to set_counter or made by add_counter, refused (naming the method, the counter and
/// the value) past ScriptedRules::kMaxCounter in size: an int64 would wrap silently at 2^63 (issue 32).
inline void check_counter_value(lua_State* L, Impl& impl, const char* method, int counter, lua_Integer value) {
  if (value > ScriptedRules::kMaxCounter || value < -ScriptedRules::kMaxCounter) [[unlikely]]
    luaL_error(L, "game:%s: counter '%s' would hold %I; a counter is at most 2^53 (%I) in size, as a score", method,
               impl.layout->counters[static_cast<std::size_t>(counter)].name.c_str(), value,
               static_cast<lua_Integer>(ScriptedRules::kMaxCounter));
}

/// A counter by number or name.
inline int counter_arg(lua_State* L, Impl& impl, int index) {
  if (lua_type(L, index) == LUA_TNUMBER) {
    const lua_Integer i = lua_tointeger(L, index);
    if (i < 1 || i > static_cast<lua_Integer>(impl.layout->counters.size())) luaL_error(L, "no counter number %d", static_cast<int>(i));
    return static_cast<int>(i - 1);
  }
  const char* name = luaL_checkstring(L, index);
  for (std::size_t i = 0; i < impl.layout->counters.size(); ++i)
    if (impl.layout->counters[i].name == name) return static_cast<int>(i);
  return luaL_error(L, "unknown counter '%s'", name);
}

/// Checks that argument `index` is a list a method may fill with rawset: a plain table. A table with a
/// metatable is refused: a read-only proxy (houserules.params.colours, a library) would be written behind its
/// back. The one check of every method that fills an `into` list (cards, tops, sizes, append_cards, nonempty,
/// placements, lying, reachable: issue 32).
/// The `actions` hook's `out` list, while the kernel buffers it, is made a plain table first (unbuffer_out).
inline void check_into(lua_State* L, int index, const char* method) {
  luaL_checktype(L, index, LUA_TTABLE);
  Sandbox::from(L)->plain(L, index);
  if (lua_getmetatable(L, index)) luaL_error(L, "game:%s: the list to fill must be a plain table (this one has a metatable: read-only?)", method);
}

/// Where a batch method (append_cards, nonempty) appends after into[n], `into` being argument `index`: into the
/// kernel's buffer when `into` is the buffered `out` list and n is within its entries (0 <= n <= #out), else
/// into the table with rawset (a buffered list is first made plain: its entries would otherwise leave a hole,
/// or go past kMaxActions, which only the Lua memory cap bounds).
class Appender {
 public:
  /// Checks `into` as check_into does; `n` is read after it (the arguments' order of checks is unchanged).
  Appender(lua_State* L, Impl& impl, int index, const char* method) : L_(L), impl_(impl), index_(index) {
    buffered_ = impl.out_buffered && lua_type(L, index) == LUA_TTABLE && lua_topointer(L, index) == impl.out_table;
    if (!buffered_) check_into(L, index, method);
  }
  /// Sets the count to append after; call once, before add.
  void start(lua_Integer n) {
    n_ = n;
    buffered_ = buffered_ && impl_.out_buffered;  // (made plain meanwhile, as another argument: append_cards' limits)
    if (buffered_ && (n < 0 || n > static_cast<lua_Integer>(impl_.out_buffer.size()))) unbuffer();
  }
  // The buffered case inline, the rest out of line. always_inline: with the argument helpers inline in this
  // header, GCC's size budget left add() out of append_cards (it was inlined when the helpers were calls).
  [[gnu::always_inline]] void add(lua_Integer value) {
    if (buffered_) {
      std::vector<lua_Integer>& buffer = impl_.out_buffer;
      const auto i = static_cast<std::size_t>(n_);
      if (i < buffer.size()) {
        buffer[i] = value;
        ++n_;
        return;
      }
      if (i < buffer.capacity()) {  // (grown only by add_other, below 2 x kMaxActions entries)
        buffer.push_back(value);
        ++n_;
        return;
      }
    }
    add_other(value);
  }
  lua_Integer count() const { return n_; }
  /// After a call back into Lua (game:append_allowed's rule): if the list was made plain meanwhile (it then
  /// holds the entries appended so far), append to the table from now on.
  void resync() { buffered_ = buffered_ && impl_.out_buffered; }

 private:
  [[gnu::noinline]] void add_other(lua_Integer value) {
    if (buffered_) {
      std::vector<lua_Integer>& buffer = impl_.out_buffer;
      if (n_ < ScriptedRules::kMaxActions) {
        buffer.push_back(value);
        ++n_;
        return;
      }
      unbuffer();
    }
    lua_pushinteger(L_, value);
    lua_rawseti(L_, index_, ++n_);
  }
  void unbuffer() {
    unbuffer_out(L_);
    buffered_ = false;
  }
  lua_State* L_;
  Impl& impl_;
  int index_;
  bool buffered_;
  lua_Integer n_ = 0;
};

/// Pushes a component: its number, 0 for a card the viewer cannot see, nil for none.
inline void push_component(lua_State* L, ComponentId c) {
  if (c == kNoComponent) lua_pushnil(L);
  else if (c == kUnknownComponent) lua_pushinteger(L, 0);
  else lua_pushinteger(L, c + 1);
}

// ---- lattice boards (docs/boards.md): bindings_boards.cpp, bindings_tiles.cpp, bindings_counters.cpp ----

/// The board named (string) or numbered (1-based) by argument `index`; raises naming an unknown one.
inline int board_arg(lua_State* L, Impl& impl, int index) {
  const auto& boards = impl.layout->boards;
  if (lua_type(L, index) == LUA_TSTRING) {
    const char* name = lua_tostring(L, index);
    for (std::size_t b = 0; b < boards.size(); ++b)
      if (boards[b].name == name) return static_cast<int>(b);
    luaL_error(L, "unknown board '%s'", name);
  }
  if (lua_type(L, index) != LUA_TNUMBER) luaL_typeerror(L, index, "board (name or number)");
  const lua_Integer b = integer_arg(L, index);
  if (b < 1 || b > static_cast<lua_Integer>(boards.size()))
    luaL_error(L, "no board number %d (the game has %d)", static_cast<int>(b), static_cast<int>(boards.size()));
  return static_cast<int>(b - 1);
}

inline const Lattice& lattice_of(Impl& impl, int board) { return impl.layout->boards[static_cast<std::size_t>(board)].lattice; }
inline const char* board_name_of(Impl& impl, int board) { return impl.layout->boards[static_cast<std::size_t>(board)].name.c_str(); }

/// "face", "edge" or "vertex" at argument `index` (Tile is not a site).
inline SiteKind site_kind_arg(lua_State* L, int index) {
  const char* text = luaL_checkstring(L, index);
  if (!std::strcmp(text, "face")) return SiteKind::Face;
  if (!std::strcmp(text, "edge")) return SiteKind::Edge;
  if (!std::strcmp(text, "vertex")) return SiteKind::Vertex;
  luaL_error(L, "'%s' is not a site kind (expected \"face\", \"edge\" or \"vertex\")", text);
  return SiteKind::None;
}

/// Parses the text form of a site of `kind` on `board`: the 0-based id, -1 when well formed but off the board.
/// Raises on malformed text. (bindings_boards.cpp)
int site_from_text(lua_State* L, Impl& impl, int board, SiteKind kind, const char* text);

inline int site_arg_checked(lua_State* L, Impl& impl, int board, SiteKind kind, int index);

/// A site id of `kind` at argument `index`: a number (1-based) or its text form; raises when it is not on the
/// board (naming the board and the text).
inline int site_arg(lua_State* L, Impl& impl, int board, SiteKind kind, int index) {
  // The common case first (an integer on the board: three calls), everything else (a text, an error) below.
  if (lua_type(L, index) == LUA_TNUMBER) {
    int is_integer = 0;
    const lua_Integer id = lua_tointegerx(L, index, &is_integer);
    if (is_integer && id >= 1 && id <= impl.layout->sites(board, kind)) return static_cast<int>(id - 1);
  }
  return site_arg_checked(L, impl, board, kind, index);
}

/// site_arg's slow path: a text, or an argument that is not a site of the board (raises).
inline int site_arg_checked(lua_State* L, Impl& impl, int board, SiteKind kind, int index) {
  const char* kind_name = to_string(kind).data();
  if (lua_type(L, index) == LUA_TSTRING) {
    const char* text = lua_tostring(L, index);
    const int id = site_from_text(L, impl, board, kind, text);
    if (id < 0) luaL_error(L, "%s %s is not on board '%s'", kind_name, text, board_name_of(impl, board));
    return id;
  }
  if (lua_type(L, index) != LUA_TNUMBER || !lua_isinteger(L, index))
    luaL_error(L, "bad argument #%d: expected a %s of board '%s' (number or text), got %s", index - 1, kind_name,
               board_name_of(impl, board), luaL_typename(L, index));
  const lua_Integer id = lua_tointeger(L, index);
  const int n = impl.layout->sites(board, kind);
  if (id < 1 || id > n)
    luaL_error(L, "board '%s' has no %s number %d (it has %d)", board_name_of(impl, board), kind_name, static_cast<int>(id), n);
  return static_cast<int>(id - 1);
}

/// A mark of `board` named by argument `index`; raises naming the board's marks otherwise.
inline int mark_arg(lua_State* L, Impl& impl, int board, int index) {
  const char* name = luaL_checkstring(L, index);
  const int m = impl.layout->boards[static_cast<std::size_t>(board)].mark_index(name);
  if (m < 0) luaL_error(L, "board '%s' has no mark '%s'", board_name_of(impl, board), name);
  return m;
}

/// Pushes a list of 0-based ids as 1-based numbers.
inline void push_ids(lua_State* L, std::span<const std::int32_t> ids) {
  lua_createtable(L, static_cast<int>(ids.size()), 0);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    lua_pushinteger(L, ids[i] + 1);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

/// Pushes an optional 0-based id: id + 1, or nil for -1.
inline void push_id(lua_State* L, int id) {
  if (id < 0) lua_pushnil(L); else lua_pushinteger(L, id + 1);
}

/// A tile component at argument `index` (a component with a shape).
inline ComponentId tile_arg(lua_State* L, Impl& impl, int index) {
  const ComponentId c = component_arg(L, impl, index);
  if (impl.layout->components[c].shape < 0)
    luaL_error(L, "component %d ('%s') is not a tile (declare it with a shape)", c + 1, impl.layout->components[c].name.c_str());
  return c;
}

/// The zones named by argument `arg`: a zone group (a number from declare{groups=...}, resolved once at load:
/// the fast form) or a list of zones (numbers or names, read into impl.scratch_zones). Raises on a bad group
/// number, a bad zone or another type. (bindings_zones.cpp)
const std::vector<ZoneId>& zones_arg(lua_State* L, Impl& impl, int arg);

/// The declared map (declare{maps=...}) numbered by argument `arg`: its values indexed by component number
/// (entry 0 for a card the viewer cannot see). Raises on a number that names no map. (bindings_zones.cpp)
const std::vector<lua_Integer>& map_arg(lua_State* L, Impl& impl, int arg);

/// A placement number (1-based: anchor * rotations + rotation + 1) or text ("4,7 r2") at `index`: anchor,
/// rotation. (bindings_boards.cpp)
std::pair<int, int> placement_arg(lua_State* L, Impl& impl, int board, int index);

/// The edge filter table at `index` (nil or absent: every edge passes); raises on an unknown key or a bad value.
/// (bindings_boards.cpp)
EdgeMask mask_arg(lua_State* L, Impl& impl, int board, int index);

// ---- the `game` methods, by API area: create_game_methods (bindings_flow.cpp) registers them all ----

#define GAME_METHOD(NAME) int game_##NAME(lua_State* L)
#define IMPL Impl& impl = Impl::from(L)

/// Each area's methods (name, C function), without the end marker; every name once across the areas.
std::span<const luaL_Reg> flow_methods();      // bindings_flow.cpp: turns, phases, rounds, scores, random
std::span<const luaL_Reg> zone_methods();      // bindings_zones.cpp: zones and the cards in them
std::span<const luaL_Reg> counter_methods();   // bindings_counters.cpp: counters and board marks
std::span<const luaL_Reg> board_methods();     // bindings_boards.cpp: lattices, features, sites, paths
std::span<const luaL_Reg> tile_methods();      // bindings_tiles.cpp: tile placements, tracks, figures
std::span<const luaL_Reg> tally_methods();     // bindings_tally.cpp: counts of the cards in zones, by a map's key
std::span<const luaL_Reg> allowed_methods();   // bindings_allowed.cpp: a rule asked for each card of a zone

/// houserules.declare (bindings_declare.cpp): registered by push_houserules_api (bindings_api.cpp).
int houserules_declare(lua_State* L);
int houserules_name_phase(lua_State* L);  // bindings_declare.cpp

}  // namespace hr::bindings
