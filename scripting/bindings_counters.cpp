// bindings_counters.cpp — the integers the kernel keeps for a game: counters and board marks (Lua API,
// reference: docs/writing-rules.md, docs/boards.md).
//
// Binds game:counter, set_counter, add_counter, mark and set_mark.
//
// Invariants: a counter is given by number (1..C) or name, its owner by seat (0: the game's own); a mark by
// its board (name or number), its name and a site of the mark's kind (number or text), and it holds 0..255.
// Reads take the game as argument 1 while a hook runs; writes only in setup, start_round and apply
// (writable_state), and a kernel error becomes a Lua error (guarded), the game as it was.
#include "binding_args.hpp"

namespace hr::bindings {

namespace {

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
  check_counter_value(L, impl, "set_counter", counter, value);
  return guarded(L, [&] { s.set_counter(counter, owner, value); return 0; });
}
GAME_METHOD(add_counter) {
  IMPL;
  GameState& s = writable_state(L, impl, "add_counter");
  const int counter = counter_arg(L, impl, 2);
  const int owner = static_cast<int>(integer_arg(L, 3));
  const lua_Integer delta = integer_arg(L, 4);
  std::int64_t old = 0;
  guarded(L, [&] { old = s.counter(counter, owner); return 0; });
  std::int64_t sum = 0;
  if (__builtin_add_overflow(old, delta, &sum) || sum > ScriptedRules::kMaxCounter || sum < -ScriptedRules::kMaxCounter)
    luaL_error(L, "game:add_counter: counter '%s' holds %I, and %I more is past the limit of 2^53 (%I) in size, as "
               "a score's", impl.layout->counters[static_cast<std::size_t>(counter)].name.c_str(), old, delta,
               static_cast<lua_Integer>(ScriptedRules::kMaxCounter));
  return guarded(L, [&] {
    const std::int64_t value = old + delta;
    s.set_counter(counter, owner, value);
    lua_pushinteger(L, value);
    return 1;
  });
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

}  // namespace

std::span<const luaL_Reg> counter_methods() {
  static const luaL_Reg methods[] = {{"counter", game_counter}, {"set_counter", game_set_counter},
                                     {"add_counter", game_add_counter}, {"mark", game_mark}, {"set_mark", game_set_mark}};
  return methods;
}

}  // namespace hr::bindings
