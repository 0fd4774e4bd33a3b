// ruleset.cpp — finding rulesets on the search path and reading ruleset.toml.
#include "ruleset.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "input_line.hpp"
#include "ismcts.hpp"
#include "printable.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"
#include "toml_util.hpp"

namespace hr {

/// The script a ruleset or variant file names, resolved (symbolic links followed) and kept inside that
/// file's folder: `script = "/etc/passwd"` or "../../x.lua" would otherwise be read and compiled (and show
/// a piece of the file in the syntax error). Throws LoadError at `where` otherwise.
static std::filesystem::path confined_script(const std::filesystem::path& folder, const std::string& script,
                                      const std::string& where) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path real_folder = fs::canonical(folder, ec);
  const fs::path real = ec ? fs::path() : fs::canonical(folder / script, ec);
  if (ec || !fs::is_regular_file(real))
    throw LoadError(where + ": script '" + printable(cut_for_message(script)) + "' does not exist");
  const fs::path inside = real.lexically_relative(real_folder);
  if (fs::path(script).is_absolute() || inside.empty() || *inside.begin() == "..")
    throw LoadError(where + ": script '" + printable(cut_for_message(script)) + "' is outside the folder of the file that names it "
                    "(a ruleset's scripts live in its own folder)");
  return real;
}

std::filesystem::path builtin_rulesets_dir() {
  // Resolved once: the binary does not move while it runs, and every lookup of a ruleset comes here.
  static const std::filesystem::path dir = [] {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      const auto installed = (exe.parent_path() / HOUSERULES_INSTALLED_RULESETS).lexically_normal();
      if (std::filesystem::is_directory(installed, ec)) return installed;
    }
    return std::filesystem::path(HOUSERULES_RULESETS_DIR);
  }();
  return dir;
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
  path.push_back(builtin_rulesets_dir());
  return path;
}

/// Reads `players = {min, max, default}` of a ruleset or variant file into `info`; missing keys keep the
/// given values (a variant's default is clamped into its range). Throws LoadError naming the file and line.
void read_players(const toml::table& doc, const std::filesystem::path& file, RulesetInfo& info, int min, int max,
                  int fallback_default) {
  info.min_players = min;
  info.max_players = max;
  info.default_players = fallback_default;
  const toml::node* players = doc.get("players");
  if (!players) return;
  const toml::table* t = players->as_table();
  if (!t) throw LoadError(where(file, *players) + ": 'players' must be a table {min, max, default}");
  auto number = [&](const char* key, int fallback) {
    const toml::node* n = t->get(key);
    if (!n) return fallback;
    if (!n->is_integer()) throw LoadError(where(file, *n) + ": 'players." + key + "' must be an integer");
    return static_cast<int>(**n->as_integer());
  };
  info.min_players = number("min", min);
  info.max_players = number("max", t->contains("min") && !t->contains("max") ? info.min_players : max);
  info.default_players = number("default", std::clamp(fallback_default, info.min_players, info.max_players));
  if (info.min_players < 1 || info.max_players < info.min_players || info.max_players > kMaxSeats ||
      info.default_players < info.min_players || info.default_players > info.max_players)
    throw LoadError(where(file, *players) + ": players must satisfy 1 <= min <= default <= max <= " +
                    std::to_string(kMaxSeats));
}

/// Reads the [bots] table of a ruleset or variant file into info.bot_options: `ismcts = "key=value:..."`, the
/// search options that suit the game (docs/bots.md). An entry replaces the one inherited. Throws LoadError
/// naming the file and line for a table that is not one, a bot that takes no options, or a bad option.
void read_bots(const toml::table& doc, const std::filesystem::path& file, RulesetInfo& info) {
  const toml::node* bots = doc.get("bots");
  if (!bots) return;
  const toml::table* t = bots->as_table();
  if (!t) throw LoadError(where(file, *bots) + ": 'bots' must be a table, e.g. [bots] ismcts = \"expand=random\"");
  for (const auto& [key, node] : *t) {
    if (key.str() != "ismcts")
      throw LoadError(where(file, node) + ": [bots] '" + printable(cut_for_message(key.str())) +
                      "': only ismcts takes options");
    if (!node.is_string()) throw LoadError(where(file, node) + ": [bots] ismcts must be a string of key=value options");
    const std::string options = **node.as_string();
    try {
      (void)IsmctsOptions::parse(options);
    } catch (const std::invalid_argument& e) {
      throw LoadError(where(file, node) + ": [bots] " + e.what());
    }
    info.bot_options[std::string(key.str())] = options;
  }
}

namespace {
/// The check of the innermost ScopedReadCheck on this thread, or nullptr.
thread_local const std::function<void(const std::filesystem::path&)>* t_read_check = nullptr;
}  // namespace

ScopedReadCheck::ScopedReadCheck(const std::function<void(const std::filesystem::path&)>& check)
    : previous_(t_read_check) {
  t_read_check = &check;
}

ScopedReadCheck::~ScopedReadCheck() { t_read_check = previous_; }

/// Passes `file` to the current ScopedReadCheck, if any (which throws to refuse it).
static void check_read(const std::filesystem::path& file) {
  if (t_read_check) (*t_read_check)(file);
}

RulesetInfo read_ruleset_info(const std::filesystem::path& dir) {
  const auto file = dir / "ruleset.toml";
  check_read(file);
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
  info.base_id = info.id;
  info.name = text("name", true);
  info.summary = text("summary", false);
  info.round_word = text("round_word", false);
  if (info.round_word.empty()) info.round_word = "round";
  std::string script = text("script", false);
  if (script.empty()) script = "rules.lua";
  info.entry = confined_script(info.dir, script, doc.get("script") ? where(file, *doc.get("script")) : Sandbox::display_path(file));
  read_players(doc, file, info, 2, 2, 2);
  read_bots(doc, file, info);
  return info;
}

std::vector<RulesetInfo> list_rulesets(std::vector<std::string>* problems) {
  std::map<std::string, RulesetInfo> found;
  for (const auto& root : ruleset_search_path()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) continue;
    std::vector<std::filesystem::path> dirs;
    for (const auto& entry : std::filesystem::directory_iterator(root, ec))
      if (entry.is_directory(ec) && std::filesystem::is_regular_file(entry.path() / "ruleset.toml", ec)) dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    for (const auto& dir : dirs) try {
        RulesetInfo info = read_ruleset_info(dir);
        found.emplace(info.id, std::move(info));  // the first root that has an id wins
      } catch (const std::exception& e) {  // one broken folder does not hide the others
        if (problems) problems->push_back(e.what());
      }
  }
  std::vector<RulesetInfo> out;
  for (auto& [id, info] : found) out.push_back(std::move(info));
  return out;
}

namespace {

namespace fs = std::filesystem;

bool is_path_like(const std::string& spec) {
  return spec.starts_with('.') || spec.starts_with('/') || spec.ends_with(".toml");
}

/// The base ruleset with id `id` on the search path, if any.
std::optional<RulesetInfo> find_base_by_id(const std::string& id) {
  std::error_code ec;
  for (const auto& root : ruleset_search_path()) {
    const auto dir = root / id;
    if (fs::is_regular_file(dir / "ruleset.toml", ec)) {
      RulesetInfo info = read_ruleset_info(dir);
      if (info.id == id) return info;
    }
    if (!fs::is_directory(root, ec)) continue;
    for (const auto& entry : fs::directory_iterator(root, ec))  // folder names normally equal ids
      if (fs::is_regular_file(entry.path() / "ruleset.toml", ec)) {
        std::optional<RulesetInfo> info;
        try {
          info = read_ruleset_info(entry.path());
        } catch (const std::exception&) {  // a broken folder of another name: reported by `list`, skipped here
          continue;
        }
        if (info->id == id) return *info;
      }
  }
  return std::nullopt;
}

RulesetInfo read_base(const fs::path& dir) {
  RulesetInfo info = read_ruleset_info(dir);
  info.base_id = info.id;
  return info;
}

RulesetInfo resolve(const std::string& spec, const fs::path& relative_to, std::vector<fs::path>& visiting);

/// A cycle of variants or a chain longer than kMaxVariantChain: passed up the chain unwrapped.
class VariantChainError : public LoadError {
 public:
  using LoadError::LoadError;
};

/// The stems of the variant files of a ruleset (variants/*.toml), sorted, without reading them.
std::vector<std::string> variant_file_names(const RulesetInfo& base) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(base.dir / "variants", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".toml") out.push_back(it->path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// A name a variant gives a zone or counter: letters, digits and `-_.` (and `*` in a visibility pattern).
bool valid_layout_name(const std::string& name, bool pattern) {
  if (name.empty() || name.size() > 64) return false;
  for (char ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.' || (pattern && ch == '*')))
      return false;
  return true;
}

/// The [zones], [counters] and [visibility] tables of variant `file` (see VariantAddition), checked for keys,
/// types and names, in file order. Throws LoadError "file:line: ...".
std::vector<VariantAddition> read_additions(const toml::table& doc, const fs::path& file) {
  std::vector<VariantAddition> out;
  auto table_of = [&](const char* key) -> const toml::table* {
    const toml::node* node = doc.get(key);
    if (!node) return nullptr;
    if (!node->is_table()) throw LoadError(where(file, *node) + ": [" + key + "] must be a table");
    return node->as_table();
  };
  auto line = [](const toml::node& n) { return static_cast<int>(n.source().begin.line); };
  auto check_name = [&](const toml::key& key, bool pattern, const char* what) {
    const std::string name(key.str());
    if (!valid_layout_name(name, pattern))
      throw LoadError(Sandbox::display_path(file) + ":" + std::to_string(key.source().begin.line) + ": '" +
                      printable(cut_for_message(name)) + "' is not a " + what +
                      " name (letters, digits, '-', '_' and '.'" + (pattern ? ", '*' for any text" : "") + ")");
    return name;
  };
  auto check_visibility = [&](const toml::node& node, const std::string& what) {
    const auto text = node.value_exact<std::string>();
    if (!text) throw LoadError(where(file, node) + ": " + what + " must be a string (hidden, owner, public, top or top-card)");
    try {
      (void)visibility_from_string(*text);
    } catch (const std::exception& e) {
      throw LoadError(where(file, node) + ": " + what + ": " + printable(cut_for_message(e.what())));
    }
    return *text;
  };
  auto check_keys = [&](const toml::table& t, std::initializer_list<std::string_view> known, const std::string& what) {
    for (const auto& [key, node] : t)
      if (std::find(known.begin(), known.end(), key.str()) == known.end()) {
        std::string list;
        for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        throw LoadError(where(file, node) + ": unknown key '" + printable(cut_for_message(key.str())) + "' in " + what +
                        " (expected " + list + ")");
      }
  };
  // [zones.<name>] and [counters.<name>]: a table with `known` keys; fills the shared fields of `a`.
  auto read_entry = [&](VariantAddition& a, const toml::node& node, const std::string& what,
                        std::initializer_list<std::string_view> known) -> const toml::table& {
    const toml::table* t = node.as_table();
    if (!t) throw LoadError(where(file, node) + ": " + what + " must be a table (keys: per_seat, meaning, ...)");
    check_keys(*t, known, "[" + what + "]");
    if (const toml::node* p = t->get("per_seat")) {
      if (!p->is_boolean()) throw LoadError(where(file, *p) + ": " + what + ".per_seat must be true or false");
      a.per_seat = **p->as_boolean();
    }
    if (const toml::node* m = t->get("meaning")) {
      if (!m->is_string()) throw LoadError(where(file, *m) + ": " + what + ".meaning must be a string");
      a.meaning = **m->as_string();
    }
    return *t;
  };
  if (const toml::table* zones = table_of("zones"))
    for (const auto& [key, node] : *zones) {
      VariantAddition a{VariantAddition::Kind::Zone, check_name(key, false, "zone"), "", false, 0, "", file, line(node)};
      const std::string what = "zones." + a.name;
      if (a.name == "box")  // Layout::finalize adds it to every game: a variant's would stand for it
        throw LoadError(where(file, node) + ": a variant cannot add a zone named 'box': the kernel's box (where every "
                        "component not in play lies) has that name");
      const toml::table& t = read_entry(a, node, what, {"visibility", "per_seat", "meaning"});
      const toml::node* v = t.get("visibility");
      if (!v) throw LoadError(where(file, node) + ": " + what + " needs a visibility (hidden, owner, public, top or top-card)");
      a.visibility = check_visibility(*v, what + ".visibility");
      if (a.visibility == "owner" && !a.per_seat)
        throw LoadError(where(file, node) + ": " + what + " is visible to its owner: set per_seat = true (one zone per seat)");
      out.push_back(std::move(a));
    }
  if (const toml::table* counters = table_of("counters"))
    for (const auto& [key, node] : *counters) {
      VariantAddition a{VariantAddition::Kind::Counter, check_name(key, false, "counter"), "", false, 0, "", file, line(node)};
      const std::string what = "counters." + a.name;
      const toml::table& t = read_entry(a, node, what, {"per_seat", "initial", "meaning"});
      if (const toml::node* i = t.get("initial")) {
        if (!i->is_integer()) throw LoadError(where(file, *i) + ": " + what + ".initial must be an integer");
        a.initial = **i->as_integer();
        if (a.initial > ScriptedRules::kMaxCounter || a.initial < -ScriptedRules::kMaxCounter)
          throw LoadError(where(file, *i) + ": " + what + ".initial is " + std::to_string(a.initial) +
                          "; a counter is at most 2^53 in size, as a score");
      }
      out.push_back(std::move(a));
    }
  if (const toml::table* visibility = table_of("visibility"))
    for (const auto& [key, node] : *visibility) {
      VariantAddition a{VariantAddition::Kind::Visibility, check_name(key, true, "zone"), "", false, 0, "", file, line(node)};
      a.visibility = check_visibility(node, "visibility of '" + a.name + "'");
      out.push_back(std::move(a));
    }
  std::stable_sort(out.begin(), out.end(), [](const VariantAddition& x, const VariantAddition& y) { return x.line < y.line; });
  return out;
}

/// Reads a variant file and the chain it extends.
RulesetInfo read_variant(const fs::path& file_in, std::vector<fs::path>& visiting) {
  const fs::path file = fs::weakly_canonical(fs::absolute(file_in));
  if (std::find(visiting.begin(), visiting.end(), file) != visiting.end()) {
    std::string chain;
    for (const auto& f : visiting) chain += Sandbox::display_path(f) + " -> ";
    throw VariantChainError(Sandbox::display_path(file) + ": variants extend each other in a cycle: " + chain +
                    Sandbox::display_path(file));
  }
  if (visiting.size() >= static_cast<std::size_t>(kMaxVariantChain))
    throw VariantChainError(Sandbox::display_path(file) + ": the chain of variants is longer than " +
                            std::to_string(kMaxVariantChain) + " (houserules' limit), starting from " +
                            Sandbox::display_path(visiting.front()));
  visiting.push_back(file);
  check_read(file);
  const toml::table doc = parse_toml_file(file);
  for (const auto& [key, node] : doc) {
    static const std::set<std::string, std::less<>> known{"extends", "id",       "name",     "description", "script",
                                                          "players", "params",   "schema",   "zones",       "counters",
                                                          "visibility", "view",    "bots"};
    if (!known.contains(key.str()))
      throw LoadError(where(file, node) + ": unknown key '" + printable(cut_for_message(key.str())) +
                      "' in a variant (expected extends, id, name, description, script, players, params, schema, zones, "
                      "counters, visibility, view, bots)");
  }
  if (const toml::node* view = doc.get("view"); view && !view->is_table())
    throw LoadError(where(file, *view) + ": 'view' must be a table of drawing hints (docs/serve.md)");
  const toml::node* extends = doc.get("extends");
  if (!extends || !extends->is_string())
    throw LoadError(Sandbox::display_path(file) + ": a variant needs extends = \"<ruleset, variant or path>\"");
  RulesetInfo info;
  try {
    info = resolve(**extends->as_string(), file.parent_path(), visiting);
  } catch (const VariantChainError&) {
    throw;  // already names the files: one line, however long the chain
  } catch (const LoadError& e) {
    throw LoadError(where(file, *extends) + ": cannot resolve extends = \"" + cut_for_message(**extends->as_string()) +
                    "\": " + e.what());
  }
  VariantInfo variant;
  variant.file = file;
  auto text = [&](const char* key) -> std::string {
    const toml::node* node = doc.get(key);
    if (!node) return {};
    if (!node->is_string()) throw LoadError(where(file, *node) + ": '" + key + "' must be a string");
    return **node->as_string();
  };
  variant.id = text("id");
  if (variant.id.empty()) variant.id = file.stem().string();
  variant.name = text("name");
  if (variant.name.empty()) variant.name = variant.id;
  variant.description = text("description");
  const std::string script = text("script");
  if (!script.empty()) {
    variant.script = confined_script(file.parent_path(), script, where(file, *doc.get("script")));
  }
  variant.additions = read_additions(doc, file);
  read_players(doc, file, info, info.min_players, info.max_players, info.default_players);
  read_bots(doc, file, info);
  const bool builtin_variant = file.parent_path() == fs::weakly_canonical(info.dir / "variants");
  info.id = builtin_variant && info.variants.empty() ? info.base_id + "/" + variant.id : variant.id;
  info.name = info.name + " - " + variant.name;
  if (!variant.description.empty()) info.summary = variant.description;
  info.variants.push_back(std::move(variant));
  visiting.pop_back();
  return info;
}

RulesetInfo resolve(const std::string& spec, const fs::path& relative_to, std::vector<fs::path>& visiting) {
  std::error_code ec;
  fs::path path(spec);
  if (path.is_relative() && !relative_to.empty() && is_path_like(spec)) path = relative_to / path;
  if (fs::is_regular_file(path, ec)) {
    if (path.filename() == "ruleset.toml") return read_base(path.parent_path());
    if (path.extension() == ".toml") return read_variant(path, visiting);
  }
  if (fs::is_directory(path, ec) && fs::is_regular_file(path / "ruleset.toml", ec)) return read_base(path);
  // "<ruleset>/<variant>": a variant file in the ruleset's variants/ folder
  if (const auto slash = spec.rfind('/'); slash != std::string::npos && slash + 1 < spec.size()) {
    const std::string head = spec.substr(0, slash);
    const std::string tail = spec.substr(slash + 1);
    std::optional<RulesetInfo> base;
    fs::path head_path(head);
    if (head_path.is_relative() && !relative_to.empty() && is_path_like(head)) head_path = relative_to / head_path;
    if (fs::is_regular_file(head_path / "ruleset.toml", ec)) base = read_base(head_path);
    else if (!is_path_like(head)) base = find_base_by_id(head);
    if (base) {
      const fs::path file = base->dir / "variants" / (tail + ".toml");
      if (fs::is_regular_file(file, ec)) return read_variant(file, visiting);
      // The names of the variant files only: reading them (list_variants) would resolve their parents, and a
      // variant extending "../.." comes back here, recursing until the stack overflows (issue 18).
      std::string known;
      for (const auto& v : variant_file_names(*base)) known += (known.empty() ? "" : ", ") + v;
      throw LoadError("ruleset '" + base->id + "' has no variant '" + cut_for_message(tail) + "' (" +
                      (known.empty() ? std::string("it has no variants") : "its variants: " + known) + ")");
    }
  }
  if (!is_path_like(spec))
    if (auto base = find_base_by_id(spec)) return *base;
  std::string known;
  for (const auto& info : list_rulesets()) known += (known.empty() ? "" : ", ") + info.id;
  throw LoadError("no ruleset '" + cut_for_message(spec) + "' (" +
                  (is_path_like(spec) ? std::string("no ruleset.toml or variant file there") : "known rulesets: " + known) +
                  "; HOUSERULES_PATH adds folders to search)");
}

std::string type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "a list";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date or time";
  }
}

std::string toml_text(const toml::node& node) {
  std::ostringstream out;
  node.visit([&](const auto& value) { out << value; });
  return out.str();
}

/// Records where parameter `origin.path` was set, in place when it was set before (order is kept).
void set_origin(std::vector<ParamOrigin>& origins, ParamOrigin origin) {
  for (auto& o : origins)
    if (o.path == origin.path) {
      o = std::move(origin);
      return;
    }
  origins.push_back(std::move(origin));
}

void record_origins(const toml::table& table, const std::string& prefix, const fs::path& file,
                    std::vector<ParamOrigin>& origins) {
  for (const auto& [key, node] : table) {
    const std::string path = prefix + std::string(key.str());
    if (const toml::table* t = node.as_table()) {
      record_origins(*t, path + ".", file, origins);
      continue;
    }
    set_origin(origins, {path, toml_text(node), file, static_cast<int>(node.source().begin.line)});
  }
}

/// Deep-merges `overrides` (from `file`) into `params`; every key must exist there with the same type.
/// A top-level parameter the file's own [schema] describes may be new (`added`: the variant adds it).
void merge_params(toml::table& params, const toml::table& overrides, const std::string& prefix, const fs::path& file,
                  std::vector<ParamOrigin>& origins, const toml::table* added = nullptr) {
  for (const auto& [key, node] : overrides) {
    const std::string path = prefix + std::string(key.str());
    toml::node* current = params.get(key.str());
    if (!current && added && added->contains(key.str())) {  // a new parameter, described by this variant's schema
      params.insert_or_assign(key.str(), node);
      if (const toml::table* t = node.as_table()) record_origins(*t, path + ".", file, origins);
      else set_origin(origins, {path, toml_text(node), file, static_cast<int>(node.source().begin.line)});
      continue;
    }
    if (!current) {
      std::string known;
      for (const auto& [k, v] : params) known += (known.empty() ? "" : ", ") + std::string(k.str());
      throw LoadError(where(file, node) + ": unknown parameter '" + printable(cut_for_message(path)) + "' (the parameters" +
                      (prefix.empty() ? "" : " of '" + prefix.substr(0, prefix.size() - 1) + "'") + " are: " + known +
                      (prefix.empty() ? "; a variant adds a parameter by describing it in [schema." +
                                            printable(cut_for_message(path)) + "] with its meaning"
                                      : "") +
                      ")");
    }
    if (current->is_table() && node.is_table()) {
      merge_params(*current->as_table(), *node.as_table(), path + ".", file, origins);
      continue;
    }
    const bool number_for_float = current->is_floating_point() && node.is_integer();
    if (current->type() != node.type() && !number_for_float)
      throw LoadError(where(file, node) + ": parameter '" + path + "' must be " + type_name(*current) + ", not " +
                      type_name(node));
    if (number_for_float) params.insert_or_assign(key.str(), static_cast<double>(**node.as_integer()));
    else params.insert_or_assign(key.str(), node);
    if (const toml::table* t = node.as_table()) record_origins(*t, path + ".", file, origins);
    else set_origin(origins, {path, toml_text(node), file, static_cast<int>(node.source().begin.line)});
  }
}

/// Applies one `--set name=value` (RulesetInfo::overrides) to `params`: the parameter must exist (a dotted name
/// reaches into a table) and keep its type. Throws LoadError starting "--set <text>: ".
void apply_override(toml::table& params, const std::string& text, std::vector<ParamOrigin>& origins) {
  const std::string shown = "--set " + printable(cut_for_message(text));
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw LoadError(shown + ": give name=value, e.g. --set hand_size=6 (`houserules describe` lists the parameters)");
  const std::string name = text.substr(0, equals), value_text = text.substr(equals + 1);
  toml::table* table = &params;
  std::string prefix;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = name.find('.', start);
    const std::string key = name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    toml::node* current = table->get(key);
    if (!current) {
      std::string known;
      for (const auto& [k, v] : *table) known += (known.empty() ? "" : ", ") + std::string(k.str());
      throw LoadError(shown + ": unknown parameter '" + printable(cut_for_message(prefix + key)) + "' (the parameters" +
                      (prefix.empty() ? "" : " of '" + prefix.substr(0, prefix.size() - 1) + "'") + " are: " + known + ")");
    }
    if (dot == std::string::npos) {
      toml::table parsed;
      try {
        parsed = toml::parse("value = " + value_text);
      } catch (const toml::parse_error&) {  // a bare word: a string
        parsed.insert_or_assign("value", value_text);
      }
      toml::node& value = *parsed.get("value");
      if (current->is_string() && !value.is_string()) parsed.insert_or_assign("value", value_text);
      toml::node& given = *parsed.get("value");
      const bool number_for_float = current->is_floating_point() && given.is_integer();
      if (current->type() != given.type() && !number_for_float)
        throw LoadError(shown + ": parameter '" + name + "' must be " + type_name(*current) + ", not " + type_name(given));
      if (number_for_float) table->insert_or_assign(key, static_cast<double>(**given.as_integer()));
      else table->insert_or_assign(key, given);
      set_origin(origins, {name, toml_text(*table->get(key)), fs::path(shown), 0});
      return;
    }
    if (!current->is_table())
      throw LoadError(shown + ": parameter '" + prefix + key + "' is " + type_name(*current) + ", not a table");
    table = current->as_table();
    prefix += key + ".";
    start = dot + 1;
  }
}

/// Where parameter origin `o` was set, for messages: "file:line", or "--set name=value".
std::string origin_where(const ParamOrigin& o) {
  return o.line > 0 ? Sandbox::display_path(o.file) + ":" + std::to_string(o.line) : o.file.string();
}

const ParamOrigin* origin_of(const std::vector<ParamOrigin>& origins, const std::string& path) {
  for (const auto& o : origins)
    if (o.path == path) return &o;
  return nullptr;
}

/// The list and table rules of one [schema] entry (see check_schema) for parameter `name` = `value`, set at `at`.
void check_entries(const toml::table& params, const std::string& name, const toml::node& value, const toml::table& rule,
                   const fs::path& schema_file, const std::string& at_param, int seats,
                   const std::vector<ParamOrigin>& origins) {
  const std::string& at = at_param;
  auto number = [](const toml::node& n) -> std::optional<double> {
    if (n.is_integer()) return static_cast<double>(**n.as_integer());
    if (n.is_floating_point()) return **n.as_floating_point();
    return std::nullopt;
  };
  const bool any = rule.contains("min_items") || rule.contains("max_items") || rule.contains("items") ||
                   rule.contains("entries_in") || rule.contains("per_seat") || rule.contains("per_value");
  if (!any) return;
  if (!value.is_array() && !value.is_table())
    throw LoadError(at + ": parameter '" + name + "' must be a list or a table, not " + type_name(value));
  const std::size_t count = value.is_array() ? value.as_array()->size() : value.as_table()->size();
  const std::string entries = std::to_string(count) + (count == 1 ? " entry" : " entries");
  if (const toml::node* min = rule.get("min_items"); min && number(*min) && static_cast<double>(count) < *number(*min))
    throw LoadError(at + ": parameter '" + name + "' has " + entries + ", fewer than its minimum " + toml_text(*min));
  if (const toml::node* max = rule.get("max_items"); max && number(*max) && static_cast<double>(count) > *number(*max))
    throw LoadError(at + ": parameter '" + name + "' has " + entries + ", more than its maximum " + toml_text(*max));
  if (const toml::node* items = rule.get("items")) {
    const toml::table* range = items->as_table();
    if (!range) throw LoadError(where(schema_file, *items) + ": schema." + name + ".items must be a table {min, max}");
    // `entry` names the entry in messages; `path` is its dotted parameter path while it has one (a table's
    // keys: "tile_spaces.yellow"), to name the file and line that set it.
    std::function<void(const std::string&, const std::string&, const toml::node&)> check =
        [&](const std::string& entry, const std::string& path, const toml::node& v) {
      if (const toml::array* inner = v.as_array()) {  // a list of lists, a table of lists: every number inside
        for (std::size_t i = 0; i < inner->size(); ++i)
          check(entry + (entry.empty() ? "" : " ") + std::to_string(i + 1), path, *inner->get(i));
        return;
      }
      if (const toml::table* inner = v.as_table()) {
        for (const auto& [key, x] : *inner)
          check(entry + (entry.empty() ? "" : " ") + "'" + cut_for_message(key.str()) + "'", path + "." + std::string(key.str()), x);
        return;
      }
      const ParamOrigin* origin = origin_of(origins, path);
      const std::string at = origin ? origin_where(*origin) : at_param;
      const std::string label = "parameter '" + name + "' " + (entry.empty() ? "" : "entry " + entry);
      const auto x = number(v);
      if (!x) throw LoadError(at + ": " + label + " must be a number, not " + type_name(v));
      if (const toml::node* min = range->get("min"); min && number(*min) && *x < *number(*min))
        throw LoadError(at + ": " + label + " = " + toml_text(v) + " is below its minimum " + toml_text(*min));
      if (const toml::node* max = range->get("max"); max && number(*max) && *x > *number(*max))
        throw LoadError(at + ": " + label + " = " + toml_text(v) + " is above its maximum " + toml_text(*max));
    };
    check("", name, value);
  }
  if (const toml::node* other_name = rule.get("entries_in")) {
    const std::string other = other_name->value_or(std::string());
    const toml::node* other_value = params.get(other);
    if (!other_value || !other_value->is_table())
      throw LoadError(where(schema_file, *other_name) + ": schema." + name + ".entries_in must name a table parameter");
    if (!value.is_array()) throw LoadError(at + ": parameter '" + name + "' must be a list, not " + type_name(value));
    for (const auto& entry : *value.as_array()) {
      const auto* text = entry.as_string();
      if (!text || !other_value->as_table()->contains(text->get()))
        throw LoadError(at + ": parameter '" + name + "' has " + cut_for_message(toml_text(entry)) + ", which '" + other +
                        "' has no entry for");
    }
  }
  if (const toml::node* per_value = rule.get("per_value")) {  // ["min_value", "max_value"]: one per value between
    const toml::array* bounds = per_value->as_array();
    const toml::node* low = bounds && bounds->size() == 2 && bounds->get(0)->is_string()
                                ? params.get(bounds->get(0)->value_or(std::string())) : nullptr;
    const toml::node* high = bounds && bounds->size() == 2 && bounds->get(1)->is_string()
                                 ? params.get(bounds->get(1)->value_or(std::string())) : nullptr;
    if (!low || !high || !low->is_integer() || !high->is_integer())
      throw LoadError(where(schema_file, *per_value) + ": schema." + name +
                      ".per_value must name two integer parameters [\"<lowest>\", \"<highest>\"]");
    const std::int64_t from = **low->as_integer(), to = **high->as_integer();
    const std::int64_t wanted = to >= from ? to - from + 1 : 0;
    if (static_cast<std::int64_t>(count) != wanted)
      throw LoadError(at + ": parameter '" + name + "' has " + entries + ", but needs one per value from " +
                      bounds->get(0)->value_or(std::string()) + " = " + std::to_string(from) + " to " +
                      bounds->get(1)->value_or(std::string()) + " = " + std::to_string(to) + " (" + std::to_string(wanted) + ")");
  }
  if (const toml::node* per_seat = rule.get("per_seat"); per_seat && per_seat->value_or(false) && seats > 0 &&
                                                         count != 0 && count != static_cast<std::size_t>(seats))
    throw LoadError(at + ": parameter '" + name + "' has " + entries + ", but " + std::to_string(seats) +
                    " players play: give one per seat, or none");
}

/// Checks the effective parameters against the base ruleset's [schema]: { type, min, max, choices, meaning }
/// (a min or max makes the parameter a number); for lists and tables also min_items, max_items, items = {min,
/// max} (every number in it, nested lists and tables included, in range), entries_in = "<table parameter>"
/// (every entry of the list a key of that table), per_value = ["<low>", "<high>"] (one entry per integer from
/// parameter low to parameter high) and per_seat = true (empty, or one entry per seat: checked when `seats` > 0).
void check_schema(const toml::table& params, const toml::table& schema, const fs::path& schema_file,
                  const std::vector<ParamOrigin>& origins, int seats) {
  for (const auto& [key, entry] : schema) {
    const std::string name(key.str());
    const toml::table* rule = entry.as_table();
    if (!rule) throw LoadError(where(schema_file, entry) + ": schema." + name + " must be a table {min, max, choices, meaning}");
    const toml::node* value = params.get(name);
    if (!value) throw LoadError(where(schema_file, entry) + ": schema." + name + " describes no parameter (give it a value in [params])");
    const ParamOrigin* origin = origin_of(origins, name);
    const std::string at = origin ? origin_where(*origin) : Sandbox::display_path(schema_file);
    auto number = [](const toml::node& n) -> std::optional<double> {
      if (n.is_integer()) return static_cast<double>(**n.as_integer());
      if (n.is_floating_point()) return **n.as_floating_point();
      return std::nullopt;
    };
    const auto v = number(*value);
    if ((rule->contains("min") || rule->contains("max")) && !v)
      throw LoadError(at + ": parameter '" + name + "' must be a number, not " + type_name(*value));
    if (const toml::node* type = rule->get("type")) {
      static const std::map<std::string, std::string> names{{"integer", "an integer"}, {"float", "a number"},
                                                            {"string", "a string"}, {"boolean", "a boolean"},
                                                            {"list", "a list"}, {"table", "a table"}};
      const auto wanted = names.find(type->value_or(std::string()));
      if (wanted == names.end())
        throw LoadError(where(schema_file, *type) + ": schema." + name +
                        ".type must be integer, float, string, boolean, list or table");
      const bool ok = wanted->second == type_name(*value) || (wanted->first == "float" && value->is_integer());
      if (!ok) throw LoadError(at + ": parameter '" + name + "' must be " + wanted->second + ", not " + type_name(*value));
    }
    if (const toml::node* min = rule->get("min"); min && v && number(*min) && *v < *number(*min))
      throw LoadError(at + ": parameter '" + name + "' = " + toml_text(*value) + " is below its minimum " + toml_text(*min));
    if (const toml::node* max = rule->get("max"); max && v && number(*max) && *v > *number(*max))
      throw LoadError(at + ": parameter '" + name + "' = " + toml_text(*value) + " is above its maximum " + toml_text(*max));
    if (const toml::node* choices = rule->get("choices"); choices && choices->is_array()) {
      bool found = false;
      for (const auto& c : *choices->as_array()) found = found || toml_text(c) == toml_text(*value);
      if (!found)
        throw LoadError(at + ": parameter '" + name + "' = " + toml_text(*value) + " is not one of " + toml_text(*choices));
    }
    check_entries(params, name, *value, *rule, schema_file, at, seats, origins);
  }
}

}  // namespace

RulesetInfo find_ruleset(const std::string& id_or_path) {
  std::vector<fs::path> visiting;
  return resolve(id_or_path, fs::current_path(), visiting);
}

std::vector<VariantInfo> list_variants(const RulesetInfo& base) {
  std::vector<VariantInfo> out;
  std::error_code ec;
  const fs::path dir = base.dir / "variants";
  if (!fs::is_directory(dir, ec)) return out;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) try {
      std::vector<fs::path> visiting;
      RulesetInfo info = read_variant(file, visiting);
      out.push_back(info.variants.back());
    } catch (const LoadError&) {
      // an unreadable variant is reported when it is used, not when listing
    }
  return out;
}

toml::table effective_params(const RulesetInfo& info, std::vector<ParamOrigin>* origins_out, int seats) {
  const fs::path base_file = info.dir / "ruleset.toml";
  const toml::table doc = parse_toml_file(base_file);
  toml::table params;
  std::vector<ParamOrigin> origins;
  if (const toml::node* node = doc.get("params")) {
    if (!node->is_table()) throw LoadError(where(base_file, *node) + ": [params] must be a table");
    params = *node->as_table();
    record_origins(*node->as_table(), "", base_file, origins);  // the original nodes know their lines
  }
  std::vector<std::pair<toml::table, fs::path>> variant_schemas;  // a variant's [schema]: its new parameters
  for (const auto& variant : info.variants) {
    const toml::table vdoc = parse_toml_file(variant.file);
    const toml::table* added = nullptr;
    if (const toml::node* schema = vdoc.get("schema")) {
      if (!schema->is_table()) throw LoadError(where(variant.file, *schema) + ": [schema] must be a table");
      for (const auto& [key, entry] : *schema->as_table()) {
        const std::string name(key.str());
        if (params.contains(name))
          throw LoadError(where(variant.file, entry) + ": schema." + printable(cut_for_message(name)) +
                          " describes a parameter of the parent (its schema is the parent's; a variant describes the "
                          "parameters it adds)");
        const toml::table* rule = entry.as_table();
        if (!rule || !(*rule)["meaning"].is_string())
          throw LoadError(where(variant.file, entry) + ": schema." + printable(cut_for_message(name)) +
                          " must be a table with a meaning = \"what the parameter is\" (and min, max, type or choices)");
      }
      variant_schemas.emplace_back(*schema->as_table(), variant.file);
      added = schema->as_table();
    }
    if (const toml::node* node = vdoc.get("params")) {
      if (!node->is_table()) throw LoadError(where(variant.file, *node) + ": [params] must be a table");
      merge_params(params, *node->as_table(), "", variant.file, origins, added);
    }
  }
  for (const std::string& text : info.overrides) apply_override(params, text, origins);
  if (const toml::node* schema = doc.get("schema")) {
    if (!schema->is_table()) throw LoadError(where(base_file, *schema) + ": [schema] must be a table");
    check_schema(params, *schema->as_table(), base_file, origins, seats);
  }
  for (const auto& [schema, file] : variant_schemas) check_schema(params, schema, file, origins, seats);
  if (origins_out) *origins_out = std::move(origins);
  return params;
}

std::unique_ptr<ScriptedRules> load_rules(const std::string& id_or_path, const LoadOptions& options) {
  RulesetInfo info = find_ruleset(id_or_path);
  info.overrides = options.overrides;
  return std::make_unique<ScriptedRules>(info, options);
}

}  // namespace hr
