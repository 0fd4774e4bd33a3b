// replay.hpp — private to cli/play/: what `play` shares with `replay` (replay.cpp) beyond play.hpp: the limit
// of a game's length, and replaying a transcript being resumed onto the state.
#pragma once

#include <cstdint>
#include <string>

#include "rules.hpp"
#include "state.hpp"
#include "transcript.hpp"

namespace hr {

/// `play` and `replay` stop a game still running after this many actions, as `simulate` and `check` do by
/// default (--max-plies): rules whose round never ends would otherwise play forever.
constexpr std::int64_t kMaxPlies = 100000;

/// The message of a game stopped at kMaxPlies.
std::string too_long(const GameState& state);

/// Replays the actions of a transcript being resumed onto `state` (checking each as replay does); throws
/// TranscriptError naming the line of the first that does not reproduce.
void replay_for_resume(const std::string& file, const Transcript& t, Rules& rules, GameState& state);

}  // namespace hr
