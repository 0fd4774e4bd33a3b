// cmd_mutate.cpp — `houserules mutate`: mutation testing of a ruleset's scripts (cli/testing/mutate.hpp).
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "testing/testing.hpp"

namespace hr {

void register_mutate_command(CLI::App& app, int& status) {
  auto options = std::make_shared<MutateOptions>();
  auto* mutate = app.add_subcommand(
      "mutate",
      "Mutation testing: change the rule scripts one small thing at a time (a comparison, a constant, and/or, a "
      "condition, a statement, a parameter) and run the ruleset's tests against each change; print the share "
      "the tests catch (the mutation score) and every change they miss");
  mutate->footer(
      "Examples:\n"
      "  houserules mutate lost-cities --jobs 2                 every mutant of the ruleset's scripts\n"
      "  houserules mutate lost-cities --max 100 --seed 7       a sample of 100 mutants (the same for a seed)\n"
      "  houserules mutate lost-valley --only heuristic.lua     the mutants of one script\n"
      "  houserules mutate lost-valley --only store.lua:40-90   of lines 40 to 90 of one script\n"
      "  houserules mutate my-rule/variant.toml --tests my-rule/tests --json > mutants.json\n"
      "  houserules mutate lost-cities --equivalents-template >> rulesets/lost-cities/equivalent-mutants.toml\n"
      "A mutant the tests never reach (coverage of the unmutated run) is reported as not covered, not run.\n"
      "Surviving mutants are shown as diffs with file:line: each is a test to write, or a change that cannot\n"
      "alter the game (an equivalent mutant). Declare the equivalent ones, each with its reason, in the ruleset's\n"
      "equivalent-mutants.toml: they still run (one the tests kill, or an entry that matches no mutant, is\n"
      "reported), and the score leaves them out. docs/testing-rules.md explains all three.");
  mutate->add_option("ruleset", options->target, "Ruleset id, id/variant, or path (a variant: its own script and "
                                                 "parameters are mutated)")
      ->required();
  mutate->add_option("--tests", options->tests,
                     "Scenario files, golden games or folders to run (default: the ruleset's tests/ folder)");
  mutate->add_option("--max", options->max, "Run at most N mutants, a sample drawn with --seed (0: all)")
      ->capture_default_str();
  mutate->add_option("--jobs,-j", options->jobs, "Mutants run at once, each in its own process (0: one per core)")
      ->capture_default_str();
  mutate->add_option("--seed", options->seed, "Seed of the sample and of the short check's games")->capture_default_str();
  mutate->add_option("--check-games", options->check_games,
                     "Random games of the `check` run after the tests for each mutant (0: none)")
      ->capture_default_str();
  mutate->add_option("--timeout", options->timeout_seconds,
                     "Seconds one mutant's tests may take before it is stopped and counted as killed (0: ten times "
                     "the unmutated run plus 10 s)")
      ->capture_default_str();
  mutate->add_option("--only", options->only,
                     "Only the mutants of this file of the ruleset (ruleset.toml for its parameters), or of its lines "
                     "FILE:LINE or FILE:FIRST-LAST; repeat for several")
      ->type_name("FILE[:LINES]");
  mutate->add_flag("--json", options->json, "Print the result as JSON (every mutant with its status and diff)");
  mutate->add_flag("--list", options->list, "List the mutants (after sampling) without running them");
  mutate->add_option("--equivalents", options->equivalents,
                     "An equivalent-mutants file: mutants no test can tell from the rules, each with the reason; they "
                     "are run but left out of the score (default: the ruleset folder's equivalent-mutants.toml)");
  mutate->add_flag("--equivalents-template", options->equivalents_template,
                   "Print the surviving mutants not yet declared as entries of an equivalent-mutants file (each group's "
                   "`why` left for you to write)");
  mutate->callback([&status, options] { status = mutate_command(*options, std::cout, std::cerr); });
}

}  // namespace hr
