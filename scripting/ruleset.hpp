// ruleset.hpp — finding rulesets on disk and loading one into a sandboxed Lua state as hr::Rules.
//
// A ruleset is a folder with `ruleset.toml` (id, name, players, entry script, [params]) and its Lua entry
// script (`rules.lua` by default). Built-in rulesets live in `share/houserules/rulesets` beside an installed
// binary, or in the source tree's `rulesets/` for a binary of the build tree; the folders listed in the
// environment variable HOUSERULES_PATH (colon-separated) are searched too, first.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "rules.hpp"

namespace hr {

/// A ruleset could not be found or loaded: a missing file, broken TOML (message has file:line:column),
/// a Lua error at load time (file:line and traceback), a bad declaration. Nothing was changed.
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The longest chain of variants, each extending the next, that is loaded (a base ruleset under 32
/// variants). Deeper chains are refused with an error naming the file, instead of exhausting the stack.
inline constexpr int kMaxVariantChain = 32;

/// What a variant file adds to the layout its parent declares, in TOML (docs/writing-rules.md, "What a variant
/// adds"): a new zone ([zones.<name>]), a new counter ([counters.<name>]), or a new visibility for the parent's
/// zones ([visibility] "<zone or pattern>" = "<visibility>"). Applied by houserules.declare, in file order,
/// innermost variant first; an error there names the file and line.
struct VariantAddition {
  enum class Kind { Zone, Counter, Visibility };
  Kind kind = Kind::Zone;
  std::string name;         ///< zone or counter name; for Visibility a zone name, or a pattern where `*` matches any text
  std::string visibility;   ///< Zone, Visibility: hidden, owner, public, top or top-card
  bool per_seat = false;    ///< Zone: one zone per seat ("<name>.1" ...), owned by it; Counter: a value per seat too
  std::int64_t initial = 0; ///< Counter: its value at the start
  std::string meaning;      ///< `meaning`, shown by `describe`
  std::filesystem::path file;
  int line = 0;
};

/// A variant file: `extends` a ruleset or another variant, overrides parameters, and may add a script
/// that receives the parent's rules table and returns the changed rules (docs/writing-rules.md).
struct VariantInfo {
  std::string id;                  ///< "three-player" (the file's stem, or its `id` key)
  std::string name;                ///< `name`, or the id
  std::string description;         ///< `description`
  std::filesystem::path file;      ///< the variant's TOML file, absolute
  std::filesystem::path script;    ///< its Lua script, absolute; empty when it has none
  std::vector<VariantAddition> additions;  ///< its [zones], [counters] and [visibility], in file order
};

/// What `ruleset.toml` (and the variant files on top of it) say about a ruleset, without running scripts.
struct RulesetInfo {
  std::string id;                    ///< e.g. "lost-cities", or "lost-cities/three-player" for a variant
  std::string name;                  ///< e.g. "Lost Cities (card game)"
  std::string summary;               ///< one line
  std::string round_word = "round";  ///< `round_word`: what the rules call a round ("expedition"), lower case
  std::filesystem::path dir;         ///< the folder holding the base ruleset.toml
  std::filesystem::path entry;       ///< the base entry script, absolute
  int min_players = 2;
  int max_players = 2;
  int default_players = 2;
  /// The variants applied on top of the base ruleset, innermost first (empty for the base ruleset).
  std::vector<VariantInfo> variants;
  /// The base ruleset's id.
  std::string base_id;
  /// [bots]: the ruleset's default options per bot name (only "ismcts" takes options), e.g.
  /// {"ismcts", "expand=random"}, from ruleset.toml and then each variant (a variant's entry replaces its
  /// parent's). Checked at load (IsmctsOptions::parse). See Rules::bot_options.
  std::map<std::string, std::string> bot_options;
  /// Parameters set on the command line (`--set name=value`), applied after the variants in this order and
  /// checked like a variant's [params] and the schema (effective_params). Empty for the ruleset as written.
  std::vector<std::string> overrides;
};

/// One effective parameter: its value as TOML, and the file that set it last (for `describe`).
struct ParamOrigin {
  std::string path;  ///< "hand_size", or "letters.yellow" for a nested key
  std::string value; ///< the value as TOML text
  std::filesystem::path file;
  int line = 0;
};

/// While alive, the ruleset loader passes every TOML file it is about to read (a `ruleset.toml`, a variant file,
/// each link of an `extends` chain) to `check` first, on this thread; `check` refuses a file by throwing (its
/// exception reaches the caller of find_ruleset/load_rules unchanged), so the file is never opened.
/// `houserules serve` uses it to read nothing outside the ruleset folders. A nested guard replaces the outer
/// one for its lifetime. `check` must outlive the guard.
class ScopedReadCheck {
 public:
  explicit ScopedReadCheck(const std::function<void(const std::filesystem::path&)>& check);
  ~ScopedReadCheck();
  ScopedReadCheck(const ScopedReadCheck&) = delete;
  ScopedReadCheck& operator=(const ScopedReadCheck&) = delete;

 private:
  const std::function<void(const std::filesystem::path&)>* previous_;
};

/// The built-in rulesets' folder: `<folder of the running binary>/../share/houserules/rulesets` (read from
/// /proc/self/exe; the relative part is CMake's install layout, HOUSERULES_INSTALLED_RULESETS) when it exists,
/// so an installed or moved tree works from any folder; else the source tree's rulesets/ compiled in as
/// HOUSERULES_RULESETS_DIR (a binary run from the build tree). Never throws.
std::filesystem::path builtin_rulesets_dir();
/// The folders searched for rulesets, in order: HOUSERULES_PATH entries, then builtin_rulesets_dir().
std::vector<std::filesystem::path> ruleset_search_path();
/// Every ruleset found on the search path (the first of a given id wins), sorted by id. A folder whose
/// ruleset.toml cannot be read is skipped; its error (file:line) is appended to `problems` when given.
std::vector<RulesetInfo> list_rulesets(std::vector<std::string>* problems = nullptr);
/// Reads `<dir>/ruleset.toml`. Throws LoadError (file:line:column for TOML errors, missing keys named).
RulesetInfo read_ruleset_info(const std::filesystem::path& dir);
/// Resolves a ruleset or variant: an id ("lost-cities"), an id and a variant of it ("lost-cities/three-player",
/// found in rulesets/lost-cities/variants/three-player.toml), a path to a ruleset folder or its ruleset.toml,
/// or a path to a variant file. A variant's `extends` is resolved the same way (relative paths from the
/// variant's folder). Throws LoadError naming the file and line of a missing parent or a cycle, and listing
/// the rulesets that exist when nothing matches.
RulesetInfo find_ruleset(const std::string& id_or_path);
/// The variant files of a ruleset (rulesets/<id>/variants/*.toml), sorted by id. Unreadable files are skipped.
std::vector<VariantInfo> list_variants(const RulesetInfo& base);
/// The effective parameters of `info`: the base [params] with each variant's [params] deep-merged over them,
/// in order, checked against the parent's keys and types and the base ruleset's [schema] (min, max, choices;
/// for lists and tables min_items, max_items, items = {min, max}, entries_in, per_seat: docs/writing-rules.md).
/// Throws LoadError "file:line: ..." for an unknown parameter, a wrong type or a value out of range.
/// `origins`, when given, receives every leaf parameter with the file and line that set it. `seats` > 0 also
/// checks the per_seat lists against that number of players (0: not known yet, not checked).
/// `info.overrides` ("name=value", a dotted name for a nested key, the value TOML or else a bare word taken as a
/// string) are applied last; an error in one names it: "--set hand_size=99: parameter 'hand_size' = 99 is above
/// its maximum 12". Their origin has line 0 and the file "--set name=value".
toml::table effective_params(const RulesetInfo& info, std::vector<ParamOrigin>* origins = nullptr, int seats = 0);

/// Limits and choices for loading a ruleset.
struct LoadOptions {
  int seats = 0;                                   ///< 0 = the ruleset's default number of players
  std::size_t memory_limit = 64u << 20;            ///< bytes the Lua state may allocate
  std::chrono::milliseconds hook_time_limit{2000}; ///< CPU time one hook call may use before it is stopped
  /// Clear the `out` list of the actions hook once read, so that a count past the entries a call filled
  /// finds nil (an error) instead of earlier calls' actions. `check` sets it; it costs about a tenth of
  /// the per-action path (a rawset per action), so play, simulate and bots go without.
  bool clear_action_lists = false;
  /// Ask a rule again whenever game:append_allowed has its answer remembered (a call that read nothing of the
  /// game: docs/writing-rules.md), and raise if it answers otherwise: a rule keeping state in its Lua locals.
  /// `check` sets it; play, simulate and bots go without (the remembered answer is the point).
  bool check_remembered_answers = false;
  /// `--set name=value` texts (RulesetInfo::overrides): load_rules applies them over the ruleset's parameters.
  std::vector<std::string> overrides;
};

/// Loads a ruleset into a fresh sandboxed Lua state and returns it as hr::Rules (one per thread: a Lua
/// state is not thread-safe). Throws LoadError. See scripting/scripted_rules.hpp for the Lua contract.
std::unique_ptr<class ScriptedRules> load_rules(const std::string& id_or_path, const LoadOptions& options = {});

}  // namespace hr
