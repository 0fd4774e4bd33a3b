// input_limits_test.cpp — the loader and the input gate against hostile files and lines (issue 18, found by
// fuzzing): a variant whose `extends` leads back into its own ruleset folder, a chain of 5,000 variants, a
// TOML dotted key of 100,000 parts, a huge file, and lines of 200,000 blanks at the explain hook. Each must
// end in a clear one-line error, quickly, instead of a stack overflow or a hang. The same inputs are in the
// fuzz corpora (tests/fuzz/corpus/*/regression-*).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "input_line.hpp"
#include "probe.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"
#include "toml_util.hpp"

using Catch::Contains;
namespace fs = std::filesystem;

namespace {

/// A fresh temporary folder holding a copy of rulesets/lost-cities' ruleset.toml and scripts as `rs/` (with an
/// empty variants/), removed when destroyed. (The loader checks that the script a ruleset names exists.)
class TempRuleset {
 public:
  explicit TempRuleset(const std::string& name)
      : root_(fs::temp_directory_path() / ("hr-limits-test-" + std::to_string(::getpid())) / name) {
    fs::remove_all(root_);
    fs::create_directories(root_ / "rs" / "variants");
    for (const char* file : {"ruleset.toml", "rules.lua", "heuristic.lua"})
      fs::copy_file(fs::path(HOUSERULES_TEST_DIR) / "../rulesets/lost-cities" / file, root_ / "rs" / file);
  }
  ~TempRuleset() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  fs::path root() const { return root_; }
  fs::path dir() const { return root_ / "rs"; }
  fs::path write(const std::string& relative, const std::string& text) const {
    const fs::path file = root_ / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }

 private:
  fs::path root_;
};

std::string load_error(const std::function<void()>& load) {
  try {
    load();
  } catch (const hr::LoadError& e) {
    return e.what();
  }
  FAIL("no LoadError");
  return {};
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("a variant extending \"../..\" or \"../variants\" is an error, not a stack overflow", "[limits][variants]") {
  TempRuleset t("up-and-back");
  const fs::path up = t.write("rs/variants/up.toml", "extends = \"../..\"\n");
  const fs::path back = t.write("rs/variants/back.toml", "extends = \"../variants\"\n");
  t.write("rs/variants/fine.toml", "extends = \"..\"\nname = \"Fine\"\n");
  for (const fs::path& file : {up, back}) {
    const std::string message = load_error([&] { hr::find_ruleset(file.string()); });
    CHECK_THAT(message, Contains(file.filename().string() + ":1: cannot resolve extends"));
    CHECK_THAT(message, Contains("has no variant"));
    CHECK_THAT(message, Contains("its variants: back, fine, up"));
  }
  // `list` (list_variants of every ruleset on HOUSERULES_PATH) skips them and lists the good one
  ::setenv("HOUSERULES_PATH", t.root().c_str(), 1);
  bool found = false;
  for (const auto& info : hr::list_rulesets()) {
    if (info.dir != fs::absolute(t.dir()).lexically_normal()) continue;
    found = true;
    const auto variants = hr::list_variants(info);
    REQUIRE(variants.size() == 1);
    CHECK(variants.front().id == "fine");
    // and describe/play of the bad one by id is the same clean error
    CHECK_THAT(load_error([&] { hr::find_ruleset(info.id + "/up"); }), Contains("has no variant"));
  }
  ::unsetenv("HOUSERULES_PATH");
  CHECK(found);
}

TEST_CASE("a chain of variants longer than kMaxVariantChain is refused naming the file", "[limits][variants]") {
  TempRuleset t("long-chain");
  // v0 extends v1 extends ... v4999 extends the ruleset: 5,000 files
  const int n = 5000;
  for (int i = 0; i < n; ++i)
    t.write("chain/v" + std::to_string(i) + ".toml",
            "extends = \"" + (i + 1 < n ? "./v" + std::to_string(i + 1) + ".toml" : std::string("../rs")) + "\"\n");
  const std::string message = load_error([&] { hr::find_ruleset((t.root() / "chain/v0.toml").string()); });
  CHECK_THAT(message, Contains("the chain of variants is longer than " + std::to_string(hr::kMaxVariantChain)));
  CHECK_THAT(message, Contains("v0.toml"));
  CHECK(message.find('\n') == std::string::npos);
  CHECK(message.size() < 1000);
  // a chain of exactly kMaxVariantChain variants loads
  const int m = hr::kMaxVariantChain;
  for (int i = 0; i < m; ++i)
    t.write("ok/v" + std::to_string(i) + ".toml",
            "extends = \"" + (i + 1 < m ? "./v" + std::to_string(i + 1) + ".toml" : std::string("../rs")) + "\"\n");
  CHECK(hr::find_ruleset((t.root() / "ok/v0.toml").string()).variants.size() == static_cast<std::size_t>(m));
}

TEST_CASE("a TOML dotted key of 100,000 parts is refused before parsing, with the file and line", "[limits][toml]") {
  TempRuleset t("dotted");
  std::string key = "a";
  for (int i = 0; i < 100000; ++i) key += ".a";
  const fs::path file = t.write("rs/variants/deep.toml", "extends = \"..\"\n\n" + key + ".b = 1\n");
  const std::string message = load_error([&] { hr::find_ruleset(file.string()); });
  CHECK_THAT(message, Contains("deep.toml:3:"));
  CHECK_THAT(message, Contains("a dotted key has more than " + std::to_string(hr::kMaxTomlKeyParts) + " parts"));
  CHECK(message.size() < 1000);
  // the same in a [table] header, with blanks around the dots and quoted parts
  std::string header = "[x";
  for (int i = 0; i < 40; ++i) header += " . \"q.q\"";
  t.write("rs/variants/header.toml", "extends = \"..\"\n" + header + "]\n");
  CHECK_THAT(load_error([&] { hr::find_ruleset((t.dir() / "variants/header.toml").string()); }),
             Contains("header.toml:2:"));
}

TEST_CASE("the TOML limits count keys, not dots in strings, comments or numbers", "[limits][toml]") {
  CHECK_FALSE(hr::check_toml_limits("a.b.c = 1.5\nx = \"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g\"\n"
                                    "# a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g\n"
                                    "y = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5]\n"
                                    "z = '''\na.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g\n'''\n")
                    .has_value());
  std::string nested = "a = ";
  for (int i = 0; i < 40; ++i) nested += "[";
  const auto v = hr::check_toml_limits("# one\n" + nested);
  REQUIRE(v.has_value());
  CHECK(v->line == 2);
  CHECK(v->column == 5 + hr::kMaxTomlNesting);
  CHECK_THAT(v->description, Contains("nested more than"));
}

TEST_CASE("a TOML file larger than kMaxTomlFileBytes is refused", "[limits][toml]") {
  TempRuleset t("big");
  const fs::path file = t.write("rs/variants/big.toml", "extends = \"..\"\n# " + std::string(hr::kMaxTomlFileBytes, 'x') + "\n");
  CHECK_THAT(load_error([&] { hr::find_ruleset(file.string()); }), Contains("big.toml: the file is larger than"));
}

TEST_CASE("errors cut an echoed input at 200 characters", "[limits][messages]") {
  TempRuleset t("echo");
  const fs::path file = t.write("rs/variants/long.toml", "extends = \"" + std::string(100000, 'z') + "\"\n");
  const std::string message = load_error([&] { hr::find_ruleset(file.string()); });
  CHECK(message.size() < 1000);
  CHECK_THAT(message, Contains("zzz\u2026"));
  // a script name too long for the file system is a script that does not exist (no raw "File name too long")
  const fs::path script = t.write("rs/variants/script.toml", "extends = \"..\"\nscript = \"" + std::string(5000, 's') + ".lua\"\n");
  const std::string missing = load_error([&] { hr::find_ruleset(script.string()); });
  CHECK_THAT(missing, Contains("script.toml:2: script 'sss"));
  CHECK_THAT(missing, Contains("does not exist"));
  CHECK(missing.size() < 1000);
}

TEST_CASE("normalize_input_line collapses blanks, drops control characters and refuses long lines", "[limits][input]") {
  CHECK(hr::normalize_input_line("  play \t Y7 \r").text == "play Y7");
  CHECK(hr::normalize_input_line("dr\x01" "aw\x7f deck").text == "draw deck");
  CHECK(hr::normalize_input_line(std::string("draw\0 deck", 10)).text == "draw deck");
  CHECK(hr::normalize_input_line("caf\xc3\xa9 \xff").text == "caf\xc3\xa9 ?");
  CHECK(hr::normalize_input_line("\xe2\x82").text == "??");
  CHECK(hr::normalize_input_line("").text.empty());
  CHECK(hr::normalize_input_line(std::string(hr::kMaxInputLine, ' ')));
  const hr::InputLine long_line = hr::normalize_input_line(std::string(hr::kMaxInputLine + 1, 'a'));
  CHECK_FALSE(long_line);
  CHECK_THAT(long_line.error, Contains("too long"));
  CHECK(hr::cut_for_message(std::string(300, 'x')) == std::string(200, 'x') + "\u2026");
  CHECK(hr::cut_for_message("short") == "short");
}

TEST_CASE("the explain hooks of Lost Cities and Rivals are linear in the text's length", "[limits][input]") {
  // The old pattern "^%s*(%a+)%s*(%S*)%s*$" took ~24 s for 50,000 blanks and never ended for 200,000. The
  // input gate keeps such lines from the hooks; the hooks are fixed too, so the rules are safe on their own.
  for (const char* id : {"lost-cities", "lost-cities-rivals"}) {
    INFO(id);
    auto rules = hr::load_rules(id);
    const hr::GameState state = rules->new_game(1);
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& text : {"a" + std::string(200000, ' ') + "b c", std::string(200000, ' ') + "play x y",
                                    "play" + std::string(200000, ' ') + "zz"}) {
      const std::string reason = rules->explain_illegal(state, text);
      CHECK_FALSE(reason.empty());
    }
    CHECK(seconds_since(start) < 2.0);
    // what the hooks said before still holds
    CHECK_THAT(rules->explain_illegal(state, "draw deck"),
               Contains(std::string(id) == "lost-cities" ? "place a card first" : "reveal, or auction"));
  }
}

TEST_CASE("houserules.words splits a typed line into lower-case words, in linear time", "[limits][input]") {
  // the explain hooks of Lost Cities and Rivals and Lost Valley's shorthand read typed lines through it
  scripting_test::Probe p;
  CHECK(p.eval("return table.concat(houserules.words('  Play \\t Y7  '), '|')") == "play|y7");
  CHECK(p.eval("return #houserules.words('')") == "0");
  CHECK(p.eval("return tostring(houserules.words('a b c', 2))") == "nil");  // more words than asked for
  CHECK(p.eval("return table.concat(houserules.words('a b', 2), '|')") == "a|b");
  CHECK_THROWS_WITH(p.eval("houserules.words({})"), Contains("string expected"));
  CHECK(p.eval("return #houserules.words(('x '):rep(1 << 16))") == "65536");
}
