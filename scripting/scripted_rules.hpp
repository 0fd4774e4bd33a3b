// scripted_rules.hpp — hr::Rules implemented by a Lua 5.4 rules script running in a Sandbox.
//
// The Lua contract (reference: docs/writing-rules.md):
//   At load time the entry script reads `houserules.params` (read-only, from ruleset.toml [params]) and
//   `houserules.seats`, calls `houserules.declare{components=..., zones=..., counters=..., rounds=...}` once,
//   and returns its rules table. Required hooks: start_round(game), actions(game) -> {action...},
//   apply(game, action), action_text(game, action) -> string, score(game, seat) -> integer.
//   Optional: setup(game), describe(view, seat) -> string, explain(game, text) -> string,
//   heuristic(game, seat) -> number, ranks(game) -> {place...}, invariants(game) -> nil or a message,
//   shorthand(game, text) -> nil or {action text...}, score_breakdown(game, seat) -> string,
//   draw_component(view, card, kind) -> nil or a scene (scene.hpp),
//   turn_summary(view, seat, turn) -> nil or string.
//   Actions are integers of the script's own encoding; component, zone and seat numbers are 1-based.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ruleset.hpp"
#include "rules.hpp"

namespace hr {

class Sandbox;

/// What one seat's turn changed as a viewing seat saw it, from two of its observations (before the turn's
/// first action and after its last): the input of the `turn_summary` hook (docs/writing-rules.md). Only
/// what the viewer could see: a card it never saw is in no entry.
struct TurnChanges {
  int viewer = 1;                    ///< the seat whose observations these are
  bool you = false;                  ///< the viewer is the person at the terminal ("you drew Y7")
  std::vector<std::string> actions;  ///< the texts of the turn's actions, in order
  struct Move {
    ComponentId card = 0;            ///< 0-based (1-based in Lua)
    bool from_known = false;         ///< the viewer knew where the card was before the turn
    ZoneId from = 0, to = 0;         ///< 0-based zones (1-based in Lua)
  };
  /// Cards the viewer sees in another zone than before the turn (at most kMaxMoves, in zone order).
  std::vector<Move> moved;
  struct Counter {
    int counter = 0;                 ///< 0-based index into Layout::counters
    int owner = 0;                   ///< seat, or 0 for the supply (or a global counter)
    std::int64_t before = 0, after = 0;
  };
  std::vector<Counter> counters;     ///< every counter value that changed (per-seat counters: each owner)
  static constexpr std::size_t kMaxMoves = 256;
};

class ScriptedRules final : public Rules {
 public:
  // What the kernel accepts from hooks (docs/writing-rules.md, "The sandbox"): longer results are errors.
  static constexpr std::int64_t kMaxActions = 1 << 16;        ///< entries of one `actions` list
  static constexpr std::size_t kMaxActionText = 256;          ///< bytes of an action's text
  static constexpr std::size_t kMaxDescription = 64u << 10;   ///< bytes of `describe`'s table
  static constexpr std::size_t kMaxExplanation = 4096;        ///< bytes of an `explain` or `invariants` message
  static constexpr std::size_t kMaxExplainInput = 64u << 10;       ///< longer input lines are not given to `explain`
  static constexpr std::size_t kMaxShorthand = 64;  ///< actions one `shorthand` may stand for
  static constexpr std::int64_t kMaxScore = std::int64_t{1} << 53;  ///< size of one round's score for a seat
  static constexpr std::int64_t kMaxCounter = kMaxScore;  ///< size of a counter's value (initial, set, add)
  /// Bytes of C++ state one ruleset may declare (names, attributes, features, boards and the marks of a game
  /// state, tracks, maps, groups, phases): counted by houserules.declare before each copy is made.
  static constexpr std::size_t kKernelBudget = std::size_t{64} << 20;

  /// Loads `info`'s entry script with `params_toml_text` already merged into its params. Throws LoadError.
  ScriptedRules(const RulesetInfo& info, const LoadOptions& options);
  ~ScriptedRules() override;
  ScriptedRules(const ScriptedRules&) = delete;
  ScriptedRules& operator=(const ScriptedRules&) = delete;

  const Layout& layout() const override { return layout_; }
  std::string id() const override { return info_.id; }
  const RulesetInfo& info() const { return info_; }
  /// The effective parameters as a JSON object text (for transcript headers).
  const std::string& params_json() const { return params_json_; }
  /// The hooks the rules table defines, in the documented order (setup, start_round, actions, ...).
  const std::vector<std::string>& hook_names() const { return hook_names_; }
  /// The other functions of the rules table, sorted: the ruleset's named rules a variant may replace
  /// (`may_follow`, `resolve_tile`, ...; each ruleset's README, "For variant authors"), as `describe` lists them.
  const std::vector<std::string>& rule_functions() const { return rule_functions_; }
  /// Bytes the Lua state holds now.
  std::size_t lua_memory() const;

  /// Runs a full garbage collection of the rules' Lua state, freeing what earlier hook calls left for the
  /// incremental collector. Never needed for correctness (the collector runs on its own as a state
  /// allocates); for a long-lived process at a quiet moment. It runs no script code (the sandbox allows no
  /// `__gc` finalizers), so it needs no protected call. The fuzz harnesses call it after every input,
  /// so that libFuzzer's leak check (run whenever an input allocated more than it freed) does not scan the
  /// whole heap for garbage the collector would have freed later (tests/fuzz, docs/fuzzing.md).
  void collect_garbage();

  std::string action_text(const GameState& state, Action action) override;
  std::int64_t score(const GameState& state, int seat) override;
  std::optional<double> heuristic(const GameState& state, int seat) override;
  /// The [bots] entry of ruleset.toml and its variants for `bot` (RulesetInfo::bot_options), or "".
  std::string bot_options(const std::string& bot) const override {
    const auto it = info_.bot_options.find(bot);
    return it == info_.bot_options.end() ? std::string() : it->second;
  }
  std::string describe(const GameState& observation, int seat) override;
  std::string explain_illegal(const GameState& state, std::string_view text) override;
  /// The `score_breakdown(game, seat) -> string` hook's text: how the score hook arrives at `seat`'s score of
  /// the round in `state` (per expedition, wagers, bonus, penalties), one or more lines of at most
  /// kMaxDescription bytes, shown by `play` at the end of a round; std::nullopt without the hook. Anything
  /// but a string is a ScriptError.
  std::optional<std::string> score_breakdown(const GameState& state, int seat);
  /// The `turn_summary(view, seat, turn) -> string` hook's line for `seat`'s turn as `changes.viewer` saw it:
  /// `view` is that seat's observation after the turn, `changes` what the turn changed in its observations.
  /// One line (at most kMaxExplanation bytes; control characters are an error); std::nullopt without the
  /// hook or when it returns nil or an empty string. Anything else is a ScriptError naming the hook and the
  /// file and line that define it.
  std::optional<std::string> turn_summary(const GameState& view, int seat, const TurnChanges& changes);
  /// Whether the rules define the `turn_summary` hook (without it, `play` prints the generic turn line).
  bool has_turn_summary() const;
  /// The `shorthand(game, text) -> {text...}` hook's list (at most kMaxShorthand texts of kMaxActionText bytes;
  /// anything but a list of strings, or nil, is a ScriptError); empty without the hook.
  std::vector<std::string> shorthand(const GameState& state, std::string_view text) override;
  /// The `draw_component(view, card, kind) -> nil | scene` hook (docs/writing-rules.md, "Drawing a component"): how
  /// `houserules serve` draws component `card` (0-based) in `view` (an observation or a full state, read-only;
  /// `kind` is the card's `kind` attribute when it is a string). Returns the checked scene as JSON text
  /// (scene.hpp), or std::nullopt without the hook or when it returns nil (the page's generic drawing).
  /// Throws ScriptError for a failing hook or a scene that breaks a rule or limit (naming the card and shape).
  std::optional<std::string> draw_component(const GameState& view, ComponentId card);
  /// Whether the rules define the `draw_component` hook.
  bool has_draw_component() const { return std::find(hook_names_.begin(), hook_names_.end(), "draw_component") != hook_names_.end(); }
  std::vector<int> ranks(const GameState& state) override;
  std::string invariant_violation(const GameState& state) override;
  /// As Rules::random_playout (the same games), run inside the Lua VM: one protected call per round instead
  /// of two per action, and only the chosen action is read back.
  std::int64_t random_playout(GameState& state, Rng& rng, std::int64_t max_plies) override;

 protected:
  void setup(GameState& state) override;
  void start_round(GameState& state) override;
  void generate_actions(const GameState& state, std::vector<Action>& out) override;
  void do_apply(GameState& state, Action action) override;

 public:
  struct Impl;  ///< private to scripting/ (binding_context.hpp)

 private:
  RulesetInfo info_;
  Layout layout_;
  std::string params_json_;
  std::vector<std::string> hook_names_;
  std::vector<std::string> rule_functions_;
  std::unique_ptr<Impl> impl_;
  /// generate_actions' end when the hook filled the kernel's buffered `out` list and returned the count `n`
  /// (a lua_Integer): copies and checks the entries into `out`.
  void read_buffered_actions(long long n, std::vector<Action>& out);
};

}  // namespace hr
