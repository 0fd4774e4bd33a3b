// mutant_generation.cpp — making mutants (mutate.hpp): the mutation operators over a Lua script's tokens
// (comparison, equality, constant, logical, negate, drop), the parameter mutants of ruleset.toml or a variant
// file, a mutant applied to its source, and the lines it changes (as a diff, and as an equivalent-mutants file
// names them).
#include "mutant_generation.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "printable.hpp"

namespace hr {

namespace fs = std::filesystem;

namespace {

struct Tokens {
  std::string_view source;
  std::vector<LuaToken> list;
  std::string_view text(std::size_t k) const {
    return k < list.size() ? source.substr(list[k].begin, list[k].end - list[k].begin) : std::string_view();
  }
  bool is(std::size_t k, std::string_view word) const {
    return k < list.size() && list[k].kind != LuaToken::Kind::String && text(k) == word;
  }
};

bool opens(std::string_view t) { return t == "(" || t == "[" || t == "{"; }
bool closes(std::string_view t) { return t == ")" || t == "]" || t == "}"; }

bool binary_operator(std::string_view t) {
  static const std::set<std::string_view> ops = {"+", "-",  "*",  "/",  "//", "%",  "^",  "..", "==", "~=", "<",
                                                 "<=", ">", ">=", "&",  "|",  "~",  "<<", ">>", "and", "or"};
  return ops.count(t) > 0;
}

/// Whether the statement cannot end after token k (the expression goes on to the next line).
bool continues_after(const Tokens& t, std::size_t k) {
  const std::string_view x = t.text(k);
  return t.list[k].kind != LuaToken::Kind::String &&
         (binary_operator(x) || x == "not" || x == "=" || x == "," || x == "." || x == ":" || x == "#" || opens(x));
}

/// Whether token k, at the start of a line, continues the previous line's expression.
bool continues_before(const Tokens& t, std::size_t k) {
  const std::string_view x = t.text(k);
  if (t.list[k].kind == LuaToken::Kind::String) return true;  // f "text" / f [[text]]
  return t.list[k].kind == LuaToken::Kind::Symbol ? x != ";" && x != "::" : (x == "and" || x == "or");
}

/// Whether a statement may start after token k (k is the previous token).
bool statement_may_follow(const Tokens& t, std::size_t k) {
  const auto kind = t.list[k].kind;
  if (kind == LuaToken::Kind::Name || kind == LuaToken::Kind::Number || kind == LuaToken::Kind::String) return true;
  const std::string_view x = t.text(k);
  return x == "end" || x == ")" || x == "]" || x == "}" || x == "then" || x == "do" || x == "else" || x == ";" ||
         x == "repeat" || x == "break" || x == "true" || x == "false" || x == "nil";
}

Mutant make_mutant(const fs::path& file, const std::string& shown, std::size_t begin, std::size_t end,
                   std::string replacement, const char* kind, int line, int last_line, std::string what) {
  Mutant m;
  m.file = file;
  m.shown = shown;
  m.begin = begin;
  m.end = end;
  m.replacement = std::move(replacement);
  m.kind = kind;
  m.line = line;
  m.last_line = last_line;
  m.what = std::move(what);
  return m;
}

class MutantFinder {
 public:
  MutantFinder(const fs::path& file, const std::string& shown, std::string_view source)
      : file_(file), shown_(shown), t_{source, tokenize_lua(source)} {}

  std::vector<Mutant> find() {
    for (std::size_t k = 0; k < t_.list.size(); ++k) {
      const LuaToken& tok = t_.list[k];
      const std::string_view x = t_.text(k);
      if (tok.kind == LuaToken::Kind::Symbol) {
        static const std::map<std::string_view, std::string_view> flips = {
            {"<", "<="}, {"<=", "<"}, {">", ">="}, {">=", ">"}, {"==", "~="}, {"~=", "=="}};
        const auto flip = flips.find(x);
        if (flip != flips.end() && !is_attribute(k))
          add(tok.begin, tok.end, std::string(flip->second), x == "==" || x == "~=" ? "equality" : "comparison",
              tok.line, tok.line);
      } else if (tok.kind == LuaToken::Kind::Number) {
        constant(k);
      } else if (tok.kind == LuaToken::Kind::Keyword) {
        if (x == "and" || x == "or") add(tok.begin, tok.end, x == "and" ? "or" : "and", "logical", tok.line, tok.line);
        if (x == "if" || x == "elseif") negate(k, "then");
        if (x == "while") negate(k, "do");
      } else if (tok.kind == LuaToken::Kind::Name) {
        drop(k);
      }
    }
    return std::move(out_);
  }

 private:
  void add(std::size_t begin, std::size_t end, std::string replacement, const char* kind, int line, int last_line) {
    const std::string_view old = t_.source.substr(begin, end - begin);
    std::string what = std::string_view(kind) == "negate" ? "condition negated"
                       : std::string_view(kind) == "drop" ? "statement removed"
                                                          : fmt::format("`{}` -> `{}`", old, replacement);
    out_.push_back(make_mutant(file_, shown_, begin, end, std::move(replacement), kind, line, last_line, std::move(what)));
  }

  // `local x <const>` / `<close>`: the angle brackets of an attribute are not comparisons.
  bool is_attribute(std::size_t k) const {
    if (t_.text(k) == "<") return (t_.is(k + 1, "const") || t_.is(k + 1, "close")) && t_.is(k + 2, ">");
    if (t_.text(k) == ">") return k >= 2 && (t_.is(k - 1, "const") || t_.is(k - 1, "close")) && t_.is(k - 2, "<");
    return false;
  }

  void constant(std::size_t k) {
    const std::string_view x = t_.text(k);
    if (x.size() > 15 || !std::all_of(x.begin(), x.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return;  // decimal integers only
    const long long value = std::stoll(std::string(x));
    const LuaToken& tok = t_.list[k];
    add(tok.begin, tok.end, std::to_string(value + 1), "constant", tok.line, tok.line);
    // n-1 of 0 would be "-1": after a '-' that makes "--1", a comment
    if (value >= 1) add(tok.begin, tok.end, std::to_string(value - 1), "constant", tok.line, tok.line);
  }

  /// `if C then` -> `if not (C) then`: the condition runs from after the keyword to `stop` at bracket depth 0.
  void negate(std::size_t k, std::string_view stop) {
    int depth = 0;
    std::size_t j = k + 1;
    for (; j < t_.list.size(); ++j) {
      const std::string_view x = t_.text(j);
      if (t_.list[j].kind == LuaToken::Kind::String) continue;
      if (opens(x)) ++depth;
      if (closes(x)) --depth;
      if (x == "function" || depth < 0) return;  // a function in a condition: leave it alone
      if (depth == 0 && x == stop) break;
    }
    if (j >= t_.list.size() || j == k + 1) return;
    const LuaToken& first = t_.list[k + 1];
    const LuaToken& last = t_.list[j - 1];
    const std::string condition(t_.source.substr(first.begin, last.end - first.begin));
    add(first.begin, last.end, "not (" + condition + ")", "negate", first.line, last.end_line);
  }

  /// A statement starting with the name at k, at the start of its line: an assignment or a call, up to where
  /// the expression ends at bracket depth 0 at the end of a line. No block keyword inside.
  void drop(std::size_t k) {
    const auto& list = t_.list;
    if (k > 0 && (list[k - 1].end_line == list[k].line || !statement_may_follow(t_, k - 1))) return;
    int depth = 0;
    for (std::size_t j = k; j < list.size() && list[j].line <= list[k].line + 8; ++j) {
      const std::string_view x = t_.text(j);
      if (list[j].kind == LuaToken::Kind::Keyword && x != "and" && x != "or" && x != "not" && x != "nil" &&
          x != "true" && x != "false")
        return;
      if (list[j].kind != LuaToken::Kind::String) {
        if (opens(x)) ++depth;
        if (closes(x) && --depth < 0) return;
      }
      const bool line_ends = j + 1 == list.size() || list[j + 1].line > list[j].end_line;
      if (depth == 0 && line_ends && !continues_after(t_, j) && (j + 1 == list.size() || !continues_before(t_, j + 1))) {
        if (j == k) return;  // a lone name is not a statement
        add(list[k].begin, list[j].end, "", "drop", list[k].line, list[j].end_line);
        return;
      }
    }
  }

  fs::path file_;
  std::string shown_;
  Tokens t_;
  std::vector<Mutant> out_;
};

}  // namespace

std::vector<Mutant> lua_mutants(const fs::path& file, const std::string& shown, std::string_view source) {
  return MutantFinder(file, shown, source).find();
}

std::string apply_mutant(std::string_view source, const Mutant& m) {
  std::string out(source.substr(0, m.begin));
  out += m.replacement;
  out += source.substr(m.end);
  return out;
}

namespace {

/// The whole lines a mutant touches, before and after the change.
std::pair<std::string, std::string> changed_lines(std::string_view source, const Mutant& m) {
  std::size_t from = m.begin;
  while (from > 0 && source[from - 1] != '\n') --from;
  std::size_t to = m.end;
  while (to < source.size() && source[to] != '\n') ++to;
  std::string before(source.substr(from, to - from));
  std::string after = std::string(source.substr(from, m.begin - from)) + m.replacement +
                      std::string(source.substr(m.end, to - m.end));
  return {std::move(before), std::move(after)};
}

/// Byte offset of a toml++ source position (line and column from 1) in `text`.
std::size_t offset_of(std::string_view text, const toml::source_position& p) {
  std::size_t offset = 0;
  for (std::uint32_t line = 1; line < p.line; ++line) {
    offset = text.find('\n', offset);
    if (offset == std::string_view::npos) return text.size();
    ++offset;
  }
  return offset + p.column - 1;
}

}  // namespace

/// `text`'s lines, each trimmed of spaces, tabs and carriage returns, joined with "\n".
std::string trimmed_lines(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  bool first = true;
  for (std::string line; std::getline(in, line); first = false) {
    const std::size_t b = line.find_first_not_of(" \t\r");
    const std::size_t e = line.find_last_not_of(" \t\r");
    if (!first) out += "\n";
    if (b != std::string::npos) out += line.substr(b, e - b + 1);
  }
  return out;
}

std::string mutant_diff(std::string_view source, const Mutant& m, const std::string& indent) {
  const auto [before, after] = changed_lines(source, m);
  std::string out;
  auto rows = [&](const std::string& text, char sign) {
    std::istringstream in(text);
    std::string line;
    bool any = false;
    while (std::getline(in, line)) {
      out += indent + sign + " " + printable(line) + "\n";
      any = true;
    }
    if (!any) out += indent + sign + "\n";
  };
  rows(before, '-');
  rows(after, '+');
  return out;
}

MutantLines mutant_lines(std::string_view source, const Mutant& m) {
  const auto [before, after] = changed_lines(source, m);
  return {trimmed_lines(before), trimmed_lines(after)};
}

/// Mutants of the [params] of `file` (ruleset.toml or a variant file): each parameter that has a schema in
/// `schema` (the base ruleset's [schema]), one step each way within its range.
std::vector<Mutant> parameter_mutants(const fs::path& file, const std::string& shown, const std::string& text,
                                      const toml::table* schema) {
  std::vector<Mutant> out;
  toml::table doc;
  try {
    doc = toml::parse(text, file.string());
  } catch (const toml::parse_error&) {
    return out;
  }
  const toml::table* params = doc["params"].as_table();
  if (!params || !schema) return out;
  for (const auto& [key, node] : *params) {
    const toml::table* rule = (*schema)[key.str()].as_table();
    if (!rule) continue;
    const auto& src = node.source();
    if (src.begin.line != src.end.line) continue;
    const std::size_t begin = offset_of(text, src.begin), end = offset_of(text, src.end);
    if (end <= begin || end > text.size()) continue;
    const std::string old = text.substr(begin, end - begin);
    std::vector<std::string> values;
    if (const auto v = node.value_exact<std::int64_t>()) {
      if (old != std::to_string(*v)) continue;  // written another way (hex, underscores): left alone
      const std::int64_t step = (*rule)["step"].value_or<std::int64_t>(1);
      const std::int64_t low = (*rule)["min"].value_or<std::int64_t>(INT64_MIN + step);
      const std::int64_t high = (*rule)["max"].value_or<std::int64_t>(INT64_MAX - step);
      if (*v + step <= high) values.push_back(std::to_string(*v + step));
      if (*v - step >= low) values.push_back(std::to_string(*v - step));
    } else if (const auto b = node.value_exact<bool>()) {
      values.push_back(*b ? "false" : "true");
    } else if (const auto s = node.value_exact<std::string>()) {
      const toml::array* choices = (*rule)["choices"].as_array();
      if (!choices || choices->empty()) continue;
      std::size_t at = 0;
      while (at < choices->size() && (*choices)[at].value_or<std::string>("") != *s) ++at;
      const auto next = (*choices)[(at + 1) % choices->size()].value<std::string>();
      if (next && *next != *s && next->find_first_of("\"\\") == std::string::npos) values.push_back("\"" + *next + "\"");
    }
    for (const std::string& value : values) {
      const int line = static_cast<int>(src.begin.line);
      out.push_back(make_mutant(file, shown, begin, end, value, "parameter", line, line,
                                fmt::format("{} {} -> {}", key.str(), old, value)));
    }
  }
  return out;
}

}  // namespace hr
