"""The vehicle library from Python: a wheel on its seed-001 rig, and the body's parameter checks."""
import math

import pytest

import acausal as ac
from acausal import rotational, translational, vehicle


def wheel_rig(torque, N, **wheel):
    m = ac.Model("wheel_rig")
    source = m.add(rotational.ConstantTorque("torque", tau_constant=torque))
    w = m.add(vehicle.Wheel("wheel", **{"radius": 0.3, "mu": 0.8, "J": 0.05, **wheel}))
    breakout = m.add(vehicle.WheelContactBreakout("breakout"))
    body = m.add(translational.Mass("body", m=500.0))
    load = m.add(translational.ConstantForce("load", f_constant=-N))
    m.connect(source.flange, w.flange_rot)
    m.connect(w.contact, breakout.contact)
    m.connect(breakout.flange_traction, body.flange_a)
    m.connect(breakout.flange_normal, load.flange)
    m.set_start("body.v", 0.0)
    m.set_start("body.s", 0.0)
    return m, w


def test_wheel_saturates_at_mu_n_and_rolls_below_it():
    r = wheel_rig(2000.0, 5000.0)[0].compile().simulate(t_end=1.0, output_interval=0.01)
    assert r["wheel.F_traction"].max() <= 4000.0 * (1 + 1e-9)
    assert abs(r["wheel.F_traction"][-1] - 4000.0) < 40.0  # 1 %
    r = wheel_rig(60.0, 5000.0)[0].compile().simulate(t_end=10.0, output_interval=0.01, rtol=1e-8, atol=1e-10)
    rolling = abs(r["wheel.v"]) > 1.0
    assert rolling.sum() > 500
    assert (abs(r["wheel.v"][rolling] / r["wheel.omega"][rolling] - 0.3) / 0.3).max() < 1e-3


def test_tire_size_and_body_parameter_checks():
    assert math.isclose(vehicle.radius_from_tire_size("205/55R16"), 0.31595, rel_tol=1e-12)
    with pytest.raises(ValueError, match="205/55R16"):
        vehicle.radius_from_tire_size("not a tire")
    m = ac.Model("body")
    body = m.add(vehicle.VehicleBody("body", a=1.0, b=1.0, L=2.7))
    for axle, contact in (("front", body.contact_front), ("rear", body.contact_rear)):
        breakout = m.add(vehicle.WheelContactBreakout("breakout_" + axle))
        ground = m.add(translational.Fixed("ground_" + axle))
        m.connect(contact, breakout.contact)
        m.connect(breakout.flange_normal, ground.flange)
    with pytest.raises(ac.ModelError, match="a \\+ b must equal the wheelbase L"):
        m.compile()
    with pytest.raises(ValueError, match="Wheel.*wheels"):
        vehicle.Wheel("w", wheels=4)



def test_road_tables_from_python():
    m, wheel = wheel_rig(2500.0, 5000.0, J=0.5)
    vehicle.set_friction_table(wheel, [(0.0, 0.8), (1.0, 0.8), (2.0, 0.2)])
    r = m.compile().simulate(t_end=3.0, output_interval=0.001)
    s, mu = r["body.s"], r["wheel.mu_road"]
    assert s[-1] > 2.5
    assert abs(mu[s < 1.0] - 0.8).max() < 1e-9
    assert abs(mu[s > 2.0] - 0.2).max() < 1e-9
    with pytest.raises(ac.ModelError, match="positions must increase"):
        vehicle.set_friction_table(wheel, [(1.0, 0.5), (0.0, 0.5)])
    with pytest.raises(ac.ModelError, match="is not a vehicle.VehicleBody"):
        vehicle.set_grade_table(wheel, [(0.0, 0.1)])


def test_cars_as_blocks_with_their_equipment():
    from acausal import blocks

    def launch(car):
        m = ac.Model("car")
        car = m.add(car)
        throttle = m.add(blocks.Constant("throttle", k=1.0))
        engage = m.add(blocks.Ramp("engage", height=1.0, duration=1.0))
        pedal = m.add(blocks.Constant("pedal", k=0.0))
        m.connect(throttle.y, car.throttle)
        m.connect(engage.y, car.clutch_pedal)
        m.connect(pedal.y, car.brake_pedal)
        return m, car

    m, car = launch(vehicle.FrontDriveCar("car", abs=True))
    assert car.abs_fl.name == "abs_fl"  # the ABS controllers are parts of this car
    r = m.compile().simulate(t_end=3.0, output_interval=0.01)
    assert r["car.speed"][-1] > 5.0
    assert r["car.wheel_fl.F_traction"][-1] > 1000.0  # front-driven
    assert -100.0 < r["car.wheel_rl.F_traction"][-1] < 0.0  # rolling free
    m, car = launch(vehicle.RearDriveCar("car"))
    with pytest.raises(AttributeError, match="abs_fl"):
        car.abs_fl
    with pytest.raises(ValueError, match="unknown parameter 'esp'"):
        vehicle.RearDriveCar("car", esp=True)


def test_tir_files_and_pitching_grade_tables_from_python(tmp_path):
    import pathlib
    tires = pathlib.Path(__file__).parent.parent / "data" / "tires"
    m, wheel = wheel_rig(500.0, 4500.0, tire_law="pac2002")
    vehicle.load_tir(wheel, tires / "example_pac2002.tir")
    sim = m.compile()
    assert sim.parameter("wheel.FNOMIN") == 4500.0
    assert sim.parameter("wheel.PDX1") == 1.2
    with pytest.raises(ac.ModelError, match=r"bad_number.tir:\d+"):
        vehicle.load_tir(wheel, tires / "bad_number.tir")
    with pytest.raises(ac.ModelError, match="is not a vehicle.Wheel"):
        vehicle.load_tir(m.add(translational.Mass("mass")), tires / "example_pac2002.tir")

    # The grade table reaches a PitchingBody (its own checks run on it).
    body = ac.Model("pitching").add(vehicle.PitchingBody("body"))
    with pytest.raises(ac.ModelError, match="body grade table: positions must increase"):
        vehicle.set_grade_table(body, [(1.0, 0.05), (0.0, 0.05)])
    vehicle.set_grade_table(body, [(-10.0, 0.05), (10.0, 0.05)])


def test_motor_drive_losses_from_a_map_in_python():
    # A 400 V source, the drive holding 100 N.m against a prescribed 200 rad/s:
    # the map's loss at (200, 100) is the bilinear mean of its four corners.
    from acausal import electrical, rotational
    m = ac.Model("drive")
    drive = m.add(vehicle.MotorDrive("drive"))
    vehicle.set_loss_map(drive, [0.0, 400.0], [0.0, 200.0], [[0.0, 400.0], [800.0, 2000.0]])
    source = m.add(electrical.ConstantVoltage("source", V=400.0))
    ground = m.add(electrical.Ground("ground"))
    speed = m.add(rotational.Speed("speed"))
    w = m.add(ac.blocks.Constant("w", k=200.0))
    command = m.add(ac.blocks.Constant("command", k=100.0))
    m.connect(source.p, drive.p)
    m.connect(source.n, drive.n)
    m.connect(source.n, ground.p)
    m.connect(w.y, speed.w_ref)
    m.connect(speed.flange, drive.flange)
    m.connect(command.y, drive.tau_ref)
    r = m.compile().simulate(t_end=1.0, output_interval=0.01, rtol=1e-10)
    # After 50 time constants (T_c 0.02 s) the torque is the command.
    assert abs(r["drive.tau"][-1] - 100.0) < 1e-6
    assert abs(r["drive.LossPower"][-1] - (0 + 400 + 800 + 2000) / 4) < 1e-4
    assert abs(r["drive.P_elec"][-1] - (100.0 * 200.0 + 800.0)) < 1e-3
