// printable.hpp — text from a script or a file made safe to show: control characters escaped, long texts cut.
// Used by scripting's own messages and by the CLI (sandbox.hpp includes this header for older callers).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hr {

/// `text` with every control character (and DEL) written as \ddd, so that nothing a script returns can move
/// the cursor, write the clipboard or start a fake line on a terminal; `keep_newlines` keeps '\n' and '\t'
/// (multi-line texts: describe, tracebacks).
std::string printable(std::string_view text, bool keep_newlines = false);
/// `text` cut to at most `limit` bytes (at a UTF-8 boundary), with a note of the bytes left out.
std::string truncated(std::string_view text, std::size_t limit);

}  // namespace hr
