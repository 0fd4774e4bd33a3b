// input_line.cpp — normalising and bounding input lines (input_line.hpp).
#include "input_line.hpp"

#include <istream>

namespace hr {

namespace {

/// The length of the valid UTF-8 sequence starting at text[i] (1 for ASCII), or 0 if it is not valid.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned min = 0;
  unsigned code = 0;
  if ((c & 0xe0) == 0xc0) n = 2, min = 0x80, code = c & 0x1f;
  else if ((c & 0xf0) == 0xe0) n = 3, min = 0x800, code = c & 0x0f;
  else if ((c & 0xf8) == 0xf0) n = 4, min = 0x10000, code = c & 0x07;
  else return 0;
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3f);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return n;
}

}  // namespace

InputLine normalize_input_line(std::string_view raw) {
  InputLine out;
  if (raw.size() > kMaxInputLine) {
    out.error = "the line is too long (more than " + std::to_string(kMaxInputLine) + " characters)";
    return out;
  }
  bool blank = false;
  for (std::size_t i = 0; i < raw.size();) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f') {
      blank = !out.text.empty();
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {  // other control characters: dropped
      ++i;
      continue;
    }
    if (blank) out.text.push_back(' ');
    blank = false;
    const std::size_t n = utf8_length(raw, i);
    if (n == 0) {
      out.text.push_back('?');
      ++i;
    } else {
      out.text.append(raw.substr(i, n));
      i += n;
    }
  }
  return out;
}

bool read_bounded_line(std::istream& in, std::string& line, std::size_t max_bytes) {
  line.clear();
  std::istream::sentry ok(in, true);
  if (!ok) return false;
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  while (true) {
    const auto c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(any ? std::ios::eofbit : std::ios::eofbit | std::ios::failbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    if (line.size() <= max_bytes) line.push_back(static_cast<char>(c));
  }
}

std::string cut_for_message(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;  // not inside a character
  return std::string(text.substr(0, end)) + "\u2026";
}

}  // namespace hr
