"""Every registered game's network encoding, on positions from seeded random play: the
planes' shape and type, moves to policy indices and back, planes that tell positions
apart and show the side to move's stones first, and symmetries that agree with the
mirrored or rotated position built here by other means (the moves replayed mirrored,
the cells moved by coordinates this file computes)."""
from __future__ import annotations

import pickle
import random
from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from plyground.core.errors import PlygroundError
from plyground.core.game import _REGISTRY, game_entries, get_game
from plyground.core.games.cephalopod import CephalopodState
from plyground.core.games.quarto import QuartoMove, piece_name

SPECS = [(entry.id, options) for entry in game_entries()
         for options in ([o for _, o in entry.variants] or [{}])]
IDS = [f"{id}:{','.join(f'{k}={v}' for k, v in options.items())}" for id, options in SPECS]


@cache
def sample(game, count=40, seed=7):
    """The start and `count` - 1 positions of seeded random games (each a game played
    to its end, or 100 plies, then one of its positions at random), each with its
    moves from the start (kept: several tests ask for the same)."""
    rng, found = random.Random(seed), [(game.start(), [])]
    while len(found) < count:
        state, line = game.start(), []
        while state.moves() and len(line) < 100:
            move = rng.choice(state.moves())
            state, line = state.play(move), line + [move]
        line = line[:rng.randrange(len(line) + 1)]
        found.append((replayed(game, line, lambda move: move), line))
    return found


# --- independent images: each game's symmetries as this file builds them, the identity
# among them

def grid_maps(rows, cols):
    """Every map of (row, col) onto a rows x cols board the rules play alike."""
    maps = [lambda r, c: (r, c), lambda r, c: (r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (c, rows - 1 - r),
                 lambda r, c: (cols - 1 - c, r), lambda r, c: (cols - 1 - c, rows - 1 - r)]
    return maps


def replayed(game, line, move_map):
    state = game.start()
    for move in line:
        state = state.play(move_map(move))
    return state


def gravity_images(game):
    """The position itself, and the mirror: the same moves in the mirrored columns
    (BOOM stays BOOM)."""
    width = game.board.width

    def mirrored(move):
        return width - 1 - move if move < width else move
    return [(lambda state, line: state, lambda state, move: move),
            (lambda state, line: replayed(game, line, mirrored),
             lambda state, move: mirrored(move))]


def tictactoe_images(game):
    """Cells are row * 3 + column; each map of the grid moves the cells played."""
    images = []
    for cell_map in grid_maps(3, 3):
        def moved(cell, cell_map=cell_map):
            return int(np.ravel_multi_index(cell_map(*divmod(cell, 3)), (3, 3)))
        images.append((lambda state, line, moved=moved: replayed(game, line, moved),
                       lambda state, move, moved=moved: moved(move)))
    return images


def cephalopod_images(game):
    """The dice moved to their mapped cells; a move is the one on the mapped cell that
    captures the mapped cells."""
    images = []
    for cell_map in grid_maps(game.rows, game.cols):
        def moved(cell, cell_map=cell_map):
            return int(np.ravel_multi_index(cell_map(*divmod(cell, game.cols)),
                                            (game.rows, game.cols)))

        def image(state, line, moved=moved):
            cells = [0] * len(state.cells)
            for cell, value in enumerate(state.cells):
                cells[moved(cell)] = value
            return CephalopodState(game, tuple(cells), state.to_move, state.ply)

        def move_image(state, move, moved=moved, image=image):
            target = image(state, None)
            captured = sorted(moved(c) for c in move.captures)
            return next(m for m in target.moves_at(moved(move.cell))
                        if sorted(m.captures) == captured)
        images.append((image, move_image))
    return images


def quarto_images(game):
    """The game's own square symmetries, through QuartoState.image."""
    return [(lambda state, line, s=squares: state.image(s, range(16)),
             lambda state, move, s=squares: QuartoMove(
                 None if move.square is None else s[move.square], move.give))
            for squares in game.square_symmetries]


IMAGES = {"connect4": gravity_images, "boom": gravity_images,
          "tictactoe": tictactoe_images, "cephalopod": cephalopod_images,
          "quarto": quarto_images}


def side_counts(state):
    """How many stones the side to move has, and the other side: None where the pieces
    belong to nobody (Quarto)."""
    if hasattr(state, "pieces"):
        return tuple(state.pieces[side].bit_count()
                     for side in (state.to_move, 1 - state.to_move))
    if isinstance(state, CephalopodState):
        return state.dice(state.to_move), state.dice(1 - state.to_move)
    return None


# --- the tests ------------------------------------------------------------------------

@pytest.mark.parametrize("id,options", SPECS, ids=IDS)
def test_planes_have_the_encoding_shape_and_tell_positions_apart(id, options):
    game = get_game(id, **options)
    encoding = game.encoding()
    assert encoding is not None, f"{game.spec} declares no encoding"
    seen = {}
    for state, _ in sample(game, count=60):
        planes = encoding.planes(state)
        assert planes.shape == encoding.shape and planes.dtype == np.float32
        other = seen.setdefault(planes.tobytes(), state)
        assert other == state, (f"{game.format_position(other)} and "
                                f"{game.format_position(state)} have the same planes")
    assert len(seen) > 40


@pytest.mark.parametrize("id,options", SPECS, ids=IDS)
def test_the_side_to_move_s_stones_come_first(id, options):
    game = get_game(id, **options)
    encoding = game.encoding()
    for state, _ in sample(game):
        counts = side_counts(state)
        if counts is None:
            continue
        planes = encoding.planes(state)
        # a side's stones are the first planes, one per kind of stone (Cephalopod's
        # pip counts), the mover's first: as many kinds as each side has planes
        kinds = 6 if isinstance(state, CephalopodState) else 1
        assert (planes[:kinds].sum(), planes[kinds:2 * kinds].sum()) == counts


@pytest.mark.parametrize("id,options", SPECS, ids=IDS)
def test_every_legal_move_has_its_own_index_and_comes_back(id, options):
    game = get_game(id, **options)
    encoding = game.encoding()
    for state, _ in sample(game):
        indices = [encoding.index(state, move) for move in state.moves()]
        assert all(0 <= i < encoding.policy_size for i in indices)
        assert len(set(indices)) == len(indices)
        assert [encoding.move(state, i) for i in indices] == list(state.moves())


@pytest.mark.parametrize("id,options", SPECS, ids=IDS)
def test_each_symmetry_is_the_position_seen_mirrored_or_turned(id, options):
    """Each symmetry agrees with exactly one image built here, on every position's
    planes and on its policy (a weight per legal move lands on the image's move), and
    every image but the identity is some symmetry."""
    game = get_game(id, **options)
    encoding = game.encoding()
    images = IMAGES[id](game)
    positions = sample(game, count=25)
    rng = np.random.default_rng(3)

    def agrees(symmetry, image, move_image):
        for state, line in positions:
            target = image(state, line)
            policy = np.zeros(encoding.policy_size, np.float32)
            expected = np.zeros_like(policy)
            for move in state.moves():
                weight = rng.random()
                policy[encoding.index(state, move)] = weight
                expected[encoding.index(target, move_image(state, move))] = weight
            planes, turned = symmetry(encoding.planes(state), policy)
            if not (np.array_equal(planes, encoding.planes(target))
                    and np.array_equal(turned, expected)):
                return False
        return True

    matched = []
    for symmetry in encoding.symmetries:
        found = [k for k, (image, move_image) in enumerate(images)
                 if agrees(symmetry, image, move_image)]
        assert len(found) == 1, f"a symmetry of {game.spec} matches images {found}"
        matched += found
    assert len(set(matched)) == len(matched) == len(images) - 1


@pytest.mark.parametrize("id,options", SPECS, ids=IDS)
def test_a_symmetry_repeated_comes_back_to_the_position(id, options):
    """Applied once it moves something; applied twice (a mirror) or four times (a
    quarter turn) it is the identity."""
    game = get_game(id, **options)
    encoding = game.encoding()
    state, _ = sample(game, count=1, seed=11)[0]
    planes = np.random.default_rng(5).random((3, *encoding.shape), np.float32)
    policy = np.random.default_rng(6).random((3, encoding.policy_size), np.float32)
    for symmetry in encoding.symmetries:
        once = symmetry(planes, policy)
        assert not (np.array_equal(once[0], planes) and np.array_equal(once[1], policy))
        twice = symmetry(*once)
        four = symmetry(*symmetry(*twice))
        back = twice if np.array_equal(twice[0], planes) else four
        assert np.array_equal(back[0], planes) and np.array_equal(back[1], policy)
    assert encoding.symmetries[0](encoding.planes(state)[None],
                                  policy[:1])[0].shape == (1, *encoding.shape)


@pytest.mark.parametrize("id,options", SPECS, ids=IDS)
def test_an_encoding_pickles_for_a_worker_process(id, options):
    game = get_game(id, **options)
    encoding = game.encoding()
    state, _ = sample(game, count=1, seed=2)[0]
    copy = pickle.loads(pickle.dumps(encoding))
    assert np.array_equal(copy.planes(state), encoding.planes(state))
    assert [copy.index(state, m) for m in state.moves()] == \
        [encoding.index(state, m) for m in state.moves()]


def test_boom_planes_see_how_near_the_ply_cap_is():
    """The same pieces and bombs ten plies later (the same waits for each bomb) are
    another position: nearer the draw at the ply cap."""
    game = get_game("boom")
    for state, _ in sample(game, count=10):
        later = replace(state, history=state.history + (0,) * 10)
        assert later != state
        assert not np.array_equal(game.encoding().planes(later),
                                  game.encoding().planes(state))


@pytest.mark.parametrize("squares", [False, True])
def test_quarto_planes_show_each_attribute_the_hand_and_the_pool(squares):
    """Per attribute (in piece_name's letter order) a plane with the placed pieces
    that have it; then the piece in hand's attributes and the pool, a plane each."""
    game = get_game("quarto", squares=squares)
    for state, _ in sample(game):
        planes = game.encoding().planes(state)
        placed = [piece_name(p) for p in state.board if p >= 0]
        assert planes[0].sum() == len(placed)
        for i in range(4):
            assert planes[1 + i].sum() == sum(name[i].isupper() for name in placed)
        hand = "" if state.hand is None else piece_name(state.hand)
        assert [planes[5, 0, 0], *planes[6:10, 0, 0]] == \
            [bool(hand), *(bool(hand) and hand[i].isupper() for i in range(4))]
        assert [p for p in range(16) if planes[10 + p].all()] == state.pool()


def test_the_encoding_is_made_once_per_game_and_none_where_none_is_declared(monkeypatch):
    small, large = get_game("cephalopod", rows=3, cols=3), get_game("cephalopod")
    assert small.encoding() is small.encoding()
    assert small.encoding().shape != large.encoding().shape
    monkeypatch.setitem(_REGISTRY, "quarto", replace(_REGISTRY["quarto"], encoding=None))
    assert get_game("quarto").encoding() is None


def test_an_encoding_that_does_not_load_is_one_clear_error(monkeypatch):
    monkeypatch.setitem(_REGISTRY, "quarto", replace(
        _REGISTRY["quarto"], encoding="plyground.core.games.quarto:no_such_function"))
    with pytest.raises(PlygroundError, match="Quarto: its encoding .* does not load"):
        get_game("quarto").encoding()
