// fuzz_util.hpp — shared by the libFuzzer targets of tests/fuzz/ (docs/fuzzing.md): a scratch folder for the
// files a target writes, a stream that discards output, and splitting one input into several files.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace hr::fuzz {

/// A folder of its own for this process (in /dev/shm when it exists: thousands of writes a second).
inline const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    auto d = base / ("houserules-fuzz-" + std::to_string(::getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    std::atexit([] { std::error_code ec; std::filesystem::remove_all(scratch(), ec); });
    return d;
  }();
  return dir;
}

inline void write_file(const std::filesystem::path& file, std::string_view text) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

/// An ostream that discards everything (the commands print; the targets look only for crashes and hangs).
class NullStream : public std::ostream {
 public:
  NullStream() : std::ostream(&buf_) {}

 private:
  struct Buf : std::streambuf {
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  } buf_;
};

/// Splits `input` at the lines "#---" (the separator of multi-file corpus entries), into at most `max` parts.
inline std::vector<std::string_view> split_files(std::string_view input, std::size_t max) {
  std::vector<std::string_view> parts;
  constexpr std::string_view sep = "\n#---\n";
  while (parts.size() + 1 < max) {
    const auto at = input.find(sep);
    if (at == std::string_view::npos) break;
    parts.push_back(input.substr(0, at));
    input.remove_prefix(at + sep.size());
  }
  parts.push_back(input);
  return parts;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace hr::fuzz
