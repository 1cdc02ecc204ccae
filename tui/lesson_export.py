"""Slides from a lesson (`plyground lesson export`): each step's screen as an SVG, the
app's own rendering at a fixed terminal size, and one HTML page that flips through
them. The same lesson gives the same files: the slides are made before the screen
opens (their searches seeded and bounded by depth or iterations), the presentation
shows no times or speeds, and the page has no date in it.
"""
from __future__ import annotations

import asyncio
import html
import os
import sys
from pathlib import Path

from plyground.core import PlygroundError
from plyground.core.study.lesson import Lesson, Slide
from plyground.core.paths import write_atomically

from .app import create_app
from .screens.lesson import LessonScreen
from .widgets.inspector import Inspector
from .widgets.inspector.mcts_view import MctsView

SETTLE_SECONDS = 60.0  # the most a slide may take to be drawn (a hang, not a wait)


def slide_name(index: int, count: int) -> str:
    return f"slide-{index + 1:0{len(str(count))}d}.svg"


async def render_slides(lesson: Lesson, slides: list[Slide], size: tuple[int, int],
                        progress=None) -> list[str]:
    """Each slide's screen as SVG text, in order."""
    app = create_app(lesson=(lesson, slides), animations=False)
    svgs: list[str] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LessonScreen)
        for index in range(len(slides)):
            screen.jump_to(index)
            await settled(pilot, screen)
            svgs.append(app.export_screenshot(title=f"{lesson.title} — slide {index + 1}"))
            if progress is not None:
                progress(index + 1, len(slides))
    return svgs


async def settled(pilot, screen: LessonScreen) -> None:
    """Wait until the slide is drawn whole: the MCTS table, when on show, has laid
    out its rows (its redraws are throttled), the inspector's summary has its
    height and the sign under a long table counts its rows."""
    inspector = screen.query_one(Inspector)
    table = inspector.query_one(MctsView)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SETTLE_SECONDS
    await pilot.pause()
    while not ((table.settled or not table.display) and inspector.summary_fitted
               and inspector.more_rows_current):
        if loop.time() > deadline:
            raise PlygroundError(f"slide {screen.index + 1} was not drawn within "
                                 f"{SETTLE_SECONDS:.0f} s")
        await pilot.pause(0.02)
    await pilot.pause()


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  body {{ margin: 0; background: #111; color: #ddd; font-family: sans-serif; }}
  header {{ display: flex; gap: 1em; align-items: center; padding: .4em 1em; }}
  header h1 {{ font-size: 1.1em; margin: 0; flex: 1; }}
  button {{ font-size: 1em; }}
  .slide {{ display: none; }}
  .slide.shown {{ display: block; }}
  .slide svg {{ width: 100%; height: auto; max-height: calc(100vh - 3em); }}
</style>
</head>
<body>
<header>
  <h1>{title}</h1>
  <button id="back" title="← or Backspace">←</button>
  <span id="count"></span>
  <button id="next" title="→, Space or Enter">→</button>
</header>
{slides}
<script>
  const slides = document.querySelectorAll(".slide");
  let shown = 0;
  function show(index) {{
    shown = Math.max(0, Math.min(slides.length - 1, index));
    slides.forEach((slide, i) => slide.classList.toggle("shown", i === shown));
    document.getElementById("count").textContent = `${{shown + 1}} / ${{slides.length}}`;
    history.replaceState(null, "", `#${{shown + 1}}`);
  }}
  document.getElementById("back").onclick = () => show(shown - 1);
  document.getElementById("next").onclick = () => show(shown + 1);
  document.addEventListener("keydown", (event) => {{
    if (["ArrowRight", " ", "Enter", "PageDown"].includes(event.key)) show(shown + 1);
    else if (["ArrowLeft", "Backspace", "PageUp"].includes(event.key)) show(shown - 1);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(slides.length - 1);
    else return;
    event.preventDefault();
  }});
  show((parseInt(location.hash.slice(1)) || 1) - 1);
</script>
</body>
</html>
"""


def page(title: str, svgs: list[str]) -> str:
    """One HTML page holding every slide, shown one at a time."""
    sections = "\n".join(f'<section class="slide" id="slide-{index + 1}">\n{svg}\n</section>'
                         for index, svg in enumerate(svgs))
    return PAGE.format(title=html.escape(title), slides=sections)


def export_files(folder: Path, count: int, with_html: bool) -> list[Path]:
    """The files an export of `count` slides writes into `folder`."""
    return [folder / slide_name(index, count) for index in range(count)] \
        + ([folder / "index.html"] if with_html else [])


def in_the_way(folder: Path, count: int, with_html: bool, overwrite: bool) -> list[Path]:
    """The files an export would have to replace and may not: symbolic links always
    (write_atomically never replaces one), existing files unless `overwrite`. Looked
    at before the slides are drawn, which takes a while."""
    return [path for path in export_files(folder, count, with_html)
            if path.is_symlink() or (not overwrite and os.path.lexists(path))]


def export_lesson(lesson: Lesson, slides: list[Slide], folder: Path, with_html: bool,
                  size: tuple[int, int], overwrite: bool = False) -> list[Path]:
    """Write the slides' SVGs (and the page) into `folder`; the files written. An
    existing file is replaced only with `overwrite` (else NotReplaced), a symbolic
    link never."""
    def progress(done: int, total: int) -> None:
        print(f"slide {done} of {total}", file=sys.stderr, flush=True)

    svgs = asyncio.run(render_slides(lesson, slides, size, progress))
    folder.mkdir(parents=True, exist_ok=True)
    written = export_files(folder, len(svgs), with_html)
    texts = svgs + ([page(lesson.title, svgs)] if with_html else [])
    for path, text in zip(written, texts):
        write_atomically(path, text, overwrite=overwrite)
    return written
