// bindings.cpp — the Lua API of the kernel: the `game` object passed to every hook, and the load-time
// `houserules` table (params, seats, declare). Reference with examples: docs/writing-rules.md.
//
// Numbering in Lua is 1-based: components 1..N, zones 1..Z, seats 1..S, tracks 1..T, figures 1..F.
// A zone may be given by number or by name. Every C function converts kernel exceptions to Lua errors.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <tuple>

#include "binding_context.hpp"
#include "encoding_lua.hpp"
#include "ruleset.hpp"

namespace hr {

namespace {

using Impl = ScriptedRules::Impl;

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
GameState& state_arg(lua_State* L, Impl& impl) {
  if (!impl.binding) luaL_error(L, "the game may only be used while a hook runs (not while the rules load)");
  if (lua_touserdata(L, 1) != impl.binding) luaL_error(L, "expected the game as first argument (call it as game:method(...))");
  if (!impl.binding->state) luaL_error(L, "the game may only be used while a hook runs");
  return *impl.binding->state;
}

GameState& writable_state(lua_State* L, Impl& impl, const char* method) {
  GameState& state = state_arg(L, impl);
  if (!impl.binding->writable)
    luaL_error(L, "game:%s changes the game, which %s may not do (only setup, start_round and apply may)", method,
               impl.binding->hook);
  return state;
}

ZoneId zone_arg(lua_State* L, Impl& impl, int index) {
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

ComponentId component_arg(lua_State* L, Impl& impl, int index) {
  const lua_Integer c = integer_arg(L, index);
  if (c < 1 || c > static_cast<lua_Integer>(impl.layout->components.size()))
    luaL_error(L, "no component number %d (the game has %d)", static_cast<int>(c),
               static_cast<int>(impl.layout->components.size()));
  return static_cast<ComponentId>(c - 1);
}

int seat_arg(lua_State* L, Impl& impl, int index) {
  const lua_Integer s = integer_arg(L, index);
  if (s < 1 || s > impl.layout->seats) luaL_error(L, "no seat %d in a game of %d seats", static_cast<int>(s), impl.layout->seats);
  return static_cast<int>(s);
}

int track_arg(lua_State* L, Impl& impl, int index) {
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

int counter_arg(lua_State* L, Impl& impl, int index) {
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

/// Checks that argument `index` is a list the batch methods may fill with rawset: a plain table. A table
/// with a metatable is refused: a read-only proxy (houserules.params.colours, a library) would be written
/// behind its back.
/// The `actions` hook's `out` list, while the kernel buffers it, is made a plain table first (unbuffer_out).
void check_into(lua_State* L, int index, const char* method) {
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
  void add(lua_Integer value) {  // the buffered case inline, the rest out of line
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

void push_component(lua_State* L, ComponentId c) {
  if (c == kNoComponent) lua_pushnil(L);
  else if (c == kUnknownComponent) lua_pushinteger(L, 0);
  else lua_pushinteger(L, c + 1);
}

#define GAME_METHOD(NAME) int game_##NAME(lua_State* L)
#define IMPL Impl& impl = Impl::from(L)

// ---- turn sequencing ----
GAME_METHOD(seats) { IMPL; state_arg(L, impl); lua_pushinteger(L, impl.layout->seats); return 1; }
GAME_METHOD(to_move) { IMPL; lua_pushinteger(L, state_arg(L, impl).to_move()); return 1; }
/// The phase at argument `arg`: an integer, or a name from declare{phases=...}.
int phase_arg(lua_State* L, Impl& impl, int arg) {
  int is_integer = 0;
  const lua_Integer number = lua_tointegerx(L, arg, &is_integer);  // the hot case in one call, as before names
  if (is_integer) return static_cast<int>(number);  // (a numeric string too, as luaL_checkinteger took it)
  if (lua_type(L, arg) == LUA_TSTRING) {
    const char* name = lua_tostring(L, arg);
    if (const auto number = impl.layout->phase_number(name)) return *number;
    std::string known;
    for (const auto& [n, number] : impl.layout->phase_names) known += (known.empty() ? "" : ", ") + n;
    return luaL_error(L, "unknown phase '%s' (declared phases: %s)", name, known.empty() ? "none" : known.c_str());
  }
  return static_cast<int>(integer_arg(L, arg));
}
// game:set_to_move(seat [, phase]): the seat to move, and the phase it is in when given (one call for both).
GAME_METHOD(set_to_move) {
  IMPL;
  GameState& s = writable_state(L, impl, "set_to_move");
  s.set_to_move(seat_arg(L, impl, 2));
  if (!lua_isnoneornil(L, 3)) s.set_phase(phase_arg(L, impl, 3));
  return 0;
}
GAME_METHOD(next_seat) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int from = lua_isnoneornil(L, 2) ? s.to_move() : seat_arg(L, impl, 2);
  lua_pushinteger(L, from % impl.layout->seats + 1);
  return 1;
}
GAME_METHOD(phase) { IMPL; lua_pushinteger(L, state_arg(L, impl).phase()); return 1; }
GAME_METHOD(set_phase) { IMPL; GameState& s = writable_state(L, impl, "set_phase"); s.set_phase(phase_arg(L, impl, 2)); return 0; }
// game:phase_name([phase]): the declared name of the phase (default: the current one), or nil
GAME_METHOD(phase_name) {
  IMPL;
  const int phase = lua_isnoneornil(L, 2) ? state_arg(L, impl).phase() : static_cast<int>(integer_arg(L, 2));
  for (const auto& [name, number] : impl.layout->phase_names)
    if (number == phase) {
      lua_pushstring(L, name.c_str());
      return 1;
    }
  lua_pushnil(L);
  return 1;
}
GAME_METHOD(round) { IMPL; lua_pushinteger(L, state_arg(L, impl).round()); return 1; }
GAME_METHOD(rounds) { IMPL; state_arg(L, impl); lua_pushinteger(L, impl.layout->rounds); return 1; }
GAME_METHOD(ply) { IMPL; lua_pushinteger(L, state_arg(L, impl).ply()); return 1; }
GAME_METHOD(over) { IMPL; lua_pushboolean(L, state_arg(L, impl).over()); return 1; }
GAME_METHOD(end_round) { IMPL; writable_state(L, impl, "end_round").request_round_end(); return 0; }
GAME_METHOD(end_game) { IMPL; writable_state(L, impl, "end_game").set_over(); return 0; }
GAME_METHOD(match_score) { IMPL; const GameState& s = state_arg(L, impl); lua_pushinteger(L, s.match_score(seat_arg(L, impl, 2))); return 1; }
GAME_METHOD(round_score) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const lua_Integer r = integer_arg(L, 2);
  const int seat = seat_arg(L, impl, 3);
  if (r < 1 || r > static_cast<lua_Integer>(s.round_scores().size())) luaL_error(L, "round %d has not been scored", static_cast<int>(r));
  lua_pushinteger(L, s.round_scores()[static_cast<std::size_t>(r - 1)][static_cast<std::size_t>(seat - 1)]);
  return 1;
}
GAME_METHOD(viewer) {
  IMPL;
  const int seat = state_arg(L, impl).masked_for();
  if (seat) lua_pushinteger(L, seat); else lua_pushnil(L);
  return 1;
}

// ---- zones ----
GAME_METHOD(size) { IMPL; const GameState& s = state_arg(L, impl); lua_pushinteger(L, s.size(zone_arg(L, impl, 2))); return 1; }
GAME_METHOD(top) { IMPL; const GameState& s = state_arg(L, impl); push_component(L, s.top(zone_arg(L, impl, 2))); return 1; }
GAME_METHOD(card) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const auto cards = s.cards(zone_arg(L, impl, 2));
  lua_Integer i = integer_arg(L, 3);
  if (i < 0) i += static_cast<lua_Integer>(cards.size()) + 1;
  if (i < 1 || i > static_cast<lua_Integer>(cards.size())) lua_pushnil(L);
  else push_component(L, cards[static_cast<std::size_t>(i - 1)]);
  return 1;
}
// game:cards(zone [, into [, distinct]]) -> list, count: the cards bottom to top; fills `into` when given.
// With `distinct` true, only the first copy of each card name (copies are one action: docs/writing-rules.md).
GAME_METHOD(cards) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const auto cards = s.cards(zone_arg(L, impl, 2));
  const bool distinct = lua_toboolean(L, 4);
  if (lua_istable(L, 3)) {
    check_into(L, 3, "cards");
    lua_settop(L, 3);  // fill the caller's list: entries past the count are left as they were
  } else {
    lua_settop(L, 2);
    lua_createtable(L, static_cast<int>(cards.size()), 0);
  }
  lua_Integer n = 0;
  const Layout& layout = *impl.layout;
  // distinct: a name class is skipped once marked with this call's stamp (no quadratic search)
  const std::uint32_t stamp = distinct ? impl.next_name_stamp() : 0;
  for (const ComponentId c : cards) {
    if (distinct && c < kUnknownComponent) {
      std::uint32_t& mark = impl.name_stamps[layout.name_class(c)];
      if (mark == stamp) continue;
      mark = stamp;
    }
    push_component(L, c);
    lua_rawseti(L, -2, ++n);
  }
  lua_pushinteger(L, n);
  return 2;
}
/// The zones named by argument `arg`: a zone group (a number from declare{groups=...}, resolved once at load:
/// the fast form) or a list of zones (numbers or names, read into impl.scratch_zones). Raises on a bad group
/// number, a bad zone or another type.
const std::vector<ZoneId>& zones_arg(lua_State* L, Impl& impl, int arg) {
  if (lua_type(L, arg) == LUA_TNUMBER) {
    const lua_Integer g = lua_tointeger(L, arg);
    if (g < 1 || g > static_cast<lua_Integer>(impl.zone_groups.size())) luaL_error(L, "no zone group number %d", static_cast<int>(g));
    return impl.zone_groups[static_cast<std::size_t>(g - 1)];
  }
  luaL_checktype(L, arg, LUA_TTABLE);
  const auto n = static_cast<lua_Integer>(luaL_len(L, arg));
  impl.scratch_zones.clear();
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_geti(L, arg, i);
    impl.scratch_zones.push_back(zone_arg(L, impl, -1));
    lua_pop(L, 1);
  }
  return impl.scratch_zones;
}

/// Shared body of game:tops and game:sizes. Arg 2 names zones (zones_arg), arg 3 is an optional list to fill.
/// For each zone i, read(state, zone) pushes one value and it is stored as into[i]. Returns `into` and the count.
template <class Read>
int each_zone(lua_State* L, Read&& read) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const std::vector<ZoneId>& zones = zones_arg(L, impl, 2);
  if (lua_istable(L, 3)) check_into(L, 3, "tops/sizes"), lua_pushvalue(L, 3);
  else lua_createtable(L, static_cast<int>(zones.size()), 0);
  const int into = lua_gettop(L);
  for (std::size_t i = 0; i < zones.size(); ++i) {
    read(s, zones[i]);
    lua_rawseti(L, into, static_cast<lua_Integer>(i + 1));
  }
  lua_pushinteger(L, static_cast<lua_Integer>(zones.size()));
  return 2;
}
/// The declared map (declare{maps=...}) numbered by argument `arg`: its values indexed by component number
/// (entry 0 for a card the viewer cannot see). Raises on a number that names no map.
const std::vector<lua_Integer>& map_arg(lua_State* L, Impl& impl, int arg) {
  const lua_Integer m = integer_arg(L, arg);
  if (m < 1 || m > static_cast<lua_Integer>(impl.maps.size())) luaL_error(L, "no map number %d", static_cast<int>(m));
  return impl.maps[static_cast<std::size_t>(m - 1)];
}

// game:tops(zones [, into [, map, empty]]) -> list, count: the top card of each zone (false when empty).
// With `map` (a declared map's number, the fast form, or a list indexed by card number), map[top] instead of
// the card, and `empty` for an empty zone: e.g. the value of each expedition's last card in one call.
GAME_METHOD(tops) {
  if (lua_type(L, 4) == LUA_TNUMBER) {
    const std::vector<lua_Integer>& map = map_arg(L, Impl::from(L), 4);
    const bool empty_is_integer = lua_isinteger(L, 5);
    const lua_Integer empty = empty_is_integer ? lua_tointeger(L, 5) : 0;
    return each_zone(L, [L, &map, empty_is_integer, empty](const GameState& s, ZoneId z) {
      const ComponentId c = s.top(z);
      if (c != kNoComponent) lua_pushinteger(L, map[c == kUnknownComponent ? 0 : c + 1u]);
      else if (empty_is_integer) lua_pushinteger(L, empty);
      else lua_pushvalue(L, 5);
    });
  }
  const bool mapped = lua_istable(L, 4);
  return each_zone(L, [L, mapped](const GameState& s, ZoneId z) {
    const ComponentId c = s.top(z);
    if (c == kNoComponent) {
      if (mapped) lua_pushvalue(L, 5);
      else lua_pushboolean(L, 0);
    } else if (mapped) {
      lua_geti(L, 4, c == kUnknownComponent ? 0 : c + 1);
    } else {
      push_component(L, c);
    }
  });
}
// game:append_cards(zone, into, n, base [, distinct [, key, limits, values [, top_map, empty]]]) -> n':
// appends base + c to `into` (from into[n + 1]) for each card c of `zone`, bottom to top; with `distinct`,
// only the first copy of each name. With a filter (`key` and `values` declared map numbers), only the cards
// with limits[key[c]] < values[c], where `limits` is a list, or a zone group whose k-th zone gives limits[k] =
// top_map[its top card] (`empty` when it is empty): e.g. the cards of a hand that may go on the column of
// their colour. Returns the new count. Cards the viewer cannot see are skipped.
GAME_METHOD(append_cards) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const auto cards = s.cards(zone_arg(L, impl, 2));
  Appender into(L, impl, 3, "append_cards");
  const lua_Integer n = integer_arg(L, 4);
  const lua_Integer base = integer_arg(L, 5);
  const bool distinct = lua_toboolean(L, 6);
  const bool filtered = !lua_isnoneornil(L, 7);
  const std::vector<lua_Integer>* key = nullptr;
  const std::vector<lua_Integer>* values = nullptr;
  // The limits, read once (a short list: one per colour, say); a key outside 1..known is read per card from
  // the list (an error with a group).
  constexpr lua_Integer kLimits = 16;
  lua_Integer limits[kLimits + 1];
  lua_Integer known = 0;  // limits[1..known] were read
  const bool from_group = filtered && lua_type(L, 8) == LUA_TNUMBER;
  auto limit_of = [&](lua_Integer k) {
    if (k >= 1 && k <= known) return limits[k];
    if (from_group) luaL_error(L, "game:append_cards: key %d names no zone of the group", static_cast<int>(k));
    int is_integer = 0;
    lua_rawgeti(L, 8, k);
    const lua_Integer limit = lua_tointegerx(L, -1, &is_integer);
    lua_pop(L, 1);
    if (!is_integer) luaL_error(L, "game:append_cards: limits[%d] is not an integer", static_cast<int>(k));
    return limit;
  };
  if (filtered) {
    key = &map_arg(L, impl, 7);
    values = &map_arg(L, impl, 9);
    if (from_group) {
      const std::vector<ZoneId>& zones = zones_arg(L, impl, 8);
      const std::vector<lua_Integer>& top_map = map_arg(L, impl, 10);
      const lua_Integer empty = integer_arg(L, 11);
      if (static_cast<lua_Integer>(zones.size()) > kLimits) luaL_error(L, "game:append_cards: a group of limits has at most %d zones", static_cast<int>(kLimits));
      for (const ZoneId z : zones) {
        const ComponentId top = s.top(z);
        limits[++known] = top == kNoComponent ? empty : top_map[top == kUnknownComponent ? 0 : top + 1u];
      }
    } else {
      luaL_checktype(L, 8, LUA_TTABLE);
      impl.sandbox.plain(L, 8);
      const auto length = std::min(static_cast<lua_Integer>(lua_rawlen(L, 8)), kLimits);
      for (lua_Integer k = 1; k <= length; ++k) limits[k] = limit_of(k), known = k;
    }
  }
  into.start(n);
  const Layout& layout = *impl.layout;
  const std::uint32_t stamp = distinct ? impl.next_name_stamp() : 0;
  for (const ComponentId c : cards) {
    if (c >= kUnknownComponent) continue;
    if (distinct) {
      std::uint32_t& mark = impl.name_stamps[layout.name_class(c)];
      if (mark == stamp) continue;
      mark = stamp;
    }
    if (filtered && !(limit_of((*key)[c + 1u]) < (*values)[c + 1u])) continue;
    into.add(base + c + 1);
  }
  lua_pushinteger(L, into.count());
  return 1;
}
// game:sizes(zones [, into]) -> list, count: the number of cards of each zone
GAME_METHOD(sizes) {
  return each_zone(L, [L](const GameState& s, ZoneId z) { lua_pushinteger(L, s.size(z)); });
}
// game:nonempty(zones, into, n, base [, except]) -> n': appends base + i to `into` (from into[n + 1]) for each
// zone i of `zones` (a zone group or a list; i is its position, 1-based) that holds a card, skipping position
// `except` when given; returns the new count. One call builds the "take from any non-empty pile" actions.
GAME_METHOD(nonempty) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const std::vector<ZoneId>& zones = zones_arg(L, impl, 2);
  Appender into(L, impl, 3, "nonempty");
  const lua_Integer n = integer_arg(L, 4);
  const lua_Integer base = integer_arg(L, 5);
  const lua_Integer except = luaL_optinteger(L, 6, 0);
  into.start(n);
  for (std::size_t i = 0; i < zones.size(); ++i) {
    const auto position = static_cast<lua_Integer>(i + 1);
    if (position == except || s.size(zones[i]) == 0) continue;
    into.add(base + position);
  }
  lua_pushinteger(L, into.count());
  return 1;
}
GAME_METHOD(zone_of) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const Place p = s.place_of(component_arg(L, impl, 2));
  if (p.in_zone()) lua_pushinteger(L, p.zone + 1); else lua_pushnil(L);
  return 1;
}
GAME_METHOD(zone_name) {
  IMPL;
  state_arg(L, impl);
  const ZoneId z = zone_arg(L, impl, 2);
  lua_pushstring(L, impl.layout->zones[z].name.c_str());
  return 1;
}
GAME_METHOD(knows) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int seat = seat_arg(L, impl, 2);
  const ComponentId c = component_arg(L, impl, 3);
  lua_pushboolean(L, ((s.seen_by(c) >> (seat - 1)) & 1) || s.top_shown(c));  // (a top-card zone's top: everybody)
  return 1;
}
GAME_METHOD(move) {
  IMPL;
  GameState& s = writable_state(L, impl, "move");
  const ComponentId c = component_arg(L, impl, 2);
  const ZoneId z = zone_arg(L, impl, 3);
  const int index = lua_isnoneornil(L, 4) ? -1 : static_cast<int>(integer_arg(L, 4)) - 1;
  return guarded(L, [&] { s.move(c, z, index); return 0; });
}
// game:move_top(from, to) -> card (nil when `from` is empty), cards left in `from`
GAME_METHOD(move_top) {
  IMPL;
  GameState& s = writable_state(L, impl, "move_top");
  const ZoneId from = zone_arg(L, impl, 2);
  const ZoneId to = zone_arg(L, impl, 3);
  push_component(L, s.move_top(from, to));
  lua_pushinteger(L, s.size(from));
  return 2;
}
GAME_METHOD(put_under) {
  IMPL;
  GameState& s = writable_state(L, impl, "put_under");
  const ComponentId c = component_arg(L, impl, 2);
  s.put_under(c, zone_arg(L, impl, 3));
  return 0;
}
GAME_METHOD(deal) {
  IMPL;
  GameState& s = writable_state(L, impl, "deal");
  const ZoneId from = zone_arg(L, impl, 2);
  luaL_checktype(L, 3, LUA_TTABLE);
  const lua_Integer count = integer_arg(L, 4);
  ZoneId targets[64];
  const auto n = static_cast<int>(luaL_len(L, 3));
  if (n > 64) luaL_error(L, "game:deal deals to at most 64 zones");
  for (int i = 1; i <= n; ++i) {
    lua_geti(L, 3, i);
    targets[i - 1] = zone_arg(L, impl, lua_gettop(L));
    lua_pop(L, 1);
  }
  const int moves = static_cast<int>(std::clamp<lua_Integer>(count, 0, INT32_MAX));
  return guarded(L, [&] {
    lua_pushinteger(L, s.deal(from, std::span<const ZoneId>(targets, static_cast<std::size_t>(n)), moves));
    return 1;
  });
}
// game:gather(zone): every component into `zone`, in component-number order (as `game:move(c, zone)` for c =
// 1, 2, ... would do, in one call): all the cards back into the deck at the start of a round.
GAME_METHOD(gather) {
  IMPL;
  GameState& s = writable_state(L, impl, "gather");
  const ZoneId z = zone_arg(L, impl, 2);
  return guarded(L, [&] { s.gather(z); return 0; });
}
GAME_METHOD(shuffle) { IMPL; GameState& s = writable_state(L, impl, "shuffle"); s.shuffle(zone_arg(L, impl, 2)); return 0; }

// ---- counters ----
GAME_METHOD(counter) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int counter = counter_arg(L, impl, 2);
  const int owner = static_cast<int>(luaL_optinteger(L, 3, 0));
  return guarded(L, [&] { lua_pushinteger(L, s.counter(counter, owner)); return 1; });
}
GAME_METHOD(set_counter) {
  IMPL;
  GameState& s = writable_state(L, impl, "set_counter");
  const int counter = counter_arg(L, impl, 2);
  const int owner = static_cast<int>(integer_arg(L, 3));
  const lua_Integer value = integer_arg(L, 4);
  return guarded(L, [&] { s.set_counter(counter, owner, value); return 0; });
}
GAME_METHOD(add_counter) {
  IMPL;
  GameState& s = writable_state(L, impl, "add_counter");
  const int counter = counter_arg(L, impl, 2);
  const int owner = static_cast<int>(integer_arg(L, 3));
  const lua_Integer delta = integer_arg(L, 4);
  return guarded(L, [&] {
    const std::int64_t value = s.counter(counter, owner) + delta;
    s.set_counter(counter, owner, value);
    lua_pushinteger(L, value);
    return 1;
  });
}

// ---- lattice boards (docs/boards.md): ids 1-based in Lua ----

/// The board named (string) or numbered (1-based) by argument `index`; raises naming an unknown one.
int board_arg(lua_State* L, Impl& impl, int index) {
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

const Lattice& lattice_of(Impl& impl, int board) { return impl.layout->boards[static_cast<std::size_t>(board)].lattice; }
const char* board_name_of(Impl& impl, int board) { return impl.layout->boards[static_cast<std::size_t>(board)].name.c_str(); }

/// "face", "edge" or "vertex" at argument `index` (Tile is not a site).
SiteKind site_kind_arg(lua_State* L, int index) {
  const char* text = luaL_checkstring(L, index);
  if (!std::strcmp(text, "face")) return SiteKind::Face;
  if (!std::strcmp(text, "edge")) return SiteKind::Edge;
  if (!std::strcmp(text, "vertex")) return SiteKind::Vertex;
  luaL_error(L, "'%s' is not a site kind (expected \"face\", \"edge\" or \"vertex\")", text);
  return SiteKind::None;
}

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

/// A site id of `kind` at argument `index`: a number (1-based) or its text form; raises when it is not on the
/// board (naming the board and the text).
int site_arg(lua_State* L, Impl& impl, int board, SiteKind kind, int index) {
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
int mark_arg(lua_State* L, Impl& impl, int board, int index) {
  const char* name = luaL_checkstring(L, index);
  const int m = impl.layout->boards[static_cast<std::size_t>(board)].mark_index(name);
  if (m < 0) luaL_error(L, "board '%s' has no mark '%s'", board_name_of(impl, board), name);
  return m;
}

/// Pushes a list of 0-based ids as 1-based numbers.
void push_ids(lua_State* L, std::span<const std::int32_t> ids) {
  lua_createtable(L, static_cast<int>(ids.size()), 0);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    lua_pushinteger(L, ids[i] + 1);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

/// Pushes an optional 0-based id: id + 1, or nil for -1.
void push_id(lua_State* L, int id) {
  if (id < 0) lua_pushnil(L); else lua_pushinteger(L, id + 1);
}

/// A tile component at argument `index` (a component with a shape).
ComponentId tile_arg(lua_State* L, Impl& impl, int index) {
  const ComponentId c = component_arg(L, impl, index);
  if (impl.layout->components[c].shape < 0)
    luaL_error(L, "component %d ('%s') is not a tile (declare it with a shape)", c + 1, impl.layout->components[c].name.c_str());
  return c;
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

/// The edge filter table at `index` (nil or absent: every edge passes); raises on an unknown key or a bad value.
EdgeMask mask_arg(lua_State* L, Impl& impl, int board, int index) {
  EdgeMask m;
  if (lua_isnoneornil(L, index)) return m;
  luaL_checktype(L, index, LUA_TTABLE);
  index = lua_absindex(L, index);
  impl.sandbox.plain(L, index);
  lua_pushnil(L);
  while (lua_next(L, index)) {
    if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "an edge filter has string keys (class_any, class_none, feature_any, feature_none, mark, mark_any, mark_none, through, through_any, through_none)");
    const std::string key = lua_tostring(L, -2);
    if (key == "mark") {
      m.mark = mark_arg(L, impl, board, lua_gettop(L));
      if (impl.layout->boards[static_cast<std::size_t>(board)].marks[static_cast<std::size_t>(m.mark)].kind != SiteKind::Edge)
        luaL_error(L, "edge filter: mark '%s' of board '%s' is not an edge mark", lua_tostring(L, -1), board_name_of(impl, board));
    } else if (key == "through") {
      m.through = mark_arg(L, impl, board, lua_gettop(L));
      if (impl.layout->boards[static_cast<std::size_t>(board)].marks[static_cast<std::size_t>(m.through)].kind != SiteKind::Vertex)
        luaL_error(L, "edge filter: through mark '%s' of board '%s' is not a vertex mark", lua_tostring(L, -1), board_name_of(impl, board));
    } else {
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
      else if (key == "through_none") m.through_none = static_cast<std::uint8_t>(v);
      else luaL_error(L, "edge filter: unknown key '%s' (class_any, class_none, feature_any, feature_none, mark, mark_any, mark_none, through, through_any, through_none)", key.c_str());
    }
    lua_pop(L, 1);
  }
  if ((m.mark_any || m.mark_none) && m.mark < 0) luaL_error(L, "edge filter: mark_any and mark_none need mark = <edge mark name>");
  if ((m.through_any || m.through_none) && m.through < 0) luaL_error(L, "edge filter: through_any and through_none need through = <vertex mark name>");
  return m;
}

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
// game:mark(b, name, id) -> value (id: number or text of the mark's site kind)
GAME_METHOD(mark) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int m = mark_arg(L, impl, b, 3);
  const int id = site_arg(L, impl, b, impl.layout->boards[static_cast<std::size_t>(b)].marks[static_cast<std::size_t>(m)].kind, 4);
  lua_pushinteger(L, s.mark(b, m, id));
  return 1;
}
GAME_METHOD(set_mark) {
  IMPL;
  GameState& s = writable_state(L, impl, "set_mark");
  const int b = board_arg(L, impl, 2);
  const int m = mark_arg(L, impl, b, 3);
  const int id = site_arg(L, impl, b, impl.layout->boards[static_cast<std::size_t>(b)].marks[static_cast<std::size_t>(m)].kind, 4);
  const lua_Integer value = integer_arg(L, 5);
  if (value < 0 || value > 255) luaL_error(L, "mark '%s' of board '%s' holds 0..255, not %d", lua_tostring(L, 3), board_name_of(impl, b), static_cast<int>(value));
  s.set_mark(b, m, id, static_cast<int>(value));
  return 0;
}
// game:lying(b, kind, id [, into]) -> list, count: the components lying there, bottom to top (0: unseen)
GAME_METHOD(lying) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const SiteKind kind = site_kind_arg(L, 3);
  const auto here = s.lying(b, kind, site_arg(L, impl, b, kind, 4));
  if (lua_istable(L, 5)) lua_settop(L, 5), impl.sandbox.plain(L, 5);  // (filled raw: the `out` list made plain)
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
// game:reachable(b, v, k, mask [, into, dist]) -> vertices, distances, count (increasing distance, then id)
GAME_METHOD(reachable) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int v = site_arg(L, impl, b, SiteKind::Vertex, 3);
  const lua_Integer k = integer_arg(L, 4);
  const EdgeMask mask = mask_arg(L, impl, b, 5);
  const auto found = s.reachable(b, v, static_cast<int>(std::clamp<lua_Integer>(k, 0, 1 << 20)), mask, impl.lattice_scratch);
  impl.sandbox.plain(L, 6);  // the lists are filled raw: the `out` list made plain
  impl.sandbox.plain(L, 7);
  if (lua_istable(L, 6)) lua_pushvalue(L, 6); else lua_createtable(L, static_cast<int>(found.size()), 0);
  if (lua_istable(L, 7)) lua_pushvalue(L, 7); else lua_createtable(L, static_cast<int>(found.size()), 0);
  for (std::size_t i = 0; i < found.size(); ++i) {
    lua_pushinteger(L, found[i] + 1);
    lua_rawseti(L, -3, static_cast<lua_Integer>(i + 1));
    lua_pushinteger(L, impl.lattice_scratch.dist[static_cast<std::size_t>(found[i])]);
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
  lua_pushinteger(L, static_cast<lua_Integer>(found.size()));
  return 3;
}
// game:path(b, v1, v2, k, mask) -> list of vertices from v1 to v2 (a shortest one), or nil
GAME_METHOD(path) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const int from = site_arg(L, impl, b, SiteKind::Vertex, 3);
  const int to = site_arg(L, impl, b, SiteKind::Vertex, 4);
  const lua_Integer k = integer_arg(L, 5);
  const EdgeMask mask = mask_arg(L, impl, b, 6);
  if (!s.path(b, from, to, static_cast<int>(std::clamp<lua_Integer>(k, 0, 1 << 20)), mask, impl.lattice_scratch, impl.int_scratch)) {
    lua_pushnil(L);
    return 1;
  }
  push_ids(L, impl.int_scratch);
  return 1;
}
// game:placements(b, tile [, into]) -> list, count: every legal placement (free faces on the board)
GAME_METHOD(placements) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int b = board_arg(L, impl, 2);
  const ComponentId c = tile_arg(L, impl, 3);
  guarded(L, [&] { s.placements(c, b, impl.int_scratch); return 0; });
  impl.sandbox.plain(L, 4);  // filled raw: the `out` list made plain
  if (lua_istable(L, 4)) lua_pushvalue(L, 4); else lua_createtable(L, static_cast<int>(impl.int_scratch.size()), 0);
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

// ---- tracks, tiles, figures ----
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

// ---- chance ----
GAME_METHOD(random) {
  IMPL;
  GameState& s = writable_state(L, impl, "random");
  const lua_Integer low = lua_isnoneornil(L, 3) ? 1 : integer_arg(L, 2);
  const lua_Integer high = lua_isnoneornil(L, 3) ? integer_arg(L, 2) : integer_arg(L, 3);
  luaL_argcheck(L, low <= high, 2, "interval is empty");
  lua_pushinteger(L, s.rng().between(low, high));
  return 1;
}

int refuse_write_game(lua_State* L) {
  return luaL_error(L, "the game has no fields to set: change it through its methods (game:move, game:set_phase...)");
}

int game_tostring(lua_State* L) {
  IMPL;
  if (impl.binding->state)
    lua_pushfstring(L, "game (round %d, seat %d to move)", impl.binding->state->round(), impl.binding->state->to_move());
  else
    lua_pushliteral(L, "game (no hook running)");
  return 1;
}

const luaL_Reg game_methods[] = {
    {"seats", game_seats}, {"to_move", game_to_move}, {"set_to_move", game_set_to_move}, {"next_seat", game_next_seat},
    {"phase", game_phase}, {"set_phase", game_set_phase}, {"phase_name", game_phase_name}, {"round", game_round}, {"rounds", game_rounds},
    {"ply", game_ply}, {"over", game_over}, {"end_round", game_end_round}, {"end_game", game_end_game},
    {"match_score", game_match_score}, {"round_score", game_round_score}, {"viewer", game_viewer},
    {"size", game_size}, {"top", game_top}, {"sizes", game_sizes}, {"tops", game_tops}, {"nonempty", game_nonempty}, {"append_cards", game_append_cards}, {"card", game_card}, {"cards", game_cards}, {"zone_of", game_zone_of},
    {"zone_name", game_zone_name}, {"knows", game_knows}, {"move", game_move}, {"move_top", game_move_top},
    {"put_under", game_put_under}, {"deal", game_deal}, {"gather", game_gather}, {"shuffle", game_shuffle}, {"counter", game_counter},
    {"set_counter", game_set_counter}, {"add_counter", game_add_counter}, {"tile", game_tile},
    {"place_tile", game_place_tile}, {"figure", game_figure}, {"move_figure", game_move_figure},
    {"figures_at", game_figures_at}, {"random", game_random},
    {"board_size", game_board_size}, {"vertex", game_vertex}, {"face", game_face}, {"edge", game_edge},
    {"vertex_text", game_vertex_text}, {"face_text", game_face_text}, {"edge_text", game_edge_text},
    {"vertex_coord", game_vertex_coord}, {"face_coord", game_face_coord},
    {"face_vertices", game_face_vertices}, {"face_edges", game_face_edges}, {"edge_vertices", game_edge_vertices},
    {"edge_faces", game_edge_faces}, {"vertex_edges", game_vertex_edges}, {"vertex_faces", game_vertex_faces},
    {"neighbour", game_neighbour}, {"edge_between", game_edge_between}, {"tile_at", game_tile_at},
    {"tile_faces", game_tile_faces},
    {"face_feature", game_face_feature}, {"edge_feature", game_edge_feature}, {"edge_sides", game_edge_sides},
    {"vertex_feature", game_vertex_feature}, {"edge_class", game_edge_class}, {"mark", game_mark},
    {"set_mark", game_set_mark}, {"lying", game_lying}, {"lay", game_lay}, {"site_of", game_site_of},
    {"figures_on", game_figures_on}, {"reachable", game_reachable}, {"path", game_path},
    {"placements", game_placements}, {"placement", game_placement}, {"placement_text", game_placement_text},
    {"placement_anchor", game_placement_anchor}, {"placement_faces", game_placement_faces},
    {"placement_sides", game_placement_sides}, {nullptr, nullptr}};

// ---- declare ----

std::string field_string(lua_State* L, int t, const char* key, const char* what, int index) {
  lua_getfield(L, t, key);
  if (!lua_isstring(L, -1) || lua_type(L, -1) == LUA_TNUMBER)
    luaL_error(L, "houserules.declare: %s %d needs a string '%s'", what, index, key);
  std::string out = lua_tostring(L, -1);
  lua_pop(L, 1);
  return out;
}

/// Iterates the array field `key` of the table at `t`, calling body(i) with element i at the stack top.
template <class F>
void each_entry(lua_State* L, int t, const char* key, F&& body) {
  if (lua_getfield(L, t, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  if (!lua_istable(L, -1)) luaL_error(L, "houserules.declare: '%s' must be a list", key);
  const int list = lua_gettop(L);
  const auto n = static_cast<int>(luaL_len(L, list));
  for (int i = 1; i <= n; ++i) {
    if (lua_geti(L, list, i) != LUA_TTABLE) luaL_error(L, "houserules.declare: %s[%d] must be a table", key, i);
    body(i);
    lua_settop(L, list);
  }
  lua_pop(L, 1);
}

/// Reads a features table (faces, sides or corners: local text -> integer 0..65535) at the stack top into c.
void read_features(lua_State* L, Component& c, const std::string& key, int index) {
  if (!lua_istable(L, -1))
    luaL_error(L, "houserules.declare: component %d ('%s'): %s must map local %s texts to integers", index, c.name.c_str(),
               key.c_str(), key == "faces" ? "face" : key == "sides" ? "edge" : "vertex");
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    const char* text = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
    int is_integer = 0;
    const lua_Integer value = lua_tointegerx(L, -1, &is_integer);
    if (!is_integer || value < 0 || value > 65535)
      luaL_error(L, "houserules.declare: component %d ('%s'): %s[\"%s\"] must be an integer 0..65535", index, c.name.c_str(), key.c_str(), text);
    const auto feature = static_cast<std::uint16_t>(value);
    bool ok = true, twice = false;
    if (key == "faces") {
      const auto f = parse_local_face(text);
      ok = f.has_value();
      if (ok) {
        for (const auto& [g, v] : c.features.faces) twice |= g == *f;
        c.features.faces.emplace_back(*f, feature);
      }
    } else if (key == "sides") {
      const auto e = parse_local_edge(text);
      ok = e.has_value();
      if (ok) {
        for (const auto& [g, v] : c.features.sides) twice |= g == *e;
        c.features.sides.emplace_back(*e, feature);
      }
    } else {
      const auto v = Lattice::parse_coord(text);
      ok = v.has_value();
      if (ok) {
        for (const auto& [g, x] : c.features.corners) twice |= g == *v;
        c.features.corners.emplace_back(*v, feature);
      }
    }
    if (!ok)
      luaL_error(L, "houserules.declare: component %d ('%s'): %s key '%s' is not a local %s (e.g. %s)", index, c.name.c_str(),
                 key.c_str(), text, key == "faces" ? "face" : key == "sides" ? "edge" : "vertex",
                 key == "faces" ? "0,0u" : key == "sides" ? "0,0-1,0" : "1,0");
    if (twice) luaL_error(L, "houserules.declare: component %d ('%s'): %s names '%s' twice", index, c.name.c_str(), key.c_str(), text);
    lua_pop(L, 1);
  }
}

/// Whether `name` matches `pattern`, where each `*` matches any text (possibly empty).
bool glob_match(std::string_view pattern, std::string_view name) {
  std::size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

/// Adds the variants' new zones and counters to `layout` and changes the visibility of the zones their
/// [visibility] names (VariantAddition), in order. Errors name the variant file and line.
void apply_variant_additions(lua_State* L, const std::vector<VariantAddition>& additions, Layout& layout) {
  for (const VariantAddition& a : additions) {
    const std::string at = Sandbox::display_path(a.file) + ":" + std::to_string(a.line);
    const Visibility visibility = a.visibility.empty() ? Visibility::Hidden : visibility_from_string(a.visibility);
    switch (a.kind) {
      case VariantAddition::Kind::Zone: {
        std::vector<ZoneDef> zones;
        if (a.per_seat)
          for (int s = 1; s <= layout.seats; ++s) zones.push_back({a.name + "." + std::to_string(s), {Owner::Kind::Seat, s}, visibility});
        else
          zones.push_back({a.name, {}, visibility});
        for (ZoneDef& zone : zones) {
          for (const ZoneDef& old : layout.zones)
            if (old.name == zone.name)
              luaL_error(L, "%s: the variant adds a zone '%s', which the parent declares already", at.c_str(), zone.name.c_str());
          layout.zones.push_back(std::move(zone));
        }
        break;
      }
      case VariantAddition::Kind::Counter:
        for (const CounterDef& old : layout.counters)
          if (old.name == a.name)
            luaL_error(L, "%s: the variant adds a counter '%s', which the parent declares already", at.c_str(), a.name.c_str());
        layout.counters.push_back({a.name, a.per_seat, a.initial});
        break;
      case VariantAddition::Kind::Visibility: {
        int matched = 0;
        for (ZoneDef& zone : layout.zones) {
          if (!glob_match(a.name, zone.name)) continue;
          if (visibility == Visibility::Owner && zone.owner.kind == Owner::Kind::Nobody)
            luaL_error(L, "%s: zone '%s' has no owner, so it cannot be visible to its owner", at.c_str(), zone.name.c_str());
          zone.visibility = visibility;
          ++matched;
        }
        if (matched == 0) {
          std::string known;
          for (const ZoneDef& zone : layout.zones) {
            if (known.size() > 300) {
              known += ", ...";
              break;
            }
            known += (known.empty() ? "" : ", ") + zone.name;
          }
          luaL_error(L, "%s: [visibility] '%s' names no zone of the parent (its zones: %s)", at.c_str(), a.name.c_str(),
                     known.c_str());
        }
        break;
      }
    }
  }
}

int houserules_declare(lua_State* L) {
  IMPL;
  if (!impl.loading) return luaL_error(L, "houserules.declare may only be called while the rules load");
  if (impl.declared) return luaL_error(L, "houserules.declare may be called only once");
  luaL_checktype(L, 1, LUA_TTABLE);
  Layout& layout = *impl.layout;
  // shapes = { name = { "0,0u", "0,0d" } }: tile footprints in local coordinates (numbered in name order)
  if (lua_getfield(L, 1, "shapes") != LUA_TNIL) {
    if (!lua_istable(L, -1)) luaL_error(L, "houserules.declare: 'shapes' must map names to lists of faces");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
        luaL_error(L, "houserules.declare: 'shapes' must map names to lists of faces (e.g. rhombus = { \"0,0u\", \"0,0d\" })");
      ShapeDef shape;
      shape.name = lua_tostring(L, -2);
      const auto n = static_cast<int>(luaL_len(L, -1));
      for (int i = 1; i <= n; ++i) {
        lua_geti(L, -1, i);
        const char* text = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : nullptr;
        const auto face = text ? parse_local_face(text) : std::nullopt;
        if (!face)
          luaL_error(L, "houserules.declare: shape '%s': entry %d is not a face (write \"q,ru\" or \"q,rd\" for a triangular "
                     "board, \"q,r\" for a square one)", shape.name.c_str(), i);
        shape.faces.push_back(*face);
        lua_pop(L, 1);
      }
      layout.shapes.push_back(std::move(shape));
      lua_pop(L, 1);
    }
    std::sort(layout.shapes.begin(), layout.shapes.end(), [](const ShapeDef& a, const ShapeDef& b) { return a.name < b.name; });
  }
  lua_pop(L, 1);
  // boards = { { name =, kind =, width =, height =, marks = { name = "face"|"edge"|"vertex" } } }
  each_entry(L, 1, "boards", [&](int i) {
    const int t = lua_gettop(L);
    BoardDef board;
    board.name = field_string(L, t, "name", "board", i);
    const std::string kind = field_string(L, t, "kind", "board", i);
    lua_getfield(L, t, "width");
    lua_getfield(L, t, "height");
    if (!lua_isinteger(L, -2) || !lua_isinteger(L, -1))
      luaL_error(L, "houserules.declare: board '%s' needs an integer width and height", board.name.c_str());
    std::string error;
    try {
      board.lattice = Lattice(lattice_kind_from_string(kind), static_cast<int>(lua_tointeger(L, -2)), static_cast<int>(lua_tointeger(L, -1)));
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) luaL_error(L, "houserules.declare: board '%s': %s", board.name.c_str(), error.c_str());
    if (lua_getfield(L, t, "marks") != LUA_TNIL) {
      if (!lua_istable(L, -1)) luaL_error(L, "houserules.declare: board '%s': marks must map names to \"face\", \"edge\" or \"vertex\"", board.name.c_str());
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        const char* where = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (lua_type(L, -2) != LUA_TSTRING || (std::strcmp(where, "face") && std::strcmp(where, "edge") && std::strcmp(where, "vertex")))
          luaL_error(L, "houserules.declare: board '%s': marks must map names to \"face\", \"edge\" or \"vertex\"", board.name.c_str());
        board.marks.push_back({lua_tostring(L, -2), site_kind_from_string(where)});
        lua_pop(L, 1);
      }
      std::sort(board.marks.begin(), board.marks.end(), [](const MarkDef& a, const MarkDef& b) { return a.name < b.name; });
    }
    layout.boards.push_back(std::move(board));
  });
  // components
  lua_newtable(L);  // the read-only component records, filled below
  const int records = lua_gettop(L);
  each_entry(L, 1, "components", [&](int i) {
    const int t = lua_gettop(L);
    Component component;
    component.name = field_string(L, t, "name", "component", i);
    lua_newtable(L);
    const int record = lua_gettop(L);
    lua_pushinteger(L, i);
    lua_setfield(L, record, "id");
    lua_pushnil(L);
    while (lua_next(L, t)) {
      if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "houserules.declare: component %d has a non-string key", i);
      const std::string key = lua_tostring(L, -2);
      if (key == "id") luaL_error(L, "houserules.declare: component %d: 'id' is given by the kernel", i);
      if (key == "faces" || key == "sides" || key == "corners") {  // tile features in local coordinates
        read_features(L, component, key, i);
        lua_pop(L, 1);
        continue;
      }
      if (key == "shape") {
        const char* shape = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        component.shape = layout.shape_index(shape);
        if (component.shape < 0) luaL_error(L, "houserules.declare: component %d ('%s'): unknown shape '%s'", i, component.name.c_str(), shape);
      }
      if (key != "name") {
        switch (lua_type(L, -1)) {
          case LUA_TBOOLEAN: component.attributes.emplace_back(key, static_cast<bool>(lua_toboolean(L, -1))); break;
          case LUA_TSTRING: component.attributes.emplace_back(key, std::string(lua_tostring(L, -1))); break;
          case LUA_TNUMBER:
            if (lua_isinteger(L, -1)) component.attributes.emplace_back(key, static_cast<std::int64_t>(lua_tointeger(L, -1)));
            else component.attributes.emplace_back(key, static_cast<double>(lua_tonumber(L, -1)));
            break;
          default:
            luaL_error(L, "houserules.declare: component %d: attribute '%s' must be a number, string or boolean", i, key.c_str());
        }
      }
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, record);
    }
    Sandbox::from(L)->make_read_only(1);
    lua_rawseti(L, records, i);
    layout.components.push_back(std::move(component));
  });
  // components[0] stands for a card the viewer cannot see (game:cards in an observation returns 0)
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, 0);
  lua_setfield(L, -2, "id");
  lua_pushliteral(L, "?");
  lua_setfield(L, -2, "name");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "unknown");
  Sandbox::from(L)->make_read_only(1);
  lua_rawseti(L, records, 0);
  // zones
  each_entry(L, 1, "zones", [&](int i) {
    const int t = lua_gettop(L);
    ZoneDef zone;
    zone.name = field_string(L, t, "name", "zone", i);
    lua_getfield(L, t, "visibility");
    const char* visibility = lua_tostring(L, -1);
    if (!visibility) luaL_error(L, "houserules.declare: zone '%s' needs a visibility (hidden, owner, public or top)", zone.name.c_str());
    std::string error;
    try {
      zone.visibility = visibility_from_string(visibility);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) luaL_error(L, "houserules.declare: zone '%s': %s", zone.name.c_str(), error.c_str());
    if (lua_getfield(L, t, "owner") != LUA_TNIL) zone.owner = {Owner::Kind::Seat, static_cast<int>(integer_arg(L, -1))};
    if (lua_getfield(L, t, "team") != LUA_TNIL) zone.owner = {Owner::Kind::Team, static_cast<int>(integer_arg(L, -1))};
    if (lua_getfield(L, t, "holds") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING || lua_rawlen(L, -1) == 0)
        luaL_error(L, "houserules.declare: zone '%s': holds must be the name of a component attribute (a string)", zone.name.c_str());
      zone.holds = lua_tostring(L, -1);
    }
    if (zone.visibility == Visibility::Owner && zone.owner.kind == Owner::Kind::Nobody)
      luaL_error(L, "houserules.declare: zone '%s' is visible to its owner but has no owner (set owner = seat or team = n)", zone.name.c_str());
    layout.zones.push_back(std::move(zone));
  });
  each_entry(L, 1, "counters", [&](int i) {
    const int t = lua_gettop(L);
    CounterDef counter;
    counter.name = field_string(L, t, "name", "counter", i);
    lua_getfield(L, t, "per_seat");
    counter.per_seat = lua_toboolean(L, -1);
    lua_getfield(L, t, "initial");
    counter.initial = luaL_optinteger(L, -1, 0);
    layout.counters.push_back(std::move(counter));
  });
  each_entry(L, 1, "tracks", [&](int i) {
    const int t = lua_gettop(L);
    TrackDef track;
    track.name = field_string(L, t, "name", "track", i);
    if (lua_getfield(L, t, "values") != LUA_TTABLE) luaL_error(L, "houserules.declare: track '%s' needs a list of values", track.name.c_str());
    const auto n = static_cast<int>(luaL_len(L, -1));
    for (int k = 1; k <= n; ++k) {
      lua_geti(L, -1, k);
      track.values.push_back(integer_arg(L, -1));
      lua_pop(L, 1);
    }
    layout.tracks.push_back(std::move(track));
  });
  each_entry(L, 1, "figures", [&](int i) {
    const int t = lua_gettop(L);
    FigureDef figure;
    figure.kind = field_string(L, t, "kind", "figure", i);
    lua_getfield(L, t, "owner");
    figure.owner = static_cast<int>(luaL_optinteger(L, -1, 0));
    layout.figures.push_back(std::move(figure));
  });
  // groups = { name = {zone names or numbers...} }: constant zone lists for game:tops / game:sizes
  lua_newtable(L);
  const int groups = lua_gettop(L);
  std::vector<std::pair<std::string, std::vector<std::string>>> group_specs;
  if (lua_getfield(L, 1, "groups") != LUA_TNIL) {
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
        luaL_error(L, "houserules.declare: groups must map names to lists of zones");
      std::vector<std::string> names;
      const auto n = static_cast<int>(luaL_len(L, -1));
      for (int i = 1; i <= n; ++i) {
        lua_geti(L, -1, i);
        if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "houserules.declare: group '%s' must list zone names", lua_tostring(L, -3));
        names.emplace_back(lua_tostring(L, -1));
        lua_pop(L, 1);
      }
      group_specs.emplace_back(lua_tostring(L, -2), std::move(names));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  // maps = { name = {an integer per component number} }: constant lists that game:tops and game:append_cards
  // read in C (no table look-up from C per card)
  lua_newtable(L);
  const int maps = lua_gettop(L);
  std::vector<std::pair<std::string, std::vector<lua_Integer>>> map_specs;
  if (lua_getfield(L, 1, "maps") != LUA_TNIL) {
    luaL_checktype(L, -1, LUA_TTABLE);
    const auto components = static_cast<lua_Integer>(layout.components.size());
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
        luaL_error(L, "houserules.declare: maps must map names to lists of integers");
      const std::string name = lua_tostring(L, -2);
      std::vector<lua_Integer> values(static_cast<std::size_t>(components + 1), 0);
      for (lua_Integer c = 0; c <= components; ++c) {
        lua_rawgeti(L, -1, c);
        if (lua_isinteger(L, -1)) values[static_cast<std::size_t>(c)] = lua_tointeger(L, -1);
        else if (c > 0 || !lua_isnil(L, -1))
          luaL_error(L, "houserules.declare: map '%s': entry %d is not an integer (a map gives one integer per "
                     "component, 1 to %d, and optionally entry 0 for an unseen card)", name.c_str(), static_cast<int>(c),
                     static_cast<int>(components));
        lua_pop(L, 1);
      }
      map_specs.emplace_back(name, std::move(values));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  std::sort(map_specs.begin(), map_specs.end());  // map numbers in name order: deterministic
  for (auto& [name, values] : map_specs) {
    impl.maps.push_back(std::move(values));
    lua_pushinteger(L, static_cast<lua_Integer>(impl.maps.size()));
    lua_setfield(L, maps, name.c_str());
  }
  // phases = { "play", "draw" } (numbered 1, 2, ...) or { play = 0, draw = 1 }: names of phase numbers
  if (lua_getfield(L, 1, "phases") != LUA_TNIL) {
    if (!lua_istable(L, -1)) luaL_error(L, "houserules.declare: 'phases' must be a list of names or map names to numbers");
    const int phases = lua_gettop(L);
    const auto n = static_cast<lua_Integer>(luaL_len(L, phases));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, phases, i);
      if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "houserules.declare: phases[%d] must be a name", static_cast<int>(i));
      layout.phase_names.emplace_back(lua_tostring(L, -1), static_cast<int>(i));
      lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, phases)) {
      if (lua_type(L, -2) == LUA_TSTRING) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "houserules.declare: phase '%s' must map to an integer", lua_tostring(L, -2));
        layout.phase_names.emplace_back(lua_tostring(L, -2), static_cast<int>(lua_tointeger(L, -1)));
      } else if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 || lua_tointeger(L, -2) > n) {
        luaL_error(L, "houserules.declare: 'phases' must be a list of names or map names to numbers");
      }
      lua_pop(L, 1);
    }
    std::sort(layout.phase_names.begin(), layout.phase_names.end(), [](const auto& x, const auto& y) {
      return x.second != y.second ? x.second < y.second : x.first < y.first;  // by number: the same in every run
    });
    for (std::size_t a = 0; a < layout.phase_names.size(); ++a)
      for (std::size_t b = a + 1; b < layout.phase_names.size(); ++b)
        if (layout.phase_names[a].first == layout.phase_names[b].first)
          luaL_error(L, "houserules.declare: phase '%s' is named twice", layout.phase_names[a].first.c_str());
  }
  lua_pop(L, 1);
  if (lua_getfield(L, 1, "rounds") != LUA_TNIL) layout.rounds = static_cast<int>(integer_arg(L, -1));
  lua_pop(L, 1);
  if (lua_getfield(L, 1, "teams") != LUA_TNIL) {
    luaL_checktype(L, -1, LUA_TTABLE);
    layout.team_of_seat.assign(static_cast<std::size_t>(layout.seats + 1), 0);
    for (int s = 1; s <= layout.seats; ++s) {
      lua_geti(L, -1, s);
      layout.team_of_seat[static_cast<std::size_t>(s)] = static_cast<int>(integer_arg(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  apply_variant_additions(L, impl.additions, layout);
  const std::string problem = [&]() -> std::string {
    try {
      layout.finalize();
    } catch (const std::exception& e) {
      return e.what();
    }
    return {};
  }();
  if (!problem.empty()) return luaL_error(L, "houserules.declare: %s", problem.c_str());
  std::sort(group_specs.begin(), group_specs.end());  // group numbers in name order: deterministic
  for (const auto& [name, zone_names] : group_specs) {
    std::vector<ZoneId> zones;
    for (const auto& zone : zone_names) {
      const ZoneId* z = layout.find_zone(zone);
      if (!z) return luaL_error(L, "houserules.declare: group '%s' names an unknown zone '%s'", name.c_str(), zone.c_str());
      zones.push_back(*z);
    }
    impl.zone_groups.push_back(std::move(zones));
    lua_pushinteger(L, static_cast<lua_Integer>(impl.zone_groups.size()));
    lua_setfield(L, groups, name.c_str());
  }
  impl.declared = true;
  // The result: { components = records, zones = name -> number, zone_names = number -> name }
  lua_createtable(L, 0, 3);
  const int result = lua_gettop(L);
  lua_pushvalue(L, records);
  Sandbox::from(L)->make_read_only(1);
  lua_setfield(L, result, "components");
  lua_createtable(L, 0, static_cast<int>(layout.zones.size()));
  lua_createtable(L, static_cast<int>(layout.zones.size()), 0);
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    lua_pushinteger(L, static_cast<lua_Integer>(z + 1));
    lua_setfield(L, -3, layout.zones[z].name.c_str());
    lua_pushstring(L, layout.zones[z].name.c_str());
    lua_rawseti(L, -2, static_cast<lua_Integer>(z + 1));
  }
  lua_setfield(L, result, "zone_names");
  lua_pushvalue(L, -1);
  impl.zone_names_ref = luaL_ref(L, LUA_REGISTRYINDEX);  // the game methods' upvalue
  lua_setfield(L, result, "zones");
  lua_pushvalue(L, groups);
  lua_setfield(L, result, "groups");
  lua_pushvalue(L, maps);
  lua_setfield(L, result, "maps");
  lua_createtable(L, 0, static_cast<int>(layout.boards.size()));  // boards: name -> number
  for (std::size_t b = 0; b < layout.boards.size(); ++b) {
    lua_pushinteger(L, static_cast<lua_Integer>(b + 1));
    lua_setfield(L, -2, layout.boards[b].name.c_str());
  }
  Sandbox::from(L)->make_read_only(1);
  lua_setfield(L, result, "boards");
  lua_createtable(L, 0, static_cast<int>(layout.phase_names.size()));  // phases: name -> number
  for (const auto& [name, number] : layout.phase_names) {
    lua_pushinteger(L, number);
    lua_setfield(L, -2, name.c_str());
  }
  Sandbox::from(L)->make_read_only(1);
  lua_setfield(L, result, "phases");
  Sandbox::from(L)->make_read_only(2);
  // Also houserules.components, .zones and .zone_names, for variant scripts and modules.
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.api_ref);
  for (const char* field : {"components", "zones", "zone_names", "groups", "maps", "boards", "phases"}) {
    lua_getfield(L, -2, field);
    lua_setfield(L, -2, field);
  }
  lua_pop(L, 1);
  return 1;
}

}  // namespace

// ---- the `actions` hook's `out` list, buffered ----

namespace {

// The metamethods of the buffered `out` list (the table holds nothing: every read, `#` and write comes here).
// out[k]: entry k of the buffer (a float key with an integer value, as a table would take it), else nil.
int out_index(lua_State* L) {
  const Impl& impl = Impl::from(L);
  int is_integer = 0;
  const lua_Integer k = lua_type(L, 2) == LUA_TNUMBER ? lua_tointegerx(L, 2, &is_integer) : 0;
  if (is_integer && k >= 1 && k <= static_cast<lua_Integer>(impl.out_buffer.size()))
    lua_pushinteger(L, impl.out_buffer[static_cast<std::size_t>(k - 1)]);
  else
    lua_pushnil(L);
  return 1;
}
// #out: the number of entries (the buffer has no holes, so this is the table's border too).
int out_len(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(Impl::from(L).out_buffer.size()));
  return 1;
}
// out[k] = v: the list becomes a plain table holding the buffer's entries, then takes the write (raw).
int out_newindex(lua_State* L) {
  lua_settop(L, 3);
  if (lua_isnil(L, 2)) return luaL_error(L, "index is nil");  // as the table would say, at the caller's line
  if (lua_type(L, 2) == LUA_TNUMBER && lua_tonumber(L, 2) != lua_tonumber(L, 2)) return luaL_error(L, "index is NaN");
  unbuffer_out(L);
  lua_rawset(L, 1);
  return 0;
}

}  // namespace

void create_actions_out(lua_State* L, Impl& impl) {
  lua_createtable(L, 256, 0);  // presized: making it plain writes up to 256 entries without allocating
  lua_createtable(L, 0, 3);
  const luaL_Reg metamethods[] = {
      {"__index", out_index}, {"__newindex", out_newindex}, {"__len", out_len}, {nullptr, nullptr}};
  luaL_setfuncs(L, metamethods, 0);
  lua_setmetatable(L, -2);
  impl.out_table = lua_topointer(L, -1);
  impl.out_buffered = true;
  impl.out_buffer.clear();
  impl.out_buffer.reserve(256);
  impl.sandbox.set_buffered_table(impl.out_table, unbuffer_out);
  impl.actions_out_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

int unbuffer_out(lua_State* L) {
  Impl& impl = Impl::from(L);
  if (!impl.out_buffered) return 0;
  luaL_checkstack(L, 2, "making the actions list plain");
  // Plain first: if a write below fails (memory), the table is what the script sees and the kernel reads.
  impl.out_buffered = false;
  impl.sandbox.set_buffered_table(nullptr, nullptr);
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.actions_out_ref);
  lua_pushnil(L);
  lua_setmetatable(L, -2);
  lua_Integer i = 0;
  for (const lua_Integer value : impl.out_buffer) {
    lua_pushinteger(L, value);
    lua_rawseti(L, -2, ++i);
  }
  lua_pop(L, 1);
  impl.out_buffer.clear();
  return 0;
}

// ---- the random-playout driver (internal: not reachable from scripts) ----

// run(actions, apply, game, out, limit) -> plies, ended: plays random legal actions until the round or the game
// ends or `limit` plies were played (ended = true), or no action is legal (false). Called once per round inside
// one protected call (Sandbox::call); the hooks are called unprotected from here, which costs a fraction of a
// protected call per hook: a Lua error unwinds to that protected call (Lua is built as C++: it throws, so the
// frames between run destructors). Like Rules::apply, each ply gives the hooks the seat to move and the phase,
// and is counted after `apply`; the action is drawn as Rules::random_playout does (rng.below), and only the
// chosen entry of the list is read. As on the per-action path, `actions` may not change the game nor draw
// random numbers, and errors name the hook that raised them.
int playout_run(lua_State* L) {
  IMPL;
  GameBinding& binding = *impl.binding;
  GameState& s = *binding.state;
  Rng& rng = *impl.playout_rng;
  constexpr int kActions = 1, kApply = 2, kGame = 3, kOut = 4;
  const lua_Integer limit = lua_tointeger(L, 5);
  lua_settop(L, kOut);
  lua_Integer plies = 0;
  while (plies < limit) {
    binding.writable = false;
    binding.hook = "actions";
    impl.sandbox.set_random_source(nullptr);
    lua_pushvalue(L, kActions);
    lua_pushvalue(L, kGame);
    lua_pushvalue(L, kOut);
    lua_pushinteger(L, s.to_move());
    lua_pushinteger(L, s.phase());
    lua_call(L, 4, 1);
    int list = kOut;  // the list to pick from: `out` filled by the hook, or a list it returned
    lua_Integer n = 0;
    if (lua_isinteger(L, -1)) {
      n = lua_tointeger(L, -1);
      if (n < 0) return luaL_error(L, "hook 'actions' returned a count that is not a whole number >= 0");
      lua_settop(L, kOut);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      return luaL_error(L, "hook 'actions' returned a count that is not a whole number >= 0");
    } else if (lua_istable(L, -1)) {
      impl.sandbox.plain(L, -1);  // (`out` itself returned: read as a plain table)
      n = static_cast<lua_Integer>(lua_rawlen(L, -1));
      list = kOut + 1;
    } else {
      return luaL_error(L, "hook 'actions' must return a list of actions (integers), or fill its second argument and "
                           "return the count; it returned a %s", luaL_typename(L, -1));
    }
    if (n == 0) {
      lua_pushinteger(L, plies);
      lua_pushboolean(L, 0);
      return 2;
    }
    const auto i = static_cast<lua_Integer>(rng.below(static_cast<std::uint64_t>(n))) + 1;
    lua_pushvalue(L, kApply);
    lua_pushvalue(L, kGame);
    if (n > ScriptedRules::kMaxActions)
      return luaL_error(L, "hook 'actions' offered %I actions; the limit is %I", n, ScriptedRules::kMaxActions);
    if (list == kOut && impl.out_buffered) {  // the entries the batch methods appended: no C API call to read one
      std::vector<lua_Integer>& buffer = impl.out_buffer;
      if (i > static_cast<lua_Integer>(buffer.size()))
        return luaL_error(L, "hook 'actions': entry %d is not an integer action", static_cast<int>(i));
      lua_pushinteger(L, buffer[static_cast<std::size_t>(i - 1)]);
      if (impl.clear_action_lists) {  // as on the per-action path
        if (n < static_cast<lua_Integer>(buffer.size())) unbuffer_out(L);  // entries past n stay: a plain table
        else buffer.clear();
      }
    } else if (lua_rawgeti(L, list, i) != LUA_TNUMBER || !lua_isinteger(L, -1)) {
      return luaL_error(L, "hook 'actions': entry %d is not an integer action", static_cast<int>(i));
    }
    if (list == kOut && impl.clear_action_lists && !impl.out_buffered)  // as on the per-action path
      for (lua_Integer k = 1; k <= n; ++k) lua_pushnil(L), lua_rawseti(L, kOut, k);
    lua_pushinteger(L, s.to_move());
    lua_pushinteger(L, s.phase());
    binding.writable = true;
    binding.hook = "apply";
    impl.sandbox.set_random_source(&s.rng());
    lua_call(L, 4, 0);
    lua_settop(L, kOut);
    s.count_ply();
    ++plies;
    if (s.round_end_requested() || s.over()) break;
  }
  lua_pushinteger(L, plies);
  lua_pushboolean(L, 1);
  return 2;
}

void create_game_methods(lua_State* L, Impl& impl) {
  lua_createtable(L, 0, static_cast<int>(sizeof game_methods / sizeof game_methods[0]));
  luaL_setfuncs(L, game_methods, 0);
  impl.game_methods_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

void create_game_binding(lua_State* L, Impl& impl) {
  auto* binding = static_cast<GameBinding*>(lua_newuserdatauv(L, sizeof(GameBinding), 0));
  new (binding) GameBinding{};
  impl.binding = binding;
  lua_createtable(L, 0, 4);  // metatable
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.game_methods_ref);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, game_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, refuse_write_game);
  lua_setfield(L, -2, "__newindex");
  lua_pushliteral(L, "game");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  impl.game_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

/// houserules.encoding() -> a new registry: calls the constructor scripting/encoding.lua returns, compiled
/// on the first call and kept in the closure's upvalue. Errors (memory) are raised as Lua errors.
int houserules_encoding(lua_State* L) {
  if (lua_isnil(L, lua_upvalueindex(1))) {
    if (luaL_loadbufferx(L, kEncodingLua, sizeof kEncodingLua - 1, "=[houserules encoding]", "t") != LUA_OK)
      return lua_error(L);
    lua_call(L, 0, 1);
    lua_replace(L, lua_upvalueindex(1));
  }
  lua_settop(L, 0);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_call(L, 0, 1);
  return 1;
}

/// houserules.words(text [, max]) -> {word...} or nil: the runs of non-blank characters of `text` (a string,
/// else a Lua error), lower-cased, in order; nil when there are more than `max` (default: no limit). Linear in
/// the length of `text`, in C: for the `explain` and `shorthand` hooks, which read what a person typed (a Lua
/// pattern with optional blank runs backtracks quadratically over a long run of blanks, issue 18).
int houserules_words(lua_State* L) {
  std::size_t length = 0;
  const char* text = luaL_checklstring(L, 1, &length);
  const lua_Integer max = luaL_optinteger(L, 2, LUA_MAXINTEGER);
  lua_settop(L, 2);
  lua_newtable(L);
  lua_Integer count = 0;
  std::string word;
  for (std::size_t i = 0; i <= length; ++i) {
    const bool blank = i == length || std::isspace(static_cast<unsigned char>(text[i]));
    if (!blank) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
      continue;
    }
    if (word.empty()) continue;
    if (++count > max) {
      lua_pushnil(L);
      return 1;
    }
    lua_pushlstring(L, word.data(), word.size());
    lua_rawseti(L, 3, count);
    word.clear();
  }
  return 1;
}

void push_houserules_api(lua_State* L, Impl& impl, const RulesetInfo& info) {
  const int params = lua_gettop(L);
  lua_createtable(L, 0, 5);
  lua_pushvalue(L, params);
  lua_setfield(L, -2, "params");
  lua_pushinteger(L, impl.layout->seats);
  lua_setfield(L, -2, "seats");
  lua_pushstring(L, info.id.c_str());
  lua_setfield(L, -2, "ruleset");
  lua_pushvalue(L, -1);
  impl.api_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushcfunction(L, houserules_declare);
  lua_setfield(L, -2, "declare");
  // The game's methods, so that hot code can bind them to locals: `local top = houserules.game.top`,
  // then `top(game, zone)` skips the method look-up of `game:top(zone)`.
  create_game_methods(L, impl);
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.game_methods_ref);
  Sandbox::from(L)->make_read_only(1);
  lua_setfield(L, -2, "game");
  // houserules.encoding(): a registry of action kinds and phases by name (scripting/encoding.lua), compiled
  // on its first call, so that a ruleset that does not use it has the same Lua heap as before it existed.
  lua_pushnil(L);
  lua_pushcclosure(L, houserules_encoding, 1);
  lua_setfield(L, -2, "encoding");
  lua_pushcfunction(L, houserules_words);
  lua_setfield(L, -2, "words");
  lua_remove(L, params);
}

}  // namespace hr
