// binding_context.hpp — private to scripting/: what the Lua-facing C functions need to reach the kernel.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include <lua.hpp>

#include "sandbox.hpp"
#include "scripted_rules.hpp"

namespace hr {

/// The one `game` userdata of a Lua state points at whichever GameState a hook call is about.
struct GameBinding {
  GameState* state = nullptr;
  bool writable = false;   ///< true in setup, start_round and apply
  const char* hook = "";   ///< the running hook, for messages
};

struct ScriptedRules::Impl {
  explicit Impl(Sandbox::Limits limits) : sandbox(limits) {}
  Sandbox sandbox;
  Layout* layout = nullptr;  // ScriptedRules::layout_
  bool declared = false;
  bool loading = true;
  GameBinding* binding = nullptr;  // inside the userdata
  int game_ref = LUA_NOREF;
  int zone_names_ref = LUA_NOREF;  // name -> zone number
  int game_methods_ref = LUA_NOREF; // the game's methods (also houserules.game)
  int api_ref = LUA_NOREF;          // the real houserules table behind its read-only proxy
  int rules_ref = LUA_NOREF;        // the final rules table (after the variants)
  Rng* playout_rng = nullptr;       // the RNG the driver picks actions with
  bool clear_action_lists = false;  // LoadOptions::clear_action_lists
  /// Bytes of C++ state houserules.declare has counted so far against ScriptedRules::kKernelBudget (charge()).
  std::size_t kernel_bytes = 0;
  std::vector<VariantAddition> additions;  // the variants' [zones], [counters], [visibility], applied by declare
  std::vector<std::vector<ZoneId>> zone_groups;  // declare{groups=...}: constant lists of zones, 1-based ids
  std::vector<std::vector<lua_Integer>> maps;  // declare{maps=...}: index = component number (0: unseen card)
  std::vector<ZoneId> scratch_zones;     // a list of zones read from a Lua argument (zones_arg)
  LatticeScratch lattice_scratch;         // game:reachable, game:path
  std::vector<std::int32_t> int_scratch;  // game:path, game:placements
  // game:cards(zone, into, true): name_stamps[name class] == the call's stamp once a copy was listed
  std::vector<std::uint32_t> name_stamps;
  std::uint32_t name_stamp = 0;
  /// A stamp no name class carries yet (the marks are cleared when the counter wraps).
  std::uint32_t next_name_stamp() {
    if (name_stamps.size() != layout->components.size()) name_stamps.assign(layout->components.size(), 0);
    if (++name_stamp == 0) {
      std::fill(name_stamps.begin(), name_stamps.end(), 0);
      name_stamp = 1;
    }
    return name_stamp;
  }
  /// Under a stamp of next_name_stamp(): whether card c is the first of its name met under it (then marked).
  bool first_of_name(ComponentId c, std::uint32_t stamp) {
    std::uint32_t& mark = name_stamps[layout->name_class(c)];
    if (mark == stamp) return false;
    mark = stamp;
    return true;
  }
  /// Counts the game's reads and changes through the `game` userdata (every method's state_arg, and tostring):
  /// a rule call after which it did not move read nothing of the game, so its answer is a function of its
  /// arguments (rules keep no state of their own: docs/writing-rules.md) and may be remembered
  /// (game:append_allowed).
  std::uint64_t game_reads = 0;
  /// game:append_allowed's remembered answers (bindings_allowed.cpp): for the one rule function `allowed_rule`
  /// (kept alive by `allowed_rule_ref`), a direct-mapped table keyed by seat, card and the column's cards;
  /// entries of another generation are empty. Allocated at the first call.
  struct RememberedAnswer {
    static constexpr std::size_t kColumn = 14;  ///< columns of more cards are not remembered
    std::uint32_t generation = 0;
    std::uint16_t seat = 0;
    ComponentId card = 0;
    std::uint8_t count = 0;
    bool allowed = false;
    ComponentId column[kColumn] = {};
  };
  std::vector<RememberedAnswer> remembered;
  std::uint32_t remembered_generation = 0;
  const void* allowed_rule = nullptr;
  int allowed_rule_ref = LUA_NOREF;
  int allowed_list_ref = LUA_NOREF;  // the list handed to the rule by the outermost game:append_allowed
  int allowed_depth = 0;             // game:append_allowed calls under way (a rule may call it again)
  /// LoadOptions::check_remembered_answers: ask the rule on every remembered answer too, and raise if it
  /// answers otherwise (`houserules check`).
  bool check_remembered = false;
  int actions_out_ref = LUA_NOREF; // the reused, presized list passed to the actions hook
  // While `out_buffered`, that list's entries live in `out_buffer` (entry i at [i - 1], no holes): the table
  // itself holds nothing, and its metatable serves reads, `#` and writes (a write first makes it a plain table
  // holding the buffer's entries, for good: unbuffer_out). The batch methods append to the buffer, and the
  // kernel reads the legal actions from it without a C API call per entry.
  bool out_buffered = false;
  const void* out_table = nullptr;  // lua_topointer of the list, to know it among a method's arguments
  std::vector<lua_Integer> out_buffer;
  int hook_setup = LUA_NOREF, hook_start_round = LUA_NOREF, hook_actions = LUA_NOREF, hook_apply = LUA_NOREF,
      hook_action_text = LUA_NOREF, hook_score = LUA_NOREF, hook_describe = LUA_NOREF, hook_explain = LUA_NOREF,
      hook_heuristic = LUA_NOREF, hook_ranks = LUA_NOREF, hook_invariants = LUA_NOREF, hook_shorthand = LUA_NOREF,
      hook_score_breakdown = LUA_NOREF, hook_turn_summary = LUA_NOREF;
  int hook_draw = LUA_NOREF;  // draw_component(view, card, kind): houserules serve

  static Impl& from(lua_State* L) { return *static_cast<Impl*>(Sandbox::from(L)->owner); }
};

/// The refusal of an `actions` hook that returns its `out` list itself (issue 35): `out` is reused from call to
/// call, and a list filtered in place keeps the entries past those it kept, so its length is not the number of
/// legal actions (such a hook passed scenario tests and broke only under `check`). Raised at the first such call.
inline constexpr const char* kOutReturned =
    "hook 'actions' returned its `out` list itself: `out` is reused from call to call, and entries past those this "
    "call kept stay in it (a list filtered in place keeps its old tail), so its length is not the number of actions. "
    "Return the count of entries filled (`return n`: out[1..n] are the actions), or a new list of your own";

/// The internal random-playout driver, a C function: run(actions, apply, game, out, limit) -> plies, ended
/// (bindings_actions.cpp). Scripts cannot reach it.
int playout_run(lua_State* L);
/// Creates the `actions` hook's `out` list, buffered (its registry ref in impl.actions_out_ref).
void create_actions_out(lua_State* L, ScriptedRules::Impl& impl);
/// Makes the `out` list a plain table holding the buffer's entries, for good (nothing when it is plain already).
/// A C function (no arguments, no results): called directly from C functions that run under a Lua call, or
/// through Sandbox::plain_protected. May raise a Lua error (memory).
int unbuffer_out(lua_State* L);
/// Creates the table of the game's methods (stores its ref in `impl`): every area's list (binding_args.hpp).
void create_game_methods(lua_State* L, ScriptedRules::Impl& impl);
/// Creates the one `game` userdata, whose metatable's __index is the methods table; stores refs in `impl`.
void create_game_binding(lua_State* L, ScriptedRules::Impl& impl);
/// Pushes the `houserules` table (params, seats, declare) built from the params table on the stack top,
/// which it pops.
void push_houserules_api(lua_State* L, ScriptedRules::Impl& impl, const RulesetInfo& info);

}  // namespace hr
