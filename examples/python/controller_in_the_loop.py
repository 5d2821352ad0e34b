"""A controller in the loop: a PI speed controller written in Python drives a
shaft through a step-by-step session, sampled every millisecond; the same
controller written in the model as a sampled block gives the same run.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/controller_in_the_loop.py
writes out/controller_in_the_loop.png.
"""
import os

import numpy as np

import acausal as ac
from acausal import rotational

KP, KI, DT = 5.0, 50.0, 1e-3


def build():
    loop = ac.Model("speed_loop")
    torque = loop.input("torque", unit="N.m")
    motor = loop.add(rotational.Torque("motor"))
    shaft = loop.add(rotational.Inertia("shaft", J=0.5))
    friction = loop.add(rotational.Damper("friction", d=0.2))
    ground = loop.add(rotational.Fixed("ground"))
    loop.connect(torque, motor.tau)
    loop.connect(motor.flange, shaft.flange_a)
    loop.connect(shaft.flange_b, friction.flange_a)
    loop.connect(friction.flange_b, ground.flange)
    loop.set_start("shaft.phi", 0.0)
    loop.set_start("shaft.w", 0.0)
    return loop


def set_speed(t):
    return 10.0 if t < 0.6 else 4.0


def main(out="out", t_end=1.2):
    session = build().compile().start(t_end=t_end, output_interval=DT)
    integral = 0.0
    for k in range(int(round(t_end / DT))):
        error = set_speed(k * DT) - session.get("shaft.w")
        integral += error * DT
        session.set_input("torque", KP * error + KI * integral)
        session.advance((k + 1) * DT)
    r = session.result
    print(f"speed at {t_end} s: {r['shaft.w'][-1]:.4f} rad/s (set {set_speed(t_end)}), {len(r.time)} rows")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(out, exist_ok=True)
    fig, (speed, torque) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    speed.plot(r.time, [set_speed(t) for t in r.time], color="gray", lw=0.8, label="set speed")
    speed.plot(r.time, r["shaft.w"], label="shaft speed")
    speed.set_ylabel("speed [rad/s]")
    speed.legend()
    torque.plot(r.time, r["torque"])
    torque.set_ylabel("torque [N.m]")
    torque.set_xlabel("time [s]")
    fig.suptitle("a PI controller in Python, sampled every ms through a session")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "controller_in_the_loop.png"), dpi=110)
    plt.close(fig)
    return r


if __name__ == "__main__":
    main()
