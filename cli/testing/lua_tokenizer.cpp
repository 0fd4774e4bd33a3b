// lua_tokenizer.cpp — tokenize_lua (mutate.hpp): Lua 5.4 source split into names, keywords, numbers, strings and
// symbols, skipping whitespace and comments, so that mutation testing never changes a string or a comment.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "mutate.hpp"

namespace hr {

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

}  // namespace hr
