// download_name.cpp — the name a transcript downloads under (see download_name.hpp).
#include "download_name.hpp"

#include <nlohmann/json.hpp>

namespace hr {

std::string transcript_file_name(std::string_view transcript, std::string_view fallback) {
  const std::string line(transcript.substr(0, transcript.find('\n')));
  const nlohmann::json header = nlohmann::json::parse(line, nullptr, false);
  if (!header.is_object() || !header.contains("ruleset") || !header["ruleset"].is_string() || !header.contains("seed") ||
      !header["seed"].is_number_unsigned())
    return std::string(fallback) + ".jsonl";
  std::string ruleset = header["ruleset"].get<std::string>();
  if (ruleset.size() > 5 && ruleset.ends_with(".toml")) ruleset.resize(ruleset.size() - 5);
  std::string name;
  for (const char c : ruleset) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (c == '/' || c == '\\') {
      if (!name.empty() && name.back() != '-') name += '-';
    } else {
      name += plain ? c : '_';
    }
  }
  while (!name.empty() && (name.front() == '-' || name.front() == '.')) name.erase(name.begin());
  if (name.empty()) name = "game";
  return name + "-" + std::to_string(header["seed"].get<std::uint64_t>()) + ".jsonl";
}

}  // namespace hr
