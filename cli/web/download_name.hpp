// download_name.hpp — the file name a transcript downloads under from `houserules serve`: `<ruleset>-<seed>.jsonl`
// (docs/serve.md, "What a person does"), the page's and the HTTP header's alike.
#pragma once

#include <string>
#include <string_view>

namespace hr {

/// `<ruleset>-<seed>.jsonl` from the header line (the first line) of a JSON Lines transcript: the ruleset id with
/// every `/` (a variant, a house rule's path) made a `-`, a trailing `.toml` dropped, and any character but letters,
/// digits, `.`, `_` and `-` made `_` (a name safe in a Content-Disposition header and on every file system); the seed
/// exactly (all 64 bits). `fallback` + ".jsonl" when the header cannot be read (it always can for the server's own
/// transcripts).
std::string transcript_file_name(std::string_view transcript, std::string_view fallback);

}  // namespace hr
