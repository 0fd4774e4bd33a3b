// output_path.hpp — whether a file a command was asked to write (a transcript, a report, --junit) can be written,
// checked before the work starts, so that a long run does not fail at its end.
#pragma once

#include <string>

namespace hr {

/// Why `path` cannot be written as an output file ("the folder 'x' does not exist", "'x' is a folder", "the folder
/// 'x' is not writable"), or "" when it can. Nothing is created.
std::string output_path_problem(const std::string& path);

}  // namespace hr
