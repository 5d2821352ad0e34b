"""Driveline modes of the rear-drive car in 2nd gear, from its linearization.

The car's throttle is the model's input. After 2 s at 30 % throttle from
15 m/s (2nd gear, clutch locked) the model is linearized: the mode report
names the driveline mode where the gearbox and the rear tyres' treads swing
against each other, and the Bode plot shows how the engine speed answers the
throttle. Then a trim: the throttle that holds 100 km/h on a 2 % grade.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/driveline_modes.py
writes out/driveline_bode.png, out/driveline_step.png and out/driveline_trim.png.
"""
import math
import os

import numpy as np

import acausal as ac
from acausal import blocks, vehicle


def build(grade=0.0):
    m = ac.Model("car_in_the_loop")
    throttle = m.input("throttle")
    car = m.add(vehicle.RearDriveCar("car"))
    for corner in ("fl", "fr", "rl", "rr"):  # the treads' compliance (relaxation length) gives the mode
        getattr(car, "wheel_" + corner).set_parameter("relaxation", 1.0)
    car.body.set_parameter("grade", grade)
    clutch = m.add(blocks.Constant("clutch", k=1.0))
    brake = m.add(blocks.Constant("brake", k=0.0))
    m.connect(throttle, car.throttle)
    m.connect(clutch.y, car.clutch_pedal)
    m.connect(brake.y, car.brake_pedal)
    m.set_start("car.body.v", 15.0)
    return m


def main(out="out"):
    os.makedirs(out, exist_ok=True)
    sim = build().compile()
    sim.set_parameter("throttle", 0.3)
    run = sim.simulate(t_end=2.0, output_interval=0.01)
    lin = ac.linearize(run, outputs=["car.engine.w", "car.body.v"])
    modes = lin.modes()
    oscillating = modes[modes["eigenvalue"].map(lambda z: z.imag) > 1.0]
    print(f"gear {run['car.selector.gear'][-1]:.0f}, {len(lin.states)} states, oscillating modes:")
    print(oscillating[["frequency_hz", "damping_ratio", "dominant_states"]].to_string(index=False))
    lin.bode("throttle", "car.engine.w", w=2 * math.pi * np.logspace(-3, 3, 500),
             path=os.path.join(out, "driveline_bode.png"))
    lin.step("throttle", "car.body.v", path=os.path.join(out, "driveline_step.png"))

    uphill = build(grade=math.atan(0.02)).compile()
    uphill.set_parameter("throttle", 0.4)
    guess = uphill.simulate(t_end=20.0, output_interval=0.1)  # near 100 km/h, in the gear the trim keeps
    trim = ac.steady_state(uphill, guess=guess, free=["throttle"], conditions={"car.body.v": 100 / 3.6})
    print(f"100 km/h on a 2 % grade: throttle {trim.values['throttle']:.4f}, engine {trim['car.engine.rpm']:.0f} rpm, "
          f"gear {trim['car.selector.gear']:.0f}, {trim.iterations} Newton iterations")
    slowest = modes[modes["time_constant"].between(1.0, 1e6)]["time_constant"]
    print(f"the car's speed mode: time constant {slowest.iloc[0]:.0f} s")
    plot_trim(uphill, guess, trim, os.path.join(out, "driveline_trim.png"))
    return lin, trim


def plot_trim(sim, guess, trim, path):
    """The guess run, and 10 s continued from the trim: the car holds 100 km/h at the trim's throttle."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    session = sim.start(t_end=30.0, output_interval=0.1, rtol=1e-8, atol=1e-10)
    session.set_point(trim.point)
    session.advance(30.0)
    held = session.result
    fig, (speed, throttle) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    speed.plot(guess.time, 3.6 * guess["car.body.v"], label="guess run: throttle 0.4 from 15 m/s")
    speed.plot(held.time, 3.6 * held["car.body.v"], label="continued from the trim")
    speed.axhline(100.0, color="gray", lw=0.5)
    speed.set_ylabel("speed [km/h]")
    speed.legend()
    throttle.plot(guess.time, np.full(len(guess.time), 0.4))
    throttle.plot(held.time, np.full(len(held.time), trim.values["throttle"]))
    throttle.set_ylabel("throttle")
    throttle.set_xlabel("time [s]")
    fig.suptitle(f"trim on a 2 % grade: throttle {trim.values['throttle']:.4f}, "
                 f"drift {np.max(np.abs(held['car.body.v'] - 100 / 3.6)):.0e} m/s over 10 s")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
