// cmd_rulesets.cpp — `houserules list`, `describe` and `new`: what rulesets and variants exist, what a
// variant's effective rules are, and a scaffold for a new house rule.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "input_line.hpp"
#include "rule_docs.hpp"
#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"
#include "toml_util.hpp"

namespace hr {

namespace {

namespace fs = std::filesystem;

std::string players_text(const RulesetInfo& info) {
  return info.min_players == info.max_players ? std::to_string(info.min_players)
                                              : fmt::format("{}-{}", info.min_players, info.max_players);
}

using nlohmann::json;

json players_json(const RulesetInfo& info) {
  return {{"min", info.min_players}, {"max", info.max_players}, {"default", info.default_players}};
}

/// `houserules list --json` (docs/cli.md): every ruleset with its variants, and the folders skipped.
json list_json(const std::vector<RulesetInfo>& rulesets, const std::vector<std::string>& problems) {
  json out = {{"rulesets", json::array()}, {"skipped", problems}, {"search_path", json::array()}};
  for (const auto& dir : ruleset_search_path()) out["search_path"].push_back(dir.string());
  for (const auto& info : rulesets) {
    json entry = {{"id", info.id},         {"name", info.name}, {"summary", info.summary},
                  {"players", players_json(info)}, {"dir", info.dir.string()}, {"variants", json::array()}};
    for (const auto& v : list_variants(info)) {
      json variant = {{"id", info.id + "/" + v.id}, {"name", v.name}, {"description", v.description},
                      {"file", v.file.string()}, {"players", players_json(info)}};
      try {
        variant["players"] = players_json(find_ruleset(info.id + "/" + v.id));
      } catch (const std::exception&) {
      }
      entry["variants"].push_back(std::move(variant));
    }
    out["rulesets"].push_back(std::move(entry));
  }
  return out;
}

int list_command(bool as_json) {
  try {
    std::vector<std::string> problems;
    const auto rulesets = list_rulesets(&problems);
    for (const auto& problem : problems) std::cerr << "warning: skipped a ruleset that does not load: " << problem << '\n';
    if (as_json) {
      std::cout << list_json(rulesets, problems).dump(2) << '\n';
      return 0;
    }
    if (rulesets.empty()) {
      std::cout << "No rulesets found. Searched:";
      for (const auto& dir : ruleset_search_path()) std::cout << ' ' << dir.string();
      std::cout << '\n';
      return 0;
    }
    // The rows first, then the columns as wide as their longest entry (a long variant id such as
    // lost-cities-board/ascending-descending must not push its row's columns out of line).
    struct Row {
      std::string id, name, players, summary;
    };
    std::vector<Row> rows;
    for (const auto& info : rulesets) {
      rows.push_back({printable(info.id), printable(info.name), players_text(info), printable(info.summary)});
      for (const auto& v : list_variants(info)) {
        std::string players = players_text(info);
        try {
          players = players_text(find_ruleset(info.id + "/" + v.id));
        } catch (const std::exception&) {
        }
        rows.push_back({"  " + printable(info.id + "/" + v.id), printable(v.name), players, printable(v.description)});
      }
    }
    std::size_t id_width = 0, name_width = 0;
    for (const auto& r : rows) {
      id_width = std::max(id_width, r.id.size());
      name_width = std::max(name_width, r.name.size());
    }
    for (const auto& r : rows)
      std::cout << fmt::format("{:<{}} {:<{}} {:>3} players  {}\n", r.id, id_width, r.name, name_width, r.players,
                               r.summary);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}

/// The [schema] entry for parameter `name` (the base ruleset's, or the variant's that added it), as text
/// ("1..20: cards dealt ..."), if any.
std::string schema_text(const RulesetInfo& info, const std::string& name) {
  try {
    const toml::table doc = parse_toml_file(info.dir / "ruleset.toml");
    const toml::table* entry = doc["schema"][name].as_table();
    std::optional<toml::table> variant_doc;
    for (auto v = info.variants.begin(); !entry && v != info.variants.end(); ++v) {
      variant_doc = parse_toml_file(v->file);
      entry = (*variant_doc)["schema"][name].as_table();
    }
    if (!entry) return {};
    std::string range;
    if (auto min = (*entry)["min"].value<double>()) range += fmt::format("{}", *min);
    if (entry->contains("min") || entry->contains("max")) range += "..";
    if (auto max = (*entry)["max"].value<double>()) range += fmt::format("{}", *max);
    const std::string meaning = (*entry)["meaning"].value_or(std::string());
    return range.empty() ? meaning : range + (meaning.empty() ? "" : "  " + meaning);
  } catch (const std::exception&) {
    return {};
  }
}

/// What the variants of `info` add to the parent's layout ([zones], [counters], [visibility]), one line each
/// with the file and line, and the phase names the rules declare.
void print_additions(const RulesetInfo& info, const Layout& layout) {
  bool any = false;
  for (const auto& v : info.variants)
    for (const VariantAddition& a : v.additions) {
      if (!any) std::cout << "Added by variants:\n";
      any = true;
      std::string text;
      switch (a.kind) {
        case VariantAddition::Kind::Zone:
          text = fmt::format("zone {}{} ({})", a.name, a.per_seat ? ".<seat>" : "", a.visibility);
          break;
        case VariantAddition::Kind::Counter:
          text = fmt::format("counter {}{} = {}", a.name, a.per_seat ? " (per seat)" : "", a.initial);
          break;
        case VariantAddition::Kind::Visibility:
          text = fmt::format("visibility {} = {}", a.name, a.visibility);
          break;
      }
      std::cout << fmt::format("  {:<40}  {}:{}{}\n", printable(text), Sandbox::display_path(a.file), a.line,
                               a.meaning.empty() ? "" : "  " + printable(a.meaning));
    }
  if (!layout.phase_names.empty()) {
    std::cout << "Phases:";
    const auto& names = layout.phase_names;  // a name over a range (one entry per number): draw=10..15
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0 && names[i].first == names[i - 1].first) continue;
      std::size_t last = i;
      while (last + 1 < names.size() && names[last + 1].first == names[i].first) ++last;
      std::cout << ' ' << printable(names[i].first) << '=' << names[i].second;
      if (last > i) std::cout << ".." << names[last].second;
    }
    std::cout << '\n';
  }
}

/// "file:line" of a parameter's origin, or "--set name=value" for one set on the command line.
std::string origin_text(const ParamOrigin& o) {
  return o.line > 0 ? Sandbox::display_path(o.file) + ":" + std::to_string(o.line) : o.file.string();
}

/// `houserules describe --json` (docs/cli.md).
json describe_json(const RulesetInfo& info, const std::vector<ParamOrigin>& origins, const ScriptedRules& rules) {
  json out = {{"id", info.id}, {"base_id", info.base_id}, {"name", info.name}, {"summary", info.summary},
              {"players", players_json(info)}, {"rules", info.entry.string()}, {"variants", json::array()},
              {"params", json::parse(rules.params_json())}, {"parameters", json::array()},
              {"additions", json::array()}, {"phases", json::object()}, {"hooks", rules.hook_names()},
              {"rule_functions", rules.rule_functions()}, {"overrides", info.overrides},
              {"bots", info.bot_options}};
  if (fs::exists(info.dir / "README.md")) out["readme"] = (info.dir / "README.md").string();
  for (const auto& v : info.variants)
    out["variants"].push_back({{"id", v.id}, {"name", v.name}, {"description", v.description}, {"file", v.file.string()},
                               {"script", v.script.empty() ? json() : json(v.script.string())}});
  for (const auto& o : origins)
    out["parameters"].push_back({{"name", o.path}, {"value", o.value}, {"file", o.file.string()}, {"line", o.line},
                                 {"schema", schema_text(info, o.path)}});
  static const char* const kinds[] = {"zone", "counter", "visibility"};
  for (const auto& v : info.variants)
    for (const VariantAddition& a : v.additions)
      out["additions"].push_back({{"kind", kinds[static_cast<int>(a.kind)]}, {"name", a.name}, {"visibility", a.visibility},
                                  {"per_seat", a.per_seat}, {"initial", a.initial}, {"meaning", a.meaning},
                                  {"file", a.file.string()}, {"line", a.line}, {"variant", v.id}});
  for (const auto& [name, number] : rules.layout().phase_names)  // a range's name: its first number
    if (!out["phases"].contains(name)) out["phases"][name] = number;
  return out;
}

int describe_command(const std::string& spec, const std::vector<std::string>& overrides, bool as_json) {
  try {
    RulesetInfo info = find_ruleset(spec);
    info.overrides = overrides;
    std::vector<ParamOrigin> origins;
    effective_params(info, &origins);
    // Load the scripts too: a syntax error or a failing load is an error here, not at the first `play`.
    const auto rules = std::make_unique<ScriptedRules>(info, LoadOptions{});
    if (as_json) {
      std::cout << describe_json(info, origins, *rules).dump(2) << '\n';
      return 0;
    }
    std::cout << fmt::format("{} ({})\n{}\nPlayers: {}\n", printable(info.name), printable(info.id), printable(info.summary),
                             players_text(info));
    std::cout << "Rules: " << Sandbox::display_path(info.entry);
    if (fs::exists(info.dir / "README.md")) std::cout << ", summary in " << Sandbox::display_path(info.dir / "README.md");
    std::cout << '\n';
    for (const auto& [bot, options] : info.bot_options)  // [bots]: the search settings the ruleset names
      std::cout << fmt::format("Bots: {} starts from {}\n", printable(bot), printable(options));
    if (!info.variants.empty()) {
      std::cout << "Variant chain (innermost first):\n";
      for (const auto& v : info.variants) {
        std::cout << fmt::format("  {} - {}: {}\n", printable(v.id), printable(v.name), printable(v.description));
        std::cout << "    file: " << Sandbox::display_path(v.file);
        if (!v.script.empty()) std::cout << ", script: " << Sandbox::display_path(v.script);
        std::cout << '\n';
      }
    }
    std::cout << "Effective parameters (value, where it was set, range and meaning):\n";
    std::size_t width = 0;
    for (const auto& o : origins) width = std::max(width, o.path.size() + 3 + o.value.size());
    for (const auto& o : origins) {
      const std::string assignment = o.path + " = " + o.value;
      std::cout << fmt::format("  {:<{}}  {}", assignment, width, origin_text(o));
      const std::string schema = schema_text(info, o.path);
      if (!schema.empty()) std::cout << "  [" << schema << "]";
      std::cout << '\n';
    }
    print_additions(info, rules->layout());
    std::cout << "Hooks:";
    for (const auto& hook : rules->hook_names()) std::cout << ' ' << hook;
    std::cout << '\n';
    if (!rules->rule_functions().empty()) {
      std::cout << "Named rules a variant may replace (README, \"For variant authors\"):";
      for (const auto& name : rules->rule_functions()) std::cout << ' ' << printable(name);
      std::cout << '\n';
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}

/// A name for `new`: 1 to 64 letters, digits, - and _ (it becomes file names).
bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_')) return false;
  return true;
}

/// Whether `file` exists. A path the system refuses (a name longer than it allows, a file where a folder should
/// be) is a one-line error naming the path, cut, rather than a raw filesystem_error (issue 18).
bool exists_checked(const fs::path& file) {
  std::error_code ec;
  const bool found = fs::exists(file, ec);
  if (ec) throw std::runtime_error("cannot use '" + cut_for_message(Sandbox::display_path(file)) + "': " + ec.message());
  return found;
}

/// Writes `text` to `file`; refuses to overwrite.
void write_new_file(const fs::path& file, const std::string& text) {
  if (exists_checked(file)) throw std::runtime_error(Sandbox::display_path(file) + " exists already: nothing was written");
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + Sandbox::display_path(file));
  out << text;
}

int new_command(const std::string& name, const std::string& from, const std::string& dir_text) {
  try {
    if (!valid_name(name))
      throw std::runtime_error("'" + cut_for_message(name) + "' is not a name: use 1 to 64 letters, digits, - and _");
    const RulesetInfo parent = find_ruleset(from);
    auto rules = std::make_unique<ScriptedRules>(parent, LoadOptions{});
    // the house rule's own folder, NAME/, in the current folder or in --dir's (as the tutorial shows)
    const fs::path dir = dir_text.empty() ? fs::path(name) : fs::path(dir_text) / name;
    const fs::path toml_file = dir / (name + ".toml");
    const fs::path lua_file = dir / (name + ".lua");
    const fs::path test_file = dir / "tests" / (name + ".toml");
    for (const auto& f : {toml_file, lua_file, test_file})
      if (exists_checked(f)) throw std::runtime_error(Sandbox::display_path(f) + " exists already: nothing was written");
    // extends: the id when the parent was named by id, else a path relative to the new folder
    std::string extends = from;
    if (fs::exists(from)) extends = fs::relative(fs::absolute(from), fs::absolute(dir)).string();
    std::vector<ParamOrigin> origins;
    effective_params(parent, &origins);
    std::string toml = fmt::format(
        "# {name}: a house rule over {parent}. From the folder that holds {name}/, play it with\n"
        "# `houserules play {toml}`, test it with `houserules test {tests}`, see its effective\n"
        "# parameters with `houserules describe {toml}`.\n"
        "extends = \"{extends}\"\n"
        "name = \"{name}\"\n"
        "description = \"What this house rule changes, in one line\"\n"
        "script = \"{name}.lua\"\n"
        "# players = {{ min = {min}, max = {max}, default = {def} }}\n\n"
        "# A variant may also add parameters ([schema.<name>]), counters ([counters.<name>]) and zones\n"
        "# ([zones.<name>]), and change who sees the parent's zones, e.g. (docs/writing-rules.md):\n"
        "# [visibility]\n"
        "# \"hand.*\" = \"public\"\n\n"
        "[params]\n"
        "# Uncomment and change what your rule needs. The parent's values:\n",
        fmt::arg("name", name), fmt::arg("parent", parent.id), fmt::arg("toml", name + "/" + name + ".toml"),
        fmt::arg("tests", name + "/tests"), fmt::arg("extends", extends), fmt::arg("min", parent.min_players),
        fmt::arg("max", parent.max_players), fmt::arg("def", parent.default_players));
    for (const auto& o : origins) {
      if (o.path.find('.') != std::string::npos) continue;  // nested tables: shown by `describe`
      const std::string schema = schema_text(parent, o.path);
      toml += fmt::format("# {} = {}{}\n", o.path, o.value, schema.empty() ? "" : "    # " + schema);
    }
    std::string lua = fmt::format(
        "-- {name}: a house rule over {parent}. This script receives the parent's rules table and returns\n"
        "-- the changed rules. Every hook below calls the parent's: change the ones your rule needs and delete\n"
        "-- the others. Reference: docs/writing-rules.md.\n",
        fmt::arg("name", name), fmt::arg("parent", parent.id));
    // The parent's named rules (extension points): most house rules wrap one of them and no hook.
    const std::vector<RuleDoc> points = rule_docs(parent, rules->rule_functions());
    if (!points.empty()) {
      lua += fmt::format(
          "--\n-- The named rules of {0} (its README, \"For variant authors\"): most house rules replace one\n"
          "-- of these and no hook. Wrap one to keep the parent's rule, e.g.\n"
          "--   local parent_{1} = rules.{1}\n"
          "--   function rules.{1}(...) ... parent_{1}(...) ... end\n--\n",
          parent.id, points.front().name);
      for (const RuleDoc& p : points)
        lua += "--   rules." + p.signature + "\n" + (p.summary.empty() ? "" : "--       " + p.summary + "\n");
    }
    lua += "local rules = ...\nlocal parent = {}\n";
    struct Hook {
      const char* name;
      const char* args;
      const char* doc;
    };
    const Hook hooks[] = {
        {"setup", "game", "once, at the start of a match"},
        {"start_round", "game", "deal and choose who starts each round"},
        {"actions", "game, out, seat, phase",
         "the legal actions of `seat` (to move) in `phase`: fill `out`, return the count (or return a list)"},
        {"apply", "game, action, seat, phase", "apply a legal action of `seat` (to move) in `phase`"},
        {"action_text", "game, action", "the text of an action, e.g. \"play Y7\""},
        {"score", "game, seat", "the seat's score in the current round"},
        {"explain", "game, text", "why `text` is not legal now, in one line"},
        {"describe", "view, seat", "the table as `seat` sees it"},
        {"heuristic", "game, seat", "an estimate of the seat's final score, for bots"},
        {"ranks", "game", "the final places"},
        {"invariants", "game", "nil, or a message naming a broken invariant"},
    };
    for (const Hook& hook : hooks) {
      const auto& names = rules->hook_names();
      if (std::find(names.begin(), names.end(), hook.name) == names.end()) continue;
      lua += fmt::format("\nparent.{0} = rules.{0}\n--- {0}({1}): {2}.\nfunction rules.{0}({1})\n  return parent.{0}({1})\nend\n",
                         hook.name, hook.args, hook.doc);
    }
    lua += "\nreturn rules\n";
    // One scenario that passes as generated: the rule loads, a game starts, and its first legal action.
    GameState state = rules->new_game(1);
    const auto legal = rules->legal_actions(state);
    const std::string first = legal.empty() ? std::string() : rules->action_text(state, legal.front());
    std::string test = fmt::format(
        "# Scenario tests for {name}: run with `houserules test {tests}` (from the folder that holds {name}/).\n"
        "# Format: docs/writing-rules.md, \"Scenario tests\" (expect.legal_actions lists the legal actions' texts).\n"
        "ruleset = \"../{name}.toml\"\n\n"
        "[[scenario]]\n"
        "name = \"a game of {name} starts\"\n"
        "seed = 1\n"
        "[scenario.expect]\n"
        "over = false\n"
        "round = 1\n"
        "to_move = {to_move}\n",
        fmt::arg("name", name), fmt::arg("tests", name + "/tests"), fmt::arg("to_move", state.to_move()));
    if (!first.empty()) test += fmt::format("legal = [\"{}\"]\n", first);
    std::error_code ec;
    fs::create_directories(dir / "tests", ec);
    if (ec) throw std::runtime_error("cannot create '" + cut_for_message(Sandbox::display_path(dir / "tests")) + "': " + ec.message());
    write_new_file(toml_file, toml);
    write_new_file(lua_file, lua);
    write_new_file(test_file, test);
    std::cout << fmt::format("Created {}, {} and {}.\nTry: houserules play {} --players greedy,random\n     houserules test {}\n",
                             toml_file.string(), lua_file.string(), test_file.string(), toml_file.string(),
                             (dir / "tests").string());
    if (!points.empty()) {
      std::cout << fmt::format("The named rules of {} (wrap one in {}; its README, \"For variant authors\"):\n",
                               parent.id, lua_file.string());
      for (const RuleDoc& p : points)
        std::cout << "  " << printable(p.signature) << (p.summary.empty() ? "" : "\n      " + printable(p.summary)) << '\n';
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
}

}  // namespace

void register_ruleset_commands(CLI::App& app, int& status) {
  auto* list = app.add_subcommand("list", "List the rulesets and their variants, one line each");
  list->footer(
      "Examples:\n"
      "  houserules list                                   every ruleset and variant, one line each\n"
      "  HOUSERULES_PATH=~/my-rules houserules list        also the rulesets in ~/my-rules\n"
      "A ruleset folder that cannot be read is reported on stderr and left out; the others are listed.");
  auto list_as_json = std::make_shared<bool>(false);
  add_json_flag(*list, *list_as_json);
  list->callback([&status, list_as_json] { status = list_command(*list_as_json); });

  auto spec = std::make_shared<std::string>();
  auto* describe = app.add_subcommand("describe", "Load a ruleset or variant and show its chain, every effective parameter with the file that set it, what variants add, phases and hooks");
  describe->footer(
      "Examples:\n"
      "  houserules describe lost-cities                      parameters, phases and hooks of a ruleset\n"
      "  houserules describe lost-cities/three-player         a variant: its chain and what it changes\n"
      "  houserules describe ./my-rule/my-rule.toml           a house rule; exits 2 with file:line if its Lua fails to load");
  describe->add_option("ruleset", *spec, "Ruleset id, <id>/<variant>, or path to a ruleset folder or variant file")->required();
  auto describe_sets = std::make_shared<std::vector<std::string>>();
  auto describe_as_json = std::make_shared<bool>(false);
  add_set_option(*describe, *describe_sets);
  add_json_flag(*describe, *describe_as_json);
  describe->callback([&status, spec, describe_sets, describe_as_json] {
    status = describe_command(*spec, *describe_sets, *describe_as_json);
  });

  auto name = std::make_shared<std::string>();
  auto from = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>();
  auto* create = app.add_subcommand("new", "Scaffold a house rule: a variant TOML, a Lua script with every hook calling the parent, a passing scenario test");
  create->footer(
      "Examples:\n"
      "  houserules new short-hands --from lost-cities                 ./short-hands/ over the base game\n"
      "  houserules new open-hands --from lost-cities/three-player --dir rules   rules/open-hands/\n"
      "It lists the parent's named rules (extension points), each with its docstring's first sentence.\n"
      "Then edit the .lua and .toml files it creates, and run the test it prints.");
  create->add_option("name", *name, "Name of the house rule (letters, digits, - and _)")->required();
  create->add_option("--from", *from, "The ruleset or variant it changes (id, <id>/<variant> or path)")->required();
  create->add_option("--dir", *dir, "Folder to create its folder <name>/ in (default: the current folder)");
  create->callback([&status, name, from, dir] { status = new_command(*name, *from, *dir); });
}

}  // namespace hr
