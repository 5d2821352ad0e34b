"""The library's cars as blocks (issue 36, item 2): their parts' parameters in help() and .parameters,
inputs that do not hide parts, connecting to a part from the top model, pattern setting, choices by name."""
import math
import pydoc

import numpy as np
import pytest

import acausal as ac
from acausal import blocks, rotational, vehicle


def pedals(m, car, throttle=0.0, brake=0.0, clutch=0.0):
    """The car's inputs held constant (a part's input must be connected)."""
    for name, value in (("throttle", throttle), ("brake_pedal", brake), ("clutch_pedal", clutch)):
        m.connect(m.add(blocks.Constant(name.removesuffix("_pedal"), k=value)).y, getattr(car, name))


def test_help_and_parameter_table_of_the_car_list_its_parts_parameters_by_path():
    text = pydoc.render_doc(vehicle.RearDriveCar, renderer=pydoc.plaintext)
    assert "Parameters of parts" in text
    assert "wheel_rl (vehicle::Wheel):" in text
    assert "wheel_rl.mu = 0.9  (>= 0" in text  # the car's value (the Wheel's own default is another)
    assert "body.m [kg] = 1500" in text
    assert "wheel_rl.tire_law = 'tanh'" in text and "one of tanh, linear, pacejka, pac2002" in text
    table = vehicle.RearDriveCar.parameters
    assert table.loc["wheel_rl.mu", "value"] == 0.9 and table.loc["wheel_rl.mu", "min"] == 0.0
    assert table.loc["body.m", "unit"] == "kg" and table.loc["body.m", "value"] == 1500.0
    assert table.loc["clutch.tau_max", "value"] == 400.0
    assert bool(table.loc["wheel_fl.tire_law", "structural"])


def test_the_car_inputs_no_longer_hide_its_parts():
    m = ac.Model("m")
    car = m.add(vehicle.RearDriveCar("car"))
    names = dir(car)
    for name in ("throttle", "brake_pedal", "clutch_pedal", "clutch", "body", "wheel_rl"):
        assert names.count(name) == 1, name
    assert car.clutch.tau_max.value == 400.0  # the part, reached by attribute
    assert car.clutch_pedal.path == "car.clutch_pedal"
    assert set(vehicle.RearDriveCar.connectors) == {"throttle", "brake_pedal", "clutch_pedal", "speed"}


def test_no_library_component_has_a_connector_and_a_part_of_the_same_name():
    for key in ac._acausal._library:
        info = ac._acausal._library_info(key)
        connectors = {k["name"] for k in info["connectors"]}
        parts = {c["name"] for c in info["children"]}
        assert not connectors & parts, key


def test_a_component_declaring_an_input_and_a_part_of_the_same_name_is_refused():
    class Clashing(ac.Component):
        def __init__(self, name):
            super().__init__(name)
            self.clutch_in = self.connector(ac.RealInput, "clutch")
            self.add(rotational.Inertia("clutch"))

    with pytest.raises(ac.ModelError, match=r"has a connector 'clutch' and adds a part of that name"):
        Clashing("c")


def test_the_top_model_connects_a_sensor_to_a_part_of_the_car():
    m = ac.Model("launch")
    car = m.add(vehicle.RearDriveCar("car"))
    sensor = m.add(rotational.SpeedSensor("wheel_speed"))
    m.connect(sensor.flange, car.wheel_rl.flange_rot)  # failed before: "'wheel_rl' is not part of 'launch'"
    pedals(m, car)  # coasting, the clutch open
    radius = car.wheel_rl.radius.value
    m.set_start("car.body.v", 5.0)
    for corner in ("fl", "fr", "rl", "rr"):
        m.set_start(f"car.wheel_{corner}.omega", 5.0 / radius)
    r = m.compile().simulate(t_end=0.5, output_interval=0.1)
    assert np.max(np.abs(r["wheel_speed.w"] - r["car.wheel_rl.omega"])) < 1e-9
    assert r["car.wheel_rl.omega"][-1] > 10.0


def test_connecting_a_connector_of_another_model_says_what_to_do():
    m, other = ac.Model("a"), ac.Model("b")
    here = m.add(rotational.Inertia("here"))
    there = other.add(rotational.Inertia("there"))
    with pytest.raises(ac.ModelError, match=r"there\.flange_b.*not inside 'a'.*add its component to this model"):
        m.connect(here.flange_a, there.flange_b)


def test_pattern_setting_on_the_simulator_sets_exactly_the_matching_parameters():
    m = ac.Model("road")
    pedals(m, m.add(vehicle.RearDriveCar("car")))
    sim = m.compile()
    before = {name: sim.parameter(name) for name in sim.parameter_names}
    assert sim.set_parameters("car.wheel_*.mu", 0.3) == 4
    changed = {name for name in sim.parameter_names if sim.parameter(name) != before[name]}
    assert changed == {f"car.wheel_{c}.mu" for c in ("fl", "fr", "rl", "rr")}
    assert all(sim.parameter(name) == 0.3 for name in changed)
    assert sim.parameter("car.wheel_rl.mu_patch") == 0.1
    with pytest.raises(ac.ModelError, match=r"car\.wheel_\*\.m\b.*no parameter"):
        sim.set_parameters("car.wheel_*.m", 1.0)
    with pytest.raises(ac.ModelError, match="out of bounds"):
        sim.set_parameters("car.**.mu", -1.0)
    assert sim.parameter("car.wheel_fl.mu") == 0.3  # all or nothing


def test_pattern_setting_on_the_added_car_before_compile():
    m = ac.Model("road")
    car = m.add(vehicle.RearDriveCar("car"))
    pedals(m, car)
    assert car.set_parameters("wheel_*.mu", 0.25) == 4
    assert [getattr(car, f"wheel_{c}").mu.value for c in ("fl", "fr", "rl", "rr")] == [0.25] * 4
    assert car.wheel_rl.mu_patch.value == 0.1
    assert m.compile().parameter("car.wheel_fr.mu") == 0.25


def test_a_choice_is_set_by_name_on_a_part_and_on_the_simulator():
    m = ac.Model("road")
    car = m.add(vehicle.RearDriveCar("car"))
    pedals(m, car)
    car.wheel_rl.set_parameter("tire_law", "pacejka")  # was a raw TypeError
    car.set_parameter("wheel_rr.tire_law", "linear")
    assert car.wheel_rl.tire_law.value == 2.0 and car.wheel_rr.tire_law.value == 1.0
    with pytest.raises(ac.ModelError, match=r"wheel_rl\.tire_law.*tanh, linear, pacejka, pac2002"):
        car.wheel_rl.set_parameter("tire_law", "magic")
    sim = m.compile()
    sim.set_parameter("car.wheel_rl.tire_law", "pacejka")  # the compiled choice
    with pytest.raises(ac.ModelError, match=r"structural.*before compile\(\)"):
        sim.set_parameter("car.wheel_rl.tire_law", "tanh")
    with pytest.raises(ac.ModelError, match="not one of its choices"):
        sim.set_parameter("car.wheel_rl.tire_law", "magic")
