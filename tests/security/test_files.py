"""Files are data, read with care: a record, lesson, profile, import or theme is read
only from a regular file under 16 MB, so /dev/zero, a FIFO, a 100 MB file or a folder
is one line, at once; a TOML file nested 100,000 deep is one line; a lesson's record
stays inside the lesson's folder. Files are written with care: save and export ask
before replacing a file (--force, or Save pressed twice) and never replace a symbolic
link; a served app saves only inside its save folder.

Commands run as subprocesses, with a timeout as a hang guard (a FIFO blocked the old
code for ever) and an address-space limit (the old code read /dev/zero until the
machine's memory ran out)."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from plyground.core.ga.profile import ProfileError, load_profile
from plyground.core.study.lesson import read_lesson
from plyground.core.paths import MAX_FILE_BYTES, NotReplaced, parse_toml, \
    read_text_file, write_atomically
from plyground.core.records.record import format_record, load_record
from plyground.tui import themes
from plyground.tui.app import ServedLimits
from plyground.tui.screens.save import SaveScreen
from tests.tui.helpers import SIZE, make_app, wait_until

RECORD = '[Game "connect4"]\n[First "human"]\n[Second "human"]\n\n1. 4 4 2. 3\n'
DEEP = 100_000
KINDS = {"device": "a character device", "fifo": "a FIFO", "big": "over the 16 MB",
         "folder": "a folder"}


def limited_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def cli(*args: str, cwd: Path, home: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, **({"PLYGROUND_HOME": str(home)} if home else {}))
    return subprocess.run([sys.executable, "-m", "plyground", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=limited_memory)


def one_error_line(result: subprocess.CompletedProcess) -> str:
    """The one `error: ...` line the command ended with (a progress line such as
    `preparing FILE…` may come before it)."""
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    *progress, line = result.stderr.splitlines()
    assert line.startswith("error: ") and not any("error" in p for p in progress)
    return line


@pytest.fixture
def odd(tmp_path) -> dict[str, Path]:
    """A device, a FIFO, a 100 MB file (sparse: no disk used) and a folder."""
    fifo, big, folder = tmp_path / "fifo.txt", tmp_path / "big.txt", tmp_path / "folder"
    os.mkfifo(fifo)
    with open(big, "wb") as file:
        file.truncate(100 * 2**20)
    folder.mkdir()
    return {"device": Path("/dev/zero"), "fifo": fifo, "big": big, "folder": folder}


# --- reading -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_review_reads_only_a_regular_file_under_the_cap(odd, kind, tmp_path):
    line = one_error_line(cli("review", str(odd[kind]), cwd=tmp_path))
    assert KINDS[kind] in line and str(odd[kind]) in line


@pytest.mark.parametrize("kind", ["device", "fifo"])
def test_play_load_refuses_a_device_or_a_fifo_before_the_app_opens(odd, kind, tmp_path):
    line = one_error_line(cli("play", "connect4", "--load", str(odd[kind]), cwd=tmp_path))
    assert KINDS[kind] in line


def test_games_import_refuses_each_odd_file_and_imports_the_rest(odd, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text(RECORD)
    result = cli("games", "import", *map(str, odd.values()), str(good), cwd=tmp_path,
                 home=tmp_path / "home")
    assert result.returncode == 2
    errors = result.stderr.splitlines()
    assert len(errors) == len(KINDS)
    for line, expected in zip(errors, KINDS.values()):
        assert line.startswith("error: ") and expected in line
    assert result.stdout.startswith(f"{good}: game 1")


def test_a_lessons_record_is_a_file_in_its_folder(tmp_path):
    """A record named by a lesson is refused outside the lesson's folder (absolute, by
    .. or by a symbolic link), and read with the same care inside it."""
    lesson = tmp_path / "lesson"
    (lesson / "records").mkdir(parents=True)
    (lesson / "records" / "ok.txt").write_text(RECORD)
    (tmp_path / "outside.txt").write_text(RECORD)
    (lesson / "out.txt").symlink_to(tmp_path / "outside.txt")
    os.mkfifo(lesson / "pipe.txt")
    names = ["/dev/zero", "/etc/passwd", "../outside.txt", "out.txt", "pipe.txt",
             "records/ok.txt"]
    scenes = "".join(f'[[scene]]\nrecord = "{name}"\n\n' for name in names)
    (lesson / "lesson.toml").write_text(f'title = "Paths"\n\n{scenes}')
    result = cli("lesson", "check", str(lesson / "lesson.toml"), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    faults = result.stdout.splitlines()
    assert len(faults) == len(names) - 1  # records/ok.txt is fine
    for fault, name in zip(faults, names):
        assert f"scene {names.index(name) + 1}" in fault and name in fault, fault
    assert all("no absolute path, no .." in fault for fault in faults[:3])
    assert "leads out of the lesson's folder" in faults[3]
    assert "a FIFO" in faults[4]
    assert "root:" not in result.stdout + result.stderr


def test_a_lesson_nested_too_deep_is_one_fault(tmp_path):
    for nested in ("[" * DEEP + "]" * DEEP, "{a = " * DEEP + "1" + "}" * DEEP):
        path = tmp_path / "deep.toml"
        path.write_text(f'title = "Deep"\nx = {nested}\n')
        [fault] = read_lesson(path)[1]
        assert fault.problem == "not TOML: arrays and tables nested more than 100 deep"
        assert fault.line == 2


def test_brackets_in_strings_and_comments_are_no_nesting():
    brackets = "[{" * 150
    text = (f'a = "{brackets}\\"" # {brackets}\nb = """\n{brackets}"""\n'
            f"c = '{brackets}'\nd = '''{brackets}'''\ne = [[1], {{f = [2]}}]\n")
    assert parse_toml(text) == {"a": brackets + '"', "b": brackets, "c": brackets,
                                "d": brackets, "e": [[1], {"f": [2]}]}


def test_a_theme_file_nested_too_deep_too_big_or_a_folder_is_skipped(tmp_path, monkeypatch):
    (tmp_path / "deep.toml").write_text("x = " + "[" * DEEP + "]" * DEEP)
    with open(tmp_path / "big.toml", "wb") as file:
        file.truncate(100 * 2**20)
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "fine.toml").write_text('name = "fine"\nprimary = "#112233"\n')
    monkeypatch.setattr(themes, "files", lambda package: tmp_path)
    loaded, problems = themes.load_themes()
    assert [theme.name for theme in loaded] == ["fine"]
    assert len(problems) == 3 and all("\n" not in problem for problem in problems)
    big, deep, folder = problems
    assert "over the 16 MB" in big and "nested more than 100 deep" in deep
    assert "a folder" in folder


def test_a_profile_is_read_only_from_a_regular_file_under_the_cap(odd):
    for kind in ("big", "folder"):
        with pytest.raises(ProfileError, match=KINDS[kind]) as raised:
            load_profile(odd[kind])
        assert "\n" not in str(raised.value)


def test_the_cap_is_on_the_bytes_read(tmp_path):
    path = tmp_path / "edge.txt"
    path.write_bytes(b"a" * MAX_FILE_BYTES)
    assert len(read_text_file(path)) == MAX_FILE_BYTES
    with open(path, "ab") as file:
        file.write(b"a")
    with pytest.raises(Exception, match="over the 16 MB a game record file may have"):
        load_record(path)


# --- writing -------------------------------------------------------------------------


@pytest.fixture
def link(tmp_path) -> tuple[Path, Path]:
    """A symbolic link, and the file it points to."""
    target = tmp_path / "target.txt"
    target.write_text("the target\n")
    (tmp_path / "link.txt").symlink_to(target)
    return tmp_path / "link.txt", target


def unchanged(link: Path, target: Path) -> bool:
    return link.is_symlink() and os.readlink(link) == str(target) \
        and target.read_text() == "the target\n"


def test_write_atomically_replaces_only_when_told_and_never_a_symbolic_link(tmp_path, link):
    path = tmp_path / "file.txt"
    path.write_text("old\n")
    with pytest.raises(NotReplaced, match="file.txt already exists"):
        write_atomically(path, "new\n", overwrite=False)
    assert path.read_text() == "old\n"
    write_atomically(path, "new\n", overwrite=True)
    assert path.read_text() == "new\n"
    for overwrite in (False, True):
        with pytest.raises(NotReplaced, match="is a symbolic link; choose another name"):
            write_atomically(link[0], "new\n", overwrite=overwrite)
        assert unchanged(*link)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "link.txt",
                                                          "target.txt"]


def test_games_export_asks_for_force_and_never_replaces_a_symbolic_link(tmp_path, link):
    home = tmp_path / "home"
    (tmp_path / "game.txt").write_text(RECORD)
    assert cli("games", "import", "game.txt", cwd=tmp_path, home=home).returncode == 0
    out = tmp_path / "out.txt"
    out.write_text("mine\n")
    line = one_error_line(cli("games", "export", "1", "--out", str(out), cwd=tmp_path,
                              home=home))
    assert line == f"error: {out} already exists (--force replaces it)"
    assert out.read_text() == "mine\n"
    result = cli("games", "export", "1", "--out", str(out), "--force", cwd=tmp_path,
                 home=home)
    assert result.returncode == 0 and load_record(out).moves == [3, 3, 2]
    line = one_error_line(cli("games", "export", "1", "--out", str(link[0]), "--force",
                              cwd=tmp_path, home=home))
    assert line == f"error: {link[0]} is a symbolic link; choose another name"
    assert unchanged(*link)


def test_lesson_export_asks_for_force_and_never_replaces_a_symbolic_link(tmp_path, link):
    (tmp_path / "one.toml").write_text('title = "One"\n\n[[scene]]\ngame = "connect4"\n')
    slides = tmp_path / "slides"
    slides.mkdir()
    (slides / "slide-1.svg").write_text("mine\n")
    line = one_error_line(cli("lesson", "export", "one.toml", "--svg", "slides",
                              cwd=tmp_path))
    assert line == "error: --svg slides: slide-1.svg already exists (--force replaces them)"
    assert (slides / "slide-1.svg").read_text() == "mine\n"
    (slides / "slide-1.svg").unlink()
    (slides / "slide-1.svg").symlink_to(link[1])
    line = one_error_line(cli("lesson", "export", "one.toml", "--svg", "slides",
                              "--force", cwd=tmp_path))
    assert line == "error: --svg slides: slide-1.svg is a symbolic link; choose another folder"
    assert unchanged(slides / "slide-1.svg", link[1])


async def save_as(pilot, app, text: str) -> str:
    """Press Save for `text`; the dialog's error line ("" once it has closed)."""
    if not isinstance(app.screen, SaveScreen):
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveScreen))
    field = app.screen.query_one("#save-path")
    field.value = text
    field.focus()
    await pilot.press("enter")
    await pilot.pause()
    if not isinstance(app.screen, SaveScreen):
        return ""
    return str(app.screen.query_one("#save-error").content)


async def test_the_save_dialog_asks_before_replacing_and_never_replaces_a_link(tmp_path,
                                                                              link):
    existing = tmp_path / "game.txt"
    existing.write_text("mine\n")
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.pause()
        said = await save_as(pilot, app, str(existing))
        assert said == f"{existing} already exists: press Save again to replace it."
        assert existing.read_text() == "mine\n"
        said = await save_as(pilot, app, str(link[0]))
        assert said == f"{link[0]} is a symbolic link; choose another name."
        said = await save_as(pilot, app, str(link[0]))  # a second press changes nothing
        assert "symbolic link" in said and unchanged(*link)
        assert await save_as(pilot, app, str(existing)) != ""  # a new confirmation
        assert await save_as(pilot, app, str(existing)) == ""
        record = app.game_screen.record()
    assert existing.read_text() == format_record(record)


async def test_a_served_save_dialog_writes_only_in_its_save_folder(tmp_path):
    """Its visitor's own folder inside the server's (tests/security/test_served_visitor.py
    has the rest: one folder a visitor, and the quota)."""
    saves, elsewhere = tmp_path / "saves", tmp_path / "elsewhere"
    saves.mkdir()
    elsewhere.mkdir()
    (saves / "sneaky").symlink_to(elsewhere)
    app = make_app("connect4", ("human", "human"), served=ServedLimits(save_dir=saves))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4")
        await pilot.pause()
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveScreen))
        own = app.visitor_folder
        assert own.parent == saves and own.name.startswith("session-")
        assert app.screen.query_one("#save-path").value.startswith(f"{own}/connect4-")
        (own / "sneaky").symlink_to(elsewhere)
        for outside in (str(elsewhere / "x.txt"), "../../elsewhere/x.txt", "sneaky/x.txt",
                        "../sneaky/x.txt", "../x.txt", "/etc/x.txt"):
            said = await save_as(pilot, app, outside)
            assert said == f"Games are saved in {own} only: give a file name in it."
        assert await save_as(pilot, app, "mine.txt") == ""
    assert list(elsewhere.iterdir()) == [] and (own / "mine.txt").is_file()


def test_a_name_with_a_nul_character_is_one_line_for_reading_and_writing(tmp_path):
    name = f"\x00{tmp_path}/record.txt"
    for read in (read_text_file, load_record):
        with pytest.raises(Exception, match="cannot hold a NUL character") as raised:
            read(name)
        assert "\n" not in str(raised.value)
    with pytest.raises(ProfileError, match="cannot hold a NUL character"):
        load_profile(name)
    with pytest.raises(Exception, match="cannot hold a NUL character"):
        write_atomically(Path(name), "text\n")
    assert list(tmp_path.iterdir()) == []
