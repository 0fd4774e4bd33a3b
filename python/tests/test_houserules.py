"""pytest for `import houserules` (python/houserules_module.cpp, docs/python.md). Run by CTest with PYTHONPATH set
to the build's python/ folder and HOUSERULES_BINARY to the CLI (whose games the module must reproduce)."""
import collections
import json
import os
import random
import subprocess
import sys
import threading

import pytest

import houserules

HR = os.environ.get("HOUSERULES_BINARY", "houserules")
BASE_RULESETS = [r["id"] for r in json.loads(subprocess.check_output([HR, "list", "--json"]))["rulesets"]]


def play_random(state, rng, max_plies=50_000):
    """Plays uniformly random legal actions to the end; returns the number of actions."""
    plies = 0
    while not state.is_terminal():
        assert plies < max_plies, "the game did not end"
        actions = state.legal_actions()
        assert actions, "no legal action in a game that is not over"
        assert 0 <= state.current_player() < state.num_players()
        state.apply_action(rng.choice(actions))
        plies += 1
    return plies


@pytest.mark.parametrize("ruleset", BASE_RULESETS)
def test_a_random_game_of_every_ruleset_ends(ruleset):
    game = houserules.load(ruleset)
    state = game.new_game(11)
    plies = play_random(state, random.Random(5))
    assert plies > 0
    assert state.is_terminal() and state.current_player() == -4 and state.legal_actions() == []
    assert len(state.returns()) == game.num_players()
    assert sorted(state.ranks())[0] == 1


def test_three_players_and_parameters():
    game = houserules.load("lost-cities/three-player")
    assert game.num_players() == 3
    hands = houserules.load("lost-cities", params={"hand_size": 10}).new_game(1).observation(0)["zones"]["hand.1"]
    assert hands["count"] == 10
    with pytest.raises(houserules.LoadError, match="hand_size"):
        houserules.load("lost-cities", params={"hand_size": 99})


def test_clone_is_independent():
    state = houserules.load("lost-cities").new_game(2)
    before = json.dumps(state.observation(0), sort_keys=True)
    copy = state.clone()
    for _ in range(6):
        copy.apply_action(copy.legal_actions()[0])
    assert json.dumps(state.observation(0), sort_keys=True) == before
    assert json.dumps(copy.observation(0), sort_keys=True) != before
    assert state.observation(0)["ply"] == 0 and copy.observation(0)["ply"] == 6


def test_the_same_seed_gives_the_game_houserules_play_gives(tmp_path):
    log = tmp_path / "g.jsonl"
    subprocess.check_call([HR, "play", "lost-cities", "--players", "random,random", "--seed", "3",
                           "--log", str(log), "--quiet"], stdout=subprocess.DEVNULL)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    state = houserules.load("lost-cities").new_game(lines[0]["seed"])
    for line in lines[1:-1]:
        assert line["type"] == "action"
        assert state.current_player() == line["seat"] - 1
        legal = state.legal_actions()
        assert len(legal) == line["legal"], f"ply {line['ply']}"
        by_text = {state.action_to_string(a): a for a in legal}
        state.apply_action(by_text[line["action"]])  # KeyError: the deal differs from the CLI's
    result = lines[-1]
    assert state.is_terminal()
    assert state.returns() == [float(v) for v in result["match_scores"]]
    assert state.ranks() == result["ranks"]


def test_an_observation_never_holds_another_players_hidden_card():
    """A card of the other player's hand shows in my observation only once I have seen it elsewhere (taken from a
    discard pile in front of me); at the deal, none does; the deck never shows."""
    state = houserules.load("lost-cities").new_game(4)
    rng = random.Random(1)
    seen = [set(), set()]  # the cards each player has seen outside the other's hand
    assert all(c is None for c in state.observation(0)["zones"]["hand.2"]["cards"])
    assert all(c is None for c in state.observation(1)["zones"]["hand.1"]["cards"])
    shown = 0
    while not state.is_terminal():
        for player in (0, 1):
            theirs = f"hand.{2 - player}"
            zones = state.observation(player)["zones"]
            assert all(card is not None for card in zones[f"hand.{player + 1}"]["cards"])
            assert all(card is None for card in zones["deck"]["cards"])
            for name, zone in zones.items():
                if name != theirs:
                    seen[player].update(c for c in zone["cards"] if c is not None)
            for card in zones[theirs]["cards"]:
                if card is not None:
                    shown += 1
                    assert card in seen[player], f"player {player} sees {card} in {theirs} without having seen it"
        state.apply_action(rng.choice(state.legal_actions()))
    assert shown > 0  # some cards were taken from a discard pile: the check above ran
    with pytest.raises(IndexError):
        state.observation(2)


def test_an_illegal_action_is_a_value_error_and_changes_nothing():
    state = houserules.load("lost-cities").new_game(1)
    before = json.dumps(state.observation(0), sort_keys=True)
    illegal = max(state.legal_actions()) + 1000
    with pytest.raises(ValueError):
        state.apply_action(illegal)
    assert json.dumps(state.observation(0), sort_keys=True) == before


def test_a_rules_error_surfaces_as_an_exception_with_file_and_line(tmp_path):
    (tmp_path / "broken.toml").write_text('extends = "lost-cities"\nscript = "broken.lua"\n')
    (tmp_path / "broken.lua").write_text('local x = 1\nerror("boom in the house rule")\n')
    with pytest.raises(houserules.LoadError, match=r"broken\.lua:2:.*boom in the house rule"):
        houserules.load(str(tmp_path / "broken.toml"))
    with pytest.raises(houserules.LoadError, match="no ruleset 'no-such-game'"):
        houserules.load("no-such-game")


def test_threads_each_with_its_own_game_play_the_same_games_as_one_thread():
    def final_scores(seed):
        state = houserules.load("lost-cities").new_game(seed)
        play_random(state, random.Random(seed))
        return state.returns()

    expected = {seed: final_scores(seed) for seed in range(4)}
    got = {}
    threads = [threading.Thread(target=lambda s=s: got.__setitem__(s, final_scores(s))) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected


def hidden_positions(observation):
    """(zone, index) of each card the observation hides (None)."""
    return [(name, i) for name, zone in sorted(observation["zones"].items())
            for i, card in enumerate(zone["cards"]) if card is None]


def test_resample_keeps_what_the_player_sees_and_deals_the_hidden_cards_again():
    """A determinization for player 0 (the ismcts bot's): the same observation for player 0, the hidden cards
    dealt again (player 1's hand differs in some samples), no card player 0 sees anywhere dealt into a hidden
    place, and a full state a search can play on to the end."""
    state = houserules.load("lost-cities").new_game(6)
    rng = random.Random(2)
    for _ in range(30):  # into the game: discard piles and expeditions hold cards, some taken back into hands
        state.apply_action(rng.choice(state.legal_actions()))
    mine = state.observation(0)
    # Lost Cities' 60 cards (3 wager cards "x" of each colour: names are not unique, so count them)
    cards = collections.Counter(f"{c}{v}" for c in "YBWGR" for v in [*range(2, 11), "x", "x", "x"])
    unseen = cards - collections.Counter(c for zone in mine["zones"].values() for c in zone["cards"] if c is not None)
    theirs = state.observation(1)["zones"]["hand.2"]["cards"]
    hands = set()
    for seed in range(8):
        sample = state.resample(0, seed)
        assert json.dumps(sample.observation(0), sort_keys=True) == json.dumps(mine, sort_keys=True)
        dealt = sample.observation(1)["zones"]["hand.2"]["cards"]
        assert len(dealt) == len(theirs) and None not in dealt
        hidden_from_me = [c for c, shown in zip(dealt, mine["zones"]["hand.2"]["cards"]) if shown is None]
        assert not collections.Counter(hidden_from_me) - unseen, "a card player 0 sees elsewhere was dealt into a hidden place"
        hands.add(tuple(dealt))
        assert sample.legal_actions() and play_random(sample.clone(), random.Random(seed)) > 0
    assert len(hands) > 1 and any(hand != tuple(theirs) for hand in hands)  # dealt again, not copied
    # The same seed, or a random.Random, gives the same sample; the original is untouched.
    assert state.resample(0, 5).observation(1) == state.resample(0, 5).observation(1)
    assert state.resample(0, random.Random(9)).observation(1) == state.resample(0, random.Random(9)).observation(1)
    assert state.observation(1)["zones"]["hand.2"]["cards"] == theirs
    with pytest.raises(IndexError):
        state.resample(2, 1)
    with pytest.raises(TypeError, match="rng_or_seed"):
        state.resample(0, "seven")
    with pytest.raises(ValueError, match="resample"):
        state.resample(0, 1).transcript()


def cli_game(tmp_path, name, *args):
    """Plays `houserules play lost-cities ARGS --log` and returns the transcript's path and lines."""
    log = tmp_path / name
    subprocess.check_call([HR, "play", "lost-cities", *args, "--log", str(log), "--quiet"], stdout=subprocess.DEVNULL)
    return log, [json.loads(line) for line in log.read_text().splitlines()]


def test_the_transcript_of_a_python_game_is_the_one_houserules_play_writes(tmp_path):
    log, lines = cli_game(tmp_path, "cli.jsonl", "--players", "random,greedy", "--seed", "8")
    state = houserules.load("lost-cities").new_game(8)
    for line in lines[1:-1]:
        state.apply_action({state.action_to_string(a): a for a in state.legal_actions()}[line["action"]])
    assert state.transcript(players=["random", "greedy"]) == log.read_text()  # byte for byte
    assert len(state.history()) == len(lines) - 2
    written = tmp_path / "py.jsonl"
    state.transcript(path=str(written))
    assert json.loads(written.read_text().splitlines()[0])["players"] == ["python", "python"]
    subprocess.check_call([HR, "replay", str(written), "--quiet"], stdout=subprocess.DEVNULL)
    with pytest.raises(ValueError, match="3 names for 2 seats"):
        state.transcript(players=["a", "b", "c"])


def test_an_unfinished_python_game_is_resumed_by_houserules_play(tmp_path):
    game = houserules.load("lost-cities", params={"hand_size": 7})
    state = game.new_game(12)
    rng = random.Random(3)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    path = tmp_path / "unfinished.jsonl"
    state.transcript(players=["random", "random"], path=str(path))
    before = [json.loads(line) for line in path.read_text().splitlines()]
    assert before[0]["set"] == ["hand_size=7"] and before[-1]["type"] == "stopped" and before[-1]["plies"] == 20
    subprocess.check_call([HR, "play", "--resume", str(path), "--quiet"], stdout=subprocess.DEVNULL)
    after = [json.loads(line) for line in path.read_text().splitlines()]
    assert after[:21] == before[:21] and after[22]["type"] == "resumed" and after[-1]["type"] == "result"
    subprocess.check_call([HR, "replay", str(path), "--quiet"], stdout=subprocess.DEVNULL)


def test_the_bots_are_callables_that_play_as_the_cli_plays(tmp_path):
    """houserules.bot(name, seed) is the CLI's bot: seeded as `houserules play` seeds seat s's bot, it chooses the
    actions the CLI's game shows, for each seat in turn."""
    log, lines = cli_game(tmp_path, "bots.jsonl", "--players", "greedy,ismcts:iterations=60", "--seed", "4")
    seeds = [houserules.bot_seed(4, seat) for seat in (0, 1)]
    bots = [houserules.bot("greedy", seed=seeds[0]), houserules.bot("ismcts", seed=seeds[1], iterations=60)]
    assert bots[1].name == "ismcts:iterations=60"
    state = houserules.load("lost-cities").new_game(4)
    for line in lines[1:-1]:
        action = bots[state.current_player()](state)
        assert action in state.legal_actions()
        assert state.action_to_string(action) == line["action"], f"ply {line['ply']}"
        state.apply_action(action)
    assert state.is_terminal() and state.ranks() == lines[-1]["ranks"]
    with pytest.raises(ValueError, match="over"):
        bots[0](state)
    with pytest.raises(ValueError, match="another Game"):
        bots[0](houserules.load("lost-cities").new_game(1))


def test_bad_bot_options_are_value_errors_naming_the_option():
    with pytest.raises(ValueError, match="iteratons"):
        houserules.bot("ismcts", iteratons=5)
    with pytest.raises(ValueError, match="iterations"):
        houserules.bot("ismcts", iterations=-3)
    with pytest.raises(ValueError, match="random takes no options"):
        houserules.bot("random", depth=2)
    with pytest.raises(ValueError, match="unknown bot 'minimax'"):
        houserules.bot("minimax")
    assert houserules.bot("ismcts", seed=1, finish_turn=False, expand="greedy").name == \
        "ismcts:finish_turn=off:expand=greedy"


EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python")


def test_the_batch_example_gives_the_same_games_with_one_thread_or_three(tmp_path):
    """examples/python/batch.py: its per-game CSV does not depend on the number of threads (each thread its own
    Game, each game its own seeded bots), and its summary counts every game."""
    def run(threads):
        out = tmp_path / f"t{threads}.csv"
        text = subprocess.check_output([sys.executable, os.path.join(EXAMPLES, "batch.py"), "--games", "5",
                                        "--threads", str(threads), "--csv", str(out)], text=True)
        return text, out.read_text()
    text1, csv1 = run(1)
    text3, csv3 = run(3)
    assert csv1 == csv3 and len(csv1.splitlines()) == 6
    assert text1.splitlines()[:3] == text3.splitlines()[:3] and text1.startswith("5 games")
