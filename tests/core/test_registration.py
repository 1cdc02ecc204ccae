"""One registration per game and per agent kind: nothing outside a game's own modules
names its id, and nothing outside an agent kind's own module compares its name.

A game's own modules are the module of its rules (its factory's) and the modules its
registration names for it alone (board, kernels, analysis...); files named after the
game count too. An agent kind's own module is where its class is defined (and
core/agents/base.py, the registry)."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

from plyground.core import game_entries
from plyground.core.catalogue import agent_kinds

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ("core", "tui")


def module_file(module: str) -> Path | None:
    found = sys.modules.get(module)
    if found is None:
        __import__(module)
        found = sys.modules[module]
    return Path(found.__file__).resolve()


def own_game_files() -> dict[str, set[Path]]:
    entries = [e for e in game_entries() if e.factory.__module__.startswith("plyground.")]
    named: dict[str, set[Path]] = {}
    for entry in entries:
        refs = [entry.board, entry.renderer, entry.analysis, entry.kernels.tree,
                entry.kernels.mcts]
        named[entry.id] = {module_file(ref.partition(":")[0]) for ref in refs if ref}
    owners: dict[Path, int] = {}
    for files in named.values():
        for file in files:
            owners[file] = owners.get(file, 0) + 1
    return {entry.id: {f for f in named[entry.id] if owners[f] == 1}
            | {module_file(entry.factory.__module__)} for entry in entries}


def python_files() -> list[Path]:
    return sorted(p for folder in BUILT_IN for p in (ROOT / folder).rglob("*.py"))


def game_id_uses(source: str, ids) -> list[tuple[int, str]]:
    """Every string constant naming a game (its id, or a spec `id:...`)."""
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and any(node.value == i or node.value.startswith(i + ":") for i in ids)]


def kind_comparisons(source: str, kinds) -> list[tuple[int, str]]:
    """Every agent kind name compared (==, !=, in), used as a subscript (but an
    agent's `settings[...]` or a run's `params[...]`: the setting or parameter `seed`
    is not the kind) or a case."""
    def names(node) -> list[str]:
        values = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
        return [v.value for v in values if isinstance(v, ast.Constant)
                and isinstance(v.value, str) and v.value.partition(":")[0] in kinds]

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for part in [node.left, *node.comparators]:
                found += [(node.lineno, name) for name in names(part)]
        elif isinstance(node, ast.Subscript) and not (  # a setting named like a kind
                isinstance(node.value, ast.Attribute) and node.value.attr == "settings"
                or isinstance(node.value, ast.Name) and node.value.id == "params"):
            found += [(node.lineno, name) for name in names(node.slice)]
        elif isinstance(node, ast.match_case):
            found += [(node.pattern.lineno, name) for name in names(
                getattr(node.pattern, "value", node.pattern))]
    return found


def test_no_game_id_outside_its_own_modules():
    own = own_game_files()
    misplaced = []
    for path in python_files():
        source = path.read_text(encoding="utf-8")
        for line, text in game_id_uses(source, own):
            game = text.partition(":")[0]
            if path not in own[game] and not path.name.startswith(game):
                misplaced.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert not misplaced, "game ids named outside their game's modules:\n" + \
        "\n".join(misplaced)


def test_no_agent_kind_compared_outside_its_own_module():
    kinds = agent_kinds()
    registry = ROOT / "core" / "agents" / "base.py"
    misplaced = []
    for path in python_files():
        source = path.read_text(encoding="utf-8")
        for line, text in kind_comparisons(source, kinds):
            kind = text.partition(":")[0]
            if path not in (registry, module_file(kinds[kind].__module__)):
                misplaced.append(f"{path.relative_to(ROOT)}:{line}: {text!r}")
    assert not misplaced, "agent kinds compared outside their modules:\n" + \
        "\n".join(misplaced)


def test_the_scans_find_what_they_look_for():
    """The two tests above could pass by finding nothing: these must be found."""
    source = ('if game.id == "connect4":\n    spec = "quarto:squares=true"\n'
              'if agent.kind in ("ga", "perfect"):\n    pass\n'
              'x = KINDS["mcts"] + self.settings["seed"]\nmatch kind:\n    case "random":\n        pass\n')
    assert [text for _, text in game_id_uses(source, {"connect4", "quarto"})] == \
        ["connect4", "quarto:squares=true"]
    assert sorted(text for _, text in kind_comparisons(source, agent_kinds())) == \
        ["ga", "mcts", "perfect", "random"]


def test_every_game_declares_what_the_app_and_cli_need():
    from plyground.core.game import load_ref

    for entry in game_entries():
        assert entry.notation, entry.id
        assert isinstance(load_ref(entry.board), type), entry.id
        assert callable(load_ref(entry.renderer)), entry.id
        for ref in (entry.kernels.tree, entry.kernels.mcts):
            if ref:
                assert isinstance(load_ref(ref), type), ref
