// terminal_wrap.hpp — long messages broken at blanks to the width of the terminal they are printed on, so that
// a terminal does not cut a word at its last column (issue 37); unchanged in a pipe or a file.
#pragma once

#include <cstddef>
#include <string>

namespace hr {

/// The width in columns of the terminal on file descriptor `fd` (TIOCGWINSZ), or 0 when `fd` is not a
/// terminal (a pipe, a file) or its width is unknown.
std::size_t terminal_columns(int fd);

/// `text` with each of its lines broken at blanks into lines of at most `columns` columns, the continuation
/// lines indented by `indent` blanks; a word longer than a line stays whole (the terminal then cuts it, as it
/// must). `columns` 0: `text` unchanged.
std::string wrap_to_columns(const std::string& text, std::size_t columns, std::size_t indent = 2);

/// wrap_to_columns(text, terminal_columns(fd)): for a message about to be written to `fd` (1 or 2).
std::string wrap_for_terminal(const std::string& text, int fd);

}  // namespace hr
