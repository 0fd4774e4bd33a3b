// output_path.cpp — output_path_problem (output_path.hpp).
#include "output_path.hpp"

#include <filesystem>
#include <system_error>

#include <unistd.h>

#include "input_line.hpp"

namespace hr {

std::string output_path_problem(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path file(path);
  const std::string shown = "'" + cut_for_message(path) + "'";
  if (path.empty()) return "an empty file name";
  if (fs::is_directory(file, ec)) return shown + " is a folder; give a file name";
  fs::path folder = file.parent_path();
  if (folder.empty()) folder = ".";
  if (!fs::is_directory(folder, ec))
    return "cannot write " + shown + ": the folder '" + cut_for_message(folder.string()) + "' does not exist";
  if (fs::exists(file, ec) ? access(path.c_str(), W_OK) != 0 : access(folder.c_str(), W_OK | X_OK) != 0)
    return "cannot write " + shown + ": permission denied";
  return {};
}

}  // namespace hr
