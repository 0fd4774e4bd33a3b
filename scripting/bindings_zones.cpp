// bindings_zones.cpp — zones and the components in them, for the Lua API (reference: docs/writing-rules.md).
//
// Binds game:size, top, card, cards, sizes, tops, nonempty, append_cards, zone_of, zone_name, knows, owns,
// holdings, owner_of (reads),
// and move, move_top, put_under, deal, gather, shuffle (changes).
//
// Invariants: a zone is given by number (1..Z) or name, a zone list by a declared group number (the fast form)
// or a list; components are 1..N, 0 for a card the viewer cannot see, nil for none, and reads show only what
// the state's viewer may see. The batch methods (cards, tops, sizes with `into`; append_cards, nonempty) write
// only into plain tables (check_into: never behind a metatable) or into the kernel's buffer behind the
// `actions` hook's `out` list (Appender), entries past the returned count left as they were. The changing
// methods run only in setup, start_round and apply (writable_state); a kernel error becomes a Lua error
// (guarded) and leaves the game as it was.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "binding_args.hpp"

namespace hr::bindings {

// The zones named by argument `arg`: a zone group (a number from declare{groups=...}, resolved once at load:
// the fast form) or a list of zones (numbers or names, read into impl.scratch_zones). Raises on a bad group
// number, a bad zone or another type.
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

// The declared map (declare{maps=...}) numbered by argument `arg`: its values indexed by component number
// (entry 0 for a card the viewer cannot see). Raises on a number that names no map.
const std::vector<lua_Integer>& map_arg(lua_State* L, Impl& impl, int arg) {
  const lua_Integer m = integer_arg(L, arg);
  if (m < 1 || m > static_cast<lua_Integer>(impl.maps.size())) luaL_error(L, "no map number %d", static_cast<int>(m));
  return impl.maps[static_cast<std::size_t>(m - 1)];
}

namespace {

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
  // distinct: a name class is skipped once marked with this call's stamp (no quadratic search)
  const std::uint32_t stamp = distinct ? impl.next_name_stamp() : 0;
  for (const ComponentId c : cards) {
    if (distinct && c < kUnknownComponent && !impl.first_of_name(c, stamp)) continue;
    push_component(L, c);
    lua_rawseti(L, -2, ++n);
  }
  lua_pushinteger(L, n);
  return 2;
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
  const std::uint32_t stamp = distinct ? impl.next_name_stamp() : 0;
  for (const ComponentId c : cards) {
    if (c >= kUnknownComponent) continue;
    if (distinct && !impl.first_of_name(c, stamp)) continue;
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
// ---- queries a rule asks of seats (issue 35): "does this seat own X", "what does it hold", "whose is this" ----
// game:owns(seat, c) -> boolean: does `seat` hold component c (a number, or a name: any component of that name)
// in a zone it owns (declared owner = seat, or team = its team)? Reads what the viewer may see only: in an
// observation, a card the viewer cannot see is never found (no secret leaks through the answer).
GAME_METHOD(owns) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int seat = seat_arg(L, impl, 2);
  const Layout& layout = *impl.layout;
  ComponentId wanted;  // a component, or the name class of the components of a name (copies share one)
  const bool by_name = lua_type(L, 3) == LUA_TSTRING;
  if (by_name) {
    const auto& named = layout.components_named(lua_tostring(L, 3));
    if (named.empty()) return luaL_error(L, "game:owns: no component named '%s'", lua_tostring(L, 3));
    wanted = layout.name_class(named.front());
  } else {
    wanted = component_arg(L, impl, 3);
  }
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    if (!layout.owned_by(static_cast<ZoneId>(z), seat)) continue;
    for (const ComponentId c : s.cards(static_cast<ZoneId>(z)))  // (an unknown card, kUnknownComponent, is none)
      if (c < kUnknownComponent && (by_name ? layout.name_class(c) : c) == wanted) {
        lua_pushboolean(L, 1);
        return 1;
      }
  }
  lua_pushboolean(L, 0);
  return 1;
}
// game:holdings(seat [, into]) -> list, count: what `seat` holds: the components of every zone it owns, in zone
// order, bottom to top (0 for one the viewer cannot see); `into` (a plain table) is filled instead of a new one.
GAME_METHOD(holdings) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int seat = seat_arg(L, impl, 2);
  if (lua_istable(L, 3)) {
    check_into(L, 3, "holdings");
    lua_settop(L, 3);
  } else {
    lua_settop(L, 2);
    lua_newtable(L);
  }
  const Layout& layout = *impl.layout;
  lua_Integer n = 0;
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    if (!layout.owned_by(static_cast<ZoneId>(z), seat)) continue;
    for (const ComponentId c : s.cards(static_cast<ZoneId>(z))) {
      push_component(L, c);
      lua_rawseti(L, -2, ++n);
    }
  }
  lua_pushinteger(L, n);
  return 2;
}
// game:owner_of(c) -> seat, or nil: the seat owning the zone component c lies in (nil: a zone nobody owns, or c
// is not in a zone); for a team's zone, nil and the team number.
GAME_METHOD(owner_of) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const Place p = s.place_of(component_arg(L, impl, 2));
  if (!p.in_zone()) { lua_pushnil(L); return 1; }
  const Owner& owner = impl.layout->zones[p.zone].owner;
  if (owner.kind == Owner::Kind::Seat) { lua_pushinteger(L, owner.index); return 1; }
  lua_pushnil(L);
  if (owner.kind == Owner::Kind::Team) { lua_pushinteger(L, owner.index); return 2; }
  return 1;
}
GAME_METHOD(knows) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const int seat = seat_arg(L, impl, 2);
  const ComponentId c = component_arg(L, impl, 3);
  lua_pushboolean(L, s.knows(seat, c));
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

}  // namespace

std::span<const luaL_Reg> zone_methods() {
  static const luaL_Reg methods[] = {
      {"size", game_size}, {"top", game_top}, {"sizes", game_sizes}, {"tops", game_tops}, {"nonempty", game_nonempty},
      {"append_cards", game_append_cards}, {"card", game_card}, {"cards", game_cards}, {"zone_of", game_zone_of},
      {"zone_name", game_zone_name}, {"knows", game_knows}, {"owns", game_owns}, {"holdings", game_holdings},
      {"owner_of", game_owner_of}, {"move", game_move}, {"move_top", game_move_top},
      {"put_under", game_put_under}, {"deal", game_deal}, {"gather", game_gather}, {"shuffle", game_shuffle}};
  return methods;
}

}  // namespace hr::bindings
