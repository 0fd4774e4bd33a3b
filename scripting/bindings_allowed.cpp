// bindings_allowed.cpp — game:append_allowed: a rule asked for each card of a zone, with the cards of the zone
// each card would go to, in one call; the answers of rule calls that read nothing of the game are remembered.
//
// Binds game:append_allowed (reference: docs/writing-rules.md, "The game").
//
// Why: a house rule that replaces a per-card legality rule (Lost Cities' may_play) is asked for every card in
// hand at every place phase. Asked from Lua, that was a Lua loop, a game:cards call per column and a plain `out`
// list (3x the base game's instructions, docs/performance.md). Here the loop, the columns and the appends are in
// C, `out` stays in the kernel's buffer, and a call of the rule that used nothing of the game (no game method,
// not even tostring(game): Impl::game_reads did not move; and no math.random draw: Sandbox::random_draws did not
// move) is remembered: its answer is a function of its
// arguments, because rules keep no state of their own (DESIGN §1; globals are frozen, and a rule keeping state
// in its locals is what `houserules check` looks for: with LoadOptions::check_remembered_answers it asks the
// rule again on every remembered answer and raises when the answer differs).
//
// Invariants: the rule is asked with (game, seat, card, list, count), list[1..count] the column's cards bottom
// to top (0 for a card the viewer cannot see) and nothing past count, a list of its own for each call that was
// not remembered; an answer is remembered under (the rule function, seat, card, the column's cards), and only
// when the call moved no read counter; a rule's errors go through unchanged; cards of the zone the viewer
// cannot see are skipped; entries are appended as game:append_cards appends them (Appender).
#include <cstdint>
#include <vector>

#include "binding_args.hpp"

namespace hr::bindings {

namespace {

using Remembered = Impl::RememberedAnswer;
constexpr std::size_t kRememberedBits = 12;  // 4,096 entries (~150 KB), allocated at the first call

std::uint32_t answer_slot(int seat, ComponentId card, std::span<const ComponentId> column) {
  std::uint32_t h = (static_cast<std::uint32_t>(seat) * 0x9E3779B1u) ^ card;
  h *= 0x85EBCA6Bu;
  for (const ComponentId c : column) h = (h ^ c) * 0xC2B2AE35u;
  h ^= h >> 15;
  return (h * 0x2C1B3C6Du) >> (32 - kRememberedBits);
}

bool same_question(const Remembered& r, std::uint32_t generation, int seat, ComponentId card,
                   std::span<const ComponentId> column) {
  if (r.generation != generation || r.seat != seat || r.card != card || r.count != column.size()) return false;
  for (std::size_t i = 0; i < column.size(); ++i)
    if (r.column[i] != column[i]) return false;
  return true;
}

/// Counts the calls under way (a rule may call game:append_allowed again: only the outermost reuses its list).
struct Depth {
  explicit Depth(Impl& impl) : impl_(impl) { ++impl_.allowed_depth; }
  ~Depth() { --impl_.allowed_depth; }
  Impl& impl_;
};

// game:append_allowed(zone, into, n, base, distinct, rule, seat, key, columns) -> n': appends base + c to `into`
// (from into[n + 1]) for each card c of `zone`, bottom to top (with `distinct`, the first copy of each name),
// for which rule(game, seat, c, column, count) is true, where column[1..count] are the cards of the key[c]-th
// zone of the zone group `columns` (`key` a declared map). Returns the new count. The cards of `zone` are read
// once, before the first call of the rule. An answer of a call that read nothing of the game is remembered
// for the same rule, seat, card and column cards (up to 14 of them), and the rule is not asked again.
GAME_METHOD(append_allowed) {
  IMPL;
  GameState& s = state_arg(L, impl);
  const ZoneId from = zone_arg(L, impl, 2);
  Appender into(L, impl, 3, "append_allowed");
  const lua_Integer n = integer_arg(L, 4);
  const lua_Integer base = integer_arg(L, 5);
  const bool distinct = lua_toboolean(L, 6);
  luaL_checktype(L, 7, LUA_TFUNCTION);
  const int seat = static_cast<int>(integer_arg(L, 8));
  const std::vector<lua_Integer>& key = map_arg(L, impl, 9);
  const std::vector<ZoneId>& zones = zones_arg(L, impl, 10);
  // a declared group stays put; a list of zones is read into a scratch a rule's own call may reuse: a copy
  std::vector<ZoneId> copied;
  if (&zones == &impl.scratch_zones) copied = zones;
  const std::vector<ZoneId>& groups = &zones == &impl.scratch_zones ? copied : zones;
  luaL_checkstack(L, 8, "game:append_allowed");
  lua_settop(L, 10);
  constexpr int kRule = 7, kList = 11;
  const Depth depth(impl);
  bool list_pushed = false;  // the list handed to the rule, at kList once a question is not remembered
  lua_Integer listed = 0;    // its entries (cleared past count before each question)
  // remembered answers are for one rule function at a time (its ref keeps it, and so its address, alive)
  const void* rule = lua_topointer(L, kRule);
  if (rule != impl.allowed_rule) {
    if (impl.allowed_rule_ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, impl.allowed_rule_ref);
    lua_pushvalue(L, kRule);
    impl.allowed_rule_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    impl.allowed_rule = rule;
    if (++impl.remembered_generation == 0) {  // (wrapped: forget every entry)
      for (Remembered& r : impl.remembered) r.generation = 0;
      impl.remembered_generation = 1;
    }
  }
  if (impl.remembered.empty()) impl.remembered.resize(std::size_t{1} << kRememberedBits);
  // the candidates, read before any call of the rule (which may read zones with `distinct` itself)
  const auto cards = s.cards(from);
  constexpr std::size_t kLocal = 64;
  ComponentId local[kLocal];
  std::vector<ComponentId> many;
  std::size_t candidates = 0;
  const Layout& layout = *impl.layout;
  const std::uint32_t stamp = distinct ? impl.next_name_stamp() : 0;
  for (const ComponentId c : cards) {
    if (c >= kUnknownComponent) continue;
    if (distinct && !impl.first_of_name(c, stamp)) continue;
    if (candidates < kLocal) local[candidates] = c;
    else {
      if (many.empty()) many.assign(local, local + kLocal);
      many.push_back(c);
    }
    ++candidates;
  }
  const ComponentId* list = many.empty() ? local : many.data();
  into.start(n);
  for (std::size_t i = 0; i < candidates; ++i) {
    const ComponentId c = list[i];
    const lua_Integer k = key[c + 1u];
    if (k < 1 || k > static_cast<lua_Integer>(groups.size()))
      luaL_error(L, "game:append_allowed: key %d (of card %d) names no zone of the group", static_cast<int>(k), c + 1);
    const GameState& now = *impl.binding->state;  // (the rule may not change it: read again all the same)
    const auto column = now.cards(groups[static_cast<std::size_t>(k - 1)]);
    const bool rememberable = column.size() <= Remembered::kColumn && seat >= 0 && seat <= 0xFFFF;
    Remembered* slot = rememberable ? &impl.remembered[answer_slot(seat, c, column)] : nullptr;
    const bool known = slot && same_question(*slot, impl.remembered_generation, seat, c, column);
    bool allowed = known && slot->allowed;
    if (!known || impl.check_remembered) {
      if (!list_pushed) {  // the outermost call's list is kept from call to call (no allocation a ply)
        list_pushed = true;
        if (impl.allowed_depth == 1) {
          if (impl.allowed_list_ref == LUA_NOREF) {
            lua_createtable(L, 16, 0);
            impl.allowed_list_ref = luaL_ref(L, LUA_REGISTRYINDEX);
          }
          lua_rawgeti(L, LUA_REGISTRYINDEX, impl.allowed_list_ref);
        } else {
          lua_createtable(L, 16, 0);
        }
        listed = static_cast<lua_Integer>(lua_rawlen(L, kList));
      }
      const auto count = static_cast<lua_Integer>(column.size());
      for (lua_Integer j = 0; j < count; ++j) {
        push_component(L, column[static_cast<std::size_t>(j)]);
        lua_rawseti(L, kList, j + 1);
      }
      for (lua_Integer j = count + 1; j <= listed; ++j) lua_pushnil(L), lua_rawseti(L, kList, j);
      listed = count;
      const Sandbox& sandbox = impl.sandbox;
      const std::uint64_t reads = impl.game_reads, draws = sandbox.random_draws();
      lua_pushvalue(L, kRule);
      lua_pushvalue(L, 1);
      lua_pushinteger(L, seat);
      lua_pushinteger(L, c + 1);
      lua_pushvalue(L, kList);
      lua_pushinteger(L, count);
      lua_call(L, 5, 1);
      const bool answer = lua_toboolean(L, -1);
      lua_pop(L, 1);
      into.resync();
      listed = static_cast<lua_Integer>(lua_rawlen(L, kList));  // (the rule may have written to it)
      if (known && answer != allowed)
        luaL_error(L, "game:append_allowed: the rule answered %s for seat %d and card %s on the same column cards "
                   "(%d) where it answered %s before, reading nothing of the game: a rule's answer may depend only "
                   "on its arguments and the game (rules keep their state in the game, not in Lua locals)",
                   answer ? "true" : "false", seat, layout.components[c].name.c_str(), static_cast<int>(count),
                   allowed ? "true" : "false");
      allowed = answer;
      // (it read nothing, so it changed nothing: `column` holds; and it drew no random number)
      if (slot && !known && impl.game_reads == reads && sandbox.random_draws() == draws) {
        slot->generation = impl.remembered_generation;
        slot->seat = static_cast<std::uint16_t>(seat);
        slot->card = c;
        slot->count = static_cast<std::uint8_t>(column.size());
        slot->allowed = answer;
        for (std::size_t j = 0; j < column.size(); ++j) slot->column[j] = column[j];
      }
    }
    if (allowed) into.add(base + c + 1);
  }
  lua_pushinteger(L, into.count());
  return 1;
}

const luaL_Reg kMethods[] = {{"append_allowed", game_append_allowed}};

}  // namespace

std::span<const luaL_Reg> allowed_methods() { return kMethods; }

}  // namespace hr::bindings
