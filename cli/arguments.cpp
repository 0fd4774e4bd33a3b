// arguments.cpp — shared argument handling of the `houserules` commands (arguments.hpp).
#include "arguments.hpp"


#include <algorithm>
#include <cctype>
#include <filesystem>

#include <CLI/CLI.hpp>

#include "input_line.hpp"

namespace hr {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // d[i][j]: the distance between the first i bytes of a and the first j of b (optimal string alignment)
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest_word(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = SIZE_MAX;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) best_distance = d, best = c;
  }
  if (!best.empty()) {
    const std::size_t limit = std::clamp<std::size_t>(std::max(word.size(), best.size()) / 3, 1, 3);
    if (best_distance <= limit) return best;
  }
  std::string prefixed;
  for (const auto& c : candidates)
    if (word.size() >= 2 && c.starts_with(word)) {
      if (!prefixed.empty()) return {};
      prefixed = c;
    }
  return prefixed;
}

namespace {

std::vector<std::string> long_options(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options())
    for (const auto& name : option->get_lnames()) names.push_back("--" + name);
  return names;
}

/// The option `token` ("--gmaes" or "--gmaes=3") of `command` as a suggestion, when it is not one of its options.
std::string option_suggestion(const CLI::App& command, const std::string& token, const std::string& prefix) {
  const std::string name = token.substr(0, token.find('='));
  const auto names = long_options(command);
  if (std::find(names.begin(), names.end(), name) != names.end()) return {};
  const std::string guess = closest_word(name, names);
  if (guess.empty()) return {};
  return "did you mean `" + prefix + guess + "`? (`" + prefix + "--help` lists the options)";
}

}  // namespace

std::string did_you_mean(CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) commands.push_back(sub->get_name());
  CLI::App* command = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.starts_with("--")) {
      const std::string hint = command ? option_suggestion(*command, arg, "houserules " + command->get_name() + " ")
                                       : option_suggestion(app, arg, "houserules ");
      if (!hint.empty()) return hint;
      continue;
    }
    if (arg.starts_with("-") || command) continue;
    if (std::find(commands.begin(), commands.end(), arg) != commands.end()) {
      command = app.get_subcommand(arg);
      continue;
    }
    const std::string guess = closest_word(arg, commands);
    return guess.empty() ? "`houserules help` lists the commands"
                         : "did you mean `houserules " + guess + "`? (`houserules help` lists the commands)";
  }
  return {};
}

CLI::Validator seed_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const std::string shown = "'" + cut_for_message(text) + "'";
        if (text.starts_with('-') && text.size() > 1 &&
            std::all_of(text.begin() + 1, text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
          return "the seed " + shown + " is negative: give a whole number from 0 to 18446744073709551615";
        if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
          return "the seed " + shown + " is not a whole number: give one from 0 to 18446744073709551615";
        const std::string digits = text.substr(std::min(text.find_first_not_of('0'), text.size() - 1));
        const std::string max = "18446744073709551615";
        if (digits.size() > max.size() || (digits.size() == max.size() && digits > max))
          return "the seed " + shown + " is out of range: give a whole number from 0 to 18446744073709551615 (2^64 - 1)";
        return {};
      },
      "SEED");
}

CLI::Validator positive_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          std::size_t used = 0;
          const long long value = std::stoll(text, &used);
          if (used != text.size()) throw std::invalid_argument(text);
          if (value < 1) return "must be at least 1, not " + text;
          if (value > 1000000000) return "must be at most 1000000000, not " + text;
          return {};
        } catch (const std::exception&) {
          return "'" + cut_for_message(text) + "' is not a whole number";
        }
      },
      "N>=1");
}

CLI::Option* add_json_flag(CLI::App& command, bool& json) {
  return command.add_flag("--json", json,
                          "Print one JSON document on stdout instead of text; messages go to stderr (schema: docs/cli.md)");
}

CLI::Option* add_set_option(CLI::App& command, std::vector<std::string>& sets) {
  return command
      .add_option("--set", sets,
                  "Override a parameter, name=value (repeatable; a TOML value, or a bare word as a string; "
                  "checked against the ruleset's schema; `houserules describe` lists them)")
      ->type_name("NAME=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace hr
