// golden.cpp — replaying and re-recording golden transcripts (contract in golden.hpp).
#include "golden.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bots.hpp"
#include "input_line.hpp"
#include "play/play.hpp"
#include "rules.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hr {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::int64_t kMaxRecordedPlies = 1000000;  // a re-recorded game longer than this is a broken ruleset

std::string join_cards(const GameState& state, std::span<const ComponentId> cards) {
  if (cards.empty()) return "-";
  std::string out;
  for (std::size_t i = 0; i < cards.size(); ++i) {
    if (i) out += ' ';
    out += cards[i] == kUnknownComponent ? std::string("?") : state.layout().components[cards[i]].name;
  }
  return out;
}

template <typename T>
std::string list_text(const std::vector<T>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + fmt::format("{}", values[i]);
  return out + "]";
}

/// One golden action line.
struct GoldenAction {
  int line = 0;
  std::int64_t ply = 0;
  int seat = 0;
  std::string action;
  std::int64_t legal = -1;
  std::string digest;
  std::optional<json> changes;
};

/// A golden file as read (the transcript keys, plus the golden-only details when present).
struct GoldenFile {
  json header;
  int header_line = 0;
  std::vector<GoldenAction> actions;
  bool has_result = false;
  int end_line = 0;
  std::vector<std::int64_t> match_scores;
  std::string stopped;
};

/// A problem reading the file or a divergence, at a line of the file.
struct GoldenFailure : std::runtime_error {
  GoldenFailure(int line, const std::string& message) : std::runtime_error(message), line(line) {}
  int line;
};

/// Replaces `file` by `text` through a fresh temporary file beside it: mkstemp creates it with O_EXCL (never
/// through a symbolic link planted under a predictable name, which would overwrite the link's target), then
/// rename swaps it in (a link at `file` itself is replaced, its target untouched).
void write_replacing(const std::string& file, const std::string& text) {
  std::string name = file + ".XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw GoldenFailure(0, "cannot create a temporary file beside it: " + std::string(std::strerror(errno)));
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  bool ok = written == text.size() && ::fchmod(fd, 0644) == 0;
  if (::close(fd) != 0) ok = false;
  if (!ok || ::rename(name.c_str(), file.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(name.c_str());
    throw GoldenFailure(0, "cannot write " + name + ": " + reason);
  }
}

GoldenFile read_golden(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw GoldenFailure(0, "cannot open the file");
  GoldenFile g;
  std::string text;
  int number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    json line;
    try {
      line = json::parse(text);
      const std::string type = line.at("type").get<std::string>();
      if (g.header.is_null() && type != "header") throw GoldenFailure(number, "the first line must be the header");
      if (type == "header") {
        if (!g.header.is_null()) throw GoldenFailure(number, "a second header");
        line.at("ruleset").get<std::string>();
        integer_field(line, "seats", 1, kMaxSeats);
        seed_field(line, "seed");
        g.header = std::move(line);
        g.header_line = number;
      } else if (type == "action") {
        if (g.has_result || !g.stopped.empty()) throw GoldenFailure(number, "an action after the end of the game");
        GoldenAction a;
        a.line = number;
        a.ply = integer_field(line, "ply", 0, INT64_MAX);
        a.seat = static_cast<int>(integer_field(line, "seat", 1, kMaxSeats));
        a.action = line.at("action").get<std::string>();
        a.legal = line.contains("legal") ? integer_field(line, "legal", 0, INT64_MAX) : -1;
        a.digest = line.value("digest", std::string{});
        if (line.contains("changes")) a.changes = line["changes"];
        g.actions.push_back(std::move(a));
      } else if (type == "result") {
        g.has_result = true;
        g.end_line = number;
        g.match_scores = integer_list(line, "match_scores");
      } else if (type == "stopped") {
        g.stopped = line.value("reason", std::string("stopped"));
        g.end_line = number;
      } else {
        throw GoldenFailure(number, "unknown line type '" + type + "'");
      }
    } catch (const json::exception& e) {
      throw GoldenFailure(number, std::string("not a transcript line (") + e.what() + ")");
    } catch (const TranscriptError& e) {  // a mistyped field
      throw GoldenFailure(number, e.what());
    }
  }
  if (g.header.is_null()) throw GoldenFailure(0, "empty file (no header line)");
  return g;
}

/// The folder of the ruleset a golden file belongs to (the nearest ancestor holding ruleset.toml), if any.
std::optional<fs::path> owning_ruleset_dir(const fs::path& file) {
  std::error_code ec;
  fs::path dir = fs::absolute(file, ec).parent_path();
  for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / "ruleset.toml", ec)) return dir;
    if (dir == dir.parent_path()) break;
  }
  return std::nullopt;
}

/// What to give load_rules for a golden file whose header names `ruleset` (see golden.hpp). The header's text
/// is untrusted: the file-system checks take an error code, so that a name the system refuses (longer than
/// NAME_MAX, say) reaches load_rules and its one-line "no ruleset" message, not a raw filesystem_error with
/// an absolute path (issue 18).
std::string resolve_ruleset(const fs::path& file, const std::string& ruleset) {
  std::error_code ec;
  if (const auto dir = owning_ruleset_dir(file)) {
    std::string id;
    try {
      id = read_ruleset_info(*dir).id;
    } catch (const std::exception&) {
    }
    if (!id.empty() && ruleset == id) return dir->string();
    if (!id.empty() && ruleset.starts_with(id + "/")) {
      const fs::path variant = *dir / "variants" / (ruleset.substr(id.size() + 1) + ".toml");
      if (fs::is_regular_file(variant, ec)) return variant.string();
    }
  }
  const fs::path relative = fs::absolute(file, ec).parent_path() / ruleset;
  if (fs::path(ruleset).is_relative() && fs::exists(relative, ec)) return relative.string();
  return ruleset;
}

std::unique_ptr<ScriptedRules> load_for(const fs::path& file, const json& header) {
  LoadOptions load;
  load.seats = header.at("seats").get<int>();
  load.overrides = header.value("set", std::vector<std::string>{});  // `play --set`, kept by --update
  return load_rules(resolve_ruleset(file, header.at("ruleset").get<std::string>()), load);
}

json fields_json(const std::vector<std::pair<std::string, std::string>>& fields) {
  json out = json::object();
  for (const auto& [key, value] : fields) out[key] = value;
  return out;
}

/// The fields of `after` that differ from `before` (both states of one layout).
json changed_fields(const std::vector<std::pair<std::string, std::string>>& before,
                    const std::vector<std::pair<std::string, std::string>>& after) {
  json out = json::object();
  for (std::size_t i = 0; i < after.size(); ++i)
    if (i >= before.size() || before[i] != after[i]) out[after[i].first] = after[i].second;
  return out;
}

/// "    key: expected X, got Y" for each field that differs between `expected` and `got`.
std::string field_diff(const std::map<std::string, std::string>& expected,
                       const std::vector<std::pair<std::string, std::string>>& got) {
  std::string out;
  std::map<std::string, bool> seen;
  for (const auto& [key, value] : got) {
    seen[key] = true;
    const auto it = expected.find(key);
    const std::string want = it == expected.end() ? "(no such field)" : it->second;
    if (want != value) out += fmt::format("    {}: expected {}, got {}\n", key, want, value);
  }
  for (const auto& [key, value] : expected)
    if (!seen.count(key)) out += fmt::format("    {}: expected {}, got (no such field)\n", key, value);
  return out;
}

std::map<std::string, std::string> as_map(const std::vector<std::pair<std::string, std::string>>& fields) {
  return {fields.begin(), fields.end()};
}

std::string legal_list(Rules& rules, const GameState& state) {
  std::string out;
  for (Action a : rules.legal_actions(state)) out += (out.empty() ? "" : ", ") + rules.action_text(state, a);
  return out.empty() ? "(none)" : out;
}

/// Replays `g`; throws GoldenFailure at the first divergence.
void replay_golden(const fs::path& file, const GoldenFile& g) {
  std::unique_ptr<ScriptedRules> rules;
  try {
    rules = load_for(file, g.header);
  } catch (const std::exception& e) {
    throw GoldenFailure(g.header_line, std::string("cannot load the ruleset: ") + e.what());
  }
  GameState state;
  try {
    state = rules->new_game(g.header.at("seed").get<std::uint64_t>());
  } catch (const std::exception& e) {
    throw GoldenFailure(g.header_line, std::string("the setup failed: ") + e.what());
  }
  if (g.header.contains("setup_digest") && g.header["setup_digest"].get<std::string>() != digest_text(state.digest())) {
    std::string diff;
    if (g.header.contains("setup")) {
      std::map<std::string, std::string> expected;
      for (const auto& [key, value] : g.header["setup"].items()) expected[key] = value.get<std::string>();
      diff = field_diff(expected, state_fields(state));
    }
    throw GoldenFailure(g.header_line,
                        fmt::format("first divergence at the setup (before action 1): the state after the setup "
                                    "differs (expected digest {}, got {})\n  expected vs got:\n{}",
                                    g.header["setup_digest"].get<std::string>(), digest_text(state.digest()),
                                    diff.empty() ? "    (no visible field differs: RNG or who has seen which card)\n" : diff));
  }
  std::vector<Action> legal;
  GameState before;
  for (const GoldenAction& a : g.actions) {
    const std::string head =
        fmt::format("first divergence at action {} (round {}, seat {}: '{}')", a.ply, state.round(), a.seat,
                    cut_for_message(a.action));
    if (state.over())
      throw GoldenFailure(a.line, head + ":\n  expected this action, got: the replayed game is already over (" +
                                      list_text(state.match_scores()) + ")\n");
    if (a.seat != state.to_move())
      throw GoldenFailure(a.line, fmt::format("{}:\n  expected seat {} to move, got seat {}\n", head, a.seat, state.to_move()));
    try {
      rules->legal_actions(state, legal);
      if (a.legal >= 0 && static_cast<std::size_t>(a.legal) != legal.size())
        throw GoldenFailure(a.line, fmt::format("{}:\n  expected {} legal actions, got {}: {}\n", head, a.legal,
                                                legal.size(), legal_list(*rules, state)));
      const InputLine text = normalize_input_line(a.action);
      if (!text) throw GoldenFailure(a.line, fmt::format("{}:\n  not an action: {}\n", head, text.error));
      const auto action = rules->parse_action(state, text.text);
      if (!action)
        throw GoldenFailure(a.line, fmt::format("{}:\n  expected '{}' to be legal, got: {}\n  legal now: {}\n", head,
                                                text.text, rules->explain_illegal(state, text.text),
                                                legal_list(*rules, state)));
      before = state;
      rules->apply(state, *action);
    } catch (const GoldenFailure&) {
      throw;
    } catch (const std::exception& e) {
      throw GoldenFailure(a.line, fmt::format("{}:\n  the replay failed: {}\n", head, e.what()));
    }
    if (a.digest.empty() || a.digest == digest_text(state.digest())) continue;
    const auto fields_before = state_fields(before);
    const auto fields_after = state_fields(state);
    std::string detail;
    if (a.changes && a.changes->is_object()) {
      auto expected = as_map(fields_before);
      for (const auto& [key, value] : a.changes->items()) expected[key] = value.is_string() ? value.get<std::string>() : value.dump();
      detail = field_diff(expected, fields_after);
      detail = "  expected vs got after this action (the state before it matched):\n" +
               (detail.empty() ? "    (no visible field differs: RNG or who has seen which card)\n" : detail);
    } else {
      const json changed = changed_fields(fields_before, fields_after);
      const auto before_map = as_map(fields_before);
      detail = "  (the file records no per-action changes: `houserules test --update` re-records it with them)\n"
               "  what this action changed in the replayed game:\n";
      for (const auto& [key, value] : changed.items())
        detail += fmt::format("    {}: {} -> {}\n", key, before_map.count(key) ? before_map.at(key) : "(none)",
                              value.get<std::string>());
    }
    throw GoldenFailure(a.line, fmt::format("{}: the state after it differs (expected digest {}, got {})\n{}", head,
                                            a.digest, digest_text(state.digest()), detail));
  }
  if (!g.stopped.empty()) return;
  if (!g.has_result)
    throw GoldenFailure(0, fmt::format("truncated: no result line after {} actions", g.actions.size()));
  if (!state.over()) {
    const auto n = rules->legal_actions(state).size();
    throw GoldenFailure(g.end_line,
                        fmt::format("first divergence after action {}: expected the end of the game, got: the replayed "
                                    "game goes on (round {}, seat {} to move, {} legal actions)\n",
                                    g.actions.size(), state.round(), state.to_move(), n));
  }
  if (state.match_scores() != g.match_scores)
    throw GoldenFailure(g.end_line, fmt::format("the result differs: expected match scores {}, got {}\n",
                                                list_text(g.match_scores), list_text(state.match_scores())));
}

/// Plays the game of `g`'s header again with the current rules and returns the new file's text.
std::string record_golden(const fs::path& file, const GoldenFile& g) {
  const json& h = g.header;
  const auto seed = h.at("seed").get<std::uint64_t>();
  const auto names = h.value("players", std::vector<std::string>{});
  std::unique_ptr<ScriptedRules> rules;
  try {
    rules = load_for(file, h);
  } catch (const std::exception& e) {
    throw GoldenFailure(g.header_line, std::string("cannot load the ruleset: ") + e.what());
  }
  const int seats = rules->layout().seats;
  if (names.size() != static_cast<std::size_t>(seats))
    throw GoldenFailure(g.header_line, fmt::format("the header names {} players for {} seats", names.size(), seats));
  for (std::size_t s = 0; s < names.size(); ++s) {
    if (names[s] == "human") throw GoldenFailure(g.header_line, "cannot re-record a game with a human seat");
    if (is_external_player(names[s]))  // the file may come from anyone: only a command line starts a program
      throw GoldenFailure(g.header_line, fmt::format("header players[{}] (seat {}): cannot re-record a game with a "
                                                     "program seat: a program named in a file is never started",
                                                     s, s + 1));
  }
  std::istringstream no_input;
  std::ostringstream no_output;
  std::vector<std::unique_ptr<Player>> players;
  try {
    players = make_players(names, seed, no_input, no_output, rules.get());
  } catch (const std::exception& e) {
    throw GoldenFailure(g.header_line, e.what());
  }
  std::ostringstream text;
  GameState state;
  try {
    state = rules->new_game(seed);
  } catch (const std::exception& e) {
    throw GoldenFailure(g.header_line, std::string("the setup failed: ") + e.what());
  }
  auto fields = state_fields(state);
  json header = {{"type", "header"},
                 {"format", 1},
                 {"ruleset", portable_ruleset(file, h.at("ruleset").get<std::string>())},
                 {"seats", seats},
                 {"seed", seed},
                 {"players", names}, {"params", json::parse(rules->params_json())},
                 {"setup_digest", digest_text(state.digest())}, {"setup", fields_json(fields)}};
  if (h.contains("set")) header["set"] = h["set"];
  text << header.dump() << '\n';
  std::vector<Action> legal;
  try {
    while (!state.over()) {
      if (state.ply() >= kMaxRecordedPlies) throw RulesError("the game does not end");
      rules->legal_actions(state, legal);
      if (legal.empty()) throw RulesError("no legal action but the game is not over");
      const int seat = state.to_move();
      const int round = state.round();
      const Action action = players[static_cast<std::size_t>(seat - 1)]->choose(*rules, InformationSet(state, seat, legal));
      const std::string action_text = rules->action_text(state, action);
      rules->apply(state, action);
      auto after = state_fields(state);
      json line = {{"type", "action"}, {"ply", state.ply()}, {"round", round}, {"seat", seat},
                   {"action", action_text}, {"legal", legal.size()}, {"digest", digest_text(state.digest())},
                   {"changes", changed_fields(fields, after)}};
      fields = std::move(after);
      text << line.dump() << '\n';
    }
  } catch (const std::exception& e) {
    throw GoldenFailure(0, fmt::format("re-recording failed at action {}: {}", state.ply() + 1, e.what()));
  }
  json result = {{"type", "result"},
                 {"match_scores", state.match_scores()},
                 {"round_scores", state.round_scores()},
                 {"ranks", rules->ranks(state)},
                 {"plies", state.ply()}};
  text << result.dump() << '\n';
  return text.str();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> state_fields(const GameState& state) {
  const Layout& layout = state.layout();
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("to_move", std::to_string(state.to_move()));
  out.emplace_back("phase", std::to_string(state.phase()));
  out.emplace_back("round", std::to_string(state.round()));
  out.emplace_back("over", state.over() ? "true" : "false");
  out.emplace_back("match_scores", list_text(state.match_scores()));
  std::string rounds = "[";
  for (std::size_t r = 0; r < state.round_scores().size(); ++r) rounds += (r ? ", " : "") + list_text(state.round_scores()[r]);
  out.emplace_back("round_scores", rounds + "]");
  for (std::size_t z = 0; z < layout.zones.size(); ++z) {
    const auto cards = state.cards(static_cast<ZoneId>(z));
    if ((layout.zones[z].visibility != Visibility::Hidden && layout.zones[z].visibility != Visibility::TopCard) ||
        cards.empty()) {
      out.emplace_back(layout.zones[z].name, join_cards(state, cards));
      continue;
    }
    // A hidden zone (a deck) in short: its size, its top card and a hash of its order (FNV-1a of the ids).
    std::uint32_t hash = 2166136261u;
    for (ComponentId c : cards) hash = (hash ^ c) * 16777619u;
    out.emplace_back(layout.zones[z].name, fmt::format("{} cards, top {}, order #{:08x}", cards.size(),
                                                       join_cards(state, cards.last(1)), hash));
  }
  for (std::size_t c = 0; c < layout.counters.size(); ++c) {
    const CounterDef& def = layout.counters[c];
    out.emplace_back("counter " + def.name, std::to_string(state.counter(static_cast<int>(c), 0)));
    if (def.per_seat)
      for (int s = 1; s <= layout.seats; ++s)
        out.emplace_back(fmt::format("counter {}[{}]", def.name, s), std::to_string(state.counter(static_cast<int>(c), s)));
  }
  for (std::size_t t = 0; t < layout.tracks.size(); ++t)
    for (std::size_t s = 1; s <= layout.tracks[t].values.size(); ++s) {
      const TilePlacement tile = state.tile_at(static_cast<int>(t), static_cast<int>(s));
      if (tile.component == kNoComponent) continue;
      out.emplace_back(fmt::format("tile {}#{}", layout.tracks[t].name, s),
                       fmt::format("{} rotation {}", layout.components[tile.component].name, tile.rotation));
    }
  for (std::size_t f = 0; f < layout.figures.size(); ++f) {
    const FigurePlace place = state.figure_place(static_cast<int>(f));
    const auto site = [&](int board, SiteKind kind, int id) {
      const Lattice& l = layout.boards[static_cast<std::size_t>(board)].lattice;
      return fmt::format("{} {} {}", layout.boards[static_cast<std::size_t>(board)].name, to_string(kind),
                         kind == SiteKind::Face ? l.face_text(id) : kind == SiteKind::Edge ? l.edge_text(id) : l.vertex_text(id));
    };
    out.emplace_back(fmt::format("figure {} {}", f + 1, layout.figures[f].kind),
                     place.on_board() ? site(place.board, place.kind, place.site)
                     : place.track < 0 ? std::string("off the board")
                                       : fmt::format("{} space {}", layout.tracks[static_cast<std::size_t>(place.track)].name, place.space));
  }
  for (std::size_t b = 0; b < layout.boards.size(); ++b) {  // lattice boards: tiles, what lies there, marks
    const BoardDef& def = layout.boards[b];
    const int board = static_cast<int>(b);
    for (std::size_t c = 0; c < layout.components.size(); ++c)
      if (const Place p = state.place_of(static_cast<ComponentId>(c)); p.site_kind == SiteKind::Tile && p.board == b)
        out.emplace_back(fmt::format("{} tile {} r{}", def.name, def.lattice.vertex_text(p.site), p.rotation), layout.components[c].name);
    for (const SiteKind kind : {SiteKind::Face, SiteKind::Edge, SiteKind::Vertex})
      for (int id = 0; id < layout.sites(board, kind); ++id) {
        const auto here = state.lying(board, kind, id);
        if (!here.empty()) out.emplace_back(fmt::format("lying on {}", [&] {
          const Lattice& l = def.lattice;
          return fmt::format("{} {} {}", def.name, to_string(kind), kind == SiteKind::Face ? l.face_text(id) : kind == SiteKind::Edge ? l.edge_text(id) : l.vertex_text(id));
        }()), join_cards(state, here));
      }
    for (std::size_t m = 0; m < def.marks.size(); ++m)
      for (int id = 0; id < layout.sites(board, def.marks[m].kind); ++id)
        if (const int v = state.mark(board, static_cast<int>(m), id); v != 0)
          out.emplace_back(fmt::format("{} mark {} at {}", def.name, def.marks[m].name, id + 1), std::to_string(v));
  }
  return out;
}

bool is_golden_file(const fs::path& file) {
  return file.extension() == ".jsonl" && file.parent_path().filename() == "golden";
}

bool run_golden_file(const fs::path& file, std::ostream& out, const GoldenOptions& options) {
  const std::string name = file.string();
  try {
    const GoldenFile g = read_golden(file);
    if (options.update) {
      const std::string text = record_golden(file, g);
      std::string old;
      {
        std::ifstream in(file, std::ios::binary);
        std::stringstream buffer;
        buffer << in.rdbuf();
        old = buffer.str();
      }
      if (old == text) {
        out << "unchanged " << name << '\n';
        return true;
      }
      write_replacing(file, text);
      out << "updated " << name << '\n';
      return true;
    }
    replay_golden(file, g);
    if (options.verbose) out << "ok " << name << " (" << g.actions.size() << " actions)\n";
    return true;
  } catch (const GoldenFailure& e) {
    std::string message = e.what();
    while (!message.empty() && message.back() == '\n') message.pop_back();
    out << "FAIL " << name << ':' << e.line << ": " << message << '\n';
  } catch (const std::exception& e) {
    out << "FAIL " << name << ": " << e.what() << '\n';
  }
  return false;
}

}  // namespace hr
