// arguments.hpp — what every `houserules` command shares about its arguments: the exit codes, "did you mean"
// for a mistyped command or option, the checks of --seed, --threads and output files, --set and --json.
//
// Exit codes (docs/cli.md): 0 ok, 1 a check failed (a test, a replay, a violation, a failed game), 2 bad input
// (an argument, a file, a ruleset that does not load). A command-line parse error is bad input: 2.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI

namespace hr {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitBadInput = 2;

/// The edit distance between `a` and `b`: insertions, deletions, substitutions of one byte and swaps of two
/// neighbouring bytes ("lsit" is 1 from "list"), each counting 1 (optimal string alignment).
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate closest to `word` when it is close enough to be a typing mistake (edit distance at most a third
/// of the longer word, at least 1 and at most 3; or `word` a prefix of exactly one candidate); else "".
std::string closest_word(const std::string& word, const std::vector<std::string>& candidates);

/// "did you mean `houserules simulate`?" for the first mistyped subcommand or option of `argv` (compared with the
/// subcommands of `app` and the long options of the subcommand given), or "" when nothing looks mistyped.
std::string did_you_mean(CLI::App& app, int argc, const char* const* argv);

/// A CLI11 check for a seed: a decimal integer from 0 to 18446744073709551615 (2^64 - 1). A negative number, a
/// number out of that range or anything else is refused with a message saying so.
CLI::Validator seed_check();

/// A CLI11 check for a count that must be at least 1 (--threads, --games): "0" and negative numbers are refused.
CLI::Validator positive_check();

/// Adds --json to `command`: "Print one JSON document on stdout instead of text (schema: docs/cli.md)".
CLI::Option* add_json_flag(CLI::App& command, bool& json);

/// Adds `--set name=value` (repeatable) to `command`, storing the raw texts in `sets` (see LoadOptions::overrides).
CLI::Option* add_set_option(CLI::App& command, std::vector<std::string>& sets);

}  // namespace hr
