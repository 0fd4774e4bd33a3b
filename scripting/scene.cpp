// scene.cpp — read_scene: a `draw_component` hook's scene, checked strictly (see scene.hpp; docs/writing-rules.md).
#include "scene.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "input_line.hpp"
#include "printable.hpp"
#include "sandbox.hpp"

namespace hr {

namespace {

using nlohmann::json;

/// The colour names a scene may use (the page maps some to its own palette); also "none", #rgb and #rrggbb.
constexpr std::string_view kColourNames[] = {"black", "white", "grey", "gray",  "red",  "green", "blue", "yellow",
                                             "orange", "purple", "brown", "pink", "gold", "silver", "none"};

enum class Range { X, Y, Length, Opacity };

struct ShapeSpec {
  std::string_view name;
  std::vector<std::pair<std::string_view, Range>> required;  // numbers that must be given
  std::vector<std::pair<std::string_view, Range>> optional;  // numbers with a default
  std::string_view keys_text;                                 // for the message on an unknown key
};

const std::vector<ShapeSpec>& shape_specs() {
  static const std::vector<ShapeSpec> specs = {
      {"rect", {{"x", Range::X}, {"y", Range::Y}, {"w", Range::Length}, {"h", Range::Length}}, {{"rx", Range::Length}},
       "x, y, w, h, rx"},
      {"circle", {{"cx", Range::X}, {"cy", Range::Y}, {"r", Range::Length}}, {}, "cx, cy, r"},
      {"polygon", {}, {}, "points"},
      {"line", {{"x1", Range::X}, {"y1", Range::Y}, {"x2", Range::X}, {"y2", Range::Y}}, {}, "x1, y1, x2, y2"},
      {"text", {{"x", Range::X}, {"y", Range::Y}}, {{"size", Range::Length}}, "x, y, text, size, anchor, bold"},
  };
  return specs;
}

constexpr std::string_view kCommonKeys[] = {"shape", "fill", "stroke", "stroke_width", "opacity"};

/// A short description of the Lua value at `index`, for messages: 3, 0.5, 'abc', a table.
std::string value_text(lua_State* L, int index) {
  switch (lua_type(L, index)) {
    case LUA_TNUMBER: {
      if (lua_isinteger(L, index)) return std::to_string(lua_tointeger(L, index));
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.6g", lua_tonumber(L, index));
      return buffer;
    }
    case LUA_TSTRING: {
      std::size_t length = 0;
      const char* text = lua_tolstring(L, index, &length);
      return "'" + printable(cut_for_message(std::string_view(text, length), 40)) + "'";
    }
    default: return std::string("a ") + luaL_typename(L, index);
  }
}

bool valid_colour(std::string_view c) {
  if (std::find(std::begin(kColourNames), std::end(kColourNames), c) != std::end(kColourNames)) return true;
  if ((c.size() != 4 && c.size() != 7) || c[0] != '#') return false;
  return std::all_of(c.begin() + 1, c.end(), [](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)) != 0; });
}

/// True when `text` is valid UTF-8 without control characters.
bool clean_text(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x20 || b == 0x7f) return false;
    std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > text.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return false;
    if (n == 2 && b < 0xc2) return false;  // overlong
    i += n;
  }
  return true;
}

class SceneReader {
 public:
  SceneReader(lua_State* L, std::string prefix) : L_(L), prefix_(std::move(prefix)) {}

  json read(int scene) {
    if (!lua_istable(L_, scene)) fail("", std::string("must return nil or a scene (a list of shapes), not ") + value_text(L_, scene));
    Sandbox::from(L_)->plain_protected(L_, scene);  // (the `actions` hook's list, kept in the kernel's buffer)
    const lua_Unsigned count = lua_rawlen(L_, scene);
    if (count > SceneLimits::kMaxShapes)
      fail("", "returned " + std::to_string(count) + " shapes; the limit is " + std::to_string(SceneLimits::kMaxShapes));
    lua_pushnil(L_);
    while (lua_next(L_, scene)) {
      lua_pop(L_, 1);
      const bool aspect_key = lua_type(L_, -1) == LUA_TSTRING && std::string_view(lua_tostring(L_, -1)) == "aspect";
      const bool index_key = lua_isinteger(L_, -1) && lua_tointeger(L_, -1) >= 1 &&
                             static_cast<lua_Unsigned>(lua_tointeger(L_, -1)) <= count;
      if (!aspect_key && !index_key)
        fail("", "the scene has the key " + value_text(L_, -1) + ": a scene is a list of shapes with an optional 'aspect'");
    }
    if (raw_field(scene, "aspect") != LUA_TNIL) aspect_ = number(-1, "", "aspect", SceneLimits::kMinAspect, SceneLimits::kMaxAspect);
    lua_pop(L_, 1);
    json shapes = json::array();
    for (lua_Unsigned i = 1; i <= count; ++i) {
      lua_rawgeti(L_, scene, static_cast<lua_Integer>(i));
      shapes.push_back(shape(lua_gettop(L_), i));
      lua_pop(L_, 1);
    }
    return {{"aspect", aspect_}, {"shapes", std::move(shapes)}};
  }

 private:
  [[noreturn]] void fail(const std::string& where, const std::string& message) const {
    throw ScriptError(prefix_ + (where.empty() ? "" : ": " + where) + ": " + message);
  }

  /// The number at `index` (a Lua number, finite, within [lo, hi]); `key` names it in the message.
  double number(int index, const std::string& where, std::string_view key, double lo, double hi) const {
    const double value = lua_type(L_, index) == LUA_TNUMBER ? lua_tonumber(L_, index) : NAN;
    if (!std::isfinite(value) || value < lo || value > hi) {
      char range[64];
      std::snprintf(range, sizeof range, "%g to %g", lo, hi);
      fail(where, "'" + std::string(key) + "' must be a number from " + range + ", not " + value_text(L_, index));
    }
    return value;
  }

  double ranged(int index, const std::string& where, std::string_view key, Range range) const {
    const double m = SceneLimits::kMargin;
    switch (range) {
      case Range::X: return number(index, where, key, -m, 1 + m);
      case Range::Y: return number(index, where, key, -m, aspect_ + m);
      case Range::Length: return number(index, where, key, 0, SceneLimits::kMaxLength);
      case Range::Opacity: break;
    }
    return number(index, where, key, 0, 1);
  }

  /// The string field `key` of the table at `t`, or `fallback` when absent; anything but a string is an error.
  std::string text_field(int t, const std::string& where, const char* key, const std::string& fallback) const {
    std::string out = fallback;
    const int type = raw_field(t, key);
    if (type == LUA_TSTRING) {
      std::size_t length = 0;
      const char* text = lua_tolstring(L_, -1, &length);
      out.assign(text, length);
    } else if (type != LUA_TNIL) {
      fail(where, "'" + std::string(key) + "' must be a string, not " + value_text(L_, -1));
    }
    lua_pop(L_, 1);
    return out;
  }

  json shape(int t, lua_Unsigned i) const {
    std::string where = "shape " + std::to_string(i);
    if (!lua_istable(L_, t)) fail(where, "must be a table such as {shape = \"rect\", x = 0, y = 0, w = 1, h = 1}, not " + value_text(L_, t));
    Sandbox::from(L_)->plain_protected(L_, t);
    const std::string kind = text_field(t, where, "shape", "");
    if (kind.empty()) fail(where, "needs 'shape' (rect, circle, polygon, line or text)");
    const auto& specs = shape_specs();
    const auto spec = std::find_if(specs.begin(), specs.end(), [&](const ShapeSpec& s) { return s.name == kind; });
    if (spec == specs.end()) {
      raw_field(t, "shape");
      fail(where, "unknown shape " + value_text(L_, -1) + " (rect, circle, polygon, line or text)");
    }
    where += " (" + kind + ")";
    // Every key must be one this shape has (sorted first, so the message does not depend on table order).
    std::vector<std::string> unknown;
    lua_pushnil(L_);
    while (lua_next(L_, t)) {
      lua_pop(L_, 1);
      if (lua_type(L_, -1) != LUA_TSTRING) {
        fail(where, "has the key " + value_text(L_, -1) + "; a shape's keys are names");
      }
      const std::string_view key = lua_tostring(L_, -1);
      const auto has = [&](const auto& list) {
        return std::any_of(list.begin(), list.end(), [&](const auto& k) { return k.first == key; });
      };
      const bool known = std::find(std::begin(kCommonKeys), std::end(kCommonKeys), key) != std::end(kCommonKeys) ||
                         has(spec->required) || has(spec->optional) ||
                         (kind == "polygon" && key == "points") ||
                         (kind == "text" && (key == "text" || key == "anchor" || key == "bold"));
      if (!known) unknown.emplace_back(key);
    }
    if (!unknown.empty()) {
      std::sort(unknown.begin(), unknown.end());
      fail(where, "unknown key '" + printable(cut_for_message(unknown.front(), 40)) + "' (a " + kind + " has " +
                      std::string(spec->keys_text) + ", fill, stroke, stroke_width, opacity)");
    }
    json out = {{"shape", kind}};
    for (const auto& [key, range] : spec->required) {
      const std::string k(key);
      if (raw_field(t, k.c_str()) == LUA_TNIL) fail(where, "needs '" + k + "'");
      out[k] = ranged(-1, where, key, range);
      lua_pop(L_, 1);
    }
    for (const auto& [key, range] : spec->optional) {
      const std::string k(key);
      out[k] = k == "size" ? 0.3 : 0.0;
      if (raw_field(t, k.c_str()) != LUA_TNIL) out[k] = ranged(-1, where, key, range);
      lua_pop(L_, 1);
    }
    if (kind == "text" && out["size"].get<double>() <= 0) fail(where, "'size' must be above 0");
    if (kind == "polygon") out["points"] = points(t, where);
    if (kind == "text") {
      const std::string text = text_field(t, where, "text", "\x01");
      if (text == "\x01") fail(where, "needs 'text'");
      if (text.size() > SceneLimits::kMaxText)
        fail(where, "'text' has " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(SceneLimits::kMaxText));
      if (!clean_text(text)) fail(where, "'text' must be UTF-8 without control characters");
      out["text"] = text;
      const std::string anchor = text_field(t, where, "anchor", "middle");
      if (anchor != "start" && anchor != "middle" && anchor != "end")
        fail(where, "'anchor' must be \"start\", \"middle\" or \"end\", not '" + printable(cut_for_message(anchor, 40)) + "'");
      out["anchor"] = anchor;
      const int type = raw_field(t, "bold");
      if (type != LUA_TNIL && type != LUA_TBOOLEAN) fail(where, "'bold' must be true or false, not " + value_text(L_, -1));
      out["bold"] = lua_toboolean(L_, -1) != 0;
      lua_pop(L_, 1);
    }
    // Colours: text and filled shapes default to black fill, a line to a black stroke (as SVG draws them).
    for (const char* key : {"fill", "stroke"}) {
      const bool line = kind == "line";
      const std::string fallback = std::string(key) == "fill" ? (line ? "none" : "black") : (line ? "black" : "none");
      const std::string colour = text_field(t, where, key, fallback);
      if (!valid_colour(colour))
        fail(where, "'" + std::string(key) + "' must be a colour name (black, white, grey, red, green, blue, yellow, "
                    "orange, purple, brown, pink, gold, silver, none) or #rgb / #rrggbb, not '" +
                    printable(cut_for_message(colour, 40)) + "'");
      out[key] = colour;
    }
    out["stroke_width"] = 0.03;
    if (raw_field(t, "stroke_width") != LUA_TNIL) out["stroke_width"] = ranged(-1, where, "stroke_width", Range::Length);
    lua_pop(L_, 1);
    out["opacity"] = 1.0;
    if (raw_field(t, "opacity") != LUA_TNIL) out["opacity"] = ranged(-1, where, "opacity", Range::Opacity);
    lua_pop(L_, 1);
    return out;
  }

  /// A polygon's `points`: a flat list {x1, y1, x2, y2, ...} of 3 to kMaxPolygonPoints corners.
  json points(int t, const std::string& where) const {
    if (raw_field(t, "points") != LUA_TTABLE)
      fail(where, "needs 'points', a list {x1, y1, x2, y2, ...}, not " + value_text(L_, -1));
    const int p = lua_gettop(L_);
    Sandbox::from(L_)->plain_protected(L_, p);
    const lua_Unsigned n = lua_rawlen(L_, p);
    if (n % 2 != 0 || n < 6 || n > 2 * SceneLimits::kMaxPolygonPoints)
      fail(where, "'points' must hold 3 to " + std::to_string(SceneLimits::kMaxPolygonPoints) +
                      " corners as x, y pairs (6 to " + std::to_string(2 * SceneLimits::kMaxPolygonPoints) +
                      " numbers), not " + std::to_string(n) + " numbers");
    json out = json::array();
    for (lua_Unsigned k = 1; k <= n; ++k) {
      lua_rawgeti(L_, p, static_cast<lua_Integer>(k));
      const std::string key = "points[" + std::to_string(k) + "]";
      out.push_back(ranged(-1, where, key, k % 2 == 1 ? Range::X : Range::Y));
      lua_pop(L_, 1);
    }
    lua_pop(L_, 1);
    return out;
  }

  /// Pushes field `key` of the table at `t` without metamethods (a scene's table may carry a metatable whose
  /// __index would run script code here, outside the sandbox's protected call) and returns its type.
  int raw_field(int t, const char* key) const {
    t = lua_absindex(L_, t);
    lua_pushstring(L_, key);
    return lua_rawget(L_, t);
  }

  lua_State* L_;
  std::string prefix_;
  double aspect_ = 1;
};

}  // namespace

std::string read_scene(lua_State* L, const std::string& what, const std::string& component) {
  const int scene = lua_gettop(L);
  if (!lua_checkstack(L, 8)) throw ScriptError(what + ": out of Lua stack space");
  try {
    std::string text = SceneReader(L, what + ": " + component).read(scene).dump();
    lua_settop(L, scene - 1);
    return text;
  } catch (...) {
    lua_settop(L, scene - 1);
    throw;
  }
}

}  // namespace hr
