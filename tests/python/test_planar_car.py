"""The planar car from Python: built with its equipment, steered by a robot, its path drawn."""
import math

import acausal as ac
from acausal import blocks, vehicle


def _steered_car(esc):
    m = ac.Model("swd")
    car = m.add(vehicle.PlanarCar("car", esc=esc))
    robot = m.add(vehicle.SteeringRobot("robot", profile="ramp", amplitude=math.radians(60), rate=math.radians(60),
                                        start_time=0.5))
    m.connect(robot.delta, car.steering)
    for name in ("throttle", "brake_pedal", "clutch_pedal"):
        m.connect(m.add(blocks.Constant(name.removesuffix("_pedal") + "_pedal", k=0.0)).y, getattr(car, name))
    return m, car


def test_a_planar_car_steered_at_rest_stays_put_within_its_tires_limits_and_its_path_is_drawn(tmp_path):
    m, car = _steered_car(esc=False)
    sim = m.compile()
    r = sim.simulate(t_end=3.0, output_interval=0.01)
    # A left steer at rest does not move the car: it starts from standstill with the engine idling and the
    # clutch open: the planar car's pose stays put (1e-9 m).
    assert abs(r["car.x"][-1]) < 1e-9 and abs(r["car.y"][-1]) < 1e-9
    for corner in ("fl", "fr", "rl", "rr"):
        F, peak = r[f"car.wheel_{corner}.F_total"], r[f"car.wheel_{corner}.F_peak"]
        assert all(f <= p * (1 + 1e-9) + 1e-9 for f, p in zip(F, peak))
    fig = r.plot_path("car", path=tmp_path / "path.png", lane=[(0, 0), (10, 0)])
    assert (tmp_path / "path.png").stat().st_size > 1000
    assert fig is not None


def test_the_friction_map_and_the_equipment_reach_the_car():
    m, car = _steered_car(esc=True)
    for corner in ("fl", "fr", "rl", "rr"):
        vehicle.set_friction_map(getattr(car, f"wheel_{corner}"), [-100, 100], [-0.01, 0.01], [[0.2, 0.9], [0.2, 0.9]])
    r = m.compile().simulate(t_end=0.1, output_interval=0.05)
    # The right wheels stand at y = -0.775 m (μ 0.2), the left ones at +0.775 m (μ 0.9); the ESC exists.
    assert abs(r["car.wheel_fr.mu_road"][-1] - 0.2) < 1e-12 and abs(r["car.wheel_fl.mu_road"][-1] - 0.9) < 1e-12
    assert "car.esc.r_ref" in r.names
