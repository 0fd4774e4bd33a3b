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
// Equivalent mutants (changes no test can tell from the rules: a bound the game never reaches, a scratch
// value overwritten before it is read) may be declared, each with its reason, in an equivalent-mutants file
// (the ruleset folder's equivalent-mutants.toml, or --equivalents): they are run like the others, but left out
// of the score (killed / (covered - declared equivalent), the textbook mutation score); a declared mutant the
// tests kill, and an entry that names no mutant (the code changed), are reported.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
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
  std::string equivalent_why;  ///< declared equivalent (an equivalent-mutants file): the reason; else empty
  std::string declared_at;     ///< where it is declared: "equivalent-mutants.toml:12"
};

/// The mutants of one Lua script, in source order. Throws std::runtime_error when it cannot be tokenized.
std::vector<Mutant> lua_mutants(const std::filesystem::path& file, const std::string& shown, std::string_view source);
/// `source` with the mutant applied.
std::string apply_mutant(std::string_view source, const Mutant& m);
/// The changed lines as a diff: "- old line" and "+ new line" rows, each indented by `indent`.
std::string mutant_diff(std::string_view source, const Mutant& m, const std::string& indent);

/// The whole lines a mutant changes, before (`from`) and after (`to`), each line trimmed of surrounding
/// whitespace and joined with "\n" (a dropped statement's `to` is ""): how an equivalent-mutants file names a
/// mutant, so that its entries survive edits elsewhere in the file.
struct MutantLines {
  std::string from;
  std::string to;
};
MutantLines mutant_lines(std::string_view source, const Mutant& m);

/// One entry of an equivalent-mutants file (docs/testing-rules.md, "Equivalent mutants"):
///   [[equivalent]]
///   why = "the reason no test can tell these mutants from the rules"
///   mutants = [ { file = "rules.lua", line = 39, from = "...", to = "..." }, ... ]
/// `file` is relative to the equivalents file's folder; `line` is a hint (of several lines with the same text,
/// the nearest matches).
struct DeclaredEquivalent {
  std::filesystem::path file;  ///< absolute (weakly canonical)
  std::string file_text;       ///< as written
  int line = 0;
  MutantLines lines;
  std::string why;
  std::string at;  ///< "equivalent-mutants.toml:12", where the entry is
};

/// Reads an equivalent-mutants file. Throws LoadError "file:line: ..." when it is not TOML or an entry lacks
/// a non-empty `why`, `file`, a `line` >= 1, `from` or `to`, or has a key of another name.
std::vector<DeclaredEquivalent> read_equivalents(const std::filesystem::path& file);

/// Marks the mutants `declared` names (equivalent_why, declared_at), each entry the nearest unclaimed mutant
/// with its file and lines; returns the entries that match no mutant (stale: the code changed).
std::vector<DeclaredEquivalent> match_equivalents(const std::vector<DeclaredEquivalent>& declared,
                                                  std::vector<Mutant>& mutants,
                                                  const std::map<std::filesystem::path, std::string>& sources);

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
  /// The equivalent-mutants file (its mutants are run, but left out of the score); empty: the ruleset
  /// folder's equivalent-mutants.toml when there is one (a ruleset, not a variant)
  std::string equivalents;
  bool equivalents_template = false;  ///< print the undeclared survivors as equivalent-mutants entries
  /// Only the mutants of these files, each "FILE", "FILE:LINE" or "FILE:FIRST-LAST" (FILE relative to the
  /// ruleset's folder, or to the current folder, or a file name alone when one mutated file has it); empty:
  /// every mutant. Declarations of the equivalents file outside them are not reported as stale.
  std::vector<std::string> only;
};

/// Runs the mutation test. Prints the score and each surviving mutant (file:line, what changed, the diff) to
/// `out`, progress to `err`. Returns 0 when it ran (whatever the score), 2 when the ruleset cannot be loaded,
/// its tests fail without a mutation, or the options are wrong.
int mutate_command(const MutateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace hr
