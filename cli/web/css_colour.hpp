// css_colour.hpp — the colours a ruleset may hand to the page of `houserules serve`: every value from a ruleset
// that becomes CSS (the [view] hints `colours` and `mark_colours`, docs/serve.md) is checked here first, so a house
// rule cannot put `url(http://...)` or any other CSS into the page (issue 32, item 7).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace hr {

/// Whether `text` is a CSS colour of the kinds the page accepts: a name from a fixed list (the CSS basic and
/// common names: black, white, grey/gray, red, green, blue, yellow, orange, purple, brown, pink, gold, silver,
/// navy, teal, olive, maroon, lime, aqua, cyan, magenta, fuchsia, violet, indigo, beige, ivory, khaki, coral,
/// salmon, tan, turquoise, crimson, darkgreen, darkblue, darkred, lightblue, lightgreen, lightgrey/lightgray,
/// darkgrey/darkgray, transparent, none), `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, or `rgb(...)`, `rgba(...)`,
/// `hsl(...)`, `hsla(...)` whose arguments are numbers only (digits, '.', '%', "deg", commas, '/', spaces).
/// Case-insensitive for names and functions; at most 64 bytes.
bool is_css_colour(std::string_view text);

/// Checks the [view] hints before they reach the page: in `colours` and `mark_colours` (tables key -> colour),
/// each value that is not a string holding a CSS colour (is_css_colour) is removed, and a line naming the key and
/// the value is appended to hints["warnings"] (a list of texts the page shows). Other keys are left as they are.
void check_hint_colours(nlohmann::json& hints);

}  // namespace hr
