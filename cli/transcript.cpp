// transcript.cpp — JSON Lines transcripts (nlohmann::json).
#include "transcript.hpp"

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

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

Transcript read_transcript(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw TranscriptError(file + ": cannot open the file");
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
    } catch (const json::parse_error& e) {
      throw TranscriptError(at + "not valid JSON (" + e.what() + ")");
    }
    try {
      const std::string type = line.at("type").get<std::string>();
      if (!have_header && type != "header") throw TranscriptError(at + "the first line must be the header");
      if (type == "header") {
        if (have_header) throw TranscriptError(at + "a second header");
        have_header = true;
        t.ruleset = line.at("ruleset").get<std::string>();
        t.seats = line.at("seats").get<int>();
        t.seed = line.at("seed").get<std::uint64_t>();
        t.players = line.value("players", std::vector<std::string>{});
        t.params_json = line.contains("params") ? line["params"].dump() : "{}";
      } else if (type == "action") {
        if (t.has_result || !t.stopped_reason.empty()) throw TranscriptError(at + "an action after the end of the game");
        TranscriptAction a;
        a.ply = line.at("ply").get<std::int64_t>();
        a.round = line.value("round", 0);
        a.seat = line.at("seat").get<int>();
        a.action = line.at("action").get<std::string>();
        a.legal = line.value("legal", std::int64_t{-1});
        a.digest = line.value("digest", std::string{});
        a.line = number;
        t.actions.push_back(std::move(a));
      } else if (type == "result") {
        t.has_result = true;
        t.match_scores = line.at("match_scores").get<std::vector<std::int64_t>>();
        t.ranks = line.value("ranks", std::vector<int>{});
      } else if (type == "stopped") {
        t.stopped_reason = line.value("reason", std::string("stopped"));
      } else {
        throw TranscriptError(at + "unknown line type '" + type + "'");
      }
    } catch (const json::exception& e) {
      throw TranscriptError(at + "missing or mistyped field (" + e.what() + ")");
    }
  }
  if (!have_header) throw TranscriptError(file + ": empty transcript (no header line)");
  return t;
}

}  // namespace hr
