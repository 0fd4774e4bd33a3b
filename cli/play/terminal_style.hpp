// terminal_style.hpp — private to cli/play/: how `play` and `replay` lay text out for the person reading it
// (terminal_style.cpp): the width of a line, words wrapped to it, card names painted in their colour, and the
// few ANSI codes the prompt and the match use.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "layout.hpp"

namespace hr {

/// The width of the lines written to `stream`: 100 columns, or the terminal's width when `stream` is std::cout
/// on a terminal narrower than that (at least 40), so that the terminal never cuts a line mid-word (issue 37).
/// Other streams (a pipe, a test's string stream) always get 100.
std::size_t line_width(const std::ostream& stream);

/// `text` in lower case (ASCII).
std::string lower(std::string text);

inline const std::string kReset = "\033[0m";
inline const std::string kBold = "\033[1m";
inline const std::string kRed = "\033[31m";

/// Each word of `text` (a run of letters and digits) that names a component with a `colour` attribute,
/// painted in that colour; `text` unchanged when `colour` is false.
std::string paint_cards(const std::string& text, const Layout& layout, bool colour);

/// `text` broken at blanks into lines of at most `width` columns, the first after `first_width` columns
/// already used, the others indented by `indent` blanks. A word longer than a line stays whole.
std::vector<std::string> wrap_words(const std::string& text, std::size_t first_width, std::size_t width,
                                    std::size_t indent);

/// `text` wrapped at the terminal's width when `stream` is std::cout or std::cerr and that is a terminal (a long
/// refusal or error, issue 37); unchanged otherwise.
std::string wrapped_for(const std::ostream& stream, const std::string& text);

}  // namespace hr
