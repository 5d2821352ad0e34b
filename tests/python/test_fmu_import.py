"""An FMU exported from Python and imported back with ac.add_fmu: the imported plant, sampled by its
communication points, against the same plant in the same model."""
import numpy as np
import pytest

import acausal as ac
from acausal import blocks, rotational

H = 0.01


def add_plant(m, prefix, torque, d=0.2):
    """An inertia driven by `torque` against a viscous damper d [N·m·s/rad]; returns the inertia."""
    inertia = m.add(rotational.Inertia(prefix + "inertia", J=0.5))
    motor = m.add(rotational.Torque(prefix + "motor"))
    damper = m.add(rotational.Damper(prefix + "damper", d=d))
    ground = m.add(rotational.Fixed(prefix + "ground"))
    m.connect(motor.flange, inertia.flange_a)
    m.connect(inertia.flange_b, damper.flange_a)
    m.connect(damper.flange_b, ground.flange)
    m.connect(torque, motor.tau)
    m.set_start(prefix + "inertia.phi", 0.0)
    m.set_start(prefix + "inertia.w", 0.0)
    return inertia


@pytest.fixture(scope="module")
def plant_fmu(tmp_path_factory):
    m = ac.Model("plant")
    inertia = add_plant(m, "", m.input("torque", unit="N.m"))
    m.output("w", inertia.w, unit="rad/s")
    path = tmp_path_factory.mktemp("fmu") / "plant.fmu"
    m.compile().export_fmu(str(path), tolerance=1e-10)
    return str(path)


def test_an_imported_fmu_holds_the_original_plant_at_its_communication_points(plant_fmu):
    m = ac.Model("host")
    torque = m.add(blocks.Step("torque", height=2.0, startTime=0.3))
    fmu = ac.add_fmu(m, "fmu", plant_fmu, step_size=H, damper_d=0.4)
    assert ac.fmu.port(fmu, "torque").path == fmu.torque.path  # a connector by its FMU name
    m.connect(torque.y, fmu.torque)
    original = add_plant(m, "original_", torque.y, d=0.4)
    sampler = m.add(blocks.Sampler("sampler", samplePeriod=H))
    speed = m.add(rotational.SpeedSensor("speed"))
    m.connect(original.flange_b, speed.flange)
    m.connect(speed.w, sampler.u)
    sim = m.compile()
    r = sim.simulate(t_end=1.0, rtol=1e-10, atol=1e-12, output_interval=0.0137)
    w_fmu, w_sampled = np.asarray(r["fmu.w"]), np.asarray(r["sampler.y"])
    assert np.max(np.abs(w_fmu - w_sampled)) < 1e-7
    assert w_fmu[-1] > 1.0  # the step drove the plant: 2 N·m on J = 0.5 for 0.7 s
    # The FMU's damper parameter reached it: with the exported default d = 0.2 the speeds part.
    sim.set_parameter("fmu.damper_d", 0.2)
    w_default = np.asarray(sim.simulate(t_end=1.0, rtol=1e-10, atol=1e-12, output_interval=0.0137)["fmu.w"])
    assert w_default[-1] - w_fmu[-1] > 0.01


def test_add_fmu_refuses_a_missing_file_naming_the_component():
    m = ac.Model("host")
    with pytest.raises(ac.ModelError, match="FMUComponent 'engine'.*missing.fmu"):
        ac.add_fmu(m, "engine", "/nonexistent/missing.fmu")
