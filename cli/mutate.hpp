// mutate.hpp — `houserules mutate`: mutation testing of a ruleset's scripts and parameters.
//
// A mutant is one small change to one rule script (or one parameter of ruleset.toml / the variant file):
//   comparison  `<` <-> `<=`, `>` <-> `>=`
//   equality    `==` <-> `~=`
//   constant    an integer literal n -> n+1, n-1 (n-1 only when n >= 1)
//   logical     `and` <-> `or`
//   negate      `if C then` -> `if not (C) then` (also elseif, while C do)
//   drop        a one-line statement that starts with a name (an assignment or a call) removed
//   parameter   a numeric parameter that has a schema moved by one step within its min and max; a boolean
//               flipped; a string with `choices` set to the next choice
// Mutants are found with a Lua tokenizer (strings, long strings and comments are never changed). Each runs in
// its own process (fork), which loads the mutated text in place of the file (scripting/coverage.hpp,
// set_source_override) and runs the tests: every scenario file and golden game of the tests folder, in order,
// stopping at the first failure, then a short `check` of the ruleset. A failing test, a crash, the CPU guard
// or the time limit kill the mutant; a mutant whose tests all pass survives. Lines the unmutated tests never
// run (coverage, recorded first) are not mutated: those mutants are reported as "not covered".
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace hr {

/// One token of Lua source: its kind, its bytes [begin, end) and the line it starts on (from 1).
struct LuaToken {
  enum class Kind { Name, Keyword, Number, String, Symbol };
  Kind kind = Kind::Symbol;
  std::size_t begin = 0;
  std::size_t end = 0;
  int line = 1;
  int end_line = 1;  ///< the line of its last byte (long strings span lines)
};

/// Splits Lua 5.4 source into tokens, skipping whitespace and comments (short and long), with short and
/// long strings as single tokens. Throws std::runtime_error "line N: ..." on an unfinished string or comment.
std::vector<LuaToken> tokenize_lua(std::string_view source);

/// One mutant: replace bytes [begin, end) of `file` by `replacement`.
struct Mutant {
  std::filesystem::path file;  ///< absolute
  std::string shown;           ///< as messages show it
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string replacement;
  int line = 0;       ///< first line changed
  int last_line = 0;  ///< last line changed
  std::string kind;   ///< comparison, equality, constant, logical, negate, drop, parameter
  std::string what;   ///< "`<=` -> `<`", "hand_size 8 -> 9"
};

/// The mutants of one Lua script, in source order. Throws std::runtime_error when it cannot be tokenized.
std::vector<Mutant> lua_mutants(const std::filesystem::path& file, const std::string& shown, std::string_view source);
/// `source` with the mutant applied.
std::string apply_mutant(std::string_view source, const Mutant& m);
/// The changed lines as a diff: "- old line" and "+ new line" rows, each indented by `indent`.
std::string mutant_diff(std::string_view source, const Mutant& m, const std::string& indent);

struct MutateOptions {
  std::string target;             ///< ruleset id, id/variant, or path
  std::vector<std::string> tests; ///< test files or folders (default: the ruleset's tests/ folder)
  int max = 0;                    ///< mutants run at most (a sample drawn with `seed`); 0 = all
  int jobs = 0;                   ///< processes at once; 0 = the number of cores
  std::uint64_t seed = 1;         ///< sampling, and the seed of the short check
  int check_games = 3;            ///< games of the short check (0: no check)
  int timeout_seconds = 0;        ///< a mutant still running after this is killed; 0 = 10 x the unmutated run + 10 s
  bool json = false;              ///< print the result as JSON
  bool list = false;              ///< list the mutants without running them
};

/// Runs the mutation test. Prints the score and each surviving mutant (file:line, what changed, the diff) to
/// `out`, progress to `err`. Returns 0 when it ran (whatever the score), 2 when the ruleset cannot be loaded,
/// its tests fail without a mutation, or the options are wrong.
int mutate_command(const MutateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hr
