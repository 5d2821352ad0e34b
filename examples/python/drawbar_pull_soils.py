"""Drawbar pull vs slip on three soils (issue 38): the rear wheel of the Tractor (a rigid SoftSoilWheel, 0.8 m radius,
0.45 m wide, Wong-Reece stresses) under its share of the static rear axle load (14.1 kN), the hull held at 1 m/s and
the hub speeding up so that the slip sweeps 0..0.8: the rig of examples/drawbar_pull.cpp, from Python, on sandy loam,
dry sand and clayey soil of data/soils/soils.csv (their sources in data/soils/SOURCE.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/drawbar_pull_soils.py
writes out/drawbar_pull_soils.csv and out/drawbar_pull_soils.png (pull over load, and tractive efficiency, vs slip).
"""
import math
import os

import numpy as np

import acausal as ac
from acausal import blocks, rotational, translational, vehicle

RADIUS, WIDTH, HULL_V, MAX_SLIP = 0.8, 0.45, 1.0, 0.8
LOAD = 0.5 * 4500 * 9.81 * 1.6 / 2.5  # half the Tractor's static rear axle load [N]


class AxleLoad(ac.Component):
    """Stands in for the tractor's body over the wheel: presses the contact down with the constant load W
    (quasi-static, as VehicleBody's axle loads) and hands the traction axis on to a translational flange."""

    def __init__(self, name, W=1000.0):
        super().__init__(name)
        self.contact = self.connector(vehicle.WheelContact, "contact")
        self.flange_traction = self.connector(translational.Flange, "flange_traction")
        W = self.parameter("W", W, unit="N", min=0)
        self.equation(self.flange_traction.s == self.contact.s_traction)
        self.equation(self.contact.f_traction + self.flange_traction.f == 0.0)
        self.equation(self.contact.f_normal == W)


def sweep(soil_name, sweep_time=8.0, output_interval=0.02):
    """The wheel on the soil as the slip sweeps 0..MAX_SLIP: a dict of arrays slip, DP [N], efficiency, z [m]
    and the Coulomb limit A*c + W*tan(phi) [N] of each row."""
    soil = vehicle.soil(soil_name)
    m = ac.Model("drawbar_pull")
    wheel = m.add(vehicle.SoftSoilWheel("wheel", radius=RADIUS, b=WIDTH, J=40.0))
    vehicle.set_soil(wheel, soil)
    vehicle.guess_sinkage(wheel, LOAD)
    load = m.add(AxleLoad("axle", W=LOAD))
    hull = m.add(translational.Speed("hull"))
    hull_speed = m.add(blocks.Constant("hull_speed", k=HULL_V))
    hub = m.add(rotational.Speed("hub"))
    # omega*r = v/(1 - slip): the slip rises from 0 to MAX_SLIP (not linearly in time).
    hub_speed = m.add(blocks.Ramp("hub_speed", offset=HULL_V / RADIUS,
                                  height=HULL_V / (RADIUS * (1 - MAX_SLIP)) - HULL_V / RADIUS, duration=sweep_time))
    m.connect(wheel.contact, load.contact)
    m.connect(load.flange_traction, hull.flange)
    m.connect(hull_speed.y, hull.v_ref)
    m.connect(hub.flange, wheel.flange_rot)
    m.connect(hub_speed.y, hub.w_ref)
    r = m.compile().simulate(t_end=sweep_time, output_interval=output_interval, rtol=1e-6, atol=1e-8)
    DP, T, omega, v = r["wheel.DP"], r["wheel.T_soil"], r["wheel.omega"], r["wheel.v"]
    axle_power = T * omega
    # Tractive efficiency: drawbar power over axle power, where both are positive.
    efficiency = np.where((DP > 0) & (axle_power > 0), DP * v / np.where(axle_power > 0, axle_power, 1.0), np.nan)
    coulomb = WIDTH * r["wheel.l_contact"] * soil.c + LOAD * math.tan(soil.phi)
    return {"slip": r["wheel.slip"], "DP": DP, "efficiency": efficiency, "z": r["wheel.z"], "coulomb": coulomb}


def main(soils=("sandy_loam", "dry_sand", "clayey_soil"), out="out", sweep_time=8.0):
    curves = {name: sweep(name, sweep_time) for name in soils}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "drawbar_pull_soils.csv"), "w") as f:
        f.write("soil,slip,DP_N,DP_over_W,tractive_efficiency,sinkage_m\n")
        for name, c in curves.items():
            for k in range(len(c["slip"])):
                f.write(f"{name},{c['slip'][k]:.6g},{c['DP'][k]:.6g},{c['DP'][k] / LOAD:.6g},"
                        f"{c['efficiency'][k]:.6g},{c['z'][k]:.6g}\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (pull, eta) = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, c in curves.items():
        pull.plot(c["slip"], c["DP"] / LOAD, label=name.replace("_", " "))
        eta.plot(c["slip"], c["efficiency"], label=name.replace("_", " "))
    pull.axhline(0.0, color="0.6", lw=0.8)
    pull.set(xlabel="slip", ylabel="drawbar pull / load DP/W",
             title=f"Rigid wheel r {RADIUS} m, b {WIDTH} m, W {LOAD / 1e3:.1f} kN, {HULL_V:.0f} m/s")
    eta.set(xlabel="slip", ylabel="tractive efficiency DP·v/(T·ω)", title="Tractive efficiency", ylim=(0, 1))
    for ax in (pull, eta):
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "drawbar_pull_soils.png"), dpi=120)
    plt.close(fig)
    for name, c in curves.items():
        k = int(np.nanargmax(c["DP"]))
        print(f"drawbar pull, {name}: peak {c['DP'][k]:.0f} N ({c['DP'][k] / LOAD:.2f} W) at slip {c['slip'][k]:.2f}; "
              f"best tractive efficiency {np.nanmax(c['efficiency']):.2f}")
    return curves


if __name__ == "__main__":
    main()
