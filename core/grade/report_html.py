"""The report's HTML pages: the class overview (a sortable table) and a page a
student with each check's evidence.

Plain strings and `html.escape`: the pages are small and fixed, and a template
library would be one more dependency for a few tables. Every text that came from a
submission (a student's name, its agent's, a fault, a reason, a record) is first
made visible (`errors.visible`: control characters as escapes) and then escaped.
The pages load nothing from the net and need no server: opened from file://, the
overview sorts with a few lines of its own script.
"""
from __future__ import annotations

import html
import math
import shlex
from dataclasses import dataclass
from urllib.parse import quote as url_quote

from ..errors import visible
from ..game import Game
from .evidence import CheckResult, ClassGrades, GameEvidence, LadderPlace, SearchEvidence, \
    StudentGrade
from .report_boards import Draw, board_html

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 80em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { border: 1px solid #ccc; padding: .25em .5em; vertical-align: top; }
th { background: #f3f3f3; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
th button { font: inherit; font-weight: bold; background: none; border: 0; padding: 0;
  cursor: pointer; }
th[aria-sort=ascending] button::after { content: " \\25B2"; }
th[aria-sort=descending] button::after { content: " \\25BC"; }
.fault { color: #a00; } .pass { color: #060; } .fail { color: #a00; }
.moves { max-width: 30em; overflow-wrap: anywhere; }
code { background: #f6f6f6; padding: 0 .2em; }
pre.board { display: inline-block; background: #fafafa; border: 1px solid #ddd;
  padding: .4em; margin: .3em 1em 0 0; line-height: 1.2; font-size: 1.1em; }
.missed { display: inline-block; vertical-align: top; margin: 0 1em 1em 0; }
.note { color: #555; }
"""

# Sorts the overview's table by a column, as numbers where both cells are numbers;
# a second click on the same column reverses the order.
SORT_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (head, column) {
    head.querySelector("button").addEventListener("click", function () {
      var down = head.getAttribute("aria-sort") === "ascending";
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      head.setAttribute("aria-sort", down ? "descending" : "ascending");
      var body = table.tBodies[0];
      var rows = Array.prototype.map.call(body.rows, function (row, i) {
        var cell = row.cells[column];
        var key = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort")
                                                 : cell.textContent;
        return {row: row, key: key, number: key === "" ? NaN : Number(key), i: i};
      });
      rows.sort(function (a, b) {
        var order = !isNaN(a.number) && !isNaN(b.number) ? a.number - b.number
                  : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
        return (down ? -order : order) || a.i - b.i;
      });
      rows.forEach(function (item) { body.appendChild(item.row); });
    });
  });
});
"""


@dataclass(frozen=True)
class GameFile:
    """A game's record as the report writes it: its path in the report's folder and
    its text, or why there is none; the game spec that replays it."""

    path: str | None
    text: str | None
    problem: str | None
    spec: str = ""


def text(value: object) -> str:
    """Untrusted text for HTML: control characters made visible, then escaped."""
    return html.escape(visible(str(value)))


def figure(value: float) -> str:
    return f"{value:g}"


def sort_key(value: float) -> str:
    """A number as the overview's script reads it (JavaScript's Number)."""
    value = float(value)
    if math.isnan(value):
        return ""
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return repr(value)


def page(title: str, body: list[str], script: str = "") -> str:
    return "\n".join([
        "<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
        *body, f"<script>{script}</script>" if script else "", "</body>", "</html>", ""])


def overview_page(grades: ClassGrades, pages: dict[str, str]) -> str:
    """The class: a row a student, a column a check, the total; sortable."""
    heads = ['<th data-kind="student"><button type="button">student</button></th>']
    heads += [f'<th class="n" title="{text(kind)}"><button type="button">{text(name)} '
              f"({figure(points)})</button></th>" for name, kind, points in grades.checks]
    heads += [f'<th class="n"><button type="button">total ({figure(grades.most)})'
              "</button></th>", '<th><button type="button">note</button></th>']
    rows = []
    for student in grades.students:
        link = "students/" + url_quote(pages[student.student])
        cells = [f'<td data-sort="{text(student.student)}">'
                 f'<a href="{html.escape(link)}">{text(student.student)}</a></td>']
        for name, _, _ in grades.checks:
            result = student.check(name)
            points = result.points if result else 0
            hint = f' title="{text(result.summary)}"' if result and result.summary else ""
            cells.append(f'<td class="n" data-sort="{sort_key(points)}"{hint}>'
                         f"{figure(points)}</td>")
        cells.append(f'<td class="n" data-sort="{sort_key(student.total)}">'
                     f"{figure(student.total)}</td>")
        note = (f'<span class="fault">did not start: {text(student.start_fault)}</span>'
                if student.start_fault else "")
        cells.append(f"<td>{note}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = [f"<h1>{text(grades.title)}</h1>", head_lines(grades),
            f"<p>{len(grades.students)} students; click a column's name to sort by it, "
            "again to reverse.</p>",
            '<table class="sortable" id="grades">',
            "<thead><tr>" + "".join(heads) + "</tr></thead>", "<tbody>", *rows,
            "</tbody></table>", checks_legend(grades)]
    return page(text(grades.title), body, SORT_SCRIPT)


def head_lines(grades: ClassGrades) -> str:
    lines = [f"game <code>{text(grades.game)}</code>, "
             f"spec <code>{text(grades.spec)}</code>"]
    if grades.command:
        lines.append(f"made by <code>{text(grades.command)}</code>")
    return '<p class="note">' + "<br>".join(lines) + "</p>"


def checks_legend(grades: ClassGrades) -> str:
    rows = "".join(f'<tr><td>{text(name)}</td><td>{text(kind)}</td>'
                   f'<td class="n">{figure(points)}</td></tr>'
                   for name, kind, points in grades.checks)
    return ("<h2>Checks</h2><table><thead><tr><th>check</th><th>kind</th>"
            f'<th class="n">points</th></tr></thead><tbody>{rows}</tbody></table>')


def student_page(grades: ClassGrades, student: StudentGrade, game: Game | None,
                 games: list[GameFile], draw: Draw | None = None) -> str:
    """One student's checks with their evidence; `games` are the record files of
    the student's games, in the order of its checks' games; `draw` draws a missed
    position's board (report_boards.picture)."""
    body = ['<p><a href="../report.html">the class</a></p>',
            f"<h1>{text(student.student)}: {figure(student.total)} of "
            f"{figure(grades.most)}</h1>", head_lines(grades)]
    if student.agent:
        body.append(f"<p>agent <code>{text(student.agent)}</code></p>")
    if student.start_fault:
        body.append(f'<p class="fault">The agent did not start: '
                    f"{text(student.start_fault)}</p>")
    files = iter(games)
    for check in student.checks:
        body += check_section(check, game, [next(files) for _ in check.games], draw)
    return page(f"{text(student.student)} — {text(grades.title)}", body)


def check_section(check: CheckResult, game: Game | None,
                  files: list[GameFile], draw: Draw | None = None) -> list[str]:
    kind = f" ({text(check.kind)})" if check.kind != check.check else ""
    lines = [f'<h2 id="{html.escape(url_quote(check.check))}">{text(check.check)}{kind}: '
             f"{figure(check.points)} of {figure(check.most)}</h2>"]
    if check.summary:
        lines.append(f"<p>{text(check.summary)}</p>")
    if check.verdict:
        lines.append(f"<p>SPRT verdict: <b>{text(check.verdict)}</b></p>")
    if check.ladder is not None:
        lines.append(ladder_table(check.ladder))
    if check.searches:
        if check.kind == "nodes" or any(s.expected_nodes is not None
                                        for s in check.searches):
            lines.append(nodes_table(check.searches))
        else:
            lines += positions_list(check.searches, game, draw)
    if check.games:
        lines.append(games_table(check.games, files))
    return lines


def games_table(games: list[GameEvidence], files: list[GameFile]) -> str:
    rows = []
    for number, (evidence, file) in enumerate(zip(games, files), 1):
        fault = f'<span class="fault">{text(evidence.fault)}</span>' if evidence.fault \
            else ""
        opening = (f'<br><span class="note">from the opening {text(evidence.opening)}'
                   "</span>") if evidence.opening else ""
        rows.append(
            f'<tr><td class="n">{number}</td><td>{text(evidence.opponent)}</td>'
            f"<td>{'first' if evidence.student_first else 'second'}</td>"
            f"<td>{text(evidence.result)}</td><td>{text(evidence.reason)}</td>"
            f"<td>{fault}</td><td class=\"moves\"><code>"
            f"{html.escape(visible(evidence.record, lines=True))}</code>{opening}</td>"
            f"<td>{replay(file)}</td></tr>")
    return ("<table><thead><tr><th class=\"n\">#</th><th>opponent</th>"
            "<th>student moved</th><th>result</th><th>reason</th><th>fault</th>"
            "<th>moves</th><th>replay (in the report's folder)</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def replay(file: GameFile) -> str:
    if file.path is None:
        return f'<span class="note">no replay: {text(file.problem or "")}</span>'
    command = f"plyground play {shlex.quote(file.spec)} --load {shlex.quote(file.path)}"
    return (f'<code class="replay">{html.escape(command)}</code> '
            f'(<a href="../{html.escape(url_quote(file.path))}">record</a>)')


def positions_list(searches: list[SearchEvidence], game: Game | None,
                   draw: Draw | None = None) -> list[str]:
    """The positions the agent missed, each drawn, with its move and the best."""
    missed = [search for search in searches if not search.passed]
    lines = [f"<p>{len(searches) - len(missed)} of {len(searches)} positions: the "
             "agent's move was among the best.</p>"]
    if missed:
        lines.append("<h3>Missed</h3>")
    for search in missed:
        played = text(search.move) if search.move is not None else "none"
        fault = f'<br><span class="fault">{text(search.fault)}</span>' if search.fault \
            else ""
        lines.append(
            f'<div class="missed">{board_html(game, search.position, draw)}<br>'
            f"position <code>{text(search.position) or '(the start)'}</code><br>"
            f"played <b>{played}</b>; best "
            f"<b>{text(', '.join(search.best)) or '(none given)'}</b>{fault}</div>")
    return lines


def nodes_table(searches: list[SearchEvidence]) -> str:
    rows = []
    for search in searches:
        verdict = ('<td class="pass">pass</td>' if search.passed
                   else '<td class="fail">fail</td>')
        fault = f'<span class="fault">{text(search.fault)}</span>' if search.fault else ""
        rows.append(f"<tr><td><code>{text(search.position) or '(the start)'}</code></td>"
                    f'<td class="n">{count(search.nodes)}</td>'
                    f'<td class="n">{count(search.expected_nodes)}</td>'
                    f"{verdict}<td>{fault}</td></tr>")
    return ("<table><thead><tr><th>position</th><th class=\"n\">nodes reported</th>"
            "<th class=\"n\">reference</th><th>result</th><th>fault</th></tr></thead>"
            "<tbody>" + "".join(rows) + "</tbody></table>")


def count(value: int | None) -> str:
    return "—" if value is None else str(value)


def elo_text(value: float) -> str:
    if math.isnan(value):
        return "unrated"
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return f"{value:+.0f}"


def ladder_table(place: LadderPlace) -> str:
    return ("<table><tbody>"
            f'<tr><th>rank</th><td class="n">{place.rank}</td></tr>'
            f'<tr><th>Elo</th><td class="n">{elo_text(place.elo)}</td></tr>'
            f"<tr><th>95% interval</th><td>{text(place.describe)}</td></tr>"
            f'<tr><th>games</th><td class="n">{place.games}</td></tr>'
            f'<tr><th>points</th><td class="n">{figure(place.points)}</td></tr>'
            "</tbody></table>")
