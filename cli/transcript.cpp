// transcript.cpp — JSON Lines transcripts (nlohmann::json).
#include "transcript.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "input_line.hpp"

namespace hr {

using nlohmann::json;

std::string digest_text(std::uint64_t digest) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digest));
  return text;
}

void TranscriptWriter::header(const std::string& ruleset, int seats, std::uint64_t seed,
                              const std::vector<std::string>& players, const std::string& params_json) {
  json line = {{"type", "header"}, {"format", 1},       {"ruleset", ruleset}, {"seats", seats},
               {"seed", seed},     {"players", players}, {"params", json::parse(params_json)}};
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

std::string json_error_text(const std::exception& e) {
  std::string text = e.what();
  if (text.starts_with("[json.exception.")) {
    if (const auto end = text.find("] "); end != std::string::npos) text.erase(0, end + 2);
  }
  if (text.find("number overflow") != std::string::npos) return "a number is too large";
  return cut_for_message(text);
}

namespace {

/// The integer field `key` of `line`, which must lie in [min, max] (a float or a huge number is refused
/// rather than converted: converting 1e300 to int is undefined behaviour).
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

/// The list of integers `key` of `line` (each an integer of int64 range).
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

}  // namespace

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
        t.seed = line.at("seed").get<std::uint64_t>();
        t.players = line.value("players", std::vector<std::string>{});
        t.params_json = line.contains("params") ? line["params"].dump() : "{}";
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

}  // namespace hr
