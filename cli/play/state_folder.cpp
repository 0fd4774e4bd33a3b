// state_folder.cpp — the state folder of kept games (state_folder.hpp).
#include "state_folder.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "input_line.hpp"

namespace hr {

namespace {

/// mkdir -p with mode 700 for the folders it creates; false (errno set) when one cannot be made.
bool make_folders(const std::string& path) {
  for (std::size_t at = 1; at <= path.size(); ++at) {
    if (at < path.size() && path[at] != '/') continue;
    const std::string part = path.substr(0, at);
    if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
  }
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) ? true : (errno = ENOTDIR, false);
}

}  // namespace

std::string state_folder() {
  std::string base;
  const char* xdg = std::getenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  if (xdg != nullptr && xdg[0] == '/') {  // the specification: a relative path is invalid and ignored
    base = xdg;
  } else if (home != nullptr && home[0] == '/') {
    base = std::string(home) + "/.local/state";
  } else {
    throw std::runtime_error("no state folder: neither XDG_STATE_HOME nor HOME is an absolute path");
  }
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  const std::string folder = base + "/houserules";
  if (!make_folders(folder))
    throw std::runtime_error(fmt::format("cannot create the state folder '{}': {}", cut_for_message(folder),
                                         std::strerror(errno)));
  return folder;
}

std::string new_state_log(std::uint64_t seed) {
  const std::string folder = state_folder();
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
  for (int n = 1; n <= 1000; ++n) {
    const std::string path = fmt::format("{}/game-{}-{}{}.jsonl", folder, stamp, seed, n == 1 ? "" : fmt::format("-{}", n));
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      close(fd);
      return path;
    }
    if (errno != EEXIST)
      throw std::runtime_error(fmt::format("cannot create '{}': {}", cut_for_message(path), std::strerror(errno)));
  }
  throw std::runtime_error(fmt::format("cannot create a new game file in '{}'", cut_for_message(folder)));
}

}  // namespace hr
