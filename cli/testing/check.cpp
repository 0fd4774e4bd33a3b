// check.cpp — `houserules check` (contract in check.hpp).
#include "check.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bots.hpp"
#include "play/play.hpp"
#include "rng.hpp"
#include "ruleset.hpp"
#include "scripted_rules.hpp"

namespace hr {

namespace {


/// Folds a multi-line message (a Lua traceback) onto indented lines.
std::string indented(const std::string& text) {
  std::string out;
  for (char ch : text) {
    out += ch;
    if (ch == '\n') out += "      ";
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n')) out.pop_back();
  return out;
}

/// The first broken contract of one game.
struct Violation {
  std::string check;    ///< which check: "conservation", "ruleset invariant", "replay", ...
  std::string message;  ///< what was found
  std::int64_t action = 0;   ///< the action number (ply) it concerns: after action N, or before action N
  bool before = false;       ///< found before action `action` was applied (e.g. in the legal set)
  std::string action_text;   ///< the text of that action when known
  int seat = 0;
  int round = 0;
  bool after_earlier_games = false;  ///< found by the replay in a fresh Lua state: the games before it count
};

class GameChecker {
 public:
  /// `fresh` loads the same rules again in a new Lua state (the replay in a fresh Lua state); may be empty.
  GameChecker(Rules& rules, const CheckOptions& options, std::function<std::unique_ptr<Rules>()> fresh = {})
      : rules_(rules), options_(options), fresh_(std::move(fresh)) {}

  /// Plays one random game with `seed`; returns its first violation, if any. `plies` receives its length.
  std::optional<Violation> run(std::uint64_t seed, std::int64_t& plies) {
    plies = 0;
    const int seats = rules_.layout().seats;
    texts_.clear();
    digests_.clear();
    turn_seat_ = 0;
    turn_texts_.clear();
    std::vector<std::string> names(static_cast<std::size_t>(seats), "random");
    std::istringstream no_input;
    std::ostringstream no_output;
    auto players = make_players(names, seed, no_input, no_output, &rules_);

    GameState state;
    try {
      state = rules_.new_game(seed);
    } catch (const std::exception& e) {
      return fail("setup", std::string("the setup failed: ") + e.what(), 0, true, {}, 1, 1);
    }
    if (auto v = check_state(state, 0, {}, 1, 1)) return v;

    std::vector<Action> legal;
    std::vector<std::string> legal_texts;
    while (!state.over()) {
      const std::int64_t next = state.ply() + 1;
      const int seat = state.to_move();
      const int round = state.round();
      if (state.ply() >= options_.max_plies)
        return fail("game length",
                    fmt::format("the game is not over after {} actions (--max-plies {}): a round that never ends?",
                                state.ply(), options_.max_plies),
                    next, true, {}, seat, round);
      try {
        rules_.legal_actions(state, legal);
      } catch (const std::exception& e) {
        return fail("legal actions", std::string("the actions hook failed: ") + e.what(), next, true, {}, seat, round);
      }
      if (legal.empty())
        return fail("legal actions", fmt::format("seat {} has no legal action but the game is not over", seat), next,
                    true, {}, seat, round);

      // Every legal action has its own text.
      legal_texts.resize(legal.size());
      for (std::size_t i = 0; i < legal.size(); ++i) {
        try {
          legal_texts[i] = rules_.action_text(state, legal[i]);
        } catch (const std::exception& e) {
          return fail("action text", fmt::format("action_text failed for legal action {}: {}", legal[i], e.what()),
                      next, true, {}, seat, round);
        }
      }
      if (const auto twins = first_repeated_text(legal_texts))
        return fail("unique action texts",
                    fmt::format("legal actions {} and {} both read '{}' (every legal action needs its own text)",
                                legal[twins->first], legal[twins->second], legal_texts[twins->second]),
                    next, true, {}, seat, round);

      // Illegal actions are refused and change nothing (compared with this copy, which also shows that a
      // failing legal action below leaves the state as it was).
      before_ = state;
      const auto [lowest, highest] = std::minmax_element(legal.begin(), legal.end());
      for (const Action bad : {*highest < std::numeric_limits<Action>::max() ? *highest + 1 : *lowest - 1,
                               *lowest > std::numeric_limits<Action>::min() ? *lowest - 1 : *highest + 1}) {
        if (std::find(legal.begin(), legal.end(), bad) != legal.end()) continue;
        if (auto v = refused_unchanged(state, bad, next, seat, round)) return v;
      }

      if (seat != turn_seat_) {  // a new turn: what each seat sees before it (for turn_summary)
        if (auto v = display_hooks(state, next, seat, round)) return v;
        turn_before_.clear();
        for (int s = 1; s <= seats; ++s) turn_before_.push_back(state.observation(s));
        turn_seat_ = seat;
        turn_texts_.clear();
      }
      // A random legal action, as `houserules play --players random,... --seed <seed>` would choose it.
      const Action action = players[static_cast<std::size_t>(seat - 1)]->choose(rules_, InformationSet(state, seat, legal));
      const std::string& text = legal_texts[static_cast<std::size_t>(std::find(legal.begin(), legal.end(), action) - legal.begin())];
      try {
        rules_.apply(state, action);
      } catch (const std::exception& e) {
        const bool restored = state == before_;
        return fail("failing action",
                    fmt::format("the legal action failed: {}{}", e.what(),
                                restored ? "\n(the state was restored, as it must be)"
                                         : "\nAND THE STATE WAS NOT RESTORED (a kernel bug: apply must roll back)"),
                    next, true, text, seat, round);
      }
      texts_.push_back(text);
      turn_texts_.push_back(text);
      digests_.push_back(state.digest());
      plies = state.ply();
      // The hooks bots call besides the game's own (the heuristic): in the played game only, so that rules
      // counting those calls in a hidden variable play differently from the replay. One seat a ply, in turn
      // (every seat's view is exercised over a game; a heuristic can cost milliseconds, as Lost Valley's does).
      try {
        if (!state.over()) rules_.heuristic(state, static_cast<int>(next % seats) + 1);
      } catch (const std::exception& e) {
        return fail("heuristic", std::string("the heuristic hook failed: ") + e.what(), next, false, text, seat, round);
      }
      if (state.ply() != next)
        return fail("ply count", fmt::format("the ply count is {} after action {}", state.ply(), next), next, false,
                    text, seat, round);
      if (auto v = check_state(state, next, text, seat, round)) return v;
    }

    if (auto v = display_hooks(state, plies, 0, state.round())) return v;
    // The game is over: no legal action, every action refused, valid places.
    try {
      rules_.legal_actions(state, legal);
    } catch (const std::exception& e) {
      return fail("legal actions", std::string("the actions hook failed after the end: ") + e.what(), plies, false, {},
                  0, state.round());
    }
    if (!legal.empty())
      return fail("legal actions", fmt::format("the game is over but {} actions are legal", legal.size()), plies, false,
                  {}, 0, state.round());
    before_ = state;
    if (auto v = refused_unchanged(state, 0, plies, 0, state.round())) return v;
    try {
      const auto places = rules_.ranks(state);
      if (places.size() != static_cast<std::size_t>(seats))
        return fail("ranks", fmt::format("ranks gave {} places for {} seats", places.size(), seats), plies, false, {},
                    0, state.round());
      for (int p : places)
        if (p < 1 || p > seats)
          return fail("ranks", fmt::format("ranks gave place {} (places are 1..{})", p, seats), plies, false, {}, 0,
                      state.round());
    } catch (const std::exception& e) {
      return fail("ranks", std::string("the ranks hook failed: ") + e.what(), plies, false, {}, 0, state.round());
    }
    if (auto v = check_replay(rules_, seed, state, false)) return v;
    if (!fresh_) return std::nullopt;
    std::unique_ptr<Rules> fresh;
    try {
      fresh = fresh_();
    } catch (const std::exception& e) {
      return fail("replay", std::string("loading the rules again for the replay in a fresh Lua state failed: ") + e.what(),
                  0, true, {}, 1, 1);
    }
    auto v = check_replay(*fresh, seed, state, true);
    if (v) v->after_earlier_games = true;
    return v;
  }

 private:
  std::optional<Violation> fail(std::string check, std::string message, std::int64_t action, bool before,
                                std::string text, int seat, int round) {
    return Violation{std::move(check), std::move(message), action, before, std::move(text), seat, round};
  }

  /// The kernel's and the ruleset's invariants on `state`, reached by action `action` (0 = the setup).
  std::optional<Violation> check_state(const GameState& state, std::int64_t action, const std::string& text, int seat,
                                       int round) {
    if (std::string broken = state.check_invariants(); !broken.empty())
      return fail("conservation", broken, action, false, text, seat, round);
    try {
      if (std::string broken = rules_.invariant_violation(state); !broken.empty())
        return fail("ruleset invariant", broken, action, false, text, seat, round);
    } catch (const std::exception& e) {
      return fail("ruleset invariant", std::string("the invariants hook failed: ") + e.what(), action, false, text,
                  seat, round);
    }
    return std::nullopt;
  }

  /// The rules must refuse `bad`, and asking must leave `state` as it was. Asked through the legality query
  /// (Rules::is_legal, which apply_checked uses before it throws IllegalAction): no Lua error, no C++ exception,
  /// no action text for an action that may have none.
  /// `before_` holds a copy of `state` taken before the question.
  std::optional<Violation> refused_unchanged(GameState& state, Action bad, std::int64_t next, int seat, int round) {
    try {
      if (rules_.is_legal(state, bad))
        return fail("illegal action", fmt::format("the illegal action {} was accepted", bad), next, true, {}, seat, round);
    } catch (const std::exception& e) {
      return fail("illegal action", fmt::format("asking whether action {} is legal failed: {}", bad, e.what()), next,
                  true, {}, seat, round);
    }
    if (!(state == before_))
      return fail("illegal action", fmt::format("the illegal action {} was refused but changed the state", bad), next,
                  true, {}, seat, round);
    return std::nullopt;
  }

  /// The hooks only the display calls, as `play` calls them between actions (issue 32): when the turn of
  /// `turn_seat_` has ended (the next action is `next`, by `seat`; 0 at the end of the game), its turn_summary
  /// line as each seat saw it, then `describe` for the seat to move. Called in the played game only, never in
  /// the replays: rules whose display hooks change what the rules hooks see (a count kept in a Lua local)
  /// play another game at the terminal than in its replay, and the replay check finds it.
  std::optional<Violation> display_hooks(const GameState& state, std::int64_t next, int seat, int round) {
    if (turn_seat_ == 0 || turn_texts_.empty()) return std::nullopt;
    const int seats = rules_.layout().seats;
    try {
      for (int viewer = 1; viewer <= seats; ++viewer) {
        const GameState after = state.observation(viewer);
        turn_summary_text(rules_, after,  turn_seat_,
                          turn_changes(turn_before_[static_cast<std::size_t>(viewer - 1)], after, viewer, false, turn_texts_));
      }
      if (seat > 0) rules_.describe(state.observation(seat), seat);
    } catch (const std::exception& e) {
      return fail("display hooks", std::string("a hook the display calls failed: ") + e.what(), next, seat > 0, {},
                  seat, round);
    }
    turn_texts_.clear();
    return std::nullopt;
  }

  /// Replays the recorded texts from the seed with `rules`: every digest and the final state must match.
  /// Twice per game: in the same Lua state right after the played game (which called the heuristic and the
  /// display hooks too, and the replay does not): rules that keep state in Lua locals (upvalues) find it
  /// changed by the played game, and play another game; then (`fresh`) in a Lua state loaded for this replay
  /// alone, as another thread of `simulate --threads` would run the game: rules that remember earlier games
  /// (a table of deals seen, kept across games) play another game there.
  std::optional<Violation> check_replay(Rules& rules, std::uint64_t seed, const GameState& final_state, bool fresh) {
    const char* where = fresh ? "in a fresh Lua state (loaded for this replay alone, as another thread of `simulate "
                                "--threads` would run the game): the rules depend on what their Lua state did before "
                                "this game (a table or upvalue kept across games?)"
                              : "in the same Lua state after the played game, without the heuristic and display calls "
                                "the played game had: the rules depend on something outside the game state (a Lua "
                                "upvalue, a table kept between calls or games?)";
    GameState state;
    try {
      state = rules.new_game(seed);
    } catch (const std::exception& e) {
      return fail("replay", std::string("the setup failed on replay: ") + e.what(), 0, true, {}, 1, 1);
    }
    for (std::size_t i = 0; i < texts_.size(); ++i) {
      const auto n = static_cast<std::int64_t>(i + 1);
      const int seat = state.to_move();
      const int round = state.round();
      std::optional<Action> action;
      try {
        action = rules.parse_action(state, texts_[i]);
        if (!action)
          return fail("replay", "the recorded action is not legal when the game is replayed from its seed: " +
                                    rules.explain_illegal(state, texts_[i]),
                      n, true, texts_[i], seat, round);
        rules.apply(state, *action);
      } catch (const std::exception& e) {
        return fail("replay", std::string("the replay failed: ") + e.what(), n, true, texts_[i], seat, round);
      }
      if (state.digest() != digests_[i])
        return fail("replay",
                    fmt::format("replayed from the seed and the action texts {}, the state after this action differs "
                                "(digest {}, played {})",
                                where, digest_text(state.digest()), digest_text(digests_[i])),
                    n, false, texts_[i], seat, round);
    }
    // (states of two Lua states' rules have two layouts, which operator== tells apart: compared by digest)
    const bool same = fresh ? state.digest() == final_state.digest() && state.round_scores() == final_state.round_scores() &&
                                  state.over() == final_state.over()
                            : state == final_state;
    if (!same || state.match_scores() != final_state.match_scores())
      return fail("replay", std::string("the replayed game ends in another state than the played one, replayed ") + where,
                  static_cast<std::int64_t>(texts_.size()), false, {}, 0, state.round());
    return std::nullopt;
  }

  /// The first pair of texts that read the same once normalized (normalized_action_text): the indices (i, j),
  /// i < j, with the smallest j (the pair a scan in order meets first), or none. Sorts indices instead of
  /// building a map: no allocation per text once the scratch vectors have grown.
  std::optional<std::pair<std::size_t, std::size_t>> first_repeated_text(const std::vector<std::string>& texts) {
    normalized_.resize(texts.size());
    order_.resize(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
      normalized_[i] = normalized_action_text(texts[i]);  // short texts stay in the string (no allocation)
      order_[i] = i;
    }
    std::stable_sort(order_.begin(), order_.end(),
                     [this](std::size_t a, std::size_t b) { return normalized_[a] < normalized_[b]; });
    std::optional<std::pair<std::size_t, std::size_t>> first;
    for (std::size_t k = 1; k < order_.size(); ++k) {
      // Equal texts sit together in ascending index order: a group's first two are its earliest pair.
      const bool starts_group = k < 2 || normalized_[order_[k - 2]] != normalized_[order_[k]];
      if (starts_group && normalized_[order_[k - 1]] == normalized_[order_[k]] && (!first || order_[k] < first->second))
        first = std::make_pair(order_[k - 1], order_[k]);
    }
    return first;
  }

  Rules& rules_;
  const CheckOptions& options_;
  std::function<std::unique_ptr<Rules>()> fresh_;  // the rules loaded again, for the replay in a fresh Lua state
  int turn_seat_ = 0;                    // the seat whose turn is being played (0: none yet)
  std::vector<GameState> turn_before_;   // each seat's observation before that turn
  std::vector<std::string> turn_texts_;  // the turn's action texts so far
  GameState before_;                     // the state before the current action (see refused_unchanged)
  std::vector<std::string> normalized_;  // scratch of first_repeated_text
  std::vector<std::size_t> order_;
  std::vector<std::string> texts_;
  std::vector<std::uint64_t> digests_;
};

}  // namespace

namespace {

/// One seat count of `check`; `report`, when given, receives the run as JSON (docs/cli.md).
int check_one(const CheckOptions& options, std::ostream& out, std::ostream& err, nlohmann::json* report = nullptr) {
  if (options.games < 1) {
    err << "error: --games must be at least 1\n";
    return 2;
  }
  if (options.max_plies < 1) {
    err << "error: --max-plies must be at least 1\n";
    return 2;
  }
  std::unique_ptr<ScriptedRules> rules;
  LoadOptions load;
  load.seats = options.players;
  load.clear_action_lists = true;  // a count past what the actions hook filled is an error here
  load.check_remembered_answers = true;  // a rule answering otherwise for the same arguments is an error here
  load.overrides = options.overrides;
  try {
    rules = load_rules(options.ruleset, load);
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return 2;
  }

  // ---- PARAMETER-SCHEMA VALIDATION: place reserved for the variants issue (#3) ----------------------------
  // The lead is adding a [schema] for ruleset parameters (unknown keys, wrong types, values out of range,
  // reported with file and line). When load_rules does not already reject bad parameters, validate them here,
  // before any game is played, print each error as "file:line: message" and return 2.
  // ----------------------------------------------------------------------------------------------------------

  const int seats = rules->layout().seats;
  out << fmt::format("check {} ({} seats): {} random games from seed {}\n", rules->id(), seats, options.games,
                     options.seed);
  const auto start = std::chrono::steady_clock::now();

  std::string reproduce_tail;
  if (options.players != 0) reproduce_tail += fmt::format(" --players {}", options.players);
  if (options.max_plies != CheckOptions{}.max_plies) reproduce_tail += fmt::format(" --max-plies {}", options.max_plies);
  std::string set_args;
  for (const auto& text : options.overrides) set_args += " --set " + shell_word(text);
  reproduce_tail += set_args;
  if (report)
    *report = {{"ruleset", rules->id()}, {"seats", seats}, {"games", options.games}, {"seed", options.seed},
               {"violations", nlohmann::json::array()}};
  std::string random_players;
  for (int s = 0; s < seats; ++s) random_players += s ? ",random" : "random";

  // Each game is replayed once more in a Lua state loaded for that replay alone (GameChecker::check_replay).
  GameChecker checker(*rules, options, [&]() -> std::unique_ptr<Rules> { return load_rules(options.ruleset, load); });
  int failed = 0;
  std::int64_t total_plies = 0;
  std::optional<ProgressBar> progress;  // on a terminal only: quiet in a pipe, as the issue 37 asks
  if (options.progress != 0 && ProgressBar::stderr_is_terminal())
    progress.emplace(err, true, fmt::format("check {} ({} seats)", rules->id(), seats));
  for (int g = 0; g < options.games; ++g) {
    if (progress) (*progress)(g, options.games);
    const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(g);
    std::int64_t plies = 0;
    std::optional<Violation> v;
    try {
      v = checker.run(seed, plies);
    } catch (const std::exception& e) {  // a hook failing where the checker did not expect a call to fail
      v = Violation{"error", e.what(), plies + 1, true, {}, 0, 0};
    }
    total_plies += plies;
    if (options.verbose && !v) out << fmt::format("ok   game {} (seed {}): {} actions\n", g + 1, seed, plies);
    if (!v) continue;
    ++failed;
    // A game that plays differently in a fresh Lua state depends on the games the checking state played
    // before it: the command to see it again plays those too (from the first seed).
    const std::string reproduce =
        v->after_earlier_games
            ? fmt::format("houserules check {} --games {} --seed {}{}", shell_word(options.ruleset), g + 1,
                          options.seed, reproduce_tail)
            : fmt::format("houserules check {} --games 1 --seed {}{}", shell_word(options.ruleset), seed, reproduce_tail);
    if (report)
      (*report)["violations"].push_back(
          {{"game", g + 1}, {"seed", seed}, {"check", v->check}, {"message", v->message}, {"action", v->action},
           {"before", v->before}, {"action_text", v->action_text}, {"seat", v->seat}, {"round", v->round},
           {"reproduce", reproduce}});
    if (failed > options.max_reports) continue;
    std::string where;
    if (v->action == 0)
      where = "at the setup";
    else
      where = fmt::format("{} action {}", v->before ? "before" : "after", v->action);
    if (!v->action_text.empty()) where += fmt::format(" ('{}')", v->action_text);
    if (v->seat > 0) where += fmt::format(", seat {}", v->seat);
    if (v->round > 0) where += fmt::format(", round {}", v->round);
    out << fmt::format("VIOLATION in game {} (seed {}), {}: {}: {}\n", g + 1, seed, where, v->check, indented(v->message));
    out << "  reproduce: " << reproduce << '\n';
    if (v->check != "game length")  // `play` would only stop at its own limit of 100,000 actions
      out << fmt::format("  watch it:  houserules play {} --players {} --seed {} --log game-{}.jsonl{}\n",
                         shell_word(options.ruleset), random_players, seed, seed, set_args);
  }
  if (progress) (*progress)(options.games, options.games);  // the bar complete, its line ended
  if (failed > options.max_reports)
    out << fmt::format("... and {} more violating games (not shown)\n", failed - options.max_reports);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (report) {
    (*report)["actions"] = total_plies;
    (*report)["seconds"] = seconds;
    (*report)["failed"] = failed;
  }
  if (failed == 0) {
    out << fmt::format(
        "check {}: {} games, {} actions, no violation ({:.1f} s). Checked after every action: conservation, a legal "
        "action until the end and none after, unique action texts, illegal actions refused with no change, "
        "failing actions, the ruleset's invariants, the heuristic and the display hooks (turn_summary, describe), "
        "game length <= {}, replay from the seed in the same Lua state after the game and in a fresh one, without "
        "the heuristic and display calls (state hidden in Lua locals shows as a difference).\n",
        rules->id(), options.games, total_plies, seconds, options.max_plies);
    return 0;
  }
  out << fmt::format("check {}: {} of {} games broke a contract ({} actions, {:.1f} s)\n", rules->id(), failed,
                     options.games, total_plies, seconds);
  return 1;
}

}  // namespace

int check_command(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  if (options.json) {  // the text goes to stderr, the document alone to `out`
    CheckOptions text = options;
    text.json = false;
    nlohmann::json doc = {{"ruleset", options.ruleset}, {"overrides", options.overrides}, {"runs", nlohmann::json::array()}};
    std::vector<int> counts{options.players};
    if (options.all_player_counts) {
      try {
        const RulesetInfo info = find_ruleset(options.ruleset);
        counts.clear();
        for (int seats = info.min_players; seats <= info.max_players; ++seats) counts.push_back(seats);
      } catch (const std::exception& e) {
        err << "error: " << e.what() << '\n';
        return 2;
      }
    }
    int status = 0;
    for (const int seats : counts) {
      text.players = seats;
      text.all_player_counts = false;
      nlohmann::json run;
      const int one = check_one(text, err, err, &run);
      if (one == 2) return 2;  // nothing was checked: the error is on stderr, no document
      status = std::max(status, one);
      doc["runs"].push_back(std::move(run));
    }
    doc["status"] = status;
    out << doc.dump(2) << '\n';
    return status;
  }
  if (!options.all_player_counts) return check_one(options, out, err);
  RulesetInfo info;
  try {
    info = find_ruleset(options.ruleset);
  } catch (const std::exception& e) {
    err << "error: " << e.what() << '\n';
    return 2;
  }
  int status = 0;
  for (int seats = info.min_players; seats <= info.max_players; ++seats) {
    CheckOptions one = options;
    one.players = seats;
    one.all_player_counts = false;
    status = std::max(status, check_one(one, out, err));
  }
  return status;
}

}  // namespace hr
