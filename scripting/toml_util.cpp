// toml_util.cpp — bounded TOML reading (toml_util.hpp).
#include "toml_util.hpp"

#include <fstream>
#include <iterator>

#include "coverage.hpp"
#include "sandbox.hpp"

namespace hr {

namespace {

std::string position_text(const std::string& file, int line, int column) {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  if (line > 0 && column > 0) out += ":" + std::to_string(column);
  return out;
}

bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

}  // namespace

TomlFileError::TomlFileError(const std::string& file, int line_in, int column_in, const std::string& description_in)
    : LoadError(position_text(file, line_in, column_in) + ": " + description_in),
      line(line_in),
      column(column_in),
      description(description_in) {}

std::optional<TomlLimitViolation> check_toml_limits(std::string_view text) {
  int line = 1;
  std::size_t line_start = 0;
  int nesting = 0;
  int parts = 0;          // parts of the dotted key being read
  bool in_bare = false;   // inside a bare word (a key part or a bare value such as 1.5)
  bool after_dot = false; // a '.' followed the last part: the next part continues the key
  const std::size_t n = text.size();
  auto violation = [&](std::size_t at, std::string description) {
    return TomlLimitViolation{line, static_cast<int>(at - line_start) + 1, std::move(description)};
  };
  auto newline_at = [&](std::size_t i) {
    ++line;
    line_start = i + 1;
  };
  // One key part (bare word or quoted string) begins at `at`: counts it. Returns false when too many.
  auto part = [&]() {
    parts = after_dot ? parts + 1 : 1;
    after_dot = false;
    return parts <= kMaxTomlKeyParts;
  };
  const std::string too_many_parts =
      "a dotted key has more than " + std::to_string(kMaxTomlKeyParts) + " parts (houserules' limit)";
  for (std::size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (is_bare_key_char(c)) {
      if (!in_bare && !part()) return violation(i, too_many_parts);
      in_bare = true;
      continue;
    }
    in_bare = false;
    if (c == ' ' || c == '\t') continue;  // blanks may surround the dots of a key
    if (c == '.') {
      after_dot = parts > 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      const std::size_t start = i;
      const bool multi = i + 2 < n && text[i + 1] == c && text[i + 2] == c;
      if (multi) {
        // """...""" or '''...''': may span lines; the closing delimiter may be followed by up to two more quotes
        i += 3;
        while (i < n && !(text[i] == c && i + 2 < n && text[i + 1] == c && text[i + 2] == c)) {
          if (c == '"' && text[i] == '\\') ++i;
          else if (text[i] == '\n') newline_at(i);
          ++i;
        }
        i += 2;
        while (i + 1 < n && text[i + 1] == c) ++i;
        parts = 0;  // a multi-line string is never a key
        after_dot = false;
        continue;
      }
      ++i;
      while (i < n && text[i] != c && text[i] != '\n') {
        if (c == '"' && text[i] == '\\') ++i;
        ++i;
      }
      if (i < n && text[i] == '\n') newline_at(i);
      if (!part()) return violation(start, too_many_parts);
      continue;
    }
    parts = 0;
    after_dot = false;
    if (c == '#') {
      while (i < n && text[i] != '\n') ++i;
      if (i < n) newline_at(i);
    } else if (c == '\n') {
      newline_at(i);
    } else if (c == '[' || c == '{') {
      if (++nesting > kMaxTomlNesting)
        return violation(i, "arrays and tables are nested more than " + std::to_string(kMaxTomlNesting) +
                                " deep (houserules' limit)");
    } else if (c == ']' || c == '}') {
      if (nesting > 0) --nesting;
    }
  }
  return std::nullopt;
}

toml::table parse_toml_file(const std::filesystem::path& file) {
  const std::string shown = Sandbox::display_path(file);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw TomlFileError(shown, 0, 0, "cannot open the file");
  // A mutant's text in place of the file (houserules mutate, scripting/coverage.hpp), else the file, read in
  // small blocks up to one byte past the limit (sizing the string to the limit up front zero-filled 1 MiB for
  // every file read: most of the time of loading a variant chain).
  std::string text = source_override(file).value_or("");
  std::ifstream in;
  if (text.empty()) in.open(file, std::ios::binary);
  if (text.empty() && !in) throw TomlFileError(shown, 0, 0, "cannot open the file");
  char block[16384];
  while (in.is_open() && text.size() <= kMaxTomlFileBytes && in.read(block, sizeof block).gcount() > 0)
    text.append(block, static_cast<std::size_t>(in.gcount()));
  if (text.size() > kMaxTomlFileBytes)
    throw TomlFileError(shown, 0, 0, "the file is larger than " + std::to_string(kMaxTomlFileBytes) +
                                         " bytes (houserules' limit for TOML files)");
  if (const auto v = check_toml_limits(text)) throw TomlFileError(shown, v->line, v->column, v->description);
  try {
    return toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    throw TomlFileError(shown, static_cast<int>(begin.line), static_cast<int>(begin.column), std::string(e.description()));
  }
}

std::string where(const std::filesystem::path& file, const toml::node& node) {
  const auto& begin = node.source().begin;
  std::string out = Sandbox::display_path(file);
  if (begin.line) out += ":" + std::to_string(begin.line);
  return out;
}

}  // namespace hr
