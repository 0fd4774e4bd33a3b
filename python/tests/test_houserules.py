"""pytest for `import houserules` (python/houserules_module.cpp, docs/python.md). Run by CTest with PYTHONPATH set
to the build's python/ folder and HOUSERULES_BINARY to the CLI (whose games the module must reproduce)."""
import json
import os
import random
import subprocess
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
