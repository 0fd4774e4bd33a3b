// fuzz_variant.cpp — a variant TOML file and the chain it extends: find_ruleset (extends resolution, cycles,
// the chain limit), effective_params (merge, schema) and list_variants, as `play`, `describe` and `list` use them.
//
// The input is up to three files separated by lines "#---": <scratch>/rs/variants/a.toml (the variant
// loaded), <scratch>/rs/variants/b.toml and <scratch>/rs/c.toml (for it to extend: "./b.toml", "../c.toml",
// "../.." ...). <scratch>/rs is a small ruleset (id "fz", below: every kind of parameter and schema rule; no
// scripts run here) and <scratch> is on HOUSERULES_PATH.
#include <cstdlib>

#include "fuzz_util.hpp"
#include "ruleset.hpp"

namespace fs = std::filesystem;

namespace {

constexpr const char* kRuleset = R"(id = "fz"
name = "Fuzz"
summary = "a small ruleset for fuzz_variant"
players = { min = 2, max = 4, default = 2 }

[params]
hand_size = 8        # an integer with a range
ratio = 0.5          # a float
mode = "ascending"   # a string with choices
colours = ["yellow", "blue"]
letters = { yellow = "Y", blue = "B" }
strict = true

[schema]
hand_size = { min = 1, max = 20, meaning = "cards dealt" }
ratio = { type = "float", min = 0, max = 1 }
mode = { choices = ["ascending", "either"] }
colours = { type = "list" }
letters = { type = "table" }
strict = { type = "boolean" }
)";

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const fs::path rs = hr::fuzz::scratch() / "rs";
  fs::create_directories(rs / "variants");
  hr::fuzz::write_file(rs / "ruleset.toml", kRuleset);
  ::setenv("HOUSERULES_PATH", hr::fuzz::scratch().c_str(), 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path rs = hr::fuzz::scratch() / "rs";
  const auto parts = hr::fuzz::split_files(hr::fuzz::as_text(data, size), 3);
  const fs::path files[] = {rs / "variants/a.toml", rs / "variants/b.toml", rs / "c.toml"};
  for (std::size_t i = 0; i < 3; ++i) {
    std::error_code ec;
    if (i < parts.size()) hr::fuzz::write_file(files[i], parts[i]);
    else fs::remove(files[i], ec);
  }
  try {  // play and describe of the file
    const hr::RulesetInfo info = hr::find_ruleset(files[0].string());
    std::vector<hr::ParamOrigin> origins;
    hr::effective_params(info, &origins);
  } catch (const hr::LoadError&) {
  }
  try {  // what `list` does for this ruleset: its variants, each resolved by id
    for (const auto& v : hr::list_variants(hr::read_ruleset_info(rs))) {
      try {
        hr::effective_params(hr::find_ruleset("fz/" + v.id));
      } catch (const hr::LoadError&) {
      }
    }
  } catch (const hr::LoadError&) {
  }
  return 0;
}
