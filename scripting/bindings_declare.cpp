// bindings_declare.cpp — houserules.declare{...}: what a ruleset's game is made of, read once while the rules
// load (reference: docs/writing-rules.md, docs/boards.md).
//
// Binds houserules.declare (registered by push_houserules_api, bindings_api.cpp). It reads shapes, boards,
// components, zones, counters, tracks, figures, groups, maps, phases, rounds and teams into the Layout, applies
// the variants' [zones], [counters] and [visibility], finalizes the layout, and returns (and sets on
// houserules) components, zones, zone_names, groups, maps, boards and phases.
//
// Invariants: it may be called once, only while the rules load. Numbering is deterministic: shapes, marks,
// maps and groups in name order, phases by number then name, the rest in the order listed. Errors name the
// entry (and, for variant additions, the variant file and line). The tables it returns are read-only.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binding_args.hpp"
#include "ruleset.hpp"

namespace hr::bindings {

namespace {

/// Counts `bytes` more of the kernel's copy of the declaration against ScriptedRules::kKernelBudget, before the
/// copy is made: a Lua string is shared by every reference to it, its C++ copies are not (2,000 components
/// named by one 2 MB string would be 4 GB). Raises naming `what` (and, through luaL_error, the script's file
/// and line) and the limit.
void charge(lua_State* L, Impl& impl, std::uint64_t bytes, const char* what, int index = 0) {
  if (bytes > ScriptedRules::kKernelBudget - impl.kernel_bytes)
    luaL_error(L, "houserules.declare: %s%s would take the kernel's copy of the declaration past its limit of %d MiB "
               "a ruleset (%I bytes so far, %I more asked for): declare fewer or smaller names, attributes or boards",
               what, index ? (" " + std::to_string(index)).c_str() : "", static_cast<int>(ScriptedRules::kKernelBudget >> 20),
               static_cast<lua_Integer>(impl.kernel_bytes), static_cast<lua_Integer>(std::min<std::uint64_t>(bytes, LUA_MAXINTEGER)));
  impl.kernel_bytes += static_cast<std::size_t>(bytes);
}

/// The bytes a std::string of `length` bytes takes (its object, and its heap block past the short-string buffer).
constexpr std::uint64_t string_bytes(std::size_t length) { return sizeof(std::string) + (length > 15 ? length + 1 : 0); }

/// The list length of the table at `index` (luaL_len), charged at `each` bytes an entry before a loop copies them.
int charged_length(lua_State* L, Impl& impl, int index, std::uint64_t each, const char* what) {
  const lua_Integer n = luaL_len(L, index);
  if (n < 0 || n > INT32_MAX) luaL_error(L, "houserules.declare: %s has a length of %I", what, n);
  charge(L, impl, static_cast<std::uint64_t>(n) * each, what);
  return static_cast<int>(n);
}

std::string field_string(lua_State* L, int t, const char* key, const char* what, int index) {
  lua_getfield(L, t, key);
  if (!lua_isstring(L, -1) || lua_type(L, -1) == LUA_TNUMBER)
    luaL_error(L, "houserules.declare: %s %d needs a string '%s'", what, index, key);
  std::size_t length = 0;
  lua_tolstring(L, -1, &length);
  charge(L, Impl::from(L), string_bytes(length), what, index);
  std::string out = lua_tostring(L, -1);
  lua_pop(L, 1);
  return out;
}

/// Iterates the array field `key` of the table at `t`, calling body(i) with element i at the stack top.
template <class F>
void each_entry(lua_State* L, int t, const char* key, F&& body) {
  if (lua_getfield(L, t, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  if (!lua_istable(L, -1)) luaL_error(L, "houserules.declare: '%s' must be a list", key);
  const int list = lua_gettop(L);
  const auto n = static_cast<int>(luaL_len(L, list));
  for (int i = 1; i <= n; ++i) {
    if (lua_geti(L, list, i) != LUA_TTABLE) luaL_error(L, "houserules.declare: %s[%d] must be a table", key, i);
    body(i);
    lua_settop(L, list);
  }
  lua_pop(L, 1);
}

/// Reads a features table (faces, sides or corners: local text -> integer 0..65535) at the stack top into c.
void read_features(lua_State* L, Component& c, const std::string& key, int index) {
  if (!lua_istable(L, -1))
    luaL_error(L, "houserules.declare: component %d ('%s'): %s must map local %s texts to integers", index, c.name.c_str(),
               key.c_str(), key == "faces" ? "face" : key == "sides" ? "edge" : "vertex");
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    const char* text = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
    int is_integer = 0;
    const lua_Integer value = lua_tointegerx(L, -1, &is_integer);
    if (!is_integer || value < 0 || value > 65535)
      luaL_error(L, "houserules.declare: component %d ('%s'): %s[\"%s\"] must be an integer 0..65535", index, c.name.c_str(), key.c_str(), text);
    const auto feature = static_cast<std::uint16_t>(value);
    charge(L, Impl::from(L), 16, "a tile feature of component", index);
    bool ok = true, twice = false;
    if (key == "faces") {
      const auto f = parse_local_face(text);
      ok = f.has_value();
      if (ok) {
        for (const auto& [g, v] : c.features.faces) twice |= g == *f;
        c.features.faces.emplace_back(*f, feature);
      }
    } else if (key == "sides") {
      const auto e = parse_local_edge(text);
      ok = e.has_value();
      if (ok) {
        for (const auto& [g, v] : c.features.sides) twice |= g == *e;
        c.features.sides.emplace_back(*e, feature);
      }
    } else {
      const auto v = Lattice::parse_coord(text);
      ok = v.has_value();
      if (ok) {
        for (const auto& [g, x] : c.features.corners) twice |= g == *v;
        c.features.corners.emplace_back(*v, feature);
      }
    }
    if (!ok)
      luaL_error(L, "houserules.declare: component %d ('%s'): %s key '%s' is not a local %s (e.g. %s)", index, c.name.c_str(),
                 key.c_str(), text, key == "faces" ? "face" : key == "sides" ? "edge" : "vertex",
                 key == "faces" ? "0,0u" : key == "sides" ? "0,0-1,0" : "1,0");
    if (twice) luaL_error(L, "houserules.declare: component %d ('%s'): %s names '%s' twice", index, c.name.c_str(), key.c_str(), text);
    lua_pop(L, 1);
  }
}

/// Whether `name` matches `pattern`, where each `*` matches any text (possibly empty).
bool glob_match(std::string_view pattern, std::string_view name) {
  std::size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

/// Adds the variants' new zones and counters to `layout` and changes the visibility of the zones their
/// [visibility] names (VariantAddition), in order. Errors name the variant file and line.
void apply_variant_additions(lua_State* L, const std::vector<VariantAddition>& additions, Layout& layout) {
  for (const VariantAddition& a : additions) {
    const std::string at = Sandbox::display_path(a.file) + ":" + std::to_string(a.line);
    const Visibility visibility = a.visibility.empty() ? Visibility::Hidden : visibility_from_string(a.visibility);
    switch (a.kind) {
      case VariantAddition::Kind::Zone: {
        std::vector<ZoneDef> zones;
        if (a.per_seat)
          for (int s = 1; s <= layout.seats; ++s) zones.push_back({a.name + "." + std::to_string(s), {Owner::Kind::Seat, s}, visibility});
        else
          zones.push_back({a.name, {}, visibility});
        for (ZoneDef& zone : zones) {
          for (const ZoneDef& old : layout.zones)
            if (old.name == zone.name)
              luaL_error(L, "%s: the variant adds a zone '%s', which the parent declares already", at.c_str(), zone.name.c_str());
          layout.zones.push_back(std::move(zone));
        }
        break;
      }
      case VariantAddition::Kind::Counter:
        for (const CounterDef& old : layout.counters)
          if (old.name == a.name)
            luaL_error(L, "%s: the variant adds a counter '%s', which the parent declares already", at.c_str(), a.name.c_str());
        layout.counters.push_back({a.name, a.per_seat, a.initial});
        break;
      case VariantAddition::Kind::Visibility: {
        int matched = 0;
        for (ZoneDef& zone : layout.zones) {
          if (!glob_match(a.name, zone.name)) continue;
          if (visibility == Visibility::Owner && zone.owner.kind == Owner::Kind::Nobody)
            luaL_error(L, "%s: zone '%s' has no owner, so it cannot be visible to its owner", at.c_str(), zone.name.c_str());
          zone.visibility = visibility;
          ++matched;
        }
        if (matched == 0) {
          std::string known;
          for (const ZoneDef& zone : layout.zones) {
            if (known.size() > 300) {
              known += ", ...";
              break;
            }
            known += (known.empty() ? "" : ", ") + zone.name;
          }
          luaL_error(L, "%s: [visibility] '%s' names no zone of the parent (its zones: %s)", at.c_str(), a.name.c_str(),
                     known.c_str());
        }
        break;
      }
    }
  }
}

}  // namespace

/// houserules.name_phase(name, number): names a phase a house rule adds after the ruleset declared its own
/// (rules.encoding:phase(name) calls it for the number it allocates), so that game:phase_name(), game:set_phase(name),
/// scenario files' `phase = "name"` and the observation's phase name answer for it as for a declared phase.
/// Only while the rules load and after houserules.declare; `name` a string (as declare's phase names: any text, charged
/// to the declare budget), `number` an integer in 32 bits that no phase names yet. Errors (raised, naming the name):
/// called late or early, a name or number already taken, a number out of range.
int houserules_name_phase(lua_State* L) {
  IMPL;
  if (!impl.loading) return luaL_error(L, "houserules.name_phase may only be called while the rules load");
  if (!impl.declared) return luaL_error(L, "houserules.name_phase: call houserules.declare first");
  std::size_t length = 0;
  const char* name = luaL_checklstring(L, 1, &length);
  const lua_Integer number = luaL_checkinteger(L, 2);
  if (number < INT32_MIN || number > INT32_MAX) return luaL_error(L, "houserules.name_phase: phase '%s': number out of range", name);
  Layout& layout = *impl.layout;
  for (const auto& [known, n] : layout.phase_names) {
    if (known == name) return luaL_error(L, "houserules.name_phase: a phase named '%s' exists already", name);
    if (n == number) return luaL_error(L, "houserules.name_phase: phase %d is named '%s' already", static_cast<int>(n), known.c_str());
  }
  charge(L, impl, string_bytes(length) + 8, "a phase's name");
  layout.phase_names.emplace_back(name, static_cast<int>(number));
  std::sort(layout.phase_names.begin(), layout.phase_names.end(), [](const auto& x, const auto& y) {
    return x.second != y.second ? x.second < y.second : x.first < y.first;  // by number, as declare leaves them
  });
  return 0;
}

int houserules_declare(lua_State* L) {
  IMPL;
  if (!impl.loading) return luaL_error(L, "houserules.declare may only be called while the rules load");
  if (impl.declared) return luaL_error(L, "houserules.declare may be called only once");
  luaL_checktype(L, 1, LUA_TTABLE);
  Layout& layout = *impl.layout;
  // shapes = { name = { "0,0u", "0,0d" } }: tile footprints in local coordinates (numbered in name order)
  if (lua_getfield(L, 1, "shapes") != LUA_TNIL) {
    if (!lua_istable(L, -1)) luaL_error(L, "houserules.declare: 'shapes' must map names to lists of faces");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
        luaL_error(L, "houserules.declare: 'shapes' must map names to lists of faces (e.g. rhombus = { \"0,0u\", \"0,0d\" })");
      ShapeDef shape;
      charge(L, impl, string_bytes(lua_rawlen(L, -2)) + sizeof(ShapeDef), "a shape's name");
      shape.name = lua_tostring(L, -2);
      const int n = charged_length(L, impl, -1, sizeof(shape.faces[0]) * 2, "a shape's list of faces");
      for (int i = 1; i <= n; ++i) {
        lua_geti(L, -1, i);
        const char* text = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : nullptr;
        const auto face = text ? parse_local_face(text) : std::nullopt;
        if (!face)
          luaL_error(L, "houserules.declare: shape '%s': entry %d is not a face (write \"q,ru\" or \"q,rd\" for a triangular "
                     "board, \"q,r\" for a square one)", shape.name.c_str(), i);
        shape.faces.push_back(*face);
        lua_pop(L, 1);
      }
      layout.shapes.push_back(std::move(shape));
      lua_pop(L, 1);
    }
    std::sort(layout.shapes.begin(), layout.shapes.end(), [](const ShapeDef& a, const ShapeDef& b) { return a.name < b.name; });
  }
  lua_pop(L, 1);
  // boards = { { name =, kind =, width =, height =, marks = { name = "face"|"edge"|"vertex" } } }
  each_entry(L, 1, "boards", [&](int i) {
    const int t = lua_gettop(L);
    BoardDef board;
    Lattice::Size board_size;
    board.name = field_string(L, t, "name", "board", i);
    const std::string kind = field_string(L, t, "kind", "board", i);
    lua_getfield(L, t, "width");
    lua_getfield(L, t, "height");
    if (!lua_isinteger(L, -2) || !lua_isinteger(L, -1))
      luaL_error(L, "houserules.declare: board '%s' needs an integer width and height", board.name.c_str());
    std::string error;
    try {
      const LatticeKind lattice_kind = lattice_kind_from_string(kind);
      const lua_Integer width = lua_tointeger(L, -2), height = lua_tointeger(L, -1);
      if (width >= 1 && width <= 255 && height >= 1 && height <= 255) {
        // Counted before it is built (the marks of every game state below): a board refused as too large, or
        // past the budget, is never allocated.
        const Lattice::Size size = Lattice::size_of(lattice_kind, static_cast<int>(width), static_cast<int>(height));
        if (size.faces > 65535 || size.edges > 65535)
          throw std::runtime_error("it is too large (" + std::to_string(size.faces) + " faces and " + std::to_string(size.edges) +
                                   " edges; at most 65535 of each)");
        board_size = size;
        charge(L, impl, static_cast<std::uint64_t>(size.bytes) + static_cast<std::uint64_t>(size.faces) * 4, "board", i);
      }
      board.lattice = Lattice(lattice_kind, static_cast<int>(width), static_cast<int>(height));
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) luaL_error(L, "houserules.declare: board '%s': %s", board.name.c_str(), error.c_str());
    if (lua_getfield(L, t, "marks") != LUA_TNIL) {
      if (!lua_istable(L, -1)) luaL_error(L, "houserules.declare: board '%s': marks must map names to \"face\", \"edge\" or \"vertex\"", board.name.c_str());
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        const char* where = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (lua_type(L, -2) != LUA_TSTRING || (std::strcmp(where, "face") && std::strcmp(where, "edge") && std::strcmp(where, "vertex")))
          luaL_error(L, "houserules.declare: board '%s': marks must map names to \"face\", \"edge\" or \"vertex\"", board.name.c_str());
        // the mark's name, and a byte per site in every game state
        const SiteKind site_kind = site_kind_from_string(where);
        const std::int64_t sites = site_kind == SiteKind::Face ? board_size.faces
                                   : site_kind == SiteKind::Edge ? board_size.edges : board_size.vertices;
        charge(L, impl, string_bytes(lua_rawlen(L, -2)) + sizeof(MarkDef) + static_cast<std::uint64_t>(sites), "a mark of board", i);
        board.marks.push_back({lua_tostring(L, -2), site_kind});
        lua_pop(L, 1);
      }
      std::sort(board.marks.begin(), board.marks.end(), [](const MarkDef& a, const MarkDef& b) { return a.name < b.name; });
    }
    layout.boards.push_back(std::move(board));
  });
  // components
  lua_newtable(L);  // the read-only component records, filled below
  const int records = lua_gettop(L);
  each_entry(L, 1, "components", [&](int i) {
    const int t = lua_gettop(L);
    charge(L, impl, sizeof(Component), "component", i);
    Component component;
    component.name = field_string(L, t, "name", "component", i);
    lua_newtable(L);
    const int record = lua_gettop(L);
    lua_pushinteger(L, i);
    lua_setfield(L, record, "id");
    lua_pushnil(L);
    while (lua_next(L, t)) {
      if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "houserules.declare: component %d has a non-string key", i);
      const std::string key = lua_tostring(L, -2);
      if (key == "id") luaL_error(L, "houserules.declare: component %d: 'id' is given by the kernel", i);
      if (key == "faces" || key == "sides" || key == "corners") {  // tile features in local coordinates
        read_features(L, component, key, i);
        lua_pop(L, 1);
        continue;
      }
      if (key == "shape") {
        const char* shape = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        component.shape = layout.shape_index(shape);
        if (component.shape < 0) luaL_error(L, "houserules.declare: component %d ('%s'): unknown shape '%s'", i, component.name.c_str(), shape);
      }
      if (key != "name") {
        charge(L, impl, 2 * string_bytes(key.size()) + 16 + (lua_type(L, -1) == LUA_TSTRING ? lua_rawlen(L, -1) + 1 : 0),
               "an attribute of component", i);
        switch (lua_type(L, -1)) {
          case LUA_TBOOLEAN: component.attributes.emplace_back(key, static_cast<bool>(lua_toboolean(L, -1))); break;
          case LUA_TSTRING: component.attributes.emplace_back(key, std::string(lua_tostring(L, -1))); break;
          case LUA_TNUMBER:
            if (lua_isinteger(L, -1)) component.attributes.emplace_back(key, static_cast<std::int64_t>(lua_tointeger(L, -1)));
            else component.attributes.emplace_back(key, static_cast<double>(lua_tonumber(L, -1)));
            break;
          default:
            luaL_error(L, "houserules.declare: component %d: attribute '%s' must be a number, string or boolean", i, key.c_str());
        }
      }
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, record);
    }
    Sandbox::from(L)->make_read_only(1);
    lua_rawseti(L, records, i);
    layout.components.push_back(std::move(component));
  });
  // components[0] stands for a card the viewer cannot see (game:cards in an observation returns 0)
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, 0);
  lua_setfield(L, -2, "id");
  lua_pushliteral(L, "?");
  lua_setfield(L, -2, "name");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "unknown");
  Sandbox::from(L)->make_read_only(1);
  lua_rawseti(L, records, 0);
  // zones
  each_entry(L, 1, "zones", [&](int i) {
    const int t = lua_gettop(L);
    charge(L, impl, sizeof(ZoneDef), "zone", i);
    ZoneDef zone;
    zone.name = field_string(L, t, "name", "zone", i);
    lua_getfield(L, t, "visibility");
    const char* visibility = lua_tostring(L, -1);
    if (!visibility) luaL_error(L, "houserules.declare: zone '%s' needs a visibility (hidden, owner, public or top)", zone.name.c_str());
    std::string error;
    try {
      zone.visibility = visibility_from_string(visibility);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) luaL_error(L, "houserules.declare: zone '%s': %s", zone.name.c_str(), error.c_str());
    if (lua_getfield(L, t, "owner") != LUA_TNIL) zone.owner = {Owner::Kind::Seat, static_cast<int>(integer_arg(L, -1))};
    if (lua_getfield(L, t, "team") != LUA_TNIL) zone.owner = {Owner::Kind::Team, static_cast<int>(integer_arg(L, -1))};
    if (lua_getfield(L, t, "holds") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING || lua_rawlen(L, -1) == 0)
        luaL_error(L, "houserules.declare: zone '%s': holds must be the name of a component attribute (a string)", zone.name.c_str());
      charge(L, impl, string_bytes(lua_rawlen(L, -1)), "the holds attribute of zone", i);
      zone.holds = lua_tostring(L, -1);
    }
    if (zone.visibility == Visibility::Owner && zone.owner.kind == Owner::Kind::Nobody)
      luaL_error(L, "houserules.declare: zone '%s' is visible to its owner but has no owner (set owner = seat or team = n)", zone.name.c_str());
    layout.zones.push_back(std::move(zone));
  });
  each_entry(L, 1, "counters", [&](int i) {
    const int t = lua_gettop(L);
    CounterDef counter;
    counter.name = field_string(L, t, "name", "counter", i);
    lua_getfield(L, t, "per_seat");
    counter.per_seat = lua_toboolean(L, -1);
    lua_getfield(L, t, "initial");
    counter.initial = luaL_optinteger(L, -1, 0);
    if (counter.initial > ScriptedRules::kMaxCounter || counter.initial < -ScriptedRules::kMaxCounter)
      luaL_error(L, "houserules.declare: counter '%s' starts at %I; a counter is at most 2^53 (%I) in size, as a score",
                 counter.name.c_str(), static_cast<lua_Integer>(counter.initial), static_cast<lua_Integer>(ScriptedRules::kMaxCounter));
    layout.counters.push_back(std::move(counter));
  });
  each_entry(L, 1, "tracks", [&](int i) {
    const int t = lua_gettop(L);
    TrackDef track;
    track.name = field_string(L, t, "name", "track", i);
    if (lua_getfield(L, t, "values") != LUA_TTABLE) luaL_error(L, "houserules.declare: track '%s' needs a list of values", track.name.c_str());
    const int n = charged_length(L, impl, -1, sizeof(track.values[0]), "a track's list of values");
    for (int k = 1; k <= n; ++k) {
      lua_geti(L, -1, k);
      track.values.push_back(integer_arg(L, -1));
      lua_pop(L, 1);
    }
    layout.tracks.push_back(std::move(track));
  });
  each_entry(L, 1, "figures", [&](int i) {
    const int t = lua_gettop(L);
    FigureDef figure;
    figure.kind = field_string(L, t, "kind", "figure", i);
    lua_getfield(L, t, "owner");
    figure.owner = static_cast<int>(luaL_optinteger(L, -1, 0));
    layout.figures.push_back(std::move(figure));
  });
  // groups = { name = {zone names or numbers...} }: constant zone lists for game:tops / game:sizes
  lua_newtable(L);
  const int groups = lua_gettop(L);
  std::vector<std::pair<std::string, std::vector<std::string>>> group_specs;
  if (lua_getfield(L, 1, "groups") != LUA_TNIL) {
    luaL_checktype(L, -1, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
        luaL_error(L, "houserules.declare: groups must map names to lists of zones");
      std::vector<std::string> names;
      charge(L, impl, string_bytes(lua_rawlen(L, -2)), "a group's name");
      const int n = charged_length(L, impl, -1, sizeof(std::string), "a group's list of zones");
      for (int i = 1; i <= n; ++i) {
        lua_geti(L, -1, i);
        if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "houserules.declare: group '%s' must list zone names", lua_tostring(L, -3));
        charge(L, impl, string_bytes(lua_rawlen(L, -1)), "a zone name in a group");
        names.emplace_back(lua_tostring(L, -1));
        lua_pop(L, 1);
      }
      group_specs.emplace_back(lua_tostring(L, -2), std::move(names));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  // maps = { name = {an integer per component number} }: constant lists that game:tops and game:append_cards
  // read in C (no table look-up from C per card)
  lua_newtable(L);
  const int maps = lua_gettop(L);
  std::vector<std::pair<std::string, std::vector<lua_Integer>>> map_specs;
  if (lua_getfield(L, 1, "maps") != LUA_TNIL) {
    luaL_checktype(L, -1, LUA_TTABLE);
    const auto components = static_cast<lua_Integer>(layout.components.size());
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1))
        luaL_error(L, "houserules.declare: maps must map names to lists of integers");
      charge(L, impl, string_bytes(lua_rawlen(L, -2)) + static_cast<std::uint64_t>(components + 1) * sizeof(lua_Integer), "a map");
      const std::string name = lua_tostring(L, -2);
      std::vector<lua_Integer> values(static_cast<std::size_t>(components + 1), 0);
      for (lua_Integer c = 0; c <= components; ++c) {
        lua_rawgeti(L, -1, c);
        if (lua_isinteger(L, -1)) values[static_cast<std::size_t>(c)] = lua_tointeger(L, -1);
        else if (c > 0 || !lua_isnil(L, -1))
          luaL_error(L, "houserules.declare: map '%s': entry %d is not an integer (a map gives one integer per "
                     "component, 1 to %d, and optionally entry 0 for an unseen card)", name.c_str(), static_cast<int>(c),
                     static_cast<int>(components));
        lua_pop(L, 1);
      }
      map_specs.emplace_back(name, std::move(values));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  std::sort(map_specs.begin(), map_specs.end());  // map numbers in name order: deterministic
  for (auto& [name, values] : map_specs) {
    impl.maps.push_back(std::move(values));
    lua_pushinteger(L, static_cast<lua_Integer>(impl.maps.size()));
    lua_setfield(L, maps, name.c_str());
  }
  // phases = { "play", "draw" } (numbered 1, 2, ...) or { play = 0, draw = 1 }: names of phase numbers; a name
  // may span a range, { draw = {10, 15} } (a phase that remembers something, as Lost Cities' pile discarded to)
  if (lua_getfield(L, 1, "phases") != LUA_TNIL) {
    if (!lua_istable(L, -1)) luaL_error(L, "houserules.declare: 'phases' must be a list of names or map names to numbers");
    const int phases = lua_gettop(L);
    const auto n = static_cast<lua_Integer>(luaL_len(L, phases));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, phases, i);
      if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "houserules.declare: phases[%d] must be a name", static_cast<int>(i));
      charge(L, impl, string_bytes(lua_rawlen(L, -1)) + 8, "a phase's name");
      layout.phase_names.emplace_back(lua_tostring(L, -1), static_cast<int>(i));
      lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, phases)) {
      if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1)) {  // name = {first, last}
        const char* name = lua_tostring(L, -2);
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        if (!lua_isinteger(L, -2) || !lua_isinteger(L, -1) || lua_tointeger(L, -1) < lua_tointeger(L, -2) ||
            luaL_len(L, -3) != 2)
          luaL_error(L, "houserules.declare: phase '%s' must map to an integer or a range {first, last} (first <= last)", name);
        // one entry per number, in order: Layout::phase_number(name) finds the first (each charged first)
        std::uint64_t numbers = static_cast<std::uint64_t>(lua_tointeger(L, -1)) - static_cast<std::uint64_t>(lua_tointeger(L, -2)) + 1;
        if (numbers == 0 || numbers > (std::uint64_t{1} << 32)) numbers = std::uint64_t{1} << 32;  // (past any budget; no overflow below)
        charge(L, impl, numbers * (string_bytes(std::strlen(name)) + 8), "a phase's range of numbers");
        for (lua_Integer p = lua_tointeger(L, -2); p <= lua_tointeger(L, -1); ++p)
          layout.phase_names.emplace_back(name, static_cast<int>(p));
        lua_pop(L, 2);
      } else if (lua_type(L, -2) == LUA_TSTRING) {
        if (!lua_isinteger(L, -1)) luaL_error(L, "houserules.declare: phase '%s' must map to an integer or a range {first, last}", lua_tostring(L, -2));
        charge(L, impl, string_bytes(lua_rawlen(L, -2)) + 8, "a phase's name");
        layout.phase_names.emplace_back(lua_tostring(L, -2), static_cast<int>(lua_tointeger(L, -1)));
      } else if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 || lua_tointeger(L, -2) > n) {
        luaL_error(L, "houserules.declare: 'phases' must be a list of names or map names to numbers");
      }
      lua_pop(L, 1);
    }
    std::sort(layout.phase_names.begin(), layout.phase_names.end(), [](const auto& x, const auto& y) {
      return x.second != y.second ? x.second < y.second : x.first < y.first;  // by number: the same in every run
    });
    // a name names one number, or the numbers of one range (consecutive entries); a number has one name
    for (std::size_t a = 0; a < layout.phase_names.size(); ++a)
      for (std::size_t b = a + 1; b < layout.phase_names.size(); ++b) {
        const bool same_range = layout.phase_names[a].first == layout.phase_names[b].first &&
                                layout.phase_names[b].second - layout.phase_names[a].second == static_cast<int>(b - a);
        if (layout.phase_names[a].first == layout.phase_names[b].first && !same_range)
          luaL_error(L, "houserules.declare: phase '%s' is named twice", layout.phase_names[a].first.c_str());
        if (layout.phase_names[a].second == layout.phase_names[b].second)
          luaL_error(L, "houserules.declare: phases '%s' and '%s' name the same number", layout.phase_names[a].first.c_str(),
                     layout.phase_names[b].first.c_str());
      }
  }
  lua_pop(L, 1);
  if (lua_getfield(L, 1, "rounds") != LUA_TNIL) layout.rounds = static_cast<int>(integer_arg(L, -1));
  lua_pop(L, 1);
  if (lua_getfield(L, 1, "teams") != LUA_TNIL) {
    luaL_checktype(L, -1, LUA_TTABLE);
    layout.team_of_seat.assign(static_cast<std::size_t>(layout.seats + 1), 0);
    for (int s = 1; s <= layout.seats; ++s) {
      lua_geti(L, -1, s);
      layout.team_of_seat[static_cast<std::size_t>(s)] = static_cast<int>(integer_arg(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  apply_variant_additions(L, impl.additions, layout);
  const std::string problem = [&]() -> std::string {
    try {
      layout.finalize();
    } catch (const std::exception& e) {
      return e.what();
    }
    return {};
  }();
  if (!problem.empty()) return luaL_error(L, "houserules.declare: %s", problem.c_str());
  std::sort(group_specs.begin(), group_specs.end());  // group numbers in name order: deterministic
  for (const auto& [name, zone_names] : group_specs) {
    std::vector<ZoneId> zones;
    for (const auto& zone : zone_names) {
      const ZoneId* z = layout.find_zone(zone);
      if (!z) return luaL_error(L, "houserules.declare: group '%s' names an unknown zone '%s'", name.c_str(), zone.c_str());
      zones.push_back(*z);
    }
    impl.zone_groups.push_back(std::move(zones));
    lua_pushinteger(L, static_cast<lua_Integer>(impl.zone_groups.size()));
    lua_setfield(L, groups, name.c_str());
  }
  impl.declared = true;
  // The result: { components = records, zones = name -> number, zone_names = number -> name }
  lua_createtable(L, 0, 3);
  const int result = lua_gettop(L);
  lua_pushvalue(L, records);
  Sandbox::from(L)->make_read_only(1);
  lua_setfield(L, result, "components");
  lua_createtable(L, 0, static_cast<int>(layout.zones.size()));
  lua_createtable(L, static_cast<int>(layout.zones.size()), 0);
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    lua_pushinteger(L, static_cast<lua_Integer>(z + 1));
    lua_setfield(L, -3, layout.zones[z].name.c_str());
    lua_pushstring(L, layout.zones[z].name.c_str());
    lua_rawseti(L, -2, static_cast<lua_Integer>(z + 1));
  }
  lua_setfield(L, result, "zone_names");
  lua_pushvalue(L, -1);
  impl.zone_names_ref = luaL_ref(L, LUA_REGISTRYINDEX);  // the game methods' upvalue
  lua_setfield(L, result, "zones");
  lua_pushvalue(L, groups);
  lua_setfield(L, result, "groups");
  lua_pushvalue(L, maps);
  lua_setfield(L, result, "maps");
  lua_createtable(L, 0, static_cast<int>(layout.boards.size()));  // boards: name -> number
  for (std::size_t b = 0; b < layout.boards.size(); ++b) {
    lua_pushinteger(L, static_cast<lua_Integer>(b + 1));
    lua_setfield(L, -2, layout.boards[b].name.c_str());
  }
  Sandbox::from(L)->make_read_only(1);
  lua_setfield(L, result, "boards");
  lua_createtable(L, 0, static_cast<int>(layout.phase_names.size()));  // phases: name -> number
  for (const auto& [name, number] : layout.phase_names) {  // a range's name: its first number
    if (lua_getfield(L, -1, name.c_str()) == LUA_TNIL) {
      lua_pushinteger(L, number);
      lua_setfield(L, -3, name.c_str());
    }
    lua_pop(L, 1);
  }
  Sandbox::from(L)->make_read_only(1);
  lua_setfield(L, result, "phases");
  Sandbox::from(L)->make_read_only(2);
  // Also houserules.components, .zones and .zone_names, for variant scripts and modules.
  lua_rawgeti(L, LUA_REGISTRYINDEX, impl.api_ref);
  for (const char* field : {"components", "zones", "zone_names", "groups", "maps", "boards", "phases"}) {
    lua_getfield(L, -2, field);
    lua_setfield(L, -2, field);
  }
  lua_pop(L, 1);
  return 1;
}

}  // namespace hr::bindings
