// mutant_equivalents.cpp — equivalent-mutants files (mutate.hpp, docs/testing-rules.md "Equivalent
// mutants"): reading one (each entry's file, line, lines before and after, and why), and matching its entries
// to the mutants found, each to the nearest unclaimed mutant with the same file and lines.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "input_line.hpp"
#include "mutant_generation.hpp"
#include "printable.hpp"
#include "ruleset.hpp"
#include "toml_util.hpp"

namespace hr {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void refuse_equivalents(const fs::path& file, const toml::node& node, const std::string& what) {
  throw LoadError(where(file, node) + ": " + what);
}

}  // namespace

std::vector<DeclaredEquivalent> read_equivalents(const fs::path& file) {
  const toml::table doc = parse_toml_file(file);
  const fs::path dir = file.parent_path();
  std::vector<DeclaredEquivalent> out;
  for (const auto& [key, node] : doc) {
    if (key.str() != "equivalent")
      refuse_equivalents(file, node, "unknown key '" + printable(cut_for_message(std::string(key.str()))) +
                     "' (an equivalent-mutants file has only [[equivalent]] groups)");
  }
  const toml::node* groups_node = doc.get("equivalent");
  if (!groups_node) return out;
  const toml::array* groups = groups_node->as_array();
  if (!groups) refuse_equivalents(file, *groups_node, "'equivalent' must be an array of tables ([[equivalent]])");
  int group_number = 0;
  for (const toml::node& group_node : *groups) {
    ++group_number;
    const std::string group_name = fmt::format("[[equivalent]] number {}", group_number);
    const toml::table* group = group_node.as_table();
    if (!group) refuse_equivalents(file, group_node, group_name + " is not a table");
    for (const auto& [key, node] : *group)
      if (key.str() != "why" && key.str() != "mutants")
        refuse_equivalents(file, node, group_name + ": unknown key '" + printable(cut_for_message(std::string(key.str()))) +
                       "' (a group has `why` and `mutants`)");
    const toml::node* why_node = group->get("why");
    const std::optional<std::string> why = why_node ? why_node->value<std::string>() : std::nullopt;
    if (!why || trimmed_lines(*why).empty())
      refuse_equivalents(file, why_node ? *why_node : group_node,
           group_name + ": `why` must say, in words, why no test can tell these mutants from the rules");
    const toml::node* mutants_node = group->get("mutants");
    const toml::array* mutants = mutants_node ? mutants_node->as_array() : nullptr;
    if (!mutants || mutants->empty())
      refuse_equivalents(file, mutants_node ? *mutants_node : group_node,
           group_name + ": `mutants` must be a non-empty array of { file, line, from, to } tables");
    for (const toml::node& entry_node : *mutants) {
      const toml::table* entry = entry_node.as_table();
      if (!entry) refuse_equivalents(file, entry_node, group_name + ": each of `mutants` is a table { file, line, from, to }");
      for (const auto& [key, node] : *entry)
        if (key.str() != "file" && key.str() != "line" && key.str() != "from" && key.str() != "to")
          refuse_equivalents(file, node, "unknown key '" + printable(cut_for_message(std::string(key.str()))) +
                         "' (a mutant is { file, line, from, to })");
      DeclaredEquivalent d;
      const std::optional<std::string> name = (*entry)["file"].value<std::string>();
      const std::optional<std::int64_t> line = (*entry)["line"].value<std::int64_t>();
      const std::optional<std::string> from = (*entry)["from"].value<std::string>();
      const std::optional<std::string> to = (*entry)["to"].value<std::string>();
      if (!name || name->empty())
        refuse_equivalents(file, entry_node, "a mutant needs `file`, the script's path in the ruleset folder");
      if (!line || *line < 1 || *line > 100000000)
        refuse_equivalents(file, entry_node, "a mutant needs `line`, a line number from 1");
      if (!from || !to)
        refuse_equivalents(file, entry_node, "a mutant needs `from` and `to`, its lines before and after the change");
      d.file_text = *name;
      d.file = fs::weakly_canonical(dir / *name);
      d.line = static_cast<int>(*line);
      d.lines = {trimmed_lines(*from), trimmed_lines(*to)};
      d.why = *why;
      d.at = where(file, entry_node);
      out.push_back(std::move(d));
    }
  }
  return out;
}

std::vector<DeclaredEquivalent> match_equivalents(const std::vector<DeclaredEquivalent>& declared,
                                                  std::vector<Mutant>& mutants,
                                                  const std::map<fs::path, std::string>& sources) {
  // Index the mutants by file and lines once.
  std::map<std::tuple<fs::path, std::string, std::string>, std::vector<std::size_t>> by_text;
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    const auto source = sources.find(mutants[i].file);
    if (source == sources.end()) continue;
    MutantLines lines = mutant_lines(source->second, mutants[i]);
    by_text[{mutants[i].file, std::move(lines.from), std::move(lines.to)}].push_back(i);
  }
  std::vector<DeclaredEquivalent> stale;
  for (const DeclaredEquivalent& d : declared) {
    const auto found = by_text.find({d.file, d.lines.from, d.lines.to});
    std::size_t best = mutants.size();
    if (found != by_text.end()) {
      for (const std::size_t i : found->second) {
        if (!mutants[i].declared_at.empty()) continue;  // claimed by an earlier entry
        if (best == mutants.size() || std::abs(mutants[i].line - d.line) < std::abs(mutants[best].line - d.line))
          best = i;
      }
    }
    if (best == mutants.size()) {
      stale.push_back(d);
      continue;
    }
    mutants[best].equivalent_why = d.why;
    mutants[best].declared_at = d.at;
  }
  return stale;
}

}  // namespace hr
