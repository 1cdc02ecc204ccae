#!/usr/bin/env python3
"""A reference engine: plyground's engine protocol (docs/engine-protocol.md), spoken
for any plyground game by a tiny alpha-beta search. Copy it and make it yours.

    plyground demo connect4 --o random \
        --x 'engine:cmd=".venv/bin/python examples/reference_engine.py"'

It imports plyground, so it runs on the Python plyground is installed in: in a
checkout set up by `make play`, that is `.venv/bin/python` (a bare `python` is
whichever the PATH finds first, the venv's only while it is active).
plyground's core does the rules here (moves, notation, the end of the game) and
`game.evaluate` judges positions; an engine in another language would do its own.
Every line it writes ends with a flush: plyground waits for whole lines.
"""
import queue
import sys
import threading
import time

try:
    from plyground.core import parse_game
except ImportError:  # said in the engine's log, which the forfeit names
    sys.exit(f"reference_engine.py: {sys.executable} has no plyground: start me with "
             "the Python plyground is installed in (.venv/bin/python in a checkout)")

NAME = "Reference"
WIN = 1_000_000  # a won position is worth this, less the plies it took
options = {"maxdepth": 64}  # announced in the handshake, changed by setoption


def send(line):
    print(line, flush=True)


# stdin is read on a thread of its own, so that a `stop` arrives while we search.
commands = queue.Queue()
stop = threading.Event()


def read_stdin():
    for line in sys.stdin:
        if line.strip() == "stop":  # the search looks at this flag
            stop.set()
        commands.put(line.strip())
    stop.set()
    commands.put("quit")  # stdin closed: plyground has gone


class OutOfTime(Exception):
    pass


def search(state, seconds, max_depth, max_nodes):
    """Iterative deepening: depth 1, 2, ... until time runs out; the best move of the
    last finished depth. Prints an `info` line after each depth."""
    game, started = state.game, time.perf_counter()
    deadline = started + seconds * 0.8  # leave time to answer
    nodes = 0

    def negamax(position, depth, alpha, beta):
        """(value for the side to move, best line): alpha-beta in negamax form."""
        nonlocal nodes
        nodes += 1
        if nodes % 64 == 0 and (stop.is_set() or time.perf_counter() > deadline
                                or (max_nodes and nodes >= max_nodes)):
            raise OutOfTime
        outcome = position.outcome()
        if outcome is not None:  # the game is over
            if outcome.winner is None:
                return 0, []
            won = WIN - position.ply
            return (won if outcome.winner == position.to_move else -won), []
        if depth == 0:
            return game.evaluate(position), []
        best, line = -2 * WIN, []
        for move in game.order_moves(position, position.moves()):
            value, rest = negamax(position.play(move), depth - 1, -beta, -alpha)
            if -value > best:
                best, line = -value, [move] + rest
            alpha = max(alpha, best)
            if alpha >= beta:  # the opponent will not allow this line: a cut-off
                break
        return best, line

    best_move = state.moves()[0]  # in case not even depth 1 finishes
    limit = game.plies_left_at_most(state) or max_depth
    for depth in range(1, min(max_depth, limit) + 1):
        try:
            value, line = negamax(state, depth, -2 * WIN, 2 * WIN)
        except OutOfTime:
            break
        best_move = line[0]
        pv = " ".join(game.format_move(move) for move in line)
        send(f"info depth {depth} score {value} nodes {nodes} pv {pv}")
        if abs(value) > WIN // 2:  # a forced win or loss: deeper will not change it
            break
    return best_move


def main():
    threading.Thread(target=read_stdin, daemon=True).start()
    state = None
    while True:
        line = commands.get()
        word, _, rest = line.partition(" ")
        if word == "plyground":  # the handshake: who we are, our options
            send(f"id name {NAME}")
            send("id author the plyground authors")
            send(f"option name maxdepth type int default {options['maxdepth']}")
            send("plygroundok")
        elif word == "setoption":  # setoption name maxdepth value 5
            words = rest.split()
            options[words[1]] = int(words[3])
        elif word == "isready":
            send("readyok")
        elif word == "position":  # position <game spec> <position, maybe empty>
            spec, _, position = rest.partition(" ")
            state = parse_game(spec).parse_position(position)
        elif word == "go":  # go time <seconds> [depth <d>] [nodes <n>]
            words = rest.split()
            limits = dict(zip(words[::2], words[1::2]))
            stop.clear()
            move = search(state, float(limits.get("time", 1)),
                          min(int(limits.get("depth", 999)), options["maxdepth"]),
                          int(limits.get("nodes", 0)))
            send(f"bestmove {state.game.format_move(move)}")
        elif word == "quit":
            return
        # anything else (a `stop` after we answered, say) needs nothing


if __name__ == "__main__":
    main()
