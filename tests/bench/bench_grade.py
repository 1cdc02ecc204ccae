"""Grading's figures, as a teacher runs `plyground grade run`: the example class
(examples/class, six students) on 2 worker processes; a synthetic class of 40 students
(copies of the six, in turn; the example spec with a Swiss ladder, as a large class
would have) on 2 worker processes and on a local Dask cluster of 2 single-thread
workers; and beside each, the time range `--dry-run` estimated. Each run starts from
an empty --out (nothing resumed). The load average is printed too: on a machine others
keep busy, the figures say little.

    python -m tests.bench.bench_grade [STUDENTS]
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.dask_cluster import dask_cluster

EXAMPLE = Path(__file__).parents[2] / "examples" / "class"
PLYGROUND = str(Path(sys.executable).with_name("plyground"))
STUDENTS = 40


def synthetic_class(folder: Path, students: int) -> tuple[Path, Path]:
    """`students` copies of the example's submissions, in turn, and the example spec
    with a Swiss ladder, in `folder`."""
    for name in ("nodes.txt", "positions.txt"):
        shutil.copy(EXAMPLE / name, folder)
    spec = (EXAMPLE / "minimax.toml").read_text()
    spec = spec.replace('format = "round-robin"', 'format = "swiss"')
    (folder / "spec.toml").write_text(spec)
    originals = sorted((EXAMPLE / "submissions").iterdir())
    for number in range(students):
        source = originals[number % len(originals)]
        shutil.copytree(source, folder / "submissions" / f"s{number + 1:02d}-{source.name}")
    return folder / "spec.toml", folder / "submissions"


def dry_run(spec: Path, submissions: Path) -> str:
    result = subprocess.run([PLYGROUND, "grade", "run", str(spec), str(submissions),
                             "--out", "unused", "--dry-run", "--jobs", "2"],
                            capture_output=True, text=True, check=True)
    line = result.stdout.strip().splitlines()[-1]
    return re.sub(r"^.*?: ", "", line)


def graded(spec: Path, submissions: Path, out: Path, *pool: str) -> tuple[float, int]:
    """Seconds the run took, and the units it played."""
    started = time.perf_counter()
    subprocess.run([PLYGROUND, "grade", "run", str(spec), str(submissions), "--out",
                    str(out), *pool], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    units = len((out / "journal.jsonl").read_text().splitlines()) - 1
    return seconds, units


def line(label: str, students: int, seconds: float, units: int) -> str:
    return (f"  {label:<34} {seconds:7.1f} s  {students / seconds * 60:6.1f} students/min"
            f"  {units / seconds:6.1f} units/s ({units} units)")


def main(students: int = STUDENTS) -> None:
    print(f"Grading (plyground grade run); load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        spec, submissions = EXAMPLE / "minimax.toml", EXAMPLE / "submissions"
        count = len(list(submissions.iterdir()))
        print(f"  the example class ({count} students), --dry-run said: "
              f"{dry_run(spec, submissions)}")
        print(line("the example class, --jobs 2", count,
                   *graded(spec, submissions, folder / "example", "--jobs", "2")))
        (folder / "big").mkdir()
        spec, submissions = synthetic_class(folder / "big", students)
        print(f"  a class of {students} (the six, copied; a Swiss ladder), --dry-run "
              f"said: {dry_run(spec, submissions)}")
        print(line(f"{students} students, --jobs 2", students,
                   *graded(spec, submissions, folder / "local", "--jobs", "2")))
        (folder / "dask").mkdir()
        with dask_cluster(folder / "dask", 2) as cluster:
            print(line(f"{students} students, Dask (2 workers)", students,
                       *graded(spec, submissions, folder / "cluster", "--cluster",
                               cluster.address)))
        same = (folder / "local" / "grades.json").read_text() == \
            (folder / "cluster" / "grades.json").read_text()
        print(f"  the same grades.json on both: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else STUDENTS)
