"""A batch of games played by threads, feeding a summary made with the standard library only (no pandas):
each seat's wins, mean score and its standard deviation, the mean length; optionally every game as CSV.
Each thread loads its own Game (one Lua state per thread) and the kernel runs without the GIL (docs/python.md).

Usage: PYTHONPATH=build/python python3 examples/python/batch.py [--games N] [--threads T]
           [--ruleset lost-cities] [--players greedy,random] [--seed S] [--csv FILE]"""
import argparse
import concurrent.futures
import csv
import statistics
import threading
import time

import houserules


def play(ruleset, players, seed, local):
    """One game: seat p played by the bot players[p] with the seed `houserules play --seed` would give it."""
    if not hasattr(local, "game"):
        local.game = houserules.load(ruleset, players=len(players))
    state = local.game.new_game(seed)
    bots = [houserules.bot(name.split(":")[0], seed=houserules.bot_seed(seed, p),
                           **dict(kv.split("=", 1) for kv in name.split(":")[1:]))
            for p, name in enumerate(players)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()](state))
    return {"seed": seed, "plies": len(state.history()), "scores": state.returns(), "ranks": state.ranks()}


def summary(games, players):
    """Per seat: wins (places 1, ties counted for each), mean score, its standard deviation; the mean length."""
    lines = [f"{len(games)} games, {statistics.mean(g['plies'] for g in games):.1f} actions on average"]
    for p, name in enumerate(players):
        scores = [g["scores"][p] for g in games]
        wins = sum(g["ranks"][p] == 1 for g in games)
        spread = statistics.stdev(scores) if len(scores) > 1 else 0.0
        lines.append(f"seat {p + 1} {name}: {wins} wins ({100 * wins / len(games):.0f}%), "
                     f"score {statistics.mean(scores):.1f} ± {spread:.1f}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--ruleset", default="lost-cities")
    parser.add_argument("--players", default="greedy,random")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed; game i has seed + i")
    parser.add_argument("--csv", help="also write one line per game to this file")
    args = parser.parse_args()
    players = args.players.split(",")
    local = threading.local()
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.threads) as pool:
        games = list(pool.map(lambda i: play(args.ruleset, players, args.seed + i, local), range(args.games)))
    seconds = time.monotonic() - start
    print(summary(games, players))
    print(f"{seconds:.2f} s with {args.threads} threads")
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.writer(out)
            writer.writerow(["seed", "plies"] + [f"score{p + 1}" for p in range(len(players))]
                            + [f"place{p + 1}" for p in range(len(players))])
            for g in games:
                writer.writerow([g["seed"], g["plies"], *g["scores"], *g["ranks"]])


if __name__ == "__main__":
    main()
