// sandbox_patterns.cpp — string.find, string.match, string.gmatch and string.gsub for the sandbox: Lua 5.4's
// pattern language (docs: "Patterns" in the Lua 5.4 manual), matched by a backtracking matcher written for
// houserules that counts its steps. Lua's own matcher runs in C, where the CPU guard's count hook never
// fires: `string.find(('a'):rep(40), ('a*'):rep(40) .. 'b')` backtracks for ages, and a plain find of a
// 1 MB needle in 24 MB compares 10^13 bytes. Here every call has a budget of kPatternSteps steps (a step
// is one position tried by an item, or 16 bytes compared), after which it raises an error; a plain find
// uses a linear-time search (the two-way algorithm of glibc's memmem). Semantics, results and error messages follow Lua 5.4.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <string_view>

#include <lua.hpp>

#include "sandbox.hpp"
#include "sandbox_functions.hpp"

namespace hr {

namespace {

constexpr int kMaxCaptures = 32;     // LUA_MAXCAPTURES
constexpr int kMaxDepth = 200;       // MAXCCALLS: nesting of the matcher's recursion
constexpr std::ptrdiff_t kUnfinished = -1;
constexpr std::ptrdiff_t kPosition = -2;

struct Capture {
  const char* init;
  std::ptrdiff_t length;  // or kUnfinished, kPosition
};

class Matcher {
 public:
  Matcher(lua_State* L, const char* subject, std::size_t subject_length, const char* pattern, std::size_t pattern_length)
      : L_(L), begin_(subject), end_(subject + subject_length), pattern_end_(pattern + pattern_length) {}

  /// Ready for a match attempt at a new position (captures cleared; the step budget is per library call).
  void reset() {
    level_ = 0;
    depth_ = kMaxDepth;
  }

  /// The end of the match of pattern `p` at `s`, or nullptr.
  const char* match(const char* s, const char* p) {
    if (depth_-- == 0) luaL_error(L_, "pattern too complex");
    while (true) {
      step();
      if (p == pattern_end_) break;
      if (*p == '(') {
        if (p + 1 < pattern_end_ && p[1] == ')') s = start_capture(s, p + 2, kPosition);
        else s = start_capture(s, p + 1, kUnfinished);
        break;
      }
      if (*p == ')') {
        s = end_capture(s, p + 1);
        break;
      }
      if (*p == '$' && p + 1 == pattern_end_) {
        if (s != end_) s = nullptr;
        break;
      }
      if (*p == '%' && p + 1 < pattern_end_ && p[1] == 'b') {
        s = match_balance(s, p + 2);
        if (!s) break;
        p += 4;
        continue;
      }
      if (*p == '%' && p + 1 < pattern_end_ && p[1] == 'f') {
        p += 2;
        if (p >= pattern_end_ || *p != '[') luaL_error(L_, "missing '[' after '%%f' in pattern");
        const char* set_end = class_end(p);
        const unsigned char previous = s == begin_ ? '\0' : static_cast<unsigned char>(s[-1]);
        const unsigned char current = s < end_ ? static_cast<unsigned char>(*s) : '\0';
        if (!in_set(previous, p, set_end - 1) && in_set(current, p, set_end - 1)) {
          p = set_end;
          continue;
        }
        s = nullptr;
        break;
      }
      if (*p == '%' && p + 1 < pattern_end_ && std::isdigit(static_cast<unsigned char>(p[1]))) {
        s = match_capture(s, static_cast<unsigned char>(p[1]));
        if (!s) break;
        p += 2;
        continue;
      }
      // a single-character class, maybe with a quantifier
      const char* item_end = class_end(p);
      const char quantifier = item_end < pattern_end_ ? *item_end : '\0';
      if (!single_match(s, p, item_end)) {
        if (quantifier == '*' || quantifier == '?' || quantifier == '-') {  // zero repetitions are fine
          p = item_end + 1;
          continue;
        }
        s = nullptr;
        break;
      }
      if (quantifier == '?') {
        if (const char* r = match(s + 1, item_end + 1)) {
          s = r;
          break;
        }
        p = item_end + 1;
        continue;
      }
      if (quantifier == '+') {
        s = max_expand(s + 1, p, item_end);
        break;
      }
      if (quantifier == '*') {
        s = max_expand(s, p, item_end);
        break;
      }
      if (quantifier == '-') {
        s = min_expand(s, p, item_end);
        break;
      }
      ++s;
      p = item_end;
    }
    ++depth_;
    return s;
  }

  /// Pushes capture i (or the whole match s..e when the pattern has none and i == 0).
  void push_capture(int i, const char* s, const char* e) {
    if (i >= level_) {
      if (i != 0) luaL_error(L_, "invalid capture index %%%d", i + 1);
      lua_pushlstring(L_, s, static_cast<std::size_t>(e - s));
      return;
    }
    const Capture& c = captures_[i];
    if (c.length == kUnfinished) luaL_error(L_, "unfinished capture");
    if (c.length == kPosition) lua_pushinteger(L_, static_cast<lua_Integer>(c.init - begin_) + 1);
    else lua_pushlstring(L_, c.init, static_cast<std::size_t>(c.length));
  }

  /// Pushes every capture (the whole match when there are none and `s` is given); returns how many.
  int push_captures(const char* s, const char* e) {
    const int n = (level_ == 0 && s) ? 1 : level_;
    luaL_checkstack(L_, n, "too many captures");
    for (int i = 0; i < n; ++i) push_capture(i, s, e);
    return n;
  }

  int level() const { return level_; }
  /// Charges `bytes` of work done outside the matcher (a replacement) to the budget.
  void charge(std::size_t bytes) {
    steps_ -= static_cast<long long>(bytes / 16);
    step();
  }

 private:
  void step() {
    if (--steps_ < 0)
      luaL_error(L_, "pattern matching took more than %d steps and was stopped (the sandbox bounds each call "
                     "of string.find, match, gmatch and gsub: simplify the pattern or use a shorter subject)",
                 static_cast<int>(Sandbox::kPatternSteps));
  }

  /// The end of the single-character class at p (a character, %x, [set] or '.').
  const char* class_end(const char* p) {
    const char c = *p++;
    if (c == '%') {
      if (p >= pattern_end_) luaL_error(L_, "malformed pattern (ends with '%%')");
      return p + 1;
    }
    if (c == '[') {
      if (p < pattern_end_ && *p == '^') ++p;
      // the first character of the set is taken as is, even a ']'
      do {
        if (p >= pattern_end_) luaL_error(L_, "malformed pattern (missing ']')");
        const char d = *p++;
        if (d == '%' && p < pattern_end_) ++p;  // an escaped character, e.g. %]
      } while (p >= pattern_end_ || *p != ']');
      return p + 1;
    }
    return p;
  }

  static bool in_class(unsigned char c, unsigned char cl) {
    bool result;
    switch (std::tolower(cl)) {
      case 'a': result = std::isalpha(c); break;
      case 'c': result = std::iscntrl(c); break;
      case 'd': result = std::isdigit(c); break;
      case 'g': result = std::isgraph(c); break;
      case 'l': result = std::islower(c); break;
      case 'p': result = std::ispunct(c); break;
      case 's': result = std::isspace(c); break;
      case 'u': result = std::isupper(c); break;
      case 'w': result = std::isalnum(c); break;
      case 'x': result = std::isxdigit(c); break;
      default: return cl == c;
    }
    return std::isupper(cl) ? !result : result;
  }

  /// Whether c is in the set [..] that starts at p and whose ']' is at `close`.
  static bool in_set(unsigned char c, const char* p, const char* close) {
    bool negated = false;
    ++p;  // the '['
    if (*p == '^') {
      negated = true;
      ++p;
    }
    bool found = false;
    while (p < close && !found) {
      if (*p == '%' && p + 1 < close) {
        found = in_class(c, static_cast<unsigned char>(p[1]));
        p += 2;
      } else if (p + 2 < close && p[1] == '-') {
        found = static_cast<unsigned char>(p[0]) <= c && c <= static_cast<unsigned char>(p[2]);
        p += 3;
      } else {
        found = static_cast<unsigned char>(*p) == c;
        ++p;
      }
    }
    return found != negated;
  }

  bool single_match(const char* s, const char* p, const char* item_end) const {
    if (s >= end_) return false;
    const auto c = static_cast<unsigned char>(*s);
    switch (*p) {
      case '.': return true;
      case '%': return in_class(c, static_cast<unsigned char>(p[1]));
      case '[': return in_set(c, p, item_end - 1);
      default: return static_cast<unsigned char>(*p) == c;
    }
  }

  const char* max_expand(const char* s, const char* p, const char* item_end) {
    std::ptrdiff_t i = 0;
    while (single_match(s + i, p, item_end)) {
      step();
      ++i;
    }
    for (; i >= 0; --i)  // the longest run first, then shorter ones
      if (const char* r = match(s + i, item_end + 1)) return r;
    return nullptr;
  }

  const char* min_expand(const char* s, const char* p, const char* item_end) {
    while (true) {
      if (const char* r = match(s, item_end + 1)) return r;
      if (!single_match(s, p, item_end)) return nullptr;
      ++s;
    }
  }

  const char* start_capture(const char* s, const char* p, std::ptrdiff_t what) {
    if (level_ >= kMaxCaptures) luaL_error(L_, "too many captures");
    captures_[level_] = {s, what};
    ++level_;
    const char* r = match(s, p);
    if (!r) --level_;
    return r;
  }

  const char* end_capture(const char* s, const char* p) {
    int open = level_ - 1;
    while (open >= 0 && captures_[open].length != kUnfinished) --open;
    if (open < 0) luaL_error(L_, "invalid pattern capture");
    captures_[open].length = s - captures_[open].init;
    const char* r = match(s, p);
    if (!r) captures_[open].length = kUnfinished;
    return r;
  }

  const char* match_balance(const char* s, const char* p) {
    if (p + 1 >= pattern_end_) luaL_error(L_, "malformed pattern (missing arguments to '%%b')");
    if (s >= end_ || *s != p[0]) return nullptr;
    const char open = p[0], close = p[1];
    int depth = 1;
    while (++s < end_) {
      step();
      if (*s == close) {
        if (--depth == 0) return s + 1;
      } else if (*s == open) {
        ++depth;
      }
    }
    return nullptr;
  }

  const char* match_capture(const char* s, unsigned char digit) {
    const int i = digit - '1';
    if (i < 0 || i >= level_ || captures_[i].length == kUnfinished) luaL_error(L_, "invalid capture index %%%d", i + 1);
    const std::size_t length = static_cast<std::size_t>(captures_[i].length);
    charge(length);
    if (static_cast<std::size_t>(end_ - s) >= length && std::memcmp(captures_[i].init, s, length) == 0) return s + length;
    return nullptr;
  }

  lua_State* L_;
  const char* begin_;
  const char* end_;
  const char* pattern_end_;
  int level_ = 0;
  int depth_ = kMaxDepth;
  long long steps_ = Sandbox::kPatternSteps;
  Capture captures_[kMaxCaptures];
};

/// Lua 5.4's posrelatI: a 1-based start position from a possibly negative one.
std::size_t start_position(lua_Integer position, std::size_t length) {
  if (position > 0) return static_cast<std::size_t>(position);
  if (position == 0) return 1;
  if (position < -static_cast<lua_Integer>(length)) return 1;
  return length + static_cast<std::size_t>(position) + 1;
}

bool has_specials(const char* p, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i)
    if (std::strchr("^$*+?.([%-", p[i]) && p[i] != '\0') return true;
  return false;
}

/// The first occurrence of `needle` in `haystack`, in linear time: glibc's memmem (the two-way algorithm,
/// constant space). Lua's lmemfind compares the needle at every position (quadratic), and libstdc++'s
/// boyer_moore_searcher builds its table in quadratic time for a needle like "aaa...ab".
const char* plain_find(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) return haystack.data();
  return static_cast<const char*>(::memmem(haystack.data(), haystack.size(), needle.data(), needle.size()));
}

int find_or_match(lua_State* L, bool find) {
  std::size_t length, pattern_length;
  const char* s = luaL_checklstring(L, 1, &length);
  const char* p = luaL_checklstring(L, 2, &pattern_length);
  const std::size_t init = start_position(luaL_optinteger(L, 3, 1), length) - 1;
  if (init > length) {
    luaL_pushfail(L);
    return 1;
  }
  if (find && (lua_toboolean(L, 4) || !has_specials(p, pattern_length))) {
    const char* at = plain_find(std::string_view(s + init, length - init), std::string_view(p, pattern_length));
    if (!at) {
      luaL_pushfail(L);
      return 1;
    }
    lua_pushinteger(L, static_cast<lua_Integer>(at - s) + 1);
    lua_pushinteger(L, static_cast<lua_Integer>(at - s + pattern_length));
    return 2;
  }
  const bool anchored = pattern_length > 0 && *p == '^';
  if (anchored) ++p, --pattern_length;
  Matcher m(L, s, length, p, pattern_length);
  const char* start = s + init;
  do {
    m.reset();
    if (const char* e = m.match(start, p)) {
      if (find) {
        lua_pushinteger(L, static_cast<lua_Integer>(start - s) + 1);
        lua_pushinteger(L, static_cast<lua_Integer>(e - s));
        return m.push_captures(nullptr, nullptr) + 2;
      }
      return m.push_captures(start, e);
    }
  } while (start++ < s + length && !anchored);
  luaL_pushfail(L);
  return 1;
}

int sandbox_find(lua_State* L) { return find_or_match(L, true); }
int sandbox_match(lua_State* L) { return find_or_match(L, false); }

// gmatch iterator: upvalues 1 = subject, 2 = pattern, 3 = next start (0-based), 4 = end of the last match
// (0-based, -1 for none).
int gmatch_step(lua_State* L) {
  std::size_t length, pattern_length;
  const char* s = lua_tolstring(L, lua_upvalueindex(1), &length);
  const char* p = lua_tolstring(L, lua_upvalueindex(2), &pattern_length);
  const auto position = static_cast<std::size_t>(lua_tointeger(L, lua_upvalueindex(3)));
  const lua_Integer last = lua_tointeger(L, lua_upvalueindex(4));
  Matcher m(L, s, length, p, pattern_length);
  for (const char* start = s + position; start <= s + length; ++start) {
    m.reset();
    const char* e = m.match(start, p);
    if (e && e - s != last) {
      lua_pushinteger(L, e - s);
      lua_replace(L, lua_upvalueindex(3));
      lua_pushinteger(L, e - s);
      lua_replace(L, lua_upvalueindex(4));
      return m.push_captures(start, e);
    }
  }
  return 0;
}

int sandbox_gmatch(lua_State* L) {
  std::size_t length;
  luaL_checklstring(L, 1, &length);
  luaL_checkstring(L, 2);
  std::size_t init = start_position(luaL_optinteger(L, 3, 1), length) - 1;
  if (init > length) init = length + 1;  // past the end: no match
  lua_settop(L, 2);
  lua_pushinteger(L, static_cast<lua_Integer>(init));
  lua_pushinteger(L, -1);
  lua_pushcclosure(L, gmatch_step, 4);
  return 1;
}

/// Adds the replacement of the match s..e to the buffer (gsub).
void add_replacement(lua_State* L, luaL_Buffer& b, Matcher& m, const char* s, const char* e, int type) {
  switch (type) {
    case LUA_TFUNCTION: {
      lua_pushvalue(L, 3);
      const int n = m.push_captures(s, e);
      lua_call(L, n, 1);
      break;
    }
    case LUA_TTABLE:
      m.push_capture(0, s, e);
      lua_gettable(L, 3);
      break;
    default: {  // a string (or number): %0..%9 and %%
      std::size_t length;
      const char* r = lua_tolstring(L, 3, &length);
      m.charge(length);
      for (std::size_t i = 0; i < length; ++i) {
        if (r[i] != '%') {
          luaL_addchar(&b, r[i]);
          continue;
        }
        ++i;
        if (i < length && r[i] == '%') {
          luaL_addchar(&b, '%');
        } else if (i < length && std::isdigit(static_cast<unsigned char>(r[i]))) {
          if (r[i] == '0') {
            luaL_addlstring(&b, s, static_cast<std::size_t>(e - s));
          } else {
            m.push_capture(r[i] - '1', s, e);
            luaL_tolstring(L, -1, nullptr);
            lua_remove(L, -2);
            luaL_addvalue(&b);
          }
        } else {
          luaL_error(L, "invalid use of '%c' in replacement string", '%');
        }
      }
      return;
    }
  }
  if (!lua_toboolean(L, -1)) {  // nil or false: keep the original text
    lua_pop(L, 1);
    luaL_addlstring(&b, s, static_cast<std::size_t>(e - s));
  } else if (!lua_isstring(L, -1)) {
    luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  } else {
    luaL_addvalue(&b);
  }
}

int sandbox_gsub(lua_State* L) {
  std::size_t length, pattern_length;
  const char* src = luaL_checklstring(L, 1, &length);
  const char* p = luaL_checklstring(L, 2, &pattern_length);
  const int type = lua_type(L, 3);
  const lua_Integer max_n = luaL_optinteger(L, 4, static_cast<lua_Integer>(length) + 1);
  luaL_argexpected(L, type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION || type == LUA_TTABLE, 3,
                   "string/function/table");
  const bool anchored = pattern_length > 0 && *p == '^';
  if (anchored) ++p, --pattern_length;
  const char* const begin = src;
  const char* const end = src + length;
  Matcher m(L, begin, length, p, pattern_length);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  const char* last = nullptr;
  lua_Integer n = 0;
  bool changed = false;
  while (n < max_n) {
    m.reset();
    const char* e = m.match(src, p);
    if (e && e != last) {
      ++n;
      add_replacement(L, b, m, src, e, type);
      src = last = e;
      changed = true;
    } else if (src < end) {
      luaL_addchar(&b, *src++);
    } else {
      break;
    }
    if (anchored) break;
  }
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&b, src, static_cast<std::size_t>(end - src));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, n);
  return 2;
}

}  // namespace

void install_bounded_patterns(lua_State* L, int string_library) {
  const luaL_Reg functions[] = {{"find", sandbox_find}, {"match", sandbox_match}, {"gmatch", sandbox_gmatch},
                                {"gsub", sandbox_gsub}, {nullptr, nullptr}};
  lua_pushvalue(L, string_library);
  luaL_setfuncs(L, functions, 0);
  lua_pop(L, 1);
}

}  // namespace hr
