// interrupt.cpp — interrupt.hpp: the SIGINT flag, its handler, and readline's key reader that stops on it.
#include "interrupt.hpp"

#include <unistd.h>

#include <cerrno>

namespace hr {

namespace {

/// Set by the SIGINT handler play_command installs (Ctrl-C): the game stops with a `stopped` line.
volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) { g_interrupted = 1; }

}  // namespace

bool interrupted() { return g_interrupted != 0; }

#ifdef HOUSERULES_HAVE_READLINE
int read_key_or_interrupt(FILE* stream) {
  while (true) {
    unsigned char ch = 0;
    const ssize_t got = ::read(fileno(stream), &ch, 1);
    if (got == 1) return ch;
    if (got == 0 || errno != EINTR || g_interrupted) return EOF;
  }
}
#endif

InterruptGuard::InterruptGuard() {
  g_interrupted = 0;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked read returns
  sigaction(SIGINT, &action, &previous_);
}

InterruptGuard::~InterruptGuard() { sigaction(SIGINT, &previous_, nullptr); }

}  // namespace hr
