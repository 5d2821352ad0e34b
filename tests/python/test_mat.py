"""MAT v4 result files (issue 36, item 8): written by Result.write_mat, read back with scipy.io.loadmat."""
import numpy as np
import pytest

import acausal as ac
from acausal import rotational

scipy_io = pytest.importorskip("scipy.io", reason="scipy is missing (Debian: apt-get install python3-scipy)")


def test_write_mat_reads_back_with_loadmat(tmp_path):
    m = ac.Model("free_pair")
    i1 = m.add(rotational.Inertia("i1", J=2.0))
    spring = m.add(rotational.Spring("spring", c=400.0))
    i2 = m.add(rotational.Inertia("i2", J=0.5))
    m.connect(i1.flange_b, spring.flange_a)
    m.connect(spring.flange_b, i2.flange_a)
    for name, value in (("i1.phi", 0.0), ("i1.w", 1.0), ("i2.phi", 0.1), ("i2.w", 0.0)):
        m.set_start(name, value)
    r = m.compile().simulate(t_end=0.5, output_interval=0.01)
    path = tmp_path / "run.mat"
    r.write_mat(str(path))
    mat = scipy_io.loadmat(str(path), chars_as_strings=False)
    aclass = ["".join(row).strip() for row in mat["Aclass"]]
    assert aclass == ["Atrajectory", "1.1", "", "binTrans"]
    names = ["".join(column).rstrip() for column in mat["name"].T]
    info = mat["dataInfo"]
    assert info.shape == (4, len(names)) and names[0] == "time" and list(info[:, 0]) == [0, 1, 0, -1]
    data_1, data_2 = mat["data_1"], mat["data_2"]
    assert np.array_equal(data_1[0], [r.time[0], r.time[-1]])
    assert np.max(np.abs(data_2[0] - r.time)) <= 1e-15 * max(1.0, np.max(np.abs(r.time)))
    variables = [n for n, i in zip(names, info.T) if i[0] == 2]
    assert sorted(variables) == sorted(r.names) and "i1.phi" in variables
    for name, i in zip(names, info.T):
        if i[0] == 2:
            expected = np.asarray(r[name])
            assert np.max(np.abs(data_2[i[1] - 1] - expected), initial=0.0) <= 1e-15 * max(1.0, np.max(np.abs(expected)))
        elif i[0] == 1:
            assert data_1[i[1] - 1, 0] == data_1[i[1] - 1, 1]
    assert data_1[info[1, names.index("spring.c")] - 1, 0] == 400.0
    assert (info[0, 1:] > 0).all()
