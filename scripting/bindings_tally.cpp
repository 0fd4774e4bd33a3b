// bindings_tally.cpp — game:tally, counts of the cards in several zones by a declared map's key, for the Lua
// API (reference: docs/writing-rules.md, "Reading the game").
//
// A bot's estimate often counts, per colour (or suit, or any key), the cards it has seen that still matter: the
// cards of every expedition and discard pile at or above some value, say. Asked card by card that is one
// game:cards per zone and an interpreted loop over the cards; game:tally does it in one call.
//
// Invariants: reads only (any hook); counts only cards the viewer may see, and with a seat only those that seat
// knows (game:knows: a card it saw, or the top of a top-card zone): every other card is counted as unknown, so
// the answer tells no seat anything it could not tell from game:cards and game:knows. Writes only into a plain
// table (check_into).
#include <cstdint>
#include <vector>

#include "binding_args.hpp"

namespace hr::bindings {

namespace {

/// The most keys one call counts (entries of `into`).
constexpr lua_Integer kMaxKeys = 64;

// game:tally(zones, key, into [, seat [, least, values]]) -> counted, unknown (integers).
//   zones   a zone group's number (declare{groups=...}: the fast form) or a list of zones (numbers or names);
//   key     a declared map's number (declare{maps=...}): card c is counted under key[c];
//   into    a plain list: into[k] is set to the count of key k for k = 1..#into (at most kMaxKeys); cards whose key
//           is outside 1..#into are not counted;
//   seat    (optional, nil for none) count only the cards that seat knows (game:knows);
//   least, values  (optional) a list of numbers indexed by key (math.huge and -math.huge allowed) and a declared
//           map's number: count only the cards with values[c] >= least[key[c]].
// Returns the number of cards counted and the number unknown (to `seat`, or that the viewer cannot see).
// Errors: a bad group, zone, map or seat number; `into` not a plain table or longer than kMaxKeys; a least[k] that
// is not a number.
GAME_METHOD(tally) {
  IMPL;
  const GameState& s = state_arg(L, impl);
  const std::vector<ZoneId>& zones = zones_arg(L, impl, 2);
  const std::vector<lua_Integer>& key = map_arg(L, impl, 3);
  check_into(L, 4, "tally");
  const auto keys = static_cast<lua_Integer>(lua_rawlen(L, 4));
  if (keys > kMaxKeys) luaL_error(L, "game:tally counts at most %d keys (into has %d entries)", static_cast<int>(kMaxKeys), static_cast<int>(keys));
  const int seat = lua_isnoneornil(L, 5) ? 0 : seat_arg(L, impl, 5);
  const bool filtered = !lua_isnoneornil(L, 6);
  lua_Number least[kMaxKeys + 1];
  const std::vector<lua_Integer>* values = nullptr;
  if (filtered) {
    luaL_checktype(L, 6, LUA_TTABLE);
    values = &map_arg(L, impl, 7);
    for (lua_Integer k = 1; k <= keys; ++k) {
      int is_number = 0;
      lua_rawgeti(L, 6, k);
      least[k] = lua_tonumberx(L, -1, &is_number);
      lua_pop(L, 1);
      if (!is_number) luaL_error(L, "game:tally: least[%d] is not a number", static_cast<int>(k));
    }
  }
  lua_Integer counts[kMaxKeys + 1] = {};
  lua_Integer counted = 0, unknown = 0;
  for (const ZoneId z : zones)
    for (const ComponentId c : s.cards(z)) {
      if (c >= kUnknownComponent || (seat > 0 && !s.knows(seat, c))) {
        ++unknown;
        continue;
      }
      const lua_Integer k = key[c + 1u];
      if (k < 1 || k > keys) continue;
      if (filtered && !(static_cast<lua_Number>((*values)[c + 1u]) >= least[k])) continue;
      ++counts[k];
      ++counted;
    }
  for (lua_Integer k = 1; k <= keys; ++k) {
    lua_pushinteger(L, counts[k]);
    lua_rawseti(L, 4, k);
  }
  lua_pushinteger(L, counted);
  lua_pushinteger(L, unknown);
  return 2;
}

}  // namespace

std::span<const luaL_Reg> tally_methods() {
  static const luaL_Reg methods[] = {{"tally", game_tally}};
  return methods;
}

}  // namespace hr::bindings
