// golden.hpp — golden transcripts: recorded games that `houserules test` replays to catch any unintended
// change in a rule script, and re-records with `houserules test --update` after an intended one.
//
// A golden file is a transcript (cli/play/transcript.hpp, the format `houserules play --log` writes) in a folder
// named `golden`, conventionally rulesets/<id>/tests/golden/*.jsonl. Recorded by --update it also holds, so
// that a divergence can be shown as expected-vs-got rather than as two digests:
//   header: "setup_digest" and "setup" (every field of the state after the setup, see state_fields),
//   action: "changes" (the fields this action changed, with their new values).
// Those extra keys are ignored by `houserules replay`, so a golden file is also an ordinary transcript.
//
// Which rules a golden file is replayed with: when the header's `ruleset` is the id of the ruleset folder the
// file lies in (rulesets/<id>/tests/golden/x.jsonl), or "<that id>/<variant>", the rules of that folder (or its
// variants/<variant>.toml) — so a copy of a ruleset folder replays its golden files against the copy; otherwise
// the header's ruleset as `houserules play` resolves it (a relative path from the golden file's folder first).
// `--update` writes a ruleset or variant named by path (as `play --log` recorded it, relative to the folder it
// ran in) relative to the golden file's folder ("../../my-rule.toml"), so a house rule's golden file replays
// from any folder.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "state.hpp"

namespace hr {

struct GoldenOptions {
  bool update = false;   ///< re-record instead of checking
  bool verbose = false;  ///< print `ok <file>` for a file that passes
};

/// Whether `file` is a golden transcript: a *.jsonl file in a folder named `golden`.
bool is_golden_file(const std::filesystem::path& file);

/// Replays one golden file (or re-records it with options.update: the same seed, seats and players, playing
/// again with the current rules). Prints `FAIL <file>:<line>: first divergence at action N ...` followed by
/// indented lines (expected vs got: the legal-action count, the action, or the state fields that differ),
/// `ok <file>` when verbose, or `updated <file>` / `unchanged <file>`. Returns true if it passed (or was
/// re-recorded).
bool run_golden_file(const std::filesystem::path& file, std::ostream& out, const GoldenOptions& options);

/// Every field of a state in a readable form, in a fixed order: "to_move", "phase", "round", "over",
/// "match_scores", "round_scores", each zone by name (its cards bottom to top, "-" when empty; a hidden zone
/// as "<n> cards, top <card>, order #<hash of the order>", to keep golden files small), each counter
/// ("counter <name>" or "counter <name>[<owner>]"), tiles ("tile <track>#<space>") and figures
/// ("figure <n> <kind>"). Two states with equal fields differ at most in hidden bookkeeping (RNG, who has seen
/// which card).
std::vector<std::pair<std::string, std::string>> state_fields(const GameState& state);

}  // namespace hr
