// terminal_wrap.cpp — messages wrapped at the terminal's width (terminal_wrap.hpp).
#include "terminal_wrap.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

namespace hr {

std::size_t terminal_columns(int fd) {
  if (!isatty(fd)) return 0;
  winsize size{};
  if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

namespace {

/// One line (no '\n') wrapped: see wrap_to_columns. Columns are counted in bytes of UTF-8 lead characters.
std::string wrap_line(const std::string& line, std::size_t columns, std::size_t indent) {
  auto width = [](const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;  // continuation bytes take no column
    return n;
  };
  if (width(line) <= columns) return line;
  std::string out, current;
  std::size_t used = 0;
  std::size_t i = 0;
  const std::size_t lead = line.find_first_not_of(' ');  // a line's own indentation is kept
  if (lead != std::string::npos && lead > 0) {
    current = line.substr(0, lead);
    used = lead;
    i = lead;
  }
  bool line_start = true;
  while (i <= line.size()) {
    std::size_t end = line.find(' ', i);
    if (end == std::string::npos) end = line.size();
    const std::string word = line.substr(i, end - i);
    if (!word.empty()) {
      if (!line_start && used + 1 + width(word) > columns) {
        out += current + '\n';
        current = std::string(indent, ' ');
        used = indent;
        line_start = true;
      }
      if (!line_start) {
        current += ' ';
        ++used;
      }
      current += word;
      used += width(word);
      line_start = false;
    }
    i = end + 1;
  }
  return out + current;
}

}  // namespace

std::string wrap_to_columns(const std::string& text, std::size_t columns, std::size_t indent) {
  if (columns == 0) return text;
  if (indent >= columns / 2) indent = 0;
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    out += wrap_line(text.substr(start, end == std::string::npos ? std::string::npos : end - start), columns, indent);
    if (end == std::string::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string wrap_for_terminal(const std::string& text, int fd) { return wrap_to_columns(text, terminal_columns(fd)); }

}  // namespace hr
