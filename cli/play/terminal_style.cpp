// terminal_style.cpp — terminal_style.hpp: line widths, word wrapping, card names in colour.
#include "terminal_style.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iostream>
#include <unordered_map>
#include <variant>

#include "terminal_wrap.hpp"

namespace hr {

namespace {

/// The columns of a turn's line (a longer one goes on under it).
constexpr std::size_t kTurnLineWidth = 100;

/// ANSI colour of a component's `colour` attribute (a colour name, or its 1-based index in the usual Lost
/// Cities order), or nullptr.
const char* ansi_of_colour(const AttributeValue* value) {
  static const char* const kNames[] = {"yellow", "blue", "white", "green", "red", "purple", "orange"};
  static const char* const kCodes[] = {"\033[33m", "\033[34m", "\033[97m", "\033[32m", "\033[31m", "\033[35m",
                                       "\033[38;5;208m"};
  if (value == nullptr) return nullptr;
  if (const auto* index = std::get_if<std::int64_t>(value))
    return *index >= 1 && *index <= 7 ? kCodes[*index - 1] : nullptr;
  if (const auto* name = std::get_if<std::string>(value))
    for (std::size_t i = 0; i < 7; ++i)
      if (lower(*name) == kNames[i]) return kCodes[i];
  return nullptr;
}

}  // namespace

std::size_t line_width(const std::ostream& stream) {
  if (&stream != &std::cout) return kTurnLineWidth;
  const std::size_t columns = terminal_columns(STDOUT_FILENO);
  return columns == 0 ? kTurnLineWidth : std::clamp<std::size_t>(columns, 40, kTurnLineWidth);
}

std::string lower(std::string text) {
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

std::string paint_cards(const std::string& text, const Layout& layout, bool colour) {
  if (!colour) return text;
  std::unordered_map<std::string, const char*> codes;
  for (const Component& c : layout.components)
    if (const char* code = ansi_of_colour(c.attribute("colour"))) codes.emplace(c.name, code);
  if (codes.empty()) return text;
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!std::isalnum(static_cast<unsigned char>(text[i]))) {
      out += text[i++];
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && std::isalnum(static_cast<unsigned char>(text[j]))) ++j;
    const std::string word = text.substr(i, j - i);
    const auto found = codes.find(word);
    out += found == codes.end() ? word : std::string(found->second) + word + kReset;
    i = j;
  }
  return out;
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t first_width, std::size_t width,
                                    std::size_t indent) {
  std::vector<std::string> lines(1);
  std::size_t used = first_width;
  bool line_start = true;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(i, end - i);
    if (!line_start && used + 1 + word.size() > width) {
      lines.emplace_back(indent, ' ');
      used = indent;
      line_start = true;
    }
    if (!line_start) {
      lines.back() += ' ';
      ++used;
    }
    lines.back() += word;
    used += word.size();
    line_start = false;
    i = end + 1;
  }
  return lines;
}

std::string wrapped_for(const std::ostream& stream, const std::string& text) {
  if (&stream == &std::cout) return wrap_for_terminal(text, STDOUT_FILENO);
  if (&stream == &std::cerr) return wrap_for_terminal(text, STDERR_FILENO);
  return text;
}

}  // namespace hr
