// shell_word.hpp — quoting for the commands the CLI prints for the user to copy (reproduce lines).
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace hr {

/// `text` as one word of a POSIX shell command: unchanged when it holds only letters, digits and . _ - / , = :
/// (and is not empty), else in single quotes with each ' written as '\''.
inline std::string shell_word(const std::string& text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-' || ch == '/' ||
           ch == ',' || ch == '=' || ch == ':';
  });
  if (plain) return text;
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace hr
