"""Code from outside plyground: installed packages' entry points, and agent classes
named by a file or an import path (`bots/alice.py:Bot`, `mypkg.bots:Bot`).

Everything that goes wrong here is the user's to fix, so it becomes a PlygroundError
that says which plugin and why, never a traceback.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
import warnings
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any, Callable

from .errors import PluginError, shown


def installed_entry_points(group: str) -> list[EntryPoint]:
    """The entry points installed packages declare in `group`, sorted by name."""
    return sorted(entry_points(group=group), key=lambda point: point.name)


def load_entry_points(group: str, what: str,
                      register: Callable[[EntryPoint, Any], None]) -> None:
    """Load each entry point installed in `group` and hand it, with what it names, to
    `register`. One that fails to load or to register is reported as a warning (`the
    {what} plugin 'name' (value) was not loaded: why`) and left out: a broken package
    must not take plyground down."""
    for point in installed_entry_points(group):
        try:
            register(point, point.load())
        except Exception as error:
            warnings.warn(f"the {what} plugin {point.name!r} ({point.value}) was not "
                          f"loaded: {error}", stacklevel=3)


def is_plugin_ref(text: str) -> bool:
    """Whether an agent spec names a class in a file or module rather than a kind:
    `path/to/bot.py:Class` or `package.module:Class`."""
    source, colon, name = text.partition(":")
    return bool(colon) and name.strip().isidentifier() and (
        source.endswith(".py") or "/" in source or "\\" in source or "." in source)


def split_plugin_ref(spec: str) -> tuple[str, str, str] | None:
    """(source, class name, settings) of `path/bot.py:Class[:settings]` or
    `package.module:Class[:settings]`, as written; None for a kind's spec."""
    source, _, rest = spec.partition(":")
    name, _, settings = rest.partition(":")
    return (source, name, settings) if is_plugin_ref(f"{source}:{name}") else None


def names_a_file(source: str) -> bool:
    """Whether a plugin's source is a file's path (else a module's import path)."""
    return source.endswith(".py") or "/" in source or "\\" in source


CORE = Path(__file__).resolve().parent
OWN_CODE = (f"{CORE}{os.sep}", f"{CORE.parent / 'tui'}{os.sep}")  # plyground's own


def describe_error(error: BaseException) -> str:
    """An exception from a plugin as one line, with where in the plugin's own code it
    happened: `ZeroDivisionError: division by zero (at mybot.py:12)`."""
    if isinstance(error, SyntaxError) and error.filename:
        place = f" (at {Path(error.filename).name}:{error.lineno})"
        return f"SyntaxError: {error.msg}{place}"
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if not frame.filename.startswith(("<", *OWN_CODE))]
    place = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{place}"


def load_object(ref: str) -> Any:
    """The object `path/to/file.py:Name` or `package.module:Name` names."""
    source, _, name = ref.partition(":")
    source, name = source.strip(), name.strip()
    where = shown(ref)
    if names_a_file(source):
        path = Path(source).expanduser()
        try:
            found = path.is_file()
        except OSError:  # a name too long for the system, say
            found = False
        if not found:
            raise PluginError(f"{where}: there is no file {source!r}")
        module_name = f"plyground_plugin_{abs(hash(str(path.resolve())))}"
        module = sys.modules.get(module_name)
        if module is None:
            spec = importlib.util.spec_from_file_location(module_name, path)
            module = importlib.util.module_from_spec(spec)
            sys.path.insert(0, str(path.resolve().parent))  # its own helper modules
            try:
                spec.loader.exec_module(module)
            except BaseException as error:
                raise PluginError(f"{where}: the file failed to import: "
                                  f"{describe_error(error)}") from None
            finally:
                sys.path.remove(str(path.resolve().parent))
            sys.modules[module_name] = module
    else:
        try:
            module = importlib.import_module(source)
        except ModuleNotFoundError as error:
            raise PluginError(f"{where}: no module named {error.name!r}") from None
        except BaseException as error:
            raise PluginError(f"{where}: the module failed to import: "
                              f"{describe_error(error)}") from None
    try:
        return getattr(module, name)
    except AttributeError:
        raise PluginError(f"{where}: {shown(source)} has no {name!r}") from None
