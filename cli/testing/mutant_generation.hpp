// mutant_generation.hpp — private to mutation testing (cli/testing/mutate*.cpp, mutant_*.cpp): what
// mutant_generation.cpp offers beside the functions mutate.hpp declares.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "mutate.hpp"

namespace hr {

/// Mutants of the [params] of `file` (ruleset.toml or a variant file): each parameter that has a schema in
/// `schema` (the base ruleset's [schema]), one step each way within its range.
std::vector<Mutant> parameter_mutants(const std::filesystem::path& file, const std::string& shown, const std::string& text,
                                      const toml::table* schema);

/// `text`'s lines, each trimmed of spaces, tabs and carriage returns, joined with "\n".
std::string trimmed_lines(const std::string& text);

}  // namespace hr
