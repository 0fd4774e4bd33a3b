// printable.cpp — printable() and truncated(): text made safe for a terminal, and cut for messages.
#include "printable.hpp"

#include <cstdio>

namespace hr {

std::string printable(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && !(keep_newlines && (c == '\n' || c == '\t'))) || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\%03u", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += ch;
    }
  }
  return out;
}

std::string truncated(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;  // not inside a UTF-8 character
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size() - cut) + " more bytes)";
}

}  // namespace hr
