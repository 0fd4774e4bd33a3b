// mutate.cpp — `houserules mutate` (mutate.hpp): the scripts and parameters to mutate, the unmutated run with
// coverage, the mutants run in child processes a few at a time (mutant_runs.cpp) under a time limit, and the
// report (the score, each survivor with its diff, JSON, an equivalent-mutants template). The mutants themselves
// are made in mutant_generation.cpp (over lua_tokenizer.cpp's tokens); equivalent-mutants files are read in
// mutant_equivalents.cpp.
//
// Processes, not threads: each mutant's run loads the mutated text in place of the file for the whole
// process, and a crash or a runaway C loop must end only that run. The parent never creates a Sandbox (so
// no watchdog thread exists when it forks); the unmutated run with coverage happens in a child too.
#include "mutate.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "coverage.hpp"
#include "input_line.hpp"
#include "mutant_generation.hpp"
#include "mutant_runs.hpp"
#include "rng.hpp"
#include "ruleset.hpp"
#include "sandbox.hpp"
#include "scenario.hpp"
#include "toml_util.hpp"

namespace hr {

namespace fs = std::filesystem;

namespace {

/// The Lua files a mutation run changes: a ruleset's own scripts (its folder, without variants/ and tests/), or
/// a variant's script.
std::vector<fs::path> scripts_to_mutate(const RulesetInfo& info) {
  std::vector<fs::path> files;
  if (!info.variants.empty()) {
    if (!info.variants.back().script.empty()) files.push_back(fs::weakly_canonical(info.variants.back().script));
    return files;
  }
  const fs::path dir = fs::weakly_canonical(info.dir);
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory() && it.depth() == 0 &&
        (it->path().filename() == "variants" || it->path().filename() == "tests")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".lua") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Whether the tests ran any line of the mutant (lines Lua cannot report — inside a multi-line expression —
/// count as run when no line of the change is executable).
bool covered(const std::map<fs::path, std::map<int, std::int64_t>>& coverage, const Mutant& m) {
  if (m.kind == "parameter") return true;
  const auto file = coverage.find(m.file);
  if (file == coverage.end()) return false;  // never loaded
  bool executable = false;
  for (auto it = file->second.lower_bound(m.line); it != file->second.end() && it->first <= m.last_line; ++it) {
    if (it->second > 0) return true;
    executable = true;
  }
  return !executable;
}

std::string ranges(const std::vector<int>& sorted_lines) {
  std::string out;
  for (std::size_t i = 0; i < sorted_lines.size();) {
    std::size_t j = i;
    while (j + 1 < sorted_lines.size() && sorted_lines[j + 1] <= sorted_lines[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(sorted_lines[i]);
    if (sorted_lines[j] != sorted_lines[i]) out += "-" + std::to_string(sorted_lines[j]);
    i = j + 1;
  }
  return out;
}

enum class Status { Killed, Survived, NotCovered, Invalid, Equivalent };

/// One `--only` entry: a mutated file and its lines first..last (0, 0: all of them).
struct Selection {
  fs::path file;
  int first = 0;
  int last = 0;
  bool holds(const fs::path& f, int from_line, int to_line) const {
    return f == file && (first == 0 || (from_line <= last && to_line >= first));
  }
};

/// Reads the `--only` entries ("FILE", "FILE:LINE", "FILE:FIRST-LAST") against the mutated files (the keys of
/// `sources`, absolute). FILE is relative to the ruleset's folder or to the current folder, or a file name
/// alone when one mutated file has it. Throws std::runtime_error naming the entry when it names no mutated file
/// or more than one, or its lines are not 1 <= FIRST <= LAST.
std::vector<Selection> read_selections(const std::vector<std::string>& only, const fs::path& ruleset_dir,
                                       const std::map<fs::path, std::string>& sources) {
  // The mutated files as an author names them: relative to the ruleset's folder when inside it.
  const fs::path dir = fs::weakly_canonical(ruleset_dir);
  std::string known;
  for (const auto& [file, text] : sources) {
    const fs::path relative = file.lexically_relative(dir);
    const bool inside = !relative.empty() && *relative.begin() != "..";
    known += (known.empty() ? "" : ", ") + (inside ? relative.generic_string() : Sandbox::display_path(file));
  }
  std::vector<Selection> out;
  for (const std::string& entry : only) {
    const std::string shown = "--only " + printable(cut_for_message(entry, 120));
    Selection s;
    std::string name = entry;
    // FILE:LINE or FILE:FIRST-LAST: digits (at most 9) after the last colon, a dash between two numbers.
    const std::size_t colon = entry.rfind(':');
    const std::string lines = colon == std::string::npos ? "" : entry.substr(colon + 1);
    const std::size_t dash = lines.find('-');
    const std::string first = lines.substr(0, dash), last = dash == std::string::npos ? first : lines.substr(dash + 1);
    auto number = [](const std::string& t) {
      return !t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos;
    };
    if (colon != std::string::npos && colon > 0 && number(first) && number(last)) {
      name = entry.substr(0, colon);
      s.first = std::stoi(first);
      s.last = std::stoi(last);
      if (s.first < 1 || s.last < s.first)
        throw std::runtime_error(shown + ": lines are LINE or FIRST-LAST, with 1 <= FIRST <= LAST");
    }
    std::set<fs::path> matches;
    std::error_code ec;
    const fs::path in_ruleset = fs::weakly_canonical(ruleset_dir / name, ec);
    const fs::path in_cwd = fs::weakly_canonical(fs::path(name), ec);
    for (const auto& [file, text] : sources)
      if (file == in_ruleset || file == in_cwd || (fs::path(name).filename() == name && file.filename() == name))
        matches.insert(file);
    if (matches.empty())
      throw std::runtime_error(shown + ": not a file this run mutates (" + known + ")");
    if (matches.size() > 1)
      throw std::runtime_error(shown + ": more than one mutated file has that name; give its path in the ruleset");
    s.file = *matches.begin();
    out.push_back(s);
  }
  return out;
}

/// `text` as a TOML basic string ("...", with escapes).
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\u{:04X}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

struct Result {
  Mutant mutant;
  Status status = Status::Survived;
  std::string detail;  // what killed it; the compile error of an invalid one
};

}  // namespace

int mutate_command(const MutateOptions& options, std::ostream& out, std::ostream& err) {
  using clock = std::chrono::steady_clock;
  const auto started = clock::now();
  RulesetInfo info;
  try {
    info = find_ruleset(options.target);
  } catch (const LoadError& e) {
    err << "houserules mutate: " << e.what() << "\n";
    return 2;
  }
  if (options.max < 0 || options.jobs < 0 || options.check_games < 0 || options.timeout_seconds < 0) {
    err << "houserules mutate: --max, --jobs, --check-games and --timeout take numbers >= 0\n";
    return 2;
  }

  // The tests: every scenario file and golden game of the folders given (default: the ruleset's tests/).
  TestPlan plan;
  plan.check_target = options.target;
  plan.check_games = options.check_games;
  plan.seed = options.seed;
  std::vector<std::string> test_paths = options.tests;
  if (test_paths.empty()) test_paths.push_back((info.dir / "tests").string());
  for (const std::string& path : test_paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      if (!list_test_files(path, plan.files, ec)) {
        err << "houserules mutate: cannot read " << path << ": " << ec.message() << "\n";
        return 2;
      }
    } else if (fs::is_regular_file(path, ec)) {
      plan.files.push_back(path);
    } else {
      err << "houserules mutate: no such test file or folder: " << path << "\n";
      return 2;
    }
  }
  if (plan.files.empty() && plan.check_games == 0) {
    err << "houserules mutate: no tests to run (no scenario files or golden games in " << test_paths.front()
        << ", and --check-games 0)\n";
    return 2;
  }

  // The mutants.
  const fs::path toml_file = info.variants.empty() ? info.dir / "ruleset.toml" : info.variants.back().file;
  std::map<fs::path, std::string> sources;
  std::vector<Mutant> all;
  try {
    for (const fs::path& file : scripts_to_mutate(info)) {
      const std::optional<std::string> text = read_source(file);
      if (!text) throw std::runtime_error("cannot read the file");
      sources[file] = *text;
      try {
        const auto found = lua_mutants(file, Sandbox::display_path(file), *text);
        all.insert(all.end(), found.begin(), found.end());
      } catch (const std::runtime_error& e) {
        throw std::runtime_error(Sandbox::display_path(file) + ":" + e.what());
      }
    }
    const toml::table base = parse_toml_file(info.dir / "ruleset.toml");
    const fs::path params_file = fs::weakly_canonical(toml_file);
    const std::string text = read_source(params_file).value_or("");
    sources[params_file] = text;
    const auto found = parameter_mutants(params_file, Sandbox::display_path(params_file), text, base["schema"].as_table());
    all.insert(all.end(), found.begin(), found.end());
  } catch (const std::exception& e) {
    err << "houserules mutate: " << e.what() << "\n";
    return 2;
  }
  // Source order: by file, then position (a parameter's mutants by line of ruleset.toml).
  std::stable_sort(all.begin(), all.end(), [](const Mutant& a, const Mutant& b) {
    return std::tie(a.file, a.line, a.begin) < std::tie(b.file, b.line, b.begin);
  });
  const std::size_t found_count = all.size();

  // Declared equivalent mutants: run like the others, left out of the score (docs/testing-rules.md).
  fs::path equivalents_file = options.equivalents;
  if (equivalents_file.empty() && info.variants.empty() && fs::is_regular_file(info.dir / "equivalent-mutants.toml"))
    equivalents_file = info.dir / "equivalent-mutants.toml";
  std::vector<DeclaredEquivalent> stale;
  std::size_t declared_count = 0;
  if (!equivalents_file.empty()) {
    std::error_code ec;
    if (!fs::is_regular_file(equivalents_file, ec)) {
      err << "houserules mutate: no such equivalent-mutants file: " << printable(cut_for_message(equivalents_file.string()))
          << "\n";
      return 2;
    }
    try {
      const std::vector<DeclaredEquivalent> declared = read_equivalents(equivalents_file);
      declared_count = declared.size();
      stale = match_equivalents(declared, all, sources);
    } catch (const std::exception& e) {
      err << "houserules mutate: " << e.what() << "\n";
      return 2;
    }
  }
  const std::string equivalents_shown = equivalents_file.empty() ? "" : Sandbox::display_path(equivalents_file);

  // --only: the mutants of some files or lines; the declarations outside them are not stale, only not asked for.
  if (!options.only.empty()) {
    std::vector<Selection> selections;
    try {
      selections = read_selections(options.only, info.dir, sources);
    } catch (const std::exception& e) {
      err << "houserules mutate: " << e.what() << "\n";
      return 2;
    }
    auto selected = [&selections](const fs::path& file, int first, int last) {
      return std::any_of(selections.begin(), selections.end(),
                         [&](const Selection& s) { return s.holds(file, first, last); });
    };
    all.erase(std::remove_if(all.begin(), all.end(),
                             [&](const Mutant& m) { return !selected(m.file, m.line, m.last_line); }),
              all.end());
    stale.erase(std::remove_if(stale.begin(), stale.end(),
                               [&](const DeclaredEquivalent& d) { return !selected(d.file, d.line, d.line); }),
                stale.end());
  }
  const std::size_t selected_count = all.size();
  std::string only_shown;
  for (const std::string& entry : options.only)
    only_shown += (only_shown.empty() ? "" : " ") + printable(cut_for_message(entry, 120));

  if (options.max > 0 && all.size() > static_cast<std::size_t>(options.max)) {
    // A sample: the first `max` of a shuffle drawn from the seed, shown in source order.
    Rng rng(options.seed);
    for (std::size_t i = all.size() - 1; i > 0; --i)
      std::swap(all[i], all[static_cast<std::size_t>(rng.between(0, static_cast<std::int64_t>(i)))]);
    all.resize(static_cast<std::size_t>(options.max));
    std::stable_sort(all.begin(), all.end(), [](const Mutant& a, const Mutant& b) {
      return std::tie(a.file, a.line, a.begin, a.kind, a.replacement) <
             std::tie(b.file, b.line, b.begin, b.kind, b.replacement);
    });
  }
  if (options.list) {
    for (const Mutant& m : all)
      out << m.shown << ":" << m.line << ": " << m.kind << " " << m.what
          << (m.declared_at.empty() ? "" : " (declared equivalent: " + m.declared_at + ")") << "\n";
    out << all.size() << " mutants\n";
    return 0;
  }

  // The unmutated run, with coverage, in a child (no Sandbox, hence no watchdog thread, in this process).
  err << "houserules mutate " << options.target << ": "
      << (options.only.empty() ? fmt::format("{} mutants", found_count)
                               : fmt::format("{} of the {} mutants (--only {})", selected_count, found_count, only_shown))
      << "; running the tests ("
      << plan.files.size() << " files" << (plan.check_games ? fmt::format(", check of {} games", plan.check_games) : "")
      << ") without a mutation, with coverage\n";
  std::map<fs::path, std::map<int, std::int64_t>> coverage;
  double baseline_seconds = 0;
  {
    Child c = spawn([&plan] {
      CoverageRecorder::global().enable();
      std::string reason;
      const bool passed = run_tests(plan, reason);
      std::string text = passed ? "P\n" : "F" + reason + "\n";
      for (const FileCoverage& f : CoverageRecorder::global().files()) {
        text += "F " + fs::weakly_canonical(f.path).string() + "\n";
        for (const auto& [line, hits] : f.lines) text += fmt::format("{} {}\n", line, hits);
      }
      return text;
    });
    c.output = read_all(c.fd);
    int wait_status = 0;
    ::waitpid(c.pid, &wait_status, 0);
    const Outcome o = finish(c, wait_status, false);
    baseline_seconds = std::chrono::duration<double>(clock::now() - c.started).count();
    if (!o.passed) {
      err << "houserules mutate: the tests fail without any mutation, so no mutant can be judged: "
          << first_line_with(o.detail, "") << "\n";
      return 2;
    }
    std::istringstream in(o.detail);
    std::map<int, std::int64_t>* file = nullptr;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("F ", 0) == 0) {
        file = &coverage[fs::path(line.substr(2))];
      } else if (file && !line.empty()) {
        int number = 0;
        long long hits = 0;
        if (std::sscanf(line.c_str(), "%d %lld", &number, &hits) == 2) (*file)[number] = hits;
      }
    }
  }

  // Classify: not covered, not compiling; the rest run.
  std::vector<Result> results;
  std::vector<std::size_t> to_run;
  for (const Mutant& m : all) {
    Result r;
    r.mutant = m;
    if (!covered(coverage, m)) {
      r.status = Status::NotCovered;
    } else if (m.kind != "parameter") {
      std::string error;
      if (!executable_lines(apply_mutant(sources[m.file], m), "=" + m.shown, &error)) {
        r.status = Status::Invalid;
        r.detail = error;
      }
    }
    if (r.status == Status::Survived) to_run.push_back(results.size());
    results.push_back(std::move(r));
  }

  const int jobs = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  const double limit = options.timeout_seconds > 0 ? options.timeout_seconds : 10 * baseline_seconds + 10;
  err << fmt::format("unmutated run: {:.1f} s; running {} mutants with {} job{} (time limit {:.0f} s each)\n",
                     baseline_seconds, to_run.size(), jobs, jobs == 1 ? "" : "s", limit);
  const bool tty = ::isatty(2);
  std::size_t done = 0, killed = 0, equivalent_survived = 0, next = 0;
  std::vector<Child> running;
  auto progress = [&] {
    const double elapsed = std::chrono::duration<double>(clock::now() - started).count();
    // As the summary counts them: a survivor declared equivalent (equivalent-mutants.toml) is not "survived".
    const std::string line =
        fmt::format("[{}/{}] killed {}, survived {}, equivalent {}, {:.0f} s", done, to_run.size(), killed,
                    done - killed - equivalent_survived, equivalent_survived, elapsed);
    if (tty)
      err << "\r" << line << std::flush;
    else if (done == to_run.size() || done % std::max<std::size_t>(1, to_run.size() / 10) == 0)
      err << line << "\n";
  };
  try {
    while (next < to_run.size() || !running.empty()) {
      while (next < to_run.size() && running.size() < static_cast<std::size_t>(jobs)) {
        const std::size_t index = to_run[next++];
        const Mutant& m = results[index].mutant;
        const std::string mutated = apply_mutant(sources[m.file], m);
        Child c = spawn([&plan, &m, &mutated] {
          set_source_override(m.file, mutated);
          std::string reason;
          return run_tests(plan, reason) ? std::string("P") : "F" + reason;
        });
        c.index = index;
        running.push_back(std::move(c));
      }
      bool reaped = false;
      for (std::size_t i = 0; i < running.size();) {
        Child& c = running[i];
        drain(c);
        int wait_status = 0;
        const pid_t pid = ::waitpid(c.pid, &wait_status, WNOHANG);
        const bool timed_out = pid == 0 && std::chrono::duration<double>(clock::now() - c.started).count() > limit;
        if (timed_out) {
          ::kill(c.pid, SIGKILL);
          ::waitpid(c.pid, &wait_status, 0);
        }
        if (pid == 0 && !timed_out) {
          ++i;
          continue;
        }
        const Outcome o = finish(c, wait_status, timed_out);
        Result& r = results[c.index];
        r.status = o.passed ? Status::Survived : Status::Killed;
        r.detail = o.passed ? "" : o.detail;
        killed += !o.passed;
        equivalent_survived += o.passed && !r.mutant.declared_at.empty();
        ++done;
        progress();
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
        reaped = true;
      }
      if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  } catch (const std::exception& e) {
    for (Child& c : running) ::kill(c.pid, SIGKILL);
    err << "\nhouserules mutate: " << e.what() << "\n";
    return 2;
  }
  if (tty && !to_run.empty()) err << "\n";

  // The report. A declared equivalent that survived is counted apart; one the tests kill is a wrong declaration.
  std::size_t survived = 0, not_covered = 0, invalid = 0, equivalent = 0;
  std::vector<const Result*> wrongly_declared;
  for (Result& r : results) {
    if (!r.mutant.declared_at.empty() && r.status == Status::Survived) r.status = Status::Equivalent;
    if (!r.mutant.declared_at.empty() && r.status == Status::Killed) wrongly_declared.push_back(&r);
    survived += r.status == Status::Survived;
    not_covered += r.status == Status::NotCovered;
    invalid += r.status == Status::Invalid;
    equivalent += r.status == Status::Equivalent;
  }
  const double seconds = std::chrono::duration<double>(clock::now() - started).count();
  auto percent = [](std::size_t part, std::size_t whole) {
    return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 100.0;
  };
  const double score = percent(killed, killed + survived);
  const double score_all = percent(killed, killed + survived + equivalent);
  std::string sampled =
      all.size() < selected_count ? fmt::format(" (a sample of {} of the {} mutants, seed {})", all.size(), selected_count, options.seed) : "";
  if (!options.only.empty())
    sampled += fmt::format(" (only {}: {} of the ruleset's {} mutants)", only_shown, selected_count, found_count);
  const fs::path relative_to = equivalents_file.empty() ? fs::weakly_canonical(info.dir)
                                                        : fs::weakly_canonical(equivalents_file).parent_path();
  if (options.equivalents_template) {
    // The undeclared survivors as entries of an equivalent-mutants file, a group per line, `why` left empty
    // (the file is refused until each group says why).
    out << "# The surviving mutants of `houserules mutate " << options.target << "` not yet declared, as entries of an\n"
        << "# equivalent-mutants file (docs/testing-rules.md). Write a test for each one a test can tell from the\n"
        << "# rules; for the others, say in `why` why none can, and merge groups that share a reason.\n";
    int last_line = -1;
    fs::path last_file;
    bool open = false;
    for (const Result& r : results) {
      if (r.status != Status::Survived) continue;
      if (!open || r.mutant.file != last_file || r.mutant.line != last_line) {
        if (open) out << "]\n";
        out << "\n[[equivalent]]\nwhy = \"\"\nmutants = [\n";
        open = true;
        last_file = r.mutant.file;
        last_line = r.mutant.line;
      }
      const MutantLines lines = mutant_lines(sources[r.mutant.file], r.mutant);
      out << "  { file = " << toml_string(r.mutant.file.lexically_relative(relative_to).generic_string())
          << ", line = " << r.mutant.line << ", from = " << toml_string(lines.from) << ", to = " << toml_string(lines.to)
          << " },\n";
    }
    if (open) out << "]\n";
    return 0;
  }
  if (options.json) {
    nlohmann::json list = nlohmann::json::array();
    static const char* const names[] = {"killed", "survived", "not covered", "not valid", "equivalent"};
    for (const Result& r : results) {
      nlohmann::json entry = {{"file", r.mutant.shown}, {"line", r.mutant.line}, {"kind", r.mutant.kind},
                              {"change", r.mutant.what}, {"status", names[static_cast<int>(r.status)]},
                              {"diff", mutant_diff(sources[r.mutant.file], r.mutant, "")}};
      if (!r.detail.empty()) entry["detail"] = r.detail;
      if (!r.mutant.declared_at.empty()) {
        entry["declared_at"] = r.mutant.declared_at;
        entry["why"] = r.mutant.equivalent_why;
      }
      list.push_back(entry);
    }
    nlohmann::json stale_list = nlohmann::json::array();
    for (const DeclaredEquivalent& d : stale)
      stale_list.push_back(
          {{"at", d.at}, {"file", d.file_text}, {"line", d.line}, {"from", d.lines.from}, {"to", d.lines.to}});
    nlohmann::json wrong_list = nlohmann::json::array();
    for (const Result* r : wrongly_declared)
      wrong_list.push_back({{"at", r->mutant.declared_at}, {"file", r->mutant.shown}, {"line", r->mutant.line},
                            {"change", r->mutant.what}, {"detail", r->detail}});
    const nlohmann::json doc = {{"target", options.target}, {"mutants_found", found_count},
                                {"only", options.only}, {"mutants_selected", selected_count}, {"mutants", all.size()},
                                {"seed", options.seed}, {"killed", killed}, {"survived", survived},
                                {"not_covered", not_covered}, {"not_valid", invalid}, {"equivalent", equivalent},
                                {"score", score}, {"score_counting_equivalents", score_all},
                                {"equivalents_file", equivalents_shown}, {"equivalents_declared", declared_count},
                                {"stale_equivalents", stale_list}, {"wrongly_declared", wrong_list},
                                {"seconds", seconds}, {"jobs", jobs}, {"results", list}};
    out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  out << fmt::format("mutation testing of {}: {} mutants{}, {} job{}, {:.0f} s\n", options.target, all.size(), sampled,
                     jobs, jobs == 1 ? "" : "s", seconds);
  std::map<std::string, std::size_t> per_file;
  for (const Result& r : results) ++per_file[r.mutant.shown];
  for (const auto& [file, count] : per_file) out << fmt::format("  {:<48} {:>5} mutants\n", file, count);
  out << fmt::format("  killed      {:>5}\n  survived    {:>5}\n  not covered {:>5}  (on lines the tests never run)\n",
                     killed, survived, not_covered);
  if (invalid) out << fmt::format("  not valid   {:>5}  (do not compile; not counted)\n", invalid);
  if (!equivalents_file.empty())
    out << fmt::format("  equivalent  {:>5}  (declared in {}: run, and not counted)\n", equivalent, equivalents_shown);
  out << fmt::format("mutation score: {:.1f}% ({} of {} mutants on lines the tests run were killed)\n", score, killed,
                     killed + survived);
  if (equivalent)
    out << fmt::format("  counting the {} declared equivalent mutant{} too: {:.1f}% ({} of {})\n", equivalent,
                       equivalent == 1 ? "" : "s", score_all, killed, killed + survived + equivalent);
  if (!wrongly_declared.empty()) {
    out << "\ndeclared equivalent, but the tests kill them (the declaration is wrong: remove it):\n";
    for (const Result* r : wrongly_declared)
      out << "  " << r->mutant.declared_at << ": " << r->mutant.shown << ":" << r->mutant.line << ": " << r->mutant.kind
          << ", " << r->mutant.what << " (" << printable(cut_for_message(first_line_with(r->detail, ""), 160)) << ")\n";
  }
  if (!stale.empty()) {
    out << "\nstale declarations (no mutant of the scripts has these lines now: update or remove them):\n";
    for (const DeclaredEquivalent& d : stale)
      out << "  " << d.at << ": " << d.file_text << ":" << d.line << ": " << printable(cut_for_message(d.lines.from, 120))
          << " -> " << printable(cut_for_message(d.lines.to, 120)) << "\n";
  }
  if (survived) {
    out << "\nsurviving mutants (the tests pass with this change):\n";
    for (const Result& r : results) {
      if (r.status != Status::Survived) continue;
      out << r.mutant.shown << ":" << r.mutant.line << ": " << r.mutant.kind << ", " << r.mutant.what << "\n";
      out << mutant_diff(sources[r.mutant.file], r.mutant, "    ");
    }
  }
  if (not_covered) {
    out << "\nnot covered (mutants on lines the tests never run):\n";
    std::map<std::string, std::vector<int>> lines;
    for (const Result& r : results)
      if (r.status == Status::NotCovered) lines[r.mutant.shown].push_back(r.mutant.line);
    for (auto& [file, list] : lines) {
      const std::size_t count = list.size();
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      out << "  " << file << ": " << count << " mutants, lines " << ranges(list) << "\n";
    }
  }
  return 0;
}

}  // namespace hr
