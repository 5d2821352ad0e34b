"""Results as xarray Datasets and netCDF files (issue 36, item 8): r.to_xarray(), r.to_netcdf(path)."""
import numpy as np
import pytest

from models import bouncing_ball, oscillator

xr = pytest.importorskip("xarray")


@pytest.fixture(scope="module")
def oscillator_result():
    return oscillator().compile().simulate(t_end=10.0, output_interval=0.05)


def test_dataset_has_every_variable_with_its_unit_and_description(oscillator_result):
    r = oscillator_result
    ds = r.to_xarray()
    assert set(ds.data_vars) == set(r.names)  # no events: no "event" flag
    assert ds["t"].attrs["units"] == "s" and np.array_equal(ds["t"].to_numpy(), r.time)
    assert ds["mass.v"].attrs["units"] == "m/s" and ds["spring.f"].attrs["units"] == "N"
    assert "state" in ds["mass.v"].attrs["description"]
    np.testing.assert_array_equal(ds["mass.s"].to_numpy(), r["mass.s"])
    # The static deflection F/c = 10/50 m, reached once the oscillation (decay rate d/2m = 0.75/s) has died out.
    assert abs(float(ds["mass.s"].sel(t=10.0)) - 0.2) < 1e-3


def test_netcdf_round_trip_keeps_values_and_units(oscillator_result, tmp_path):
    r = oscillator_result
    path = tmp_path / "oscillator.nc"
    r.to_netcdf(str(path), names=["mass.s", "mass.v", "spring.f"])
    with xr.open_dataset(str(path)) as ds:
        assert list(ds.data_vars) == ["mass.s", "mass.v", "spring.f"]
        assert ds["t"].dtype == np.float64  # "s" is not decoded as a timedelta
        np.testing.assert_allclose(ds["t"].to_numpy(), r.time, rtol=0, atol=1e-12)
        for name in ["mass.s", "mass.v", "spring.f"]:
            np.testing.assert_allclose(ds[name].to_numpy(), r[name], rtol=0, atol=1e-12)
            assert ds[name].attrs["units"] == r.unit(name)


def test_event_rows_are_flagged_and_time_is_unique(tmp_path):
    r = bouncing_ball().compile().simulate(t_end=2.0, output_interval=0.01)
    assert len(r.event_times) >= 2
    path = tmp_path / "ball.nc"
    r.to_netcdf(str(path), names=["ball.h", "ball.v"])
    with xr.open_dataset(str(path)) as ds:
        assert ds.indexes["t"].is_unique and ds.indexes["t"].is_monotonic_increasing
        event = ds["event"].to_numpy()
        before, after = ds.isel(t=np.flatnonzero(event == -1)), ds.isel(t=np.flatnonzero(event == 1))
        assert len(before["t"]) == len(after["t"]) == len(r.event_times)
        np.testing.assert_array_equal(after["t"].to_numpy(), r.event_times)
        assert np.all(before["ball.v"].to_numpy() < 0) and np.all(after["ball.v"].to_numpy() > 0)  # the bounce
        np.testing.assert_array_equal(ds.attrs["event_times"], r.event_times)
        # The same rows as to_pandas, to 1e-12.
        frame = r.to_pandas(["ball.h", "ball.v"])
        np.testing.assert_allclose(ds["t"].to_numpy(), frame.index.to_numpy(), rtol=0, atol=1e-12)
        np.testing.assert_allclose(ds["ball.v"].to_numpy(), frame["ball.v"].to_numpy(), rtol=0, atol=1e-12)


def test_a_variable_named_like_the_event_flag_is_refused_by_name():
    import acausal as ac

    m = ac.Model("m")
    source = m.add(ac.blocks.Constant("t", k=1.0))  # "t.y": a dotted name under "t" is not the coordinate
    m.output("event", source.y)
    r = m.compile().simulate(t_end=0.1)
    with pytest.raises(ValueError, match="'event'"):
        r.to_xarray()
    ds = r.to_xarray(["t.y"])
    assert list(ds.data_vars) == ["t.y"] and float(ds["t.y"][-1]) == 1.0
