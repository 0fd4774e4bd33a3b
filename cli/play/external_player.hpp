// external_player.hpp — a seat played by another program (`--players cmd:"python3 mybot.py"`), speaking JSON
// Lines on its standard input and output: the protocol of docs/external-players.md. The program gets a hello,
// then for each decision its observation (observation_json), the legal actions' texts and the moves played
// since its last message, and answers with an action; at the end it gets the result. A program that exits,
// writes something that is not JSON, answers an illegal action or takes longer than its move time stops the
// game with an ExternalPlayerError naming the seat and the program.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bots.hpp"

namespace hr {

/// The version of the protocol, sent in the hello message; raised on an incompatible change.
inline constexpr int kExternalProtocolVersion = 1;

/// An external program misbehaved or could not be started. The message names the seat and the program.
class ExternalPlayerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A player setting "cmd:[time=SECONDS:][stderr=FILE:]COMMAND", parsed.
struct ExternalPlayerSpec {
  std::string command;               ///< COMMAND as written (for messages)
  std::vector<std::string> argv;     ///< COMMAND split into words (split_command_line); argv[0] is the program
  double move_time = 10.0;           ///< seconds the program may take for each answer (0 < time <= 86400)
  std::string stderr_file;           ///< where the program's standard error goes (appended); empty: ours
};

/// Whether a player setting names an external program: it starts with "cmd:".
bool is_external_player(const std::string& setting);

/// Parses "cmd:[time=SECONDS:][stderr=FILE:]COMMAND". The options come first, each ended by ':'; COMMAND is
/// the rest. Throws std::invalid_argument with a readable message for an empty command, a bad time or an
/// unclosed quote.
ExternalPlayerSpec parse_external_player(const std::string& setting);

/// Splits a command line into words the way a POSIX shell splits a simple command, without any expansion:
/// blanks (space, tab) separate words; inside '...' every character is literal; inside "..." a backslash
/// escapes only " and \; elsewhere a backslash makes the next character literal. Nothing else is special:
/// $, *, ~, ;, |, > and & are ordinary characters, so no shell runs and nothing is substituted. Throws
/// std::invalid_argument for an unclosed quote or a trailing backslash.
std::vector<std::string> split_command_line(const std::string& command);

/// A seat played by an external program. The program is started (posix_spawnp: argv[0] searched in PATH, in a
/// process group of its own, standard error passed through or to the spec's file) when this object is made;
/// it is ended (its input closed, then the group killed after at most a second) and reaped when the object
/// is destroyed. Throws ExternalPlayerError from the constructor if the program cannot be started.
class ExternalPlayer : public Player {
 public:
  /// `setting` is "cmd:..." (parse_external_player); `seat` (1-based) names the seat in messages.
  ExternalPlayer(const std::string& setting, int seat);
  ~ExternalPlayer() override;
  ExternalPlayer(const ExternalPlayer&) = delete;
  ExternalPlayer& operator=(const ExternalPlayer&) = delete;

  /// Sends the hello (first time only), then a "decide" message, and waits up to the move time for the answer
  /// {"action": TEXT} or {"index": N}. Throws ExternalPlayerError naming the seat and the program if it exits,
  /// writes a line that is not such JSON, answers an action that is not legal (listing some legal ones) or
  /// does not answer in time (it is killed then).
  Action choose(Rules& rules, const InformationSet& info) override;
  std::string name() const override { return "cmd:" + spec_.command; }
  bool follows_moves() const override { return true; }
  /// Queued for the next message: {"seat": seat, "action": text}.
  void action_played(int seat, const std::string& text) override;
  /// Sends the "end" message (result, final observation, last moves). Never throws: a program that has gone
  /// by then is not an error.
  void match_over(Rules& rules, const GameState& final_state) override;

 private:
  [[noreturn]] void fail(const std::string& what);
  void send_hello(Rules& rules);
  /// Writes one JSON line, waiting at most the move time for room in the pipe. A program that has closed its
  /// input is not an error here: the next read_line reports what it wrote or how it ended.
  void send(const nlohmann::ordered_json& message);
  /// Reads the next non-blank line, waiting at most the move time.
  std::string read_line();
  /// What became of the program after its output closed: "exited with status 3", "was killed by signal 9".
  std::string exit_description();
  /// Whether the program (the process started, not what it started) has ended; it stays a zombie until stop_process.
  bool has_exited() const;
  void stop_process(bool at_once);

  ExternalPlayerSpec spec_;
  int seat_;
  pid_t pid_ = -1;
  int to_child_ = -1;    ///< our end of the program's standard input (a socket: no SIGPIPE, see send)
  int from_child_ = -1;  ///< our end of the program's standard output (a pipe)
  std::string buffer_;   ///< output read but not yet consumed
  bool hello_sent_ = false;
  bool input_closed_ = false;  ///< the program no longer reads its input (send met EPIPE)
  bool broken_ = false;  ///< an error was raised: kill at once at the end
  nlohmann::ordered_json moves_ = nlohmann::ordered_json::array();
  int exit_status_ = -1;  ///< waitpid status once reaped, -1 before
};

}  // namespace hr
