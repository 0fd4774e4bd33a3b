// interrupt.hpp — private to cli/play/: Ctrl-C during `play` (interrupt.cpp). While an InterruptGuard lives,
// SIGINT only sets a flag: the read at the prompt or the bot's move ends, and the game stops with a `stopped`
// line in the transcript.
#pragma once

#include <csignal>
#include <cstdio>

namespace hr {

/// Whether Ctrl-C was pressed since the current InterruptGuard was made.
bool interrupted();

#ifdef HOUSERULES_HAVE_READLINE
/// readline's character reader, but a read interrupted by Ctrl-C ends the line (readline's own would retry).
int read_key_or_interrupt(FILE* stream);
#endif

/// Catches SIGINT (Ctrl-C) for the life of a `play`: the read at the prompt or the bot's move ends and the
/// game stops with a `stopped` line in the transcript. The previous handler comes back afterwards.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction previous_ {};
};

}  // namespace hr
