// fuzz_merge.cpp — `houserules merge` of shard files (JSON Lines of `simulate --jsonl`): up to three files,
// separated in the input by lines "#---", merged into a summary and an HTML report.
#include "fuzz_util.hpp"
#include "simulation/simulation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = hr::fuzz::split_files(hr::fuzz::as_text(data, size), 3);
  std::vector<std::string> files;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    files.push_back((hr::fuzz::scratch() / ("shard" + std::to_string(i) + ".jsonl")).string());
    hr::fuzz::write_file(files.back(), parts[i]);
  }
  static const std::string report = (hr::fuzz::scratch() / "report.html").string();
  hr::fuzz::NullStream out, err;
  hr::merge_command(files, report, out, err);
  return 0;
}
