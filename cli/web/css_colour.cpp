// css_colour.cpp — the colours the page accepts from a ruleset (see css_colour.hpp).
#include "css_colour.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "input_line.hpp"

namespace hr {

using nlohmann::json;

namespace {

constexpr std::string_view kNames[] = {
    "black", "white", "grey", "gray", "red", "green", "blue", "yellow", "orange", "purple", "brown", "pink", "gold",
    "silver", "navy", "teal", "olive", "maroon", "lime", "aqua", "cyan", "magenta", "fuchsia", "violet", "indigo",
    "beige", "ivory", "khaki", "coral", "salmon", "tan", "turquoise", "crimson", "darkgreen", "darkblue", "darkred",
    "lightblue", "lightgreen", "lightgrey", "lightgray", "darkgrey", "darkgray", "transparent", "none"};

constexpr std::string_view kFunctions[] = {"rgb(", "rgba(", "hsl(", "hsla("};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool hex(std::string_view digits) {
  return std::all_of(digits.begin(), digits.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

/// The arguments of rgb(...)/hsl(...): numbers, '.', '%', "deg", ',', '/', spaces; at least one digit.
bool numeric_arguments(std::string_view args) {
  bool digit = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digit = true;
    } else if (args.substr(i, 3) == "deg") {
      i += 2;
    } else if (c != '.' && c != '%' && c != ',' && c != '/' && c != ' ' && c != '-' && c != '+') {
      return false;
    }
  }
  return digit;
}

}  // namespace

bool is_css_colour(std::string_view text) {
  if (text.empty() || text.size() > 64) return false;
  const std::string c = lower(text);
  if (std::find(std::begin(kNames), std::end(kNames), c) != std::end(kNames)) return true;
  if (c[0] == '#') {
    const std::size_t n = c.size() - 1;
    return (n == 3 || n == 4 || n == 6 || n == 8) && hex(std::string_view(c).substr(1));
  }
  for (const std::string_view f : kFunctions)
    if (c.starts_with(f) && c.back() == ')')
      return numeric_arguments(std::string_view(c).substr(f.size(), c.size() - f.size() - 1));
  return false;
}

void check_hint_colours(json& hints) {
  if (!hints.is_object()) return;
  for (const char* key : {"colours", "mark_colours"}) {
    if (!hints.contains(key)) continue;
    json& table = hints[key];
    auto warn = [&](const std::string& what) {
      if (!hints.contains("warnings") || !hints["warnings"].is_array()) hints["warnings"] = json::array();
      hints["warnings"].push_back(what);
    };
    if (!table.is_object()) {
      warn(fmt::format("[view] {} must be a table of colours; it is ignored", key));
      hints.erase(key);
      continue;
    }
    for (auto it = table.begin(); it != table.end();) {
      if (it->is_string() && is_css_colour(it->get<std::string>())) {
        ++it;
        continue;
      }
      warn(fmt::format("[view] {}.{} = {} is not a colour (a name, #rgb, #rrggbb, rgb() or hsl() of numbers); it is "
                       "ignored", key, cut_for_message(it.key(), 40),
                       cut_for_message(it->dump(-1, ' ', false, json::error_handler_t::replace), 80)));
      it = table.erase(it);
    }
  }
}

}  // namespace hr
