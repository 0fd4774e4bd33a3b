// fuzz_transcript.cpp — a transcript (JSON Lines) read and replayed as `houserules replay` does: the header,
// every action through normalize_input_line, parse_action and explain, the digests and the result.
// Rulesets are loaded once per process (by the header's ruleset and seats).
#include <map>
#include <memory>

#include "fuzz_util.hpp"
#include "play/play.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // nullptr: it did not load.
  static std::map<std::string, std::unique_ptr<hr::ScriptedRules>> loaded;
  static const std::string file = (hr::fuzz::scratch() / "game.jsonl").string();
  hr::fuzz::write_file(file, hr::fuzz::as_text(data, size));
  hr::Transcript t;
  try {
    t = hr::read_transcript(file);
  } catch (const hr::TranscriptError&) {
    return 0;
  }
  const std::string key = t.ruleset + "|" + std::to_string(t.seats);
  auto it = loaded.find(key);
  if (it == loaded.end()) {
    std::unique_ptr<hr::ScriptedRules> rules;
    try {
      hr::LoadOptions options;
      options.seats = t.seats;
      rules = hr::load_rules(t.ruleset, options);
    } catch (const std::exception&) {
    }
    if (loaded.size() >= 256) loaded.clear();  // bounded: fuzzed ruleset names are endless
    it = loaded.emplace(key, std::move(rules)).first;
  }
  if (!it->second) return 0;
  hr::fuzz::NullStream out, err;
  hr::replay_transcript(file, t, *it->second, false, out, err);
  return 0;
}
