// transcript.cpp — JSON Lines transcripts (nlohmann::json).
#include "transcript.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "input_line.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

namespace hr {

using nlohmann::json;

std::string digest_text(std::uint64_t digest) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digest));
  return text;
}

void TranscriptWriter::header(const std::string& ruleset, int seats, std::uint64_t seed,
                              const std::vector<std::string>& players, const std::string& params_json,
                              const std::vector<std::string>& overrides, const std::string& ruleset_id) {
  json line = {{"type", "header"}, {"format", 1},       {"ruleset", ruleset}, {"seats", seats},
               {"seed", seed},     {"players", players}, {"params", json::parse(params_json)}};
  if (!ruleset_id.empty()) line["ruleset_id"] = ruleset_id;
  if (!file_.empty())
    if (const std::string portable = portable_ruleset(file_, ruleset); portable != ruleset) line["ruleset_path"] = portable;
  if (!overrides.empty()) line["set"] = overrides;
  out_ << line.dump() << '\n' << std::flush;
}

void TranscriptWriter::action(const GameState& after, int round, int seat, const std::string& text,
                              std::size_t legal_count) {
  json line = {{"type", "action"}, {"ply", after.ply()}, {"round", round}, {"seat", seat}, {"action", text},
               {"legal", legal_count}, {"digest", digest_text(after.digest())}};
  out_ << line.dump() << '\n' << std::flush;
}

void TranscriptWriter::result(Rules& rules, const GameState& state) {
  json line = {{"type", "result"},
               {"match_scores", state.match_scores()},
               {"round_scores", state.round_scores()},
               {"ranks", rules.ranks(state)},
               {"plies", state.ply()}};
  out_ << line.dump() << '\n' << std::flush;
}

void TranscriptWriter::stopped(const std::string& reason, const GameState& state) {
  json line = {{"type", "stopped"}, {"reason", reason}, {"plies", state.ply()}};
  out_ << line.dump() << '\n' << std::flush;
}

void TranscriptWriter::undo(const GameState& back_to) {
  json line = {{"type", "undo"}, {"to_ply", back_to.ply()}};
  out_ << line.dump() << '\n' << std::flush;
}

void TranscriptWriter::resumed(const GameState& state) {
  json line = {{"type", "resumed"}, {"plies", state.ply()}};
  out_ << line.dump() << '\n' << std::flush;
}

std::string json_error_text(const std::exception& e) {
  std::string text = e.what();
  if (text.starts_with("[json.exception.")) {
    if (const auto end = text.find("] "); end != std::string::npos) text.erase(0, end + 2);
  }
  if (text.find("number overflow") != std::string::npos) return "a number is too large";
  return cut_for_message(text);
}

std::int64_t integer_field(const json& line, const char* key, std::int64_t min, std::int64_t max) {
  const json& value = line.at(key);
  if (!value.is_number_integer()) throw TranscriptError(std::string("'") + key + "' must be an integer");
  if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(max))
    throw TranscriptError(std::string("'") + key + "' must be at most " + std::to_string(max));
  const std::int64_t v = value.get<std::int64_t>();
  if (v < min || v > max)
    throw TranscriptError(std::string("'") + key + "' must be between " + std::to_string(min) + " and " +
                          std::to_string(max) + ", not " + std::to_string(v));
  return v;
}

std::uint64_t seed_field(const json& line, const char* key) {
  const json& value = line.at(key);
  if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
    throw TranscriptError(std::string("'") + key + "' must be a whole number from 0 to 18446744073709551615");
  return value.get<std::uint64_t>();
}

std::vector<std::int64_t> integer_list(const json& line, const char* key) {
  const json& value = line.at(key);
  if (!value.is_array()) throw TranscriptError(std::string("'") + key + "' must be a list of integers");
  std::vector<std::int64_t> out;
  for (const json& v : value) {
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() > INT64_MAX))
      throw TranscriptError(std::string("'") + key + "' must be a list of integers");
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

Transcript read_transcript(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw TranscriptError(file + ": cannot open the file");
  return read_transcript(in, file);
}

Transcript read_transcript(std::istream& in, const std::string& file) {
  Transcript t;
  std::string text;
  int number = 0;
  bool have_header = false;
  while (std::getline(in, text)) {
    ++number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string at = file + ":" + std::to_string(number) + ": ";
    json line;
    try {
      line = json::parse(text);
    } catch (const json::exception& e) {  // parse_error, and out_of_range for a number too large
      throw TranscriptError(at + "not valid JSON (" + json_error_text(e) + ")");
    }
    try {
      const std::string type = line.at("type").get<std::string>();
      if (!have_header && type != "header") throw TranscriptError(at + "the first line must be the header");
      if (type == "header") {
        if (have_header) throw TranscriptError(at + "a second header");
        have_header = true;
        t.header_line = number;
        t.ruleset = line.at("ruleset").get<std::string>();
        t.seats = static_cast<int>(integer_field(line, "seats", 1, kMaxSeats));
        t.seed = seed_field(line, "seed");
        t.players = line.value("players", std::vector<std::string>{});
        t.params_json = line.contains("params") ? line["params"].dump() : "";
        t.overrides = line.value("set", std::vector<std::string>{});
        t.ruleset_path = line.value("ruleset_path", std::string{});
        t.ruleset_id = line.value("ruleset_id", std::string{});
      } else if (type == "action") {
        if (t.has_result || !t.stopped_reason.empty()) throw TranscriptError(at + "an action after the end of the game");
        TranscriptAction a;
        a.ply = integer_field(line, "ply", 0, INT64_MAX);
        a.round = line.contains("round") ? static_cast<int>(integer_field(line, "round", 0, INT32_MAX)) : 0;
        a.seat = static_cast<int>(integer_field(line, "seat", 1, kMaxSeats));
        a.action = line.at("action").get<std::string>();
        a.legal = line.contains("legal") ? integer_field(line, "legal", 0, INT64_MAX) : -1;
        a.digest = line.value("digest", std::string{});
        a.line = number;
        t.actions.push_back(std::move(a));
      } else if (type == "result") {
        t.has_result = true;
        t.match_scores = integer_list(line, "match_scores");
        if (line.contains("ranks"))
          for (const std::int64_t r : integer_list(line, "ranks")) t.ranks.push_back(static_cast<int>(std::clamp<std::int64_t>(r, 0, kMaxSeats)));
      } else if (type == "stopped") {
        t.stopped_reason = line.value("reason", std::string("stopped"));
      } else if (type == "undo") {  // the human took back the actions after ply to_ply
        if (t.has_result || !t.stopped_reason.empty()) throw TranscriptError(at + "an undo after the end of the game");
        const std::int64_t to = integer_field(line, "to_ply", 0, INT64_MAX);
        if (to > static_cast<std::int64_t>(t.actions.size())) throw TranscriptError(at + "an undo to a later action");
        t.actions.resize(static_cast<std::size_t>(to));
      } else if (type == "resumed") {  // play --resume continued the game from here
        if (t.has_result) throw TranscriptError(at + "a resumed line after the result");
        t.stopped_reason.clear();
      } else {
        throw TranscriptError(at + "unknown line type '" + cut_for_message(type) + "'");
      }
    } catch (const json::exception& e) {
      throw TranscriptError(at + "missing or mistyped field (" + json_error_text(e) + ")");
    } catch (const TranscriptError& e) {
      if (std::string_view(e.what()).starts_with(at)) throw;
      throw TranscriptError(at + e.what());
    }
  }
  if (!have_header) throw TranscriptError(file + ": empty transcript (no header line)");
  return t;
}

std::string portable_ruleset(const std::filesystem::path& file, const std::string& ruleset) {
  namespace fs = std::filesystem;
  const fs::path given(ruleset);
  const bool path_like = ruleset.starts_with('.') || ruleset.starts_with('/') || ruleset.ends_with(".toml");
  std::error_code ec;
  const fs::path folder = fs::absolute(file, ec).parent_path();
  for (const fs::path& candidate : {given.is_absolute() ? given : folder / given, fs::absolute(given, ec)}) {
    const bool ruleset_dir = fs::is_regular_file(candidate / "ruleset.toml", ec);
    if (!(path_like || ruleset_dir) || !fs::exists(candidate, ec)) continue;
    const fs::path relative = fs::weakly_canonical(candidate, ec).lexically_relative(fs::weakly_canonical(folder, ec));
    if (!ec && !relative.empty()) return relative.generic_string();
  }
  return ruleset;
}

namespace {

/// The parameters of `params` as "name" (dotted for nested tables) -> value, in order.
void flatten(const json& params, const std::string& prefix, std::vector<std::pair<std::string, json>>& out) {
  for (const auto& [key, value] : params.items()) {
    if (value.is_object()) flatten(value, prefix + key + ".", out);
    else out.emplace_back(prefix + key, value);
  }
}

/// The first parameter whose value differs between the transcript's header and the loaded rules, as a message.
std::string params_difference(const json& recorded, const json& loaded) {
  std::vector<std::pair<std::string, json>> a, b;
  flatten(recorded, "", a);
  flatten(loaded, "", b);
  for (const auto& [name, value] : a) {
    const auto it = std::find_if(b.begin(), b.end(), [&name = name](const auto& p) { return p.first == name; });
    if (it == b.end()) return "parameter '" + cut_for_message(name) + "' is in the transcript's header but the rules have no such parameter";
    if (it->second != value)
      return "parameter '" + cut_for_message(name) + "' is " + cut_for_message(value.dump()) + " in the transcript's header but " +
             cut_for_message(it->second.dump()) + " in the rules loaded now";
  }
  for (const auto& [name, value] : b)
    if (std::none_of(a.begin(), a.end(), [&name = name](const auto& p) { return p.first == name; }))
      return "parameter '" + cut_for_message(name) + "' = " + cut_for_message(value.dump()) +
             " of the rules loaded now is not in the transcript's header";
  return {};
}

}  // namespace

std::unique_ptr<ScriptedRules> load_transcript_rules(const std::string& file, const Transcript& t) {
  namespace fs = std::filesystem;
  LoadOptions load;
  load.seats = t.seats;
  load.overrides = t.overrides;
  const std::string at = file + ":" + std::to_string(t.header_line) + ": ";
  std::error_code ec;
  const fs::path folder = fs::absolute(file, ec).parent_path();
  // Which rules: the path relative to the transcript, the ruleset as given (from here, then from the
  // transcript's folder), the id.
  std::vector<std::string> candidates;
  if (!t.ruleset_path.empty() && fs::exists(folder / t.ruleset_path, ec)) candidates.push_back((folder / t.ruleset_path).string());
  candidates.push_back(t.ruleset);
  if (fs::path(t.ruleset).is_relative() && !fs::exists(t.ruleset, ec) && fs::exists(folder / t.ruleset, ec))
    candidates.push_back((folder / t.ruleset).string());
  if (!t.ruleset_id.empty()) candidates.push_back(t.ruleset_id);
  std::unique_ptr<ScriptedRules> rules;
  std::string first_error;
  for (const auto& candidate : candidates) {
    try {
      rules = load_rules(candidate, load);
      break;
    } catch (const LoadError& e) {
      // a --set that the rules refuse, a script error: the same with any candidate
      if (std::string_view(e.what()).starts_with("--set ") || fs::exists(candidate, ec) || candidate == t.ruleset_id)
        throw LoadError(at + e.what());
      if (first_error.empty()) first_error = e.what();
    }
  }
  if (!rules) throw LoadError(at + first_error);
  if (!t.params_json.empty()) {
    const std::string difference = params_difference(json::parse(t.params_json), json::parse(rules->params_json()));
    if (!difference.empty())
      throw TranscriptError(at + difference + " ('" + rules->id() +
                            "'): the transcript was recorded with other parameters, so it cannot replay");
  }
  return rules;
}

}  // namespace hr
