// input_line.hpp — the one gate for a line of text typed by a person or sent by a program (the human prompt,
// a transcript's action, a scenario's action, later `houserules serve` and external bots) before any rules
// code sees it. Rules hooks (Lua patterns included) then only ever see short, clean, single-spaced text:
// a script's pattern cannot be made to backtrack over 200,000 blanks (issue 18).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

namespace hr {

/// The longest input line accepted, in bytes, before normalisation. Action texts are a few words
/// ("play Y7", "discard Rx"); anything longer is refused without reaching the rules.
inline constexpr std::size_t kMaxInputLine = 256;

/// An input line after normalize_input_line: `text` when accepted, else `error` (one line, for a person).
struct InputLine {
  std::string text;
  std::string error;
  explicit operator bool() const { return error.empty(); }
};

/// Normalises one line of input: refuses lines longer than kMaxInputLine bytes; drops control characters (bytes 0x00-0x1f and 0x7f, except that tab, CR and LF count as
/// blanks); replaces bytes that are not valid UTF-8 with '?'; collapses every run of blanks to one space and
/// trims both ends. Case is kept. Linear in the input's length.
InputLine normalize_input_line(std::string_view raw);

/// Reads one line from `in` (up to '\n', which is dropped) keeping at most `max_bytes` + 1 bytes of it
/// (enough for normalize_input_line to see that it is too long) and discarding the rest of the line, so that
/// one endless line cannot exhaust memory. Returns false at the end of input with nothing read.
bool read_bounded_line(std::istream& in, std::string& line, std::size_t max_bytes = kMaxInputLine);

/// `text` cut to at most `max_bytes` (at a UTF-8 character boundary) with "…" appended when it was cut, for
/// echoing input in error messages.
std::string cut_for_message(std::string_view text, std::size_t max_bytes = 200);

}  // namespace hr
