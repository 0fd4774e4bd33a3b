// ruleset.cpp — finding rulesets on the search path and reading ruleset.toml.
#include "ruleset.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "sandbox.hpp"
#include "scripted_rules.hpp"
#include "toml_util.hpp"

namespace hr {

toml::table parse_toml_file(const std::filesystem::path& file) {
  if (!std::filesystem::is_regular_file(file)) throw LoadError(Sandbox::display_path(file) + ": cannot open the file");
  try {
    return toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    const auto& begin = e.source().begin;
    throw LoadError(Sandbox::display_path(file) + ":" + std::to_string(begin.line) + ":" + std::to_string(begin.column) +
                    ": " + std::string(e.description()));
  }
}

std::string where(const std::filesystem::path& file, const toml::node& node) {
  const auto& begin = node.source().begin;
  std::string out = Sandbox::display_path(file);
  if (begin.line) out += ":" + std::to_string(begin.line);
  return out;
}

std::vector<std::filesystem::path> ruleset_search_path() {
  std::vector<std::filesystem::path> path;
  if (const char* extra = std::getenv("HOUSERULES_PATH")) {
    std::string list = extra;
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(':', start), list.size());
      if (end > start) path.emplace_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  path.emplace_back(HOUSERULES_RULESETS_DIR);
  return path;
}

RulesetInfo read_ruleset_info(const std::filesystem::path& dir) {
  const auto file = dir / "ruleset.toml";
  const toml::table doc = parse_toml_file(file);
  RulesetInfo info;
  info.dir = std::filesystem::absolute(dir).lexically_normal();
  auto text = [&](const char* key, bool required) -> std::string {
    const toml::node* node = doc.get(key);
    if (!node) {
      if (required) throw LoadError(Sandbox::display_path(file) + ": the key '" + key + "' is missing");
      return {};
    }
    if (!node->is_string()) throw LoadError(where(file, *node) + ": '" + key + "' must be a string");
    return **node->as_string();
  };
  info.id = text("id", true);
  info.name = text("name", true);
  info.summary = text("summary", false);
  std::string script = text("script", false);
  if (script.empty()) script = "rules.lua";
  info.entry = info.dir / script;
  if (const toml::node* players = doc.get("players")) {
    const toml::table* t = players->as_table();
    if (!t) throw LoadError(where(file, *players) + ": 'players' must be a table {min, max, default}");
    auto number = [&](const char* key, int fallback) {
      const toml::node* n = t->get(key);
      if (!n) return fallback;
      if (!n->is_integer()) throw LoadError(where(file, *n) + ": 'players." + key + "' must be an integer");
      return static_cast<int>(**n->as_integer());
    };
    info.min_players = number("min", 2);
    info.max_players = number("max", info.min_players);
    info.default_players = number("default", info.min_players);
    if (info.min_players < 1 || info.max_players < info.min_players || info.max_players > kMaxSeats ||
        info.default_players < info.min_players || info.default_players > info.max_players)
      throw LoadError(where(file, *players) + ": players must satisfy 1 <= min <= default <= max <= " +
                      std::to_string(kMaxSeats));
  }
  return info;
}

std::vector<RulesetInfo> list_rulesets() {
  std::map<std::string, RulesetInfo> found;
  for (const auto& root : ruleset_search_path()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) continue;
    std::vector<std::filesystem::path> dirs;
    for (const auto& entry : std::filesystem::directory_iterator(root, ec))
      if (entry.is_directory() && std::filesystem::is_regular_file(entry.path() / "ruleset.toml")) dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    for (const auto& dir : dirs) {
      RulesetInfo info = read_ruleset_info(dir);
      found.emplace(info.id, std::move(info));  // the first root that has an id wins
    }
  }
  std::vector<RulesetInfo> out;
  for (auto& [id, info] : found) out.push_back(std::move(info));
  return out;
}

RulesetInfo find_ruleset(const std::string& id_or_path) {
  std::filesystem::path path(id_or_path);
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec) && path.filename() == "ruleset.toml") return read_ruleset_info(path.parent_path());
  if (std::filesystem::is_directory(path, ec) && std::filesystem::is_regular_file(path / "ruleset.toml"))
    return read_ruleset_info(path);
  const bool looks_like_path = id_or_path.find('/') != std::string::npos || id_or_path.starts_with('.');
  if (!looks_like_path)
    for (const auto& root : ruleset_search_path()) {
      const auto dir = root / id_or_path;
      if (std::filesystem::is_regular_file(dir / "ruleset.toml", ec)) {
        RulesetInfo info = read_ruleset_info(dir);
        if (info.id == id_or_path) return info;
      }
      // folder names normally equal ids; fall back to scanning this root
      if (std::filesystem::is_directory(root, ec))
        for (const auto& entry : std::filesystem::directory_iterator(root, ec))
          if (std::filesystem::is_regular_file(entry.path() / "ruleset.toml")) {
            RulesetInfo info = read_ruleset_info(entry.path());
            if (info.id == id_or_path) return info;
          }
    }
  std::string known;
  for (const auto& info : list_rulesets()) known += (known.empty() ? "" : ", ") + info.id;
  throw LoadError("no ruleset '" + id_or_path + "' (" +
                  (looks_like_path ? std::string("no ruleset.toml there") : "known rulesets: " + known) +
                  "; HOUSERULES_PATH adds folders to search)");
}

std::unique_ptr<ScriptedRules> load_rules(const std::string& id_or_path, const LoadOptions& options) {
  return std::make_unique<ScriptedRules>(find_ruleset(id_or_path), options);
}

}  // namespace hr
