// state_folder.hpp — where `play` keeps the transcript of a game played at a terminal without --log, so that
// `quit`, Ctrl-C or a closed terminal never throws a game away (issue 32 item 11).
#pragma once

#include <cstdint>
#include <string>

namespace hr {

/// The user's houserules state folder: $XDG_STATE_HOME/houserules when XDG_STATE_HOME is an absolute path, else
/// $HOME/.local/state/houserules (the XDG Base Directory specification). Created with its missing parents, each
/// with mode 700 (the transcripts hold the players' hands). Throws std::runtime_error naming the folder when it
/// cannot be created, or when neither variable is set.
std::string state_folder();

/// A new, empty transcript file in state_folder() for a game of `seed` started now: game-YYYYMMDD-HHMMSS-SEED.jsonl
/// (UTC), with -2, -3, ... added when that name is taken; created with mode 600. Returns its path; throws
/// std::runtime_error as state_folder, or naming the file when it cannot be created.
std::string new_state_log(std::uint64_t seed);

}  // namespace hr
