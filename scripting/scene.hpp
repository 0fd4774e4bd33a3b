// scene.hpp — private to scripting/: the scene a `draw_component` hook returns (how `houserules serve` draws one component),
// read strictly from the Lua stack into JSON text. The format and its limits: docs/writing-rules.md, "Drawing a
// component"; the page renders it as SVG (cli/web/page/app.js, sceneSvg).
#pragma once

#include <cstddef>
#include <string>

#include <lua.hpp>

namespace hr {

/// What a scene may hold: more is an error naming the hook, the component and the shape.
struct SceneLimits {
  static constexpr std::size_t kMaxShapes = 64;          ///< shapes in one component's scene
  static constexpr std::size_t kMaxText = 40;            ///< bytes of one text shape (UTF-8, no control characters)
  static constexpr std::size_t kMaxPolygonPoints = 32;   ///< corners of one polygon
  static constexpr double kMinAspect = 0.25, kMaxAspect = 4;  ///< the box's height / width
  static constexpr double kMaxLength = 4;                ///< widths, heights, radii, font sizes, stroke widths
  static constexpr double kMargin = 1;                   ///< coordinates may leave the box by this much
};

/// Reads the scene at the top of `L`'s stack and pops it: a list of shapes (each a table with `shape` = "rect",
/// "circle", "polygon", "line" or "text" and that shape's keys) with an optional `aspect` (the box's height; its
/// width is 1). Returns it as JSON text, defaults filled in:
///   {"aspect": 1.4, "shapes": [{"shape": "rect", "x": 0, "y": 0, "w": 1, "h": 1.4, "rx": 0, "fill": "white",
///                               "stroke": "black", "stroke_width": 0.03, "opacity": 1}, ...]}
/// Throws ScriptError "<what>: <component>: shape N (<kind>): ..." for anything else: not a table, an unknown
/// shape or key, a number that is not finite or out of its range, a colour that is neither a known name nor
/// #rgb / #rrggbb, a text too long or with control characters, more than SceneLimits::kMaxShapes shapes. The stack
/// is left as it was below the scene.
std::string read_scene(lua_State* L, const std::string& what, const std::string& component);

}  // namespace hr
