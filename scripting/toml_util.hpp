// toml_util.hpp — reading TOML files within bounds, with errors that name the file, line and column.
//
// Every TOML file houserules reads (ruleset.toml, variants, scenario files) goes through parse_toml_file, which
// refuses before parsing what would make the parser or the code walking its result recurse too deep (toml++
// caps nested arrays and inline tables at 256, but not dotted keys: a key of 100,000 parts overflowed the
// stack, issue 18) or read too much.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <toml++/toml.h>

#include "ruleset.hpp"

namespace hr {

/// The largest TOML file read, in bytes (the largest shipped file is about 10 KB).
inline constexpr std::size_t kMaxTomlFileBytes = 1u << 20;
/// The most parts of one dotted key (`a.b.c` has 3), in a key or a [table] header.
inline constexpr int kMaxTomlKeyParts = 32;
/// The most arrays and inline tables open at once (`[[1]]` is 2 deep).
inline constexpr int kMaxTomlNesting = 32;

/// A TOML file that cannot be read or parsed. what() is "file:line:column: description" (line and column
/// omitted when 0); the parts are kept for callers that print their own format.
class TomlFileError : public LoadError {
 public:
  TomlFileError(const std::string& file, int line, int column, const std::string& description);
  int line = 0;
  int column = 0;
  std::string description;
};

/// Where `text` first goes beyond kMaxTomlKeyParts or kMaxTomlNesting (line, column from 1, and what), if it
/// does. A linear scan that knows TOML's strings and comments, so dots and brackets inside them do not count.
struct TomlLimitViolation {
  int line = 0;
  int column = 0;
  std::string description;
};
std::optional<TomlLimitViolation> check_toml_limits(std::string_view text);

/// Reads `file` (at most kMaxTomlFileBytes), checks it with check_toml_limits and parses it. Throws
/// TomlFileError naming the file (as Sandbox::display_path shows it) and the line and column.
toml::table parse_toml_file(const std::filesystem::path& file);
/// "file:line" for a node (or just "file" when the node has no source position).
std::string where(const std::filesystem::path& file, const toml::node& node);

}  // namespace hr
