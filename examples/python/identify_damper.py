"""Parameter identification: fit a damper constant to a measured step response.

The "measurement" is the mass position of a spring-mass-damper pushed by a
constant force, simulated with d = 3 N.s/m and perturbed with noise. The model
is compiled once; ac.calibrate changes only the parameter between runs, and
each run integrates d(position)/d(d) with it (IDAS), so SciPy's least squares
gets its gradient without extra runs.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/identify_damper.py
"""
import numpy as np

import acausal as ac
from acausal import blocks, translational


def build():
    m = ac.Model("identify")
    wall = m.add(translational.Fixed("wall"))
    spring = m.add(translational.Spring("spring", c=50.0))
    damper = m.add(translational.Damper("damper", d=1.0))
    mass = m.add(translational.Mass("mass", m=2.0))
    push = m.add(blocks.Constant("push", k=10.0))
    force = m.add(translational.Force("force"))
    m.connect(wall.flange, spring.flange_a)
    m.connect(wall.flange, damper.flange_a)
    m.connect(spring.flange_b, mass.flange_a)
    m.connect(damper.flange_b, mass.flange_a)
    m.connect(push.y, force.f)
    m.connect(force.flange, mass.flange_b)
    m.set_start("mass.s", 0.0)
    m.set_start("mass.v", 0.0)
    return m


def main(true_d=3.0, noise=1e-3, seed=1):
    sim = build().compile()
    sim.set_parameter("damper.d", true_d)
    truth = sim.simulate(t_end=5.0, output_interval=0.02)
    measured = truth["mass.s"] + np.random.default_rng(seed).normal(0.0, noise, len(truth.time))

    fit = ac.calibrate(sim, {"damper.d": 1.0}, {"mass.s": (truth.time, measured)})
    print(f"fitted d = {fit['damper.d']:.4f} ± {fit.standard_errors['damper.d']:.4f} N.s/m (true {true_d}), "
          f"{fit.optimizer.nfev} simulations, rms misfit {fit.residual_rms['mass.s']:.2e} m")
    return fit["damper.d"]


if __name__ == "__main__":
    main()
