// scenario_file.cpp — reads the [[scenario]] tables of a scenario file (format in scenario.hpp) into the
// Scenario records of scenario_file.hpp, refusing unknown keys and wrong types with the line they are on.
#include "scenario_file.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "input_line.hpp"

namespace hr::scenario_detail {

/// `text` in quotes, cut at 200 bytes with "…" (a fuzzed file may hold a 100 KB string).
std::string in_quotes(std::string_view text) { return "'" + cut_for_message(text) + "'"; }

/// Folds a multi-line message (a Lua traceback) onto one line.
std::string one_line(std::string_view text) {
  std::string out;
  bool newline = false;
  for (char ch : text) {
    if (ch == '\n' || ch == '\r') {
      newline = true;
      continue;
    }
    if (newline && (ch == ' ' || ch == '\t')) continue;
    if (newline && !out.empty()) out += " | ";
    newline = false;
    out += ch;
  }
  return out;
}


namespace {

std::string type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    default:
      return "nothing";
  }
}

[[noreturn]] void wrong_type(const toml::node& node, std::string_view what, std::string_view expected) {
  throw ScenarioError(line_of(node),
                      std::string(what) + " must be " + std::string(expected) + ", not " + type_name(node));
}


}  // namespace

/// Throws naming the first key of `table` that is not in `allowed`.
void check_keys(const toml::table& table, std::initializer_list<std::string_view> allowed, std::string_view where) {
  for (auto&& [key, node] : table) {
    if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    throw ScenarioError(line_of(key), "unknown key " + in_quotes(key.str()) + " in " + std::string(where) +
                                          " (known keys: " + list + ")");
  }
}

std::string get_string(const toml::node& node, std::string_view what) {
  if (auto s = node.value_exact<std::string>()) return *s;
  wrong_type(node, what, "a string");
}

std::int64_t get_int(const toml::node& node, std::string_view what) {
  if (auto i = node.value_exact<std::int64_t>()) return *i;
  wrong_type(node, what, "an integer");
}

namespace {


bool get_bool(const toml::node& node, std::string_view what) {
  if (auto b = node.value_exact<bool>()) return *b;
  wrong_type(node, what, "true or false");
}

const toml::table& get_table(const toml::node& node, std::string_view what) {
  if (const auto* t = node.as_table()) return *t;
  wrong_type(node, what, "a table");
}

std::vector<Located<std::string>> get_strings(const toml::node& node, std::string_view what) {
  const auto* array = node.as_array();
  if (!array) wrong_type(node, what, "an array of strings");
  std::vector<Located<std::string>> out;
  for (const toml::node& item : *array)
    out.push_back({get_string(item, std::string(what) + " entries"), line_of(item)});
  return out;
}

/// An array of action texts: each through normalize_input_line, as a person's typed line would be.
std::vector<Located<std::string>> get_action_texts(const toml::node& node, std::string_view what) {
  std::vector<Located<std::string>> out = get_strings(node, what);
  for (auto& text : out) {
    InputLine line = normalize_input_line(text.value);
    if (!line) throw ScenarioError(text.line, std::string(what) + " entry " + in_quotes(text.value) + ": " + line.error);
    text.value = std::move(line.text);
  }
  return out;
}

std::vector<std::int64_t> get_ints(const toml::node& node, std::string_view what) {
  const auto* array = node.as_array();
  if (!array) wrong_type(node, what, "an array of integers");
  std::vector<std::int64_t> out;
  for (const toml::node& item : *array) out.push_back(get_int(item, std::string(what) + " entries"));
  return out;
}

/// The entries of `table` in the order they appear in the file (toml++ keeps tables sorted by key).
std::vector<std::pair<const toml::key*, const toml::node*>> in_file_order(const toml::table& table) {
  std::vector<std::pair<const toml::key*, const toml::node*>> out;
  for (auto&& [key, node] : table) out.emplace_back(&key, &node);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    const auto& pa = a.first->source().begin;
    const auto& pb = b.first->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  return out;
}

}  // namespace

std::string join_names(const Layout& layout, std::span<const ComponentId> cards) {
  std::string text = "[";
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (i) text += ", ";
    text += cards[i] < layout.components.size() ? layout.components[cards[i]].name : std::string("?");
  }
  return text + "]";
}

namespace {

std::vector<ZoneContents> read_zones(const toml::node& node, std::string_view what) {
  std::vector<ZoneContents> out;
  for (auto [key, value] : in_file_order(get_table(node, what)))
    out.push_back({std::string(key->str()), get_strings(*value, std::string(what) + "." + std::string(key->str())),
                   line_of(*key)});
  return out;
}

/// phase = "draw" (a declared name) or 2 (a number)
PhaseSpec read_phase(const toml::node& node, std::string_view what) {
  if (auto name = node.value_exact<std::string>()) {
    if (name->empty()) throw ScenarioError(line_of(node), std::string(what) + " must not be empty");
    return {*name, 0, line_of(node)};
  }
  if (auto number = node.value_exact<std::int64_t>()) return {"", *number, line_of(node)};
  wrong_type(node, what, "a phase name (a string) or a phase number");
}

/// sees = { "<seat>" = { "<zone>" = ["Y7", "?", ...] } }
std::vector<SeatView> read_sees(const toml::node& node, std::string_view what) {
  std::vector<SeatView> out;
  for (auto [key, value] : in_file_order(get_table(node, what))) {
    const std::string seat(key->str());
    out.push_back({seat, line_of(*key), read_zones(*value, std::string(what) + "." + seat)});
  }
  return out;
}

/// counters = { name = [per seat...] or supply value }
std::vector<CounterValues> read_counters(const toml::node& node, std::string_view what) {
  std::vector<CounterValues> out;
  for (auto [key, value] : in_file_order(get_table(node, what))) {
    const std::string name(key->str());
    CounterValues cv{name, {}, value->is_integer(), line_of(*key)};
    if (cv.supply) cv.values.push_back(get_int(*value, std::string(what) + "." + name));
    else if (value->is_array()) cv.values = get_ints(*value, std::string(what) + "." + name);
    else wrong_type(*value, std::string(what) + "." + name, "an array (one value per seat) or an integer (the supply)");
    out.push_back(std::move(cv));
  }
  return out;
}

/// figures = { "<kind>.<owner>" = ["<track> <space>" or "off", ...] }
std::vector<FigurePlaces> read_figures(const toml::node& node, std::string_view what) {
  std::vector<FigurePlaces> out;
  for (auto [key, value] : in_file_order(get_table(node, what))) {
    FigurePlaces fp{std::string(key->str()), std::string(key->str()), 0, {}, line_of(*key)};
    if (const auto dot = fp.key.rfind('.'); dot != std::string::npos && dot + 1 < fp.key.size() &&
                                            fp.key.find_first_not_of("0123456789", dot + 1) == std::string::npos) {
      fp.kind = fp.key.substr(0, dot);
      const std::string digits = fp.key.substr(dot + 1);  // longer than a seat number: -1, refused by the runner
      fp.owner = digits.size() > 3 ? -1 : std::stoi(digits);
    }
    fp.places = value->is_string() ? std::vector<Located<std::string>>{{get_string(*value, ""), line_of(*value)}}
                                   : get_strings(*value, std::string(what) + "." + fp.key);
    out.push_back(std::move(fp));
  }
  return out;
}

/// tiles = { "<track>" = { <space> = "<tile name>", ... } }
std::vector<TrackTiles> read_tiles(const toml::node& node, std::string_view what) {
  std::vector<TrackTiles> out;
  for (auto [key, value] : in_file_order(get_table(node, what))) {
    TrackTiles tt{std::string(key->str()), {}, line_of(*key)};
    const std::string where = std::string(what) + "." + tt.track;
    for (auto [space, tile] : in_file_order(get_table(*value, where))) {
      const std::string text(space->str());
      if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != std::string::npos)
        throw ScenarioError(line_of(*space), where + ": " + in_quotes(text) + " is not a space number");
      tt.tiles.push_back({std::stoll(text), {get_string(*tile, where + "." + text), line_of(*tile)}});
    }
    out.push_back(std::move(tt));
  }
  return out;
}

/// board = { <name> = { tiles =, lying =, face_down =, marks =, figures = [, free =] } } (see scenario.hpp)
std::vector<BoardContents> read_boards(const toml::node& node, std::string_view what, bool expect) {
  std::vector<BoardContents> out;
  for (auto [key, value] : in_file_order(get_table(node, what))) {
    BoardContents b;
    b.board = std::string(key->str());
    b.line = line_of(*key);
    const std::string where = std::string(what) + "." + b.board;
    const toml::table& table = get_table(*value, where);
    if (expect) check_keys(table, {"tiles", "lying", "marks", "figures", "free"}, "[" + where + "]");
    else check_keys(table, {"tiles", "lying", "face_down", "marks", "figures"}, "[" + where + "]");
    for (auto [k, v] : in_file_order(table)) {
      const std::string name(k->str());
      const std::string here = where + "." + name;
      if (name == "tiles") {
        for (auto [placement, tile] : in_file_order(get_table(*v, here)))
          b.tiles.push_back({{std::string(placement->str()), line_of(*placement)},
                             {get_string(*tile, here + "." + std::string(placement->str())), line_of(*tile)}});
      } else if (name == "lying" || name == "face_down") {
        for (auto [site, names] : in_file_order(get_table(*v, here)))
          b.lying.push_back({{std::string(site->str()), line_of(*site)},
                             names->is_string() ? std::vector<Located<std::string>>{{get_string(*names, ""), line_of(*names)}}
                                                : get_strings(*names, here + "." + std::string(site->str())),
                             name == "face_down"});
      } else if (name == "marks") {
        for (auto [mark, sites] : in_file_order(get_table(*v, here)))
          for (auto [site, number] : in_file_order(get_table(*sites, here + "." + std::string(mark->str()))))
            b.marks.push_back({std::string(mark->str()), {std::string(site->str()), line_of(*site)},
                               get_int(*number, here + "." + std::string(mark->str()) + "." + std::string(site->str()))});
      } else if (name == "figures") {
        b.figures = read_figures(*v, here);
        for (FigurePlaces& fp : b.figures)
          for (auto& place : fp.places)
            if (place.value != "off") place.value = b.board + " " + place.value;
      } else if (name == "free") {
        b.free = get_strings(*v, here);
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

Expectations read_expectations(const toml::table& table) {
  check_keys(table,
             {"scores", "match_scores", "round_scores", "ranks", "over", "to_move", "phase", "round", "legal", "illegal",
              "legal_actions", "error", "zones", "sizes", "sees", "counters", "figures", "tiles", "board", "heuristic", "describe", "score_breakdown", "turn_summary", "violation"},
             "[scenario.expect]");
  Expectations e;
  for (auto&& [key, node] : table) {
    const std::string k(key.str());
    const std::string what = "expect." + k;
    const int line = line_of(key);
    if (k == "scores")
      e.scores = {{get_ints(node, what)}, line};
    else if (k == "match_scores")
      e.match_scores = {{get_ints(node, what)}, line};
    else if (k == "ranks")
      e.ranks = {{get_ints(node, what)}, line};
    else if (k == "over")
      e.over = {{get_bool(node, what)}, line};
    else if (k == "to_move")
      e.to_move = {{get_int(node, what)}, line};
    else if (k == "round")
      e.round = {{get_int(node, what)}, line};
    else if (k == "phase")
      e.phase = read_phase(node, what);
    else if (k == "sees")
      e.sees = read_sees(node, what);
    else if (k == "legal")
      e.legal = get_action_texts(node, what);
    else if (k == "illegal")
      e.illegal = get_action_texts(node, what);
    else if (k == "legal_actions") {
      std::vector<std::string> texts;
      for (auto& text : get_action_texts(node, what)) texts.push_back(std::move(text.value));
      e.legal_actions = {{std::move(texts)}, line};
    }
    else if (k == "error")
      e.error = {{get_string(node, what)}, line};
    else if (k == "zones")
      e.zones = read_zones(node, what);
    else if (k == "counters")
      e.counters = read_counters(node, what);
    else if (k == "figures")
      e.figures = read_figures(node, what);
    else if (k == "tiles")
      e.tiles = read_tiles(node, what);
    else if (k == "board")
      e.boards = read_boards(node, what, true);
    else if (k == "heuristic") {
      for (auto [seat, value] : in_file_order(get_table(node, what))) {
        const std::string where = what + "." + std::string(seat->str());
        const auto number = value->value<double>();  // an integer or a float
        if (!number || !(value->is_integer() || value->is_floating_point())) wrong_type(*value, where, "a number");
        e.heuristic.push_back({std::string(seat->str()), {*number, line_of(*seat)}});
      }
    } else if (k == "describe" || k == "score_breakdown" || k == "turn_summary") {
      auto& texts = k == "describe" ? e.describe : k == "score_breakdown" ? e.score_breakdown : e.turn_summary;
      for (auto [seat, value] : in_file_order(get_table(node, what))) {
        const std::string where = what + "." + std::string(seat->str());
        texts.push_back({std::string(seat->str()), {get_string(*value, where), line_of(*seat)}});
      }
    } else if (k == "violation") {
      if (const auto b = node.value_exact<bool>()) {
        if (*b) throw ScenarioError(line, "expect.violation = true: write a text the message must contain instead");
        e.violation = {{""}, line};
      } else {
        e.violation = {{get_string(node, what)}, line};
        if (e.violation->value.empty())
          throw ScenarioError(line, "expect.violation must not be empty (write false for \"no invariant broken\")");
      }
    }
    else if (k == "round_scores") {
      const auto* array = node.as_array();
      if (!array) wrong_type(node, what, "an array of arrays of integers");
      Located<std::vector<std::vector<std::int64_t>>> rounds{{}, line};
      for (const toml::node& item : *array) rounds.value.push_back(get_ints(item, what + " entries"));
      e.round_scores = rounds;
    } else if (k == "sizes") {
      for (auto [zone, count] : in_file_order(get_table(node, what)))
        e.sizes.push_back(
            {std::string(zone->str()), {get_int(*count, what + "." + std::string(zone->str())), line_of(*zone)}});
    }
  }
  if (e.error && e.error->value.empty()) throw ScenarioError(e.error->line, "expect.error must not be empty");
  return e;
}

}  // namespace

void read_scenario(const toml::table& table, Scenario& s) {
  if (const toml::node* name = table.get("name")) s.name = get_string(*name, "name");
  check_keys(table,
             {"name", "seed", "previous_rounds", "to_move", "phase", "zones", "counters", "figures", "tiles", "board",
              "actions", "expect"},
             "[[scenario]]");
  if (!table.get("name")) throw ScenarioError(s.line, "the scenario has no name");
  if (const toml::node* seed = table.get("seed")) {
    const std::int64_t v = get_int(*seed, "seed");
    if (v < 0) throw ScenarioError(line_of(*seed), "seed must not be negative");
    s.seed = static_cast<std::uint64_t>(v);
  }
  if (const toml::node* to_move = table.get("to_move")) s.to_move = {{get_int(*to_move, "to_move")}, line_of(*to_move)};
  if (const toml::node* phase = table.get("phase")) s.phase = read_phase(*phase, "phase");
  if (const toml::node* rounds = table.get("previous_rounds")) {
    const auto* array = rounds->as_array();
    if (!array) wrong_type(*rounds, "previous_rounds", "an array of arrays of integers");
    s.previous_rounds.line = line_of(*rounds);
    for (const toml::node& item : *array) s.previous_rounds.value.push_back(get_ints(item, "previous_rounds entries"));
  }
  if (const toml::node* zones = table.get("zones")) s.zones = read_zones(*zones, "zones");
  if (const toml::node* counters = table.get("counters")) s.counters = read_counters(*counters, "counters");
  if (const toml::node* figures = table.get("figures")) s.figures = read_figures(*figures, "figures");
  if (const toml::node* tiles = table.get("tiles")) s.tiles = read_tiles(*tiles, "tiles");
  if (const toml::node* boards = table.get("board")) s.boards = read_boards(*boards, "board", false);
  if (const toml::node* actions = table.get("actions")) s.actions = get_action_texts(*actions, "actions");
  if (const toml::node* expect = table.get("expect")) s.expect = read_expectations(get_table(*expect, "expect"));
  if (s.expect.error && s.actions.empty())
    throw ScenarioError(s.expect.error->line, "expect.error needs at least one action (the last one must fail)");
}


}  // namespace hr::scenario_detail
