// mutate.cpp — mutation testing (mutate.hpp): the Lua tokenizer, the mutation operators, the runs in child
// processes and the report.
//
// Processes, not threads: each mutant's run loads the mutated text in place of the file for the whole
// process, and a crash or a runaway C loop must end only that run. The parent never creates a Sandbox (so
// no watchdog thread exists when it forks); the unmutated run with coverage happens in a child too.
#include "mutate.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "check.hpp"
#include "input_line.hpp"
#include "coverage.hpp"
#include "rng.hpp"
#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scenario.hpp"
#include "toml_util.hpp"

namespace hr {

namespace fs = std::filesystem;

// ---- tokenizer ---------------------------------------------------------------------------------------------

namespace {

bool is_keyword(std::string_view w) {
  static const std::set<std::string_view> keywords = {
      "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
      "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"};
  return keywords.count(w) > 0;
}

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::vector<LuaToken> tokenize_lua(std::string_view s) {
  std::vector<LuaToken> out;
  const std::size_t n = s.size();
  std::size_t i = 0;
  int line = 1;
  auto fail = [&](const std::string& what) { throw std::runtime_error("line " + std::to_string(line) + ": " + what); };
  // The level of a long bracket opening at `at` ("[==[" is 2), or -1.
  auto long_level = [&](std::size_t at) {
    std::size_t j = at + 1;
    while (j < n && s[j] == '=') ++j;
    return j < n && s[j] == '[' ? static_cast<int>(j - at - 1) : -1;
  };
  auto skip_long = [&](std::size_t at, int level) {
    const std::string close = "]" + std::string(static_cast<std::size_t>(level), '=') + "]";
    const std::size_t k = s.find(close, at + static_cast<std::size_t>(level) + 2);
    if (k == std::string_view::npos) fail("unfinished long string or comment");
    line += static_cast<int>(std::count(s.begin() + static_cast<std::ptrdiff_t>(at), s.begin() + static_cast<std::ptrdiff_t>(k), '\n'));
    return k + close.size();
  };
  if (n > 0 && s[0] == '#')  // a first line starting with # (a shebang) is skipped by Lua
    while (i < n && s[i] != '\n') ++i;
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '-' && i + 1 < n && s[i + 1] == '-') {
      i += 2;
      if (i < n && s[i] == '[') {
        const int level = long_level(i);
        if (level >= 0) {
          i = skip_long(i, level);
          continue;
        }
      }
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    LuaToken t;
    t.begin = i;
    t.line = line;
    if (name_start(c)) {
      while (i < n && name_char(s[i])) ++i;
      t.kind = is_keyword(s.substr(t.begin, i - t.begin)) ? LuaToken::Kind::Keyword : LuaToken::Kind::Name;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      // llex.c read_numeral: hex digits, '.', exponents (e or p for hex) with an optional sign
      const bool hex = c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X');
      const char* exponent = hex ? "Pp" : "Ee";
      if (hex) i += 2;
      while (i < n) {
        if ((s[i] == exponent[0] || s[i] == exponent[1]) && i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-'))
          i += 2;
        else if (std::isxdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || name_char(s[i]))
          ++i;
        else
          break;
      }
      t.kind = LuaToken::Kind::Number;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < n && s[i] != c) {
        if (s[i] == '\n') fail("unfinished string");
        if (s[i] == '\\' && i + 1 < n) {
          if (s[i + 1] == '\n') ++line;
          i += 2;
          continue;
        }
        ++i;
      }
      if (i >= n) fail("unfinished string");
      ++i;
      t.kind = LuaToken::Kind::String;
    } else if (c == '[' && long_level(i) >= 0) {
      i = skip_long(i, long_level(i));
      t.kind = LuaToken::Kind::String;
    } else {
      static const char* const symbols[] = {"...", "..", "==", "~=", "<=", ">=", "<<", ">>", "//", "::"};
      std::size_t length = 1;
      for (const char* sym : symbols)
        if (s.substr(i, std::strlen(sym)) == sym) {
          length = std::strlen(sym);
          break;
        }
      i += length;
      t.kind = LuaToken::Kind::Symbol;
    }
    t.end = i;
    t.end_line = line;
    out.push_back(t);
  }
  return out;
}

// ---- mutation operators --------------------------------------------------------------------------------------

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

}  // namespace

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

// ---- equivalent mutants ----------------------------------------------------------------------------------------

namespace {

[[noreturn]] void refuse_equivalents(const fs::path& file, const toml::node& node, const std::string& what) {
  throw LoadError(where(file, node) + ": " + what);
}

}  // namespace

std::vector<DeclaredEquivalent> read_equivalents(const fs::path& file) {
  const toml::table doc = parse_toml_file(file);
  const fs::path dir = file.parent_path();
  std::vector<DeclaredEquivalent> out;
  for (const auto& [key, node] : doc) {
    if (key.str() != "equivalent")
      refuse_equivalents(file, node, "unknown key '" + printable(cut_for_message(std::string(key.str()))) +
                     "' (an equivalent-mutants file has only [[equivalent]] groups)");
  }
  const toml::node* groups_node = doc.get("equivalent");
  if (!groups_node) return out;
  const toml::array* groups = groups_node->as_array();
  if (!groups) refuse_equivalents(file, *groups_node, "'equivalent' must be an array of tables ([[equivalent]])");
  int group_number = 0;
  for (const toml::node& group_node : *groups) {
    ++group_number;
    const std::string group_name = fmt::format("[[equivalent]] number {}", group_number);
    const toml::table* group = group_node.as_table();
    if (!group) refuse_equivalents(file, group_node, group_name + " is not a table");
    for (const auto& [key, node] : *group)
      if (key.str() != "why" && key.str() != "mutants")
        refuse_equivalents(file, node, group_name + ": unknown key '" + printable(cut_for_message(std::string(key.str()))) +
                       "' (a group has `why` and `mutants`)");
    const toml::node* why_node = group->get("why");
    const std::optional<std::string> why = why_node ? why_node->value<std::string>() : std::nullopt;
    if (!why || trimmed_lines(*why).empty())
      refuse_equivalents(file, why_node ? *why_node : group_node,
           group_name + ": `why` must say, in words, why no test can tell these mutants from the rules");
    const toml::node* mutants_node = group->get("mutants");
    const toml::array* mutants = mutants_node ? mutants_node->as_array() : nullptr;
    if (!mutants || mutants->empty())
      refuse_equivalents(file, mutants_node ? *mutants_node : group_node,
           group_name + ": `mutants` must be a non-empty array of { file, line, from, to } tables");
    for (const toml::node& entry_node : *mutants) {
      const toml::table* entry = entry_node.as_table();
      if (!entry) refuse_equivalents(file, entry_node, group_name + ": each of `mutants` is a table { file, line, from, to }");
      for (const auto& [key, node] : *entry)
        if (key.str() != "file" && key.str() != "line" && key.str() != "from" && key.str() != "to")
          refuse_equivalents(file, node, "unknown key '" + printable(cut_for_message(std::string(key.str()))) +
                         "' (a mutant is { file, line, from, to })");
      DeclaredEquivalent d;
      const std::optional<std::string> name = (*entry)["file"].value<std::string>();
      const std::optional<std::int64_t> line = (*entry)["line"].value<std::int64_t>();
      const std::optional<std::string> from = (*entry)["from"].value<std::string>();
      const std::optional<std::string> to = (*entry)["to"].value<std::string>();
      if (!name || name->empty())
        refuse_equivalents(file, entry_node, "a mutant needs `file`, the script's path in the ruleset folder");
      if (!line || *line < 1 || *line > 100000000)
        refuse_equivalents(file, entry_node, "a mutant needs `line`, a line number from 1");
      if (!from || !to)
        refuse_equivalents(file, entry_node, "a mutant needs `from` and `to`, its lines before and after the change");
      d.file_text = *name;
      d.file = fs::weakly_canonical(dir / *name);
      d.line = static_cast<int>(*line);
      d.lines = {trimmed_lines(*from), trimmed_lines(*to)};
      d.why = *why;
      d.at = where(file, entry_node);
      out.push_back(std::move(d));
    }
  }
  return out;
}

std::vector<DeclaredEquivalent> match_equivalents(const std::vector<DeclaredEquivalent>& declared,
                                                  std::vector<Mutant>& mutants,
                                                  const std::map<fs::path, std::string>& sources) {
  // Index the mutants by file and lines once.
  std::map<std::tuple<fs::path, std::string, std::string>, std::vector<std::size_t>> by_text;
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    const auto source = sources.find(mutants[i].file);
    if (source == sources.end()) continue;
    MutantLines lines = mutant_lines(source->second, mutants[i]);
    by_text[{mutants[i].file, std::move(lines.from), std::move(lines.to)}].push_back(i);
  }
  std::vector<DeclaredEquivalent> stale;
  for (const DeclaredEquivalent& d : declared) {
    const auto found = by_text.find({d.file, d.lines.from, d.lines.to});
    std::size_t best = mutants.size();
    if (found != by_text.end()) {
      for (const std::size_t i : found->second) {
        if (!mutants[i].declared_at.empty()) continue;  // claimed by an earlier entry
        if (best == mutants.size() || std::abs(mutants[i].line - d.line) < std::abs(mutants[best].line - d.line))
          best = i;
      }
    }
    if (best == mutants.size()) {
      stale.push_back(d);
      continue;
    }
    mutants[best].equivalent_why = d.why;
    mutants[best].declared_at = d.at;
  }
  return stale;
}

// ---- parameters ------------------------------------------------------------------------------------------------

namespace {

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

// ---- running the tests in a child process -------------------------------------------------------------------

struct TestPlan {
  std::vector<fs::path> files;  // scenario files and golden games, in order
  std::string check_target;     // ruleset of the short check
  int check_games = 0;
  std::uint64_t seed = 1;
};

std::string first_line_with(const std::string& text, std::string_view prefix) {
  std::istringstream in(text);
  std::string first;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) return line;
    if (first.empty() && !line.empty()) first = line;
  }
  return first;
}

/// Runs the plan's tests, stopping at the first failure. Returns false with `reason` (one line) on a failure.
bool run_tests(const TestPlan& plan, std::string& reason) {
  LoadedRulesets loaded;
  ScenarioOptions options;
  options.loaded = &loaded;
  for (const fs::path& file : plan.files) {
    std::ostringstream out;
    int status = 1;
    try {
      status = run_scenario_tests({file.string()}, out, options);
    } catch (const std::exception& e) {
      out << "FAIL " << file.string() << ": " << e.what() << "\n";
    }
    if (status != 0) {
      reason = first_line_with(out.str(), "FAIL");
      return false;
    }
  }
  if (plan.check_games > 0) {
    CheckOptions check;
    check.ruleset = plan.check_target;
    check.games = plan.check_games;
    check.seed = plan.seed;
    check.max_plies = 20000;
    check.max_reports = 1;
    std::ostringstream out, err;
    if (check_command(check, out, err) != 0) {
      reason = "check: " + first_line_with(out.str() + err.str(), "VIOLATION");
      return false;
    }
  }
  return true;
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

std::string read_all(int fd) {
  std::string text;
  char block[4096];
  for (;;) {
    const ssize_t n = ::read(fd, block, sizeof block);
    if (n > 0) {
      text.append(block, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return text;
    }
  }
}

/// A child process running one job: its pid, the read end of its pipe, what it has written so far.
struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::string output;
  std::chrono::steady_clock::time_point started;
  std::size_t index = 0;  // the mutant (or 0 for the unmutated run)
};

/// Forks a child that runs `body` with stdout and stderr sent to /dev/null and writes what body returns to
/// its pipe; the child exits 0 when body's first character is 'P' (passed), 1 otherwise.
Child spawn(const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fds[0]);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) {
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    std::string result;
    try {
      result = body();
    } catch (const std::exception& e) {
      result = std::string("F") + e.what();
    }
    write_all(fds[1], result);
    ::_exit(!result.empty() && result[0] == 'P' ? 0 : 1);
  }
  ::close(fds[1]);
  Child c;
  c.pid = pid;
  c.fd = fds[0];
  c.started = std::chrono::steady_clock::now();
  return c;
}

/// Reads what is available from the child's pipe without blocking; true at end of file.
bool drain(Child& c) {
  pollfd p{c.fd, POLLIN, 0};
  while (::poll(&p, 1, 0) > 0) {
    char block[4096];
    const ssize_t n = ::read(c.fd, block, sizeof block);
    if (n <= 0) return true;
    c.output.append(block, static_cast<std::size_t>(n));
  }
  return false;
}

/// How a run ended.
struct Outcome {
  bool passed = false;
  std::string detail;  // the failure, "time limit", "crashed (signal N)", ...
};

Outcome finish(Child& c, int wait_status, bool timed_out) {
  c.output += read_all(c.fd);
  ::close(c.fd);
  Outcome o;
  if (timed_out) {
    o.detail = "stopped by the time limit";
  } else if (WIFSIGNALED(wait_status)) {
    o.detail = fmt::format("crashed (signal {})", WTERMSIG(wait_status));
  } else if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0 && !c.output.empty() && c.output[0] == 'P') {
    o.passed = true;
    o.detail = c.output.substr(1);
  } else if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) > 1) {
    o.detail = fmt::format("the process ended with status {}", WEXITSTATUS(wait_status));
  } else {
    o.detail = c.output.empty() ? "failed" : c.output.substr(1);
  }
  return o;
}

// ---- what to mutate, what to run ------------------------------------------------------------------------------

/// The Lua files a mutation run changes: a ruleset's own scripts (its folder, without variants/ and tests/), or
/// a variant's script.
std::vector<fs::path> scripts_to_mutate(const RulesetInfo& info) {
  std::vector<fs::path> files;
  if (!info.variants.empty()) {
    if (!info.variants.back().script.empty()) files.push_back(fs::weakly_canonical(info.variants.back().script));
    return files;
  }
  const fs::path dir = fs::weakly_canonical(info.dir);
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory() && it.depth() == 0 &&
        (it->path().filename() == "variants" || it->path().filename() == "tests")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".lua") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Whether the tests ran any line of the mutant (lines Lua cannot report — inside a multi-line expression —
/// count as run when no line of the change is executable).
bool covered(const std::map<fs::path, std::map<int, std::int64_t>>& coverage, const Mutant& m) {
  if (m.kind == "parameter") return true;
  const auto file = coverage.find(m.file);
  if (file == coverage.end()) return false;  // never loaded
  bool executable = false;
  for (auto it = file->second.lower_bound(m.line); it != file->second.end() && it->first <= m.last_line; ++it) {
    if (it->second > 0) return true;
    executable = true;
  }
  return !executable;
}

std::string ranges(const std::vector<int>& sorted_lines) {
  std::string out;
  for (std::size_t i = 0; i < sorted_lines.size();) {
    std::size_t j = i;
    while (j + 1 < sorted_lines.size() && sorted_lines[j + 1] <= sorted_lines[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(sorted_lines[i]);
    if (sorted_lines[j] != sorted_lines[i]) out += "-" + std::to_string(sorted_lines[j]);
    i = j + 1;
  }
  return out;
}

enum class Status { Killed, Survived, NotCovered, Invalid, Equivalent };

/// `text` as a TOML basic string ("...", with escapes).
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\u{:04X}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

struct Result {
  Mutant mutant;
  Status status = Status::Survived;
  std::string detail;  // what killed it; the compile error of an invalid one
};

}  // namespace

int mutate_command(const MutateOptions& options, std::ostream& out, std::ostream& err) {
  using clock = std::chrono::steady_clock;
  const auto started = clock::now();
  RulesetInfo info;
  try {
    info = find_ruleset(options.target);
  } catch (const LoadError& e) {
    err << "houserules mutate: " << e.what() << "\n";
    return 2;
  }
  if (options.max < 0 || options.jobs < 0 || options.check_games < 0 || options.timeout_seconds < 0) {
    err << "houserules mutate: --max, --jobs, --check-games and --timeout take numbers >= 0\n";
    return 2;
  }

  // The tests: every scenario file and golden game of the folders given (default: the ruleset's tests/).
  TestPlan plan;
  plan.check_target = options.target;
  plan.check_games = options.check_games;
  plan.seed = options.seed;
  std::vector<std::string> test_paths = options.tests;
  if (test_paths.empty()) test_paths.push_back((info.dir / "tests").string());
  for (const std::string& path : test_paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      if (!list_test_files(path, plan.files, ec)) {
        err << "houserules mutate: cannot read " << path << ": " << ec.message() << "\n";
        return 2;
      }
    } else if (fs::is_regular_file(path, ec)) {
      plan.files.push_back(path);
    } else {
      err << "houserules mutate: no such test file or folder: " << path << "\n";
      return 2;
    }
  }
  if (plan.files.empty() && plan.check_games == 0) {
    err << "houserules mutate: no tests to run (no scenario files or golden games in " << test_paths.front()
        << ", and --check-games 0)\n";
    return 2;
  }

  // The mutants.
  const fs::path toml_file = info.variants.empty() ? info.dir / "ruleset.toml" : info.variants.back().file;
  std::map<fs::path, std::string> sources;
  std::vector<Mutant> all;
  try {
    for (const fs::path& file : scripts_to_mutate(info)) {
      const std::optional<std::string> text = read_source(file);
      if (!text) throw std::runtime_error("cannot read the file");
      sources[file] = *text;
      try {
        const auto found = lua_mutants(file, Sandbox::display_path(file), *text);
        all.insert(all.end(), found.begin(), found.end());
      } catch (const std::runtime_error& e) {
        throw std::runtime_error(Sandbox::display_path(file) + ":" + e.what());
      }
    }
    const toml::table base = parse_toml_file(info.dir / "ruleset.toml");
    const fs::path params_file = fs::weakly_canonical(toml_file);
    const std::string text = read_source(params_file).value_or("");
    sources[params_file] = text;
    const auto found = parameter_mutants(params_file, Sandbox::display_path(params_file), text, base["schema"].as_table());
    all.insert(all.end(), found.begin(), found.end());
  } catch (const std::exception& e) {
    err << "houserules mutate: " << e.what() << "\n";
    return 2;
  }
  // Source order: by file, then position (a parameter's mutants by line of ruleset.toml).
  std::stable_sort(all.begin(), all.end(), [](const Mutant& a, const Mutant& b) {
    return std::tie(a.file, a.line, a.begin) < std::tie(b.file, b.line, b.begin);
  });
  const std::size_t found_count = all.size();

  // Declared equivalent mutants: run like the others, left out of the score (docs/testing-rules.md).
  fs::path equivalents_file = options.equivalents;
  if (equivalents_file.empty() && info.variants.empty() && fs::is_regular_file(info.dir / "equivalent-mutants.toml"))
    equivalents_file = info.dir / "equivalent-mutants.toml";
  std::vector<DeclaredEquivalent> stale;
  std::size_t declared_count = 0;
  if (!equivalents_file.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(equivalents_file, ec)) {
      err << "houserules mutate: no such equivalent-mutants file: " << printable(cut_for_message(equivalents_file.string()))
          << "\n";
      return 2;
    }
    try {
      const std::vector<DeclaredEquivalent> declared = read_equivalents(equivalents_file);
      declared_count = declared.size();
      stale = match_equivalents(declared, all, sources);
    } catch (const std::exception& e) {
      err << "houserules mutate: " << e.what() << "\n";
      return 2;
    }
  }
  const std::string equivalents_shown = equivalents_file.empty() ? "" : Sandbox::display_path(equivalents_file);

  if (options.max > 0 && all.size() > static_cast<std::size_t>(options.max)) {
    // A sample: the first `max` of a shuffle drawn from the seed, shown in source order.
    Rng rng(options.seed);
    for (std::size_t i = all.size() - 1; i > 0; --i)
      std::swap(all[i], all[static_cast<std::size_t>(rng.between(0, static_cast<std::int64_t>(i)))]);
    all.resize(static_cast<std::size_t>(options.max));
    std::stable_sort(all.begin(), all.end(), [](const Mutant& a, const Mutant& b) {
      return std::tie(a.file, a.line, a.begin, a.kind, a.replacement) <
             std::tie(b.file, b.line, b.begin, b.kind, b.replacement);
    });
  }
  if (options.list) {
    for (const Mutant& m : all)
      out << m.shown << ":" << m.line << ": " << m.kind << " " << m.what
          << (m.declared_at.empty() ? "" : " (declared equivalent: " + m.declared_at + ")") << "\n";
    out << all.size() << " mutants\n";
    return 0;
  }

  // The unmutated run, with coverage, in a child (no Sandbox, hence no watchdog thread, in this process).
  err << "houserules mutate " << options.target << ": " << found_count << " mutants; running the tests ("
      << plan.files.size() << " files" << (plan.check_games ? fmt::format(", check of {} games", plan.check_games) : "")
      << ") without a mutation, with coverage\n";
  std::map<fs::path, std::map<int, std::int64_t>> coverage;
  double baseline_seconds = 0;
  {
    Child c = spawn([&plan] {
      CoverageRecorder::global().enable();
      std::string reason;
      const bool passed = run_tests(plan, reason);
      std::string text = passed ? "P\n" : "F" + reason + "\n";
      for (const FileCoverage& f : CoverageRecorder::global().files()) {
        text += "F " + fs::weakly_canonical(f.path).string() + "\n";
        for (const auto& [line, hits] : f.lines) text += fmt::format("{} {}\n", line, hits);
      }
      return text;
    });
    c.output = read_all(c.fd);
    int wait_status = 0;
    ::waitpid(c.pid, &wait_status, 0);
    const Outcome o = finish(c, wait_status, false);
    baseline_seconds = std::chrono::duration<double>(clock::now() - c.started).count();
    if (!o.passed) {
      err << "houserules mutate: the tests fail without any mutation, so no mutant can be judged: "
          << first_line_with(o.detail, "") << "\n";
      return 2;
    }
    std::istringstream in(o.detail);
    std::map<int, std::int64_t>* file = nullptr;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("F ", 0) == 0) {
        file = &coverage[fs::path(line.substr(2))];
      } else if (file && !line.empty()) {
        int number = 0;
        long long hits = 0;
        if (std::sscanf(line.c_str(), "%d %lld", &number, &hits) == 2) (*file)[number] = hits;
      }
    }
  }

  // Classify: not covered, not compiling; the rest run.
  std::vector<Result> results;
  std::vector<std::size_t> to_run;
  for (const Mutant& m : all) {
    Result r;
    r.mutant = m;
    if (!covered(coverage, m)) {
      r.status = Status::NotCovered;
    } else if (m.kind != "parameter") {
      std::string error;
      if (!executable_lines(apply_mutant(sources[m.file], m), "=" + m.shown, &error)) {
        r.status = Status::Invalid;
        r.detail = error;
      }
    }
    if (r.status == Status::Survived) to_run.push_back(results.size());
    results.push_back(std::move(r));
  }

  const int jobs = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  const double limit = options.timeout_seconds > 0 ? options.timeout_seconds : 10 * baseline_seconds + 10;
  err << fmt::format("unmutated run: {:.1f} s; running {} mutants with {} job{} (time limit {:.0f} s each)\n",
                     baseline_seconds, to_run.size(), jobs, jobs == 1 ? "" : "s", limit);
  const bool tty = ::isatty(2);
  std::size_t done = 0, killed = 0, equivalent_survived = 0, next = 0;
  std::vector<Child> running;
  auto progress = [&] {
    const double elapsed = std::chrono::duration<double>(clock::now() - started).count();
    // As the summary counts them: a survivor declared equivalent (equivalent-mutants.toml) is not "survived".
    const std::string line =
        fmt::format("[{}/{}] killed {}, survived {}, equivalent {}, {:.0f} s", done, to_run.size(), killed,
                    done - killed - equivalent_survived, equivalent_survived, elapsed);
    if (tty)
      err << "\r" << line << std::flush;
    else if (done == to_run.size() || done % std::max<std::size_t>(1, to_run.size() / 10) == 0)
      err << line << "\n";
  };
  try {
    while (next < to_run.size() || !running.empty()) {
      while (next < to_run.size() && running.size() < static_cast<std::size_t>(jobs)) {
        const std::size_t index = to_run[next++];
        const Mutant& m = results[index].mutant;
        const std::string mutated = apply_mutant(sources[m.file], m);
        Child c = spawn([&plan, &m, &mutated] {
          set_source_override(m.file, mutated);
          std::string reason;
          return run_tests(plan, reason) ? std::string("P") : "F" + reason;
        });
        c.index = index;
        running.push_back(std::move(c));
      }
      bool reaped = false;
      for (std::size_t i = 0; i < running.size();) {
        Child& c = running[i];
        drain(c);
        int wait_status = 0;
        const pid_t pid = ::waitpid(c.pid, &wait_status, WNOHANG);
        const bool timed_out = pid == 0 && std::chrono::duration<double>(clock::now() - c.started).count() > limit;
        if (timed_out) {
          ::kill(c.pid, SIGKILL);
          ::waitpid(c.pid, &wait_status, 0);
        }
        if (pid == 0 && !timed_out) {
          ++i;
          continue;
        }
        const Outcome o = finish(c, wait_status, timed_out);
        Result& r = results[c.index];
        r.status = o.passed ? Status::Survived : Status::Killed;
        r.detail = o.passed ? "" : o.detail;
        killed += !o.passed;
        equivalent_survived += o.passed && !r.mutant.declared_at.empty();
        ++done;
        progress();
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
        reaped = true;
      }
      if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  } catch (const std::exception& e) {
    for (Child& c : running) ::kill(c.pid, SIGKILL);
    err << "\nhouserules mutate: " << e.what() << "\n";
    return 2;
  }
  if (tty && !to_run.empty()) err << "\n";

  // The report. A declared equivalent that survived is counted apart; one the tests kill is a wrong declaration.
  std::size_t survived = 0, not_covered = 0, invalid = 0, equivalent = 0;
  std::vector<const Result*> wrongly_declared;
  for (Result& r : results) {
    if (!r.mutant.declared_at.empty() && r.status == Status::Survived) r.status = Status::Equivalent;
    if (!r.mutant.declared_at.empty() && r.status == Status::Killed) wrongly_declared.push_back(&r);
    survived += r.status == Status::Survived;
    not_covered += r.status == Status::NotCovered;
    invalid += r.status == Status::Invalid;
    equivalent += r.status == Status::Equivalent;
  }
  const double seconds = std::chrono::duration<double>(clock::now() - started).count();
  auto percent = [](std::size_t part, std::size_t whole) {
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 100.0;
  };
  const double score = percent(killed, killed + survived);
  const double score_all = percent(killed, killed + survived + equivalent);
  const std::string sampled =
      all.size() < found_count ? fmt::format(" (a sample of {} of the {} mutants, seed {})", all.size(), found_count, options.seed) : "";
  const fs::path relative_to = equivalents_file.empty() ? fs::weakly_canonical(info.dir)
                                                        : fs::weakly_canonical(equivalents_file).parent_path();
  if (options.equivalents_template) {
    // The undeclared survivors as entries of an equivalent-mutants file, a group per line, `why` left empty
    // (the file is refused until each group says why).
    out << "# The surviving mutants of `houserules mutate " << options.target << "` not yet declared, as entries of an\n"
        << "# equivalent-mutants file (docs/testing-rules.md). Write a test for each one a test can tell from the\n"
        << "# rules; for the others, say in `why` why none can, and merge groups that share a reason.\n";
    int last_line = -1;
    fs::path last_file;
    bool open = false;
    for (const Result& r : results) {
      if (r.status != Status::Survived) continue;
      if (!open || r.mutant.file != last_file || r.mutant.line != last_line) {
        if (open) out << "]\n";
        out << "\n[[equivalent]]\nwhy = \"\"\nmutants = [\n";
        open = true;
        last_file = r.mutant.file;
        last_line = r.mutant.line;
      }
      const MutantLines lines = mutant_lines(sources[r.mutant.file], r.mutant);
      out << "  { file = " << toml_string(r.mutant.file.lexically_relative(relative_to).generic_string())
          << ", line = " << r.mutant.line << ", from = " << toml_string(lines.from) << ", to = " << toml_string(lines.to)
          << " },\n";
    }
    if (open) out << "]\n";
    return 0;
  }
  if (options.json) {
    nlohmann::json list = nlohmann::json::array();
    static const char* const names[] = {"killed", "survived", "not covered", "not valid", "equivalent"};
    for (const Result& r : results) {
      nlohmann::json entry = {{"file", r.mutant.shown}, {"line", r.mutant.line}, {"kind", r.mutant.kind},
                              {"change", r.mutant.what}, {"status", names[static_cast<int>(r.status)]},
                              {"diff", mutant_diff(sources[r.mutant.file], r.mutant, "")}};
      if (!r.detail.empty()) entry["detail"] = r.detail;
      if (!r.mutant.declared_at.empty()) {
        entry["declared_at"] = r.mutant.declared_at;
        entry["why"] = r.mutant.equivalent_why;
      }
      list.push_back(entry);
    }
    nlohmann::json stale_list = nlohmann::json::array();
    for (const DeclaredEquivalent& d : stale)
      stale_list.push_back(
          {{"at", d.at}, {"file", d.file_text}, {"line", d.line}, {"from", d.lines.from}, {"to", d.lines.to}});
    nlohmann::json wrong_list = nlohmann::json::array();
    for (const Result* r : wrongly_declared)
      wrong_list.push_back({{"at", r->mutant.declared_at}, {"file", r->mutant.shown}, {"line", r->mutant.line},
                            {"change", r->mutant.what}, {"detail", r->detail}});
    const nlohmann::json doc = {{"target", options.target}, {"mutants_found", found_count}, {"mutants", all.size()},
                                {"seed", options.seed}, {"killed", killed}, {"survived", survived},
                                {"not_covered", not_covered}, {"not_valid", invalid}, {"equivalent", equivalent},
                                {"score", score}, {"score_counting_equivalents", score_all},
                                {"equivalents_file", equivalents_shown}, {"equivalents_declared", declared_count},
                                {"stale_equivalents", stale_list}, {"wrongly_declared", wrong_list},
                                {"seconds", seconds}, {"jobs", jobs}, {"results", list}};
    out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  out << fmt::format("mutation testing of {}: {} mutants{}, {} job{}, {:.0f} s\n", options.target, all.size(), sampled,
                     jobs, jobs == 1 ? "" : "s", seconds);
  std::map<std::string, std::size_t> per_file;
  for (const Result& r : results) ++per_file[r.mutant.shown];
  for (const auto& [file, count] : per_file) out << fmt::format("  {:<48} {:>5} mutants\n", file, count);
  out << fmt::format("  killed      {:>5}\n  survived    {:>5}\n  not covered {:>5}  (on lines the tests never run)\n",
                     killed, survived, not_covered);
  if (invalid) out << fmt::format("  not valid   {:>5}  (do not compile; not counted)\n", invalid);
  if (!equivalents_file.empty())
    out << fmt::format("  equivalent  {:>5}  (declared in {}: run, and not counted)\n", equivalent, equivalents_shown);
  out << fmt::format("mutation score: {:.1f}% ({} of {} mutants on lines the tests run were killed)\n", score, killed,
                     killed + survived);
  if (equivalent)
    out << fmt::format("  counting the {} declared equivalent mutant{} too: {:.1f}% ({} of {})\n", equivalent,
                       equivalent == 1 ? "" : "s", score_all, killed, killed + survived + equivalent);
  if (!wrongly_declared.empty()) {
    out << "\ndeclared equivalent, but the tests kill them (the declaration is wrong: remove it):\n";
    for (const Result* r : wrongly_declared)
      out << "  " << r->mutant.declared_at << ": " << r->mutant.shown << ":" << r->mutant.line << ": " << r->mutant.kind
          << ", " << r->mutant.what << " (" << printable(cut_for_message(first_line_with(r->detail, ""), 160)) << ")\n";
  }
  if (!stale.empty()) {
    out << "\nstale declarations (no mutant of the scripts has these lines now: update or remove them):\n";
    for (const DeclaredEquivalent& d : stale)
      out << "  " << d.at << ": " << d.file_text << ":" << d.line << ": " << printable(cut_for_message(d.lines.from, 120))
          << " -> " << printable(cut_for_message(d.lines.to, 120)) << "\n";
  }
  if (survived) {
    out << "\nsurviving mutants (the tests pass with this change):\n";
    for (const Result& r : results) {
      if (r.status != Status::Survived) continue;
      out << r.mutant.shown << ":" << r.mutant.line << ": " << r.mutant.kind << ", " << r.mutant.what << "\n";
      out << mutant_diff(sources[r.mutant.file], r.mutant, "    ");
    }
  }
  if (not_covered) {
    out << "\nnot covered (mutants on lines the tests never run):\n";
    std::map<std::string, std::vector<int>> lines;
    for (const Result& r : results)
      if (r.status == Status::NotCovered) lines[r.mutant.shown].push_back(r.mutant.line);
    for (auto& [file, list] : lines) {
      const std::size_t count = list.size();
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      out << "  " << file << ": " << count << " mutants, lines " << ranges(list) << "\n";
    }
  }
  return 0;
}

}  // namespace hr
