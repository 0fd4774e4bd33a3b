// toml_util.hpp — reading TOML files with errors that name the file, line and column.
#pragma once

#include <filesystem>
#include <string>

#include <toml++/toml.h>

namespace hr {

/// Parses `file`; throws LoadError "file:line:column: description" on a syntax error or
/// "file: cannot open the file".
toml::table parse_toml_file(const std::filesystem::path& file);
/// "file:line" for a node (or just "file" when the node has no source position).
std::string where(const std::filesystem::path& file, const toml::node& node);

}  // namespace hr
