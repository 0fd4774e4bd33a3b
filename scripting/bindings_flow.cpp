// bindings_flow.cpp — the `game` object and the game flow of the Lua API (reference: docs/writing-rules.md).
//
// Binds game:seats, to_move, set_to_move, next_seat, phase, set_phase, phase_name, round, rounds, ply, over,
// end_round, end_game, match_score, round_score, viewer and random; and builds the `game` userdata itself
// (create_game_binding: __index = the methods, __tostring, __newindex refused, __metatable "game") and the
// table of its methods (create_game_methods: every area's list, bindings_*.cpp; also houserules.game).
//
// Invariants: every method takes the game as argument 1 and only while a hook runs (state_arg); the ones that
// change the game (set_to_move, set_phase, end_round, end_game, random) only in setup, start_round and apply
// (writable_state). Seats are 1-based; a phase is an integer or a name from declare{phases=...}. game:random
// draws from the game's RNG, so a replay draws the same numbers. The game has no fields a script can set, and
// its metatable is hidden.
#include <string>

#include "binding_args.hpp"

namespace hr::bindings {

namespace {

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
    const auto& names = impl.layout->phase_names;  // (a range's name once)
    for (std::size_t i = 0; i < names.size(); ++i)
      if (i == 0 || names[i].first != names[i - 1].first) known += (known.empty() ? "" : ", ") + names[i].first;
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
// game:phase_name([phase]): the declared name of the phase (default: the current one; a name declared over a
// range, draw = {10, 15}, names each number in it), or nil for a number no declared name covers
GAME_METHOD(phase_name) {
  IMPL;
  const int phase = lua_isnoneornil(L, 2) ? state_arg(L, impl).phase() : static_cast<int>(integer_arg(L, 2));
  for (const auto& [name, number] : impl.layout->phase_names)  // (a range has an entry per number)
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

}  // namespace

std::span<const luaL_Reg> flow_methods() {
  static const luaL_Reg methods[] = {
      {"seats", game_seats}, {"to_move", game_to_move}, {"set_to_move", game_set_to_move}, {"next_seat", game_next_seat},
      {"phase", game_phase}, {"set_phase", game_set_phase}, {"phase_name", game_phase_name}, {"round", game_round},
      {"rounds", game_rounds}, {"ply", game_ply}, {"over", game_over}, {"end_round", game_end_round},
      {"end_game", game_end_game}, {"match_score", game_match_score}, {"round_score", game_round_score},
      {"viewer", game_viewer}, {"random", game_random}};
  return methods;
}

}  // namespace hr::bindings

namespace hr {

namespace {

using bindings::Impl;

int refuse_write_game(lua_State* L) {
  return luaL_error(L, "the game has no fields to set: change it through its methods (game:move, game:set_phase...)");
}

int game_tostring(lua_State* L) {
  IMPL;
  ++impl.game_reads;  // it shows the round and the seat to move (game:append_allowed)
  if (impl.binding->state)
    lua_pushfstring(L, "game (round %d, seat %d to move)", impl.binding->state->round(), impl.binding->state->to_move());
  else
    lua_pushliteral(L, "game (no hook running)");
  return 1;
}

}  // namespace

void create_game_methods(lua_State* L, Impl& impl) {
  const std::span<const luaL_Reg> areas[] = {bindings::flow_methods(), bindings::zone_methods(),
                                             bindings::counter_methods(), bindings::board_methods(),
                                             bindings::tile_methods(), bindings::tally_methods(),
                                             bindings::allowed_methods()};
  std::size_t count = 0;
  for (const auto& area : areas) count += area.size();
  lua_createtable(L, 0, static_cast<int>(count));
  for (const auto& area : areas)
    for (const luaL_Reg& method : area) {  // as luaL_setfuncs
      lua_pushcfunction(L, method.func);
      lua_setfield(L, -2, method.name);
    }
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

}  // namespace hr
