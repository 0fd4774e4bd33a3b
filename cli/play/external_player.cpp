// external_player.cpp — a seat played by another program over JSON Lines (docs/external-players.md).
//
// The program's standard input is one end of a Unix socket pair, not a pipe: send(..., MSG_NOSIGNAL) then
// reports a program that has gone as EPIPE instead of raising SIGPIPE, which would kill houserules (and
// ignoring SIGPIPE process-wide would change how `houserules ... | head` ends). Its standard output is a pipe.
// Both our ends are non-blocking and waited on with poll(), so every wait has the move time as its limit.
#include "external_player.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "input_line.hpp"
#include "observation_json.hpp"
#include "sandbox.hpp"
#include "scripted_rules.hpp"

extern char** environ;

namespace hr {

using ojson = nlohmann::ordered_json;

namespace {

/// The longest answer line read from a program; a longer one is an error (an answer is a few dozen bytes).
constexpr std::size_t kMaxAnswerBytes = 64 * 1024;
/// Legal actions listed in the message for an illegal answer.
constexpr std::size_t kListedLegal = 8;

using Clock = std::chrono::steady_clock;

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

/// Now plus `seconds`.
Clock::time_point move_deadline(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

std::string seconds_text(double seconds) { return fmt::format("{:g} s", seconds); }

/// One JSON line; invalid UTF-8 in a name or text from a script is replaced, never an exception.
std::string json_line(const ojson& message) {
  return message.dump(-1, ' ', false, ojson::error_handler_t::replace) + '\n';
}

/// `text` quoted for a message: control characters escaped, cut when long.
std::string in_quotes(std::string_view text) { return "'" + printable(cut_for_message(text, 120)) + "'"; }

}  // namespace

bool is_external_player(const std::string& setting) { return setting.rfind("cmd:", 0) == 0; }

std::vector<std::string> split_command_line(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char ch = command[i];
    if (ch == ' ' || ch == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (ch == '\'') {
      const std::size_t end = command.find('\'', i + 1);
      if (end == std::string::npos) throw std::invalid_argument("unclosed ' in the command " + in_quotes(command));
      word += command.substr(i + 1, end - i - 1);
      i = end;
    } else if (ch == '"') {
      std::size_t j = i + 1;
      for (; j < command.size() && command[j] != '"'; ++j) {
        if (command[j] == '\\' && j + 1 < command.size() && (command[j + 1] == '"' || command[j + 1] == '\\')) ++j;
        word += command[j];
      }
      if (j >= command.size()) throw std::invalid_argument("unclosed \" in the command " + in_quotes(command));
      i = j;
    } else if (ch == '\\') {
      if (i + 1 >= command.size()) throw std::invalid_argument("the command " + in_quotes(command) + " ends with a backslash");
      word += command[++i];
    } else {
      word += ch;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

ExternalPlayerSpec parse_external_player(const std::string& setting) {
  if (!is_external_player(setting)) throw std::invalid_argument("not an external player setting: " + in_quotes(setting));
  ExternalPlayerSpec spec;
  std::string rest = setting.substr(4);
  while (true) {
    const bool time = rest.rfind("time=", 0) == 0, err = rest.rfind("stderr=", 0) == 0;
    if (!time && !err) break;
    const std::size_t colon = rest.find(':');
    const std::size_t start = time ? 5 : 7;
    const std::string value = rest.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (colon == std::string::npos)
      throw std::invalid_argument(fmt::format("{}: the option {} must be followed by ':' and the command, e.g. "
                                              "cmd:time=5:python3 mybot.py", in_quotes(setting), in_quotes(rest)));
    if (time) {
      char* end = nullptr;
      const double seconds = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(seconds) || seconds <= 0 || seconds > 86400)
        throw std::invalid_argument(fmt::format("{}: the move time must be a number of seconds above 0 and at most "
                                                "86400, e.g. cmd:time=2.5:python3 mybot.py", in_quotes(setting)));
      spec.move_time = seconds;
    } else {
      if (value.empty()) throw std::invalid_argument(in_quotes(setting) + ": stderr= needs a file name");
      spec.stderr_file = value;
    }
    rest.erase(0, colon + 1);
  }
  spec.command = rest;
  spec.argv = split_command_line(rest);
  if (spec.argv.empty())
    throw std::invalid_argument(in_quotes(setting) + ": no command after cmd: (e.g. --players cmd:\"python3 mybot.py\",greedy)");
  return spec;
}

ExternalPlayer::ExternalPlayer(const std::string& setting, int seat) : seat_(seat) {
  try {
    spec_ = parse_external_player(setting);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("seat {}: {}", seat, e.what()));
  }
  int input[2] = {-1, -1}, output[2] = {-1, -1};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0 || pipe2(output, O_CLOEXEC) != 0) {
    const int error = errno;
    for (int fd : {input[0], input[1], output[0], output[1]})
      if (fd >= 0) close(fd);
    fail(std::string("cannot make its pipes: ") + std::strerror(error));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input[1], 0);
  posix_spawn_file_actions_adddup2(&actions, output[1], 1);
  if (!spec_.stderr_file.empty())
    posix_spawn_file_actions_addopen(&actions, 2, spec_.stderr_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);  // no transcript or other file of ours leaks into it
#endif
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t no_signals, defaults;
  sigemptyset(&no_signals);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  posix_spawnattr_setsigmask(&attributes, &no_signals);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setpgroup(&attributes, 0);  // its own group: killed as a whole at the end, helpers included
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> argv;
  for (std::string& word : spec_.argv) argv.push_back(word.data());
  argv.push_back(nullptr);
  const int error = posix_spawnp(&pid_, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(input[1]);
  close(output[1]);
  to_child_ = input[0];
  from_child_ = output[0];
  if (error != 0) {
    pid_ = -1;
    stop_process(true);  // closes our ends: no destructor runs for a constructor that throws
    fail(fmt::format("cannot start {}{}: {}", in_quotes(spec_.argv[0]),
                     spec_.stderr_file.empty() ? "" : " (or open its stderr file " + in_quotes(spec_.stderr_file) + ")",
                     std::strerror(error)));
  }
  fcntl(to_child_, F_SETFL, fcntl(to_child_, F_GETFL) | O_NONBLOCK);
  fcntl(from_child_, F_SETFL, fcntl(from_child_, F_GETFL) | O_NONBLOCK);
}

ExternalPlayer::~ExternalPlayer() { stop_process(broken_); }

void ExternalPlayer::fail(const std::string& what) {
  broken_ = true;
  throw ExternalPlayerError(fmt::format("seat {}, external player {}: {}", seat_, in_quotes(spec_.command), what));
}

void ExternalPlayer::stop_process(bool at_once) {
  if (to_child_ >= 0) close(to_child_);  // end of input: a well-behaved program stops now
  to_child_ = -1;
  if (pid_ > 0) {
    siginfo_t info{};
    const auto deadline = Clock::now() + std::chrono::seconds(1);
    while (!at_once && Clock::now() < deadline) {
      info.si_pid = 0;  // WNOWAIT: the leader stays a zombie, so its group id cannot be reused before the kill
      if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    kill(-pid_, SIGKILL);  // the group: what the program started goes too
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  if (from_child_ >= 0) close(from_child_);
  from_child_ = -1;
}

bool ExternalPlayer::has_exited() const {
  if (pid_ <= 0) return true;
  siginfo_t info{};
  info.si_pid = 0;  // WNOWAIT: it stays a zombie, for exit_description and the group kill of stop_process
  return waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != 0;
}

std::string ExternalPlayer::exit_description() {
  if (pid_ <= 0) return "is not running";
  siginfo_t info{};
  const auto deadline = Clock::now() + std::chrono::milliseconds(500);
  do {
    info.si_pid = 0;
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0) return "has gone";
    if (info.si_pid != 0) {
      if (info.si_code == CLD_EXITED) return fmt::format("exited with status {}", info.si_status);
      return fmt::format("was killed by signal {} ({})", info.si_status, strsignal(info.si_status));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  } while (Clock::now() < deadline);
  return "closed its standard output";
}

void ExternalPlayer::send(const ojson& message) {
  if (input_closed_) return;  // it stopped reading: what it wrote, or how it ended, is reported by read_line
  const std::string line = json_line(message);
  const auto deadline = move_deadline(spec_.move_time);
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::send(to_child_, line.data() + done, line.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{to_child_, POLLOUT, 0};
      if (poll(&p, 1, remaining_ms(deadline)) == 0)
        fail(fmt::format("did not read its input for {} (its move time)", seconds_text(spec_.move_time)));
      continue;
    }
    input_closed_ = true;  // EPIPE: the program closed its input (or ended); read_line says what became of it
    return;
  }
}

std::string ExternalPlayer::read_line() {
  const auto deadline = move_deadline(spec_.move_time);
  while (true) {
    const std::size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines are ignored
      return line;
    }
    if (buffer_.size() > kMaxAnswerBytes)
      fail(fmt::format("wrote a line longer than {} KiB without an end: {}", kMaxAnswerBytes / 1024, in_quotes(buffer_)));
    pollfd p{from_child_, POLLIN, 0};
    // In slices of 50 ms: a program that has exited is said so at once, even when something it started (a
    // background job) still holds its output open, so that no end of file comes.
    const int ready = poll(&p, 1, std::min(remaining_ms(deadline), 50));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0 && has_exited())
      fail(fmt::format("the program {} before answering{}", exit_description(),
                       buffer_.empty() ? "" : " (it left an unfinished line: " + in_quotes(buffer_) + ")"));
    if (ready == 0 && remaining_ms(deadline) > 0) continue;
    if (ready == 0) {
      stop_process(true);
      fail(fmt::format("did not answer within {} (its move time; set it with cmd:time=SECONDS:...); it was stopped",
                       seconds_text(spec_.move_time)));
    }
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
    } else if (n == 0) {
      fail(fmt::format("the program {} before answering{}", exit_description(),
                       buffer_.empty() ? "" : " (it left an unfinished line: " + in_quotes(buffer_) + ")"));
    } else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
      fail(std::string("cannot read its output: ") + std::strerror(errno));
    }
  }
}

void ExternalPlayer::send_hello(Rules& rules) {
  hello_sent_ = true;
  ojson hello = {{"type", "hello"}, {"protocol", kExternalProtocolVersion}, {"ruleset", rules.id()}};
  if (auto* scripted = dynamic_cast<ScriptedRules*>(&rules)) {
    hello["name"] = scripted->info().name;
    hello["base"] = scripted->info().base_id;
    ojson variants = ojson::array();
    for (const VariantInfo& v : scripted->info().variants) variants.push_back(v.id);
    hello["variants"] = std::move(variants);
    hello["params"] = ojson::parse(scripted->params_json(), nullptr, false);
    if (hello["params"].is_discarded()) hello["params"] = ojson::object();
  }
  hello["seat"] = seat_;
  hello["seats"] = rules.layout().seats;
  hello["move_time"] = spec_.move_time;
  hello["layout"] = layout_json(rules.layout());
  send(hello);
}

void ExternalPlayer::action_played(int seat, const std::string& text) {
  moves_.push_back({{"seat", seat}, {"action", text}});
}

Action ExternalPlayer::choose(Rules& rules, const InformationSet& info) {
  if (!hello_sent_) send_hello(rules);
  const GameState view = info.observation();
  const auto legal = info.legal();
  std::vector<std::string> texts;
  texts.reserve(legal.size());
  for (Action a : legal) texts.push_back(rules.action_text(view, a));
  ojson decide = {{"type", "decide"}, {"seat", seat_},  {"ply", view.ply()}, {"moves", std::move(moves_)},
                  {"legal", texts},   {"observation", observation_json(view, seat_)}};
  moves_ = ojson::array();
  send(decide);

  const std::string line = read_line();
  const ojson answer = ojson::parse(line, nullptr, false);
  const char* expected = "answer with one line {\"action\": \"<a legal action's text>\"} or {\"index\": <0-based>}";
  if (answer.is_discarded())
    fail(fmt::format("wrote a line that is not JSON: {} ({}; write anything else to standard error)", in_quotes(line),
                     expected));
  if (answer.is_object() && answer.contains("index")) {
    const ojson& index = answer["index"];
    if (!index.is_number_integer() || index.get<long long>() < 0 ||
        index.get<long long>() >= static_cast<long long>(legal.size()))
      fail(fmt::format("answered index {}, which is not a number from 0 to {} (there are {} legal actions)",
                       in_quotes(index.dump()), legal.size() - 1, legal.size()));
    return legal[static_cast<std::size_t>(index.get<long long>())];
  }
  if (!answer.is_object() || !answer.contains("action") || !answer["action"].is_string())
    fail(fmt::format("answered {}, which is not an answer ({})", in_quotes(line), expected));
  const std::string raw = answer["action"].get<std::string>();
  const InputLine text = normalize_input_line(raw);
  if (!text) fail(fmt::format("answered the action {}: {}", in_quotes(raw), text.error));
  const std::string wanted = normalized_action_text(text.text);
  for (std::size_t i = 0; i < texts.size(); ++i)
    if (normalized_action_text(texts[i]) == wanted) return legal[i];
  std::string why;
  try {
    why = rules.explain_illegal(view, text.text);
  } catch (const std::exception& e) {
    why = e.what();
  }
  std::string some;
  for (std::size_t i = 0; i < texts.size() && i < kListedLegal; ++i) some += (i ? ", " : "") + in_quotes(texts[i]);
  if (texts.size() > kListedLegal) some += ", ...";
  fail(fmt::format("answered {}, which is not a legal action ({}); legal now ({} in all): {}", in_quotes(text.text),
                   printable(cut_for_message(why, 300)), texts.size(), some));
}

void ExternalPlayer::match_over(Rules& rules, const GameState& final_state) {
  if (broken_ || pid_ <= 0) return;
  try {
    if (!hello_sent_) send_hello(rules);
    ojson end = {{"type", "end"}, {"seat", seat_}, {"moves", std::move(moves_)}};
    moves_ = ojson::array();
    end["match_scores"] = final_state.match_scores();
    end["round_scores"] = final_state.round_scores();
    try {
      end["places"] = rules.ranks(final_state);
    } catch (const std::exception&) {
      end["places"] = final_state.ranks();
    }
    end["observation"] = observation_json(final_state.observation(seat_), seat_);
    send(end);
  } catch (const std::exception&) {
    // a program that has already gone at the end of the game is not an error
  }
}

}  // namespace hr
