"""`grade run --cluster`: a class graded on a real Dask cluster (Dask's own `dask
scheduler` and `dask worker` commands on 127.0.0.1) gives the grades the local pool
gives, each student's agent in its box on the workers."""
from __future__ import annotations

from tests.dask_cluster import dask_cluster
from tests.grade.test_grade_resume import finish, grade, journal_keys, make_class


def test_the_same_grades_on_a_dask_cluster_as_on_the_local_pool(tmp_path):
    spec, subs = make_class(tmp_path)
    finish(grade(spec, subs, tmp_path / "local"))
    (tmp_path / "dask").mkdir()
    with dask_cluster(tmp_path / "dask", 2) as cluster:
        finish(grade(spec, subs, tmp_path / "on-dask", "--cluster", cluster.address))
    assert (tmp_path / "on-dask" / "grades.json").read_text() == \
        (tmp_path / "local" / "grades.json").read_text()
    keys = journal_keys(tmp_path / "on-dask")
    assert len(keys) == len(set(keys))
