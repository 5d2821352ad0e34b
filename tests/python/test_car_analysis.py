"""Trim and linearization of the flagship car (examples/python/driveline_modes.py) against hand derivations.

The equations reproduced here are those of components/vehicle/{vehicle_body,wheel,brake,differential,
directional_efficiency,gearbox,clutch,engine}.hpp and the RearDriveCar assembly (passenger_car.hpp);
every number comes from the compiled model's parameters, none is copied from the library.
"""
import math
import os
import runpy

import numpy as np
import pytest
import scipy.linalg
from scipy.optimize import brentq

import acausal as ac

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python", "driveline_modes.py")


def build(grade=0.0):
    return runpy.run_path(EXAMPLE)["build"](grade=grade)


def parameter_reader(sim):
    values = sim.parameters["value"]
    return lambda name: float(values["car." + name])


def directional_efficiency(efficiency, power, P_eps):
    """directional_efficiency.hpp: efficiency when the power flows the driving way, 1/efficiency when back."""
    return 0.5 * (efficiency + 1 / efficiency) + 0.5 * (efficiency - 1 / efficiency) * math.tanh(power / P_eps)


def test_trim_throttle_for_100_kmh_on_a_2_percent_grade_against_the_hand_road_load_balance():
    """The throttle that holds 100 km/h on a 2 % grade, by hand, within 1e-6.

    Hand derivation at the steady state (a_x = 0, every der() = 0):
      body:   F_drag = ½ρ·Cd·A·v²·tanh(v/v_eps), F_grade = m·g·sin θ,
              N_front = m·g·cos θ·b/L − (F_drag + F_grade)·h/L, N_rear = m·g·cos θ·a/L + (F_drag + F_grade)·h/L
              (no inertial transfer at a_x = 0), rolling resistance Crr·N_axle·tanh(v/v_eps) per axle;
              each axle load splits between its two wheels by their c_z (N = c_z·deflection).
      wheels: J·0 = τ_flange − r·F − Crr_w·N·r·tanh(ω·r/v_eps); the tread at rest in its own frame
              (du/dt = 0, so no tread damping force) reads κ = u/σ with ω·r − v = v·tanh(v/v_eps)·κ,
              and the tanh law F = μN·tanh(C_s·κ/(μ + 1e-12)) inverts to κ = (μ + 1e-12)/C_s·atanh(F/(μN)).
              Front wheels: released brakes, no torque, F = −rolling torque / r.
              The body's balance m·0 = ΣF − drag − rolling − grade fixes the rear wheels' traction, an open
              differential gives both rear wheels the same torque τ_w.
      differential: τ_l + τ_r = ratio_d·τ_in·η_d(τ_in·w_in), w_in = ratio_d·(ω_l + ω_r)/2.
      gearbox (gear of the trim): τ_in = ratio_g·η_g(τ_mesh·w_gb)·τ_mesh, J_in·0 = τ_clutch − τ_mesh,
              τ_mesh = τ_sync·tanh((w_gb − ratio_g·w_in)/w_sync): the synchronizer slips by w_sync·atanh(τ_mesh/τ_sync).
      clutch locked: the engine turns at w_gb and delivers τ_mesh.
      engine: 0 = throttle·τ_curve(w) − τ_friction·tanh(w/w_eps) − d_friction·w − τ_mesh, τ_curve the seed-003
              polynomial in rpm (held at engineMinRPM below it, faded above engineMaxRPM), so
              throttle = (τ_mesh + losses)/τ_curve(w).
    """
    uphill = build(grade=math.atan(0.02)).compile()
    uphill.set_parameter("throttle", 0.4)
    guess = uphill.simulate(t_end=20.0, output_interval=0.1)
    v = 100 / 3.6
    trim = ac.steady_state(uphill, guess=guess, free=["throttle"], conditions={"car.body.v": v})
    p = parameter_reader(uphill)
    gear = int(round(trim["car.selector.gear"]))
    assert gear == 3 and trim["car.clutch.locked"] == 1.0  # 100 km/h lies between v_23 and v_34

    # body
    m, g, theta, L, a, b, h = (p("body." + n) for n in ("m", "g", "grade", "L", "a", "b", "h_cg"))
    moving = math.tanh(v / p("body.v_eps"))
    F_drag = 0.5 * p("body.rho") * p("body.Cd") * p("body.A") * v * v * moving
    F_grade = m * g * math.sin(theta)
    N_axle = {"f": m * g * math.cos(theta) * b / L - (F_drag + F_grade) * h / L,
              "r": m * g * math.cos(theta) * a / L + (F_drag + F_grade) * h / L}
    F_roll_body = p("body.Crr") * (N_axle["f"] + N_axle["r"]) * moving

    # wheels: loads, the tanh law and its inverse, the steady tread, the rolling-resistance torque
    def wheel(corner):
        w = lambda n: p(f"wheel_{corner}.{n}")
        side = corner[0]
        N = N_axle[side] * w("c_z") / (p(f"wheel_{side}l.c_z") + p(f"wheel_{side}r.c_z"))
        mu_eps = w("mu") + 1e-12  # mu_road = mu: no ice patch (patch_start = patch_end)
        assert w("patch_start") == w("patch_end") and w("tire_law") == 0 and w("relaxation") == 1

        def omega(F):  # the wheel speed that carries the traction F at the steady tread
            kappa = mu_eps / w("slip_stiffness") * math.atanh(F / (w("mu") * N))
            return (v + v * math.tanh(v / w("v_eps")) * kappa) / w("radius")

        def torque(F):  # the flange torque that holds the wheel's speed while it pushes with F
            rolling = w("Crr") * N * w("radius") * math.tanh(omega(F) * w("radius") / w("v_eps"))
            return w("radius") * F + rolling

        return N, omega, torque, w("mu") * N

    wheels = {c: wheel(c) for c in ("fl", "fr", "rl", "rr")}
    F_front = {c: brentq(lambda F: wheels[c][2](F), -0.5 * wheels[c][3], 0.5 * wheels[c][3], xtol=1e-14, rtol=1e-15)
               for c in ("fl", "fr")}  # released brakes: no flange torque
    F_rear_needed = F_drag + F_grade + F_roll_body - sum(F_front.values())

    def rear_force(tau_w, c):  # the traction of a rear wheel that its flange torque tau_w sustains
        return brentq(lambda F: wheels[c][2](F) - tau_w, -0.99 * wheels[c][3], 0.99 * wheels[c][3], xtol=1e-14,
                      rtol=1e-15)

    tau_w = brentq(lambda t: rear_force(t, "rl") + rear_force(t, "rr") - F_rear_needed, 0.0,
                   0.9 * wheels["rl"][3] * p("wheel_rl.radius"), xtol=1e-13, rtol=1e-15)
    omega_rear = {c: wheels[c][1](rear_force(tau_w, c)) for c in ("rl", "rr")}

    # differential
    ratio_d, P_eps_d = p("differential.ratio"), p("differential.P_eps")
    w_diff = ratio_d * (omega_rear["rl"] + omega_rear["rr"]) / 2
    tau_diff = brentq(lambda t: ratio_d * t * directional_efficiency(p("differential.efficiency"), t * w_diff, P_eps_d)
                      - 2 * tau_w, 0.0, 2 * tau_w, xtol=1e-13, rtol=1e-15)

    # gearbox: the synchronizer's slip, the gear's efficiency
    ratio_g, eff_g = p(f"gearbox.ratio_{gear}"), p(f"gearbox.efficiency_{gear}")
    tau_sync, w_sync, P_eps_g = p("gearbox.tau_sync"), p("gearbox.w_sync"), p("gearbox.P_eps")
    w_gearbox = lambda tau_mesh: ratio_g * w_diff + w_sync * math.atanh(tau_mesh / tau_sync)
    tau_mesh = brentq(lambda t: ratio_g * directional_efficiency(eff_g, t * w_gearbox(t), P_eps_g) * t - tau_diff,
                      0.0, 2 * tau_diff, xtol=1e-13, rtol=1e-15)
    w_engine = w_gearbox(tau_mesh)  # clutch locked

    # engine: its torque map is linear in the throttle
    e = lambda n: p("engine." + n)
    rpm = w_engine * 60 / (2 * math.pi)
    n = max(rpm, e("engineMinRPM"))
    tau_curve = ((e("torque_c") * n * n + e("torque_b") * n + e("torque_a"))
                 * 0.5 * (1 - math.tanh((rpm - e("engineMaxRPM")) / e("rpm_blend"))))
    assert e("torque_model") == 0  # the polynomial curve
    tau_loss = e("tau_friction") * math.tanh(w_engine / e("w_eps")) + e("d_friction") * w_engine
    throttle_hand = (tau_mesh + tau_loss) / tau_curve

    # cross-checks of the intermediate quantities (they localize a disagreement)
    assert trim["car.body.a_x"] == pytest.approx(0.0, abs=1e-9)
    assert trim["car.body.N_rear"] == pytest.approx(N_axle["r"], rel=1e-9)
    assert trim["car.wheel_rl.F_traction"] == pytest.approx(rear_force(tau_w, "rl"), rel=1e-8)
    assert trim["car.wheel_rl.omega"] == pytest.approx(omega_rear["rl"], rel=1e-9)
    assert trim["car.gearbox.tau_mesh"] == pytest.approx(tau_mesh, rel=1e-8)
    assert trim["car.engine.w"] == pytest.approx(w_engine, rel=1e-9)
    throttle_trim = trim.values["throttle"]
    assert abs(throttle_hand - throttle_trim) <= 1e-6 * throttle_trim, (throttle_hand, throttle_trim)


def test_shuffle_mode_in_2nd_gear_against_a_hand_reduced_two_mass_model():
    """The driveline's shuffle mode (the gearbox against the rear treads) against a two-mass model, within 2 %.

    Hand reduction, after 2 s at 30 % throttle from 15 m/s (2nd gear, clutch locked), both rear wheels together:
      mass 1, turning at the rear wheels' speed ω: engine, clutch (massless) and gearbox input shaft reflected
              through the gear and final-drive ratios, J1 = η·R²·(J_engine + J_in) + 2·J_wheel (R = ratio_g·ratio_d,
              η = η_g·η_d: the meshes pass η of the engine side's inertia torque to the wheels; the synchronizer,
              τ_sync/w_sync ≈ 3000 N·m·s/rad, is taken as rigid);
      mass 2, the body at speed v: M = m + 2·J_front/r² (the free-rolling front wheels taken as rigid);
      between them, each rear tread (wheel.hpp, relaxation): g·du/dt = rate = ω·r − v − v·u/σ, with
              g = √(sech⁴(x) + 1e-6) the law's relative slope at x = C_s·u/(σ(μ + 1e-12)), and the law reading
              spring plus damper, F = μN·tanh(C_s·(u/σ + d_tread·rate/S_nom)/(μ + 1e-12)), S_nom = FNOMIN·C_s;
              linearized about (v0, u0, N0) (rate0 = 0): the stiffness c = N0·C_s/σ·sech²(x0), the damper
              d_tread·(N0/FNOMIN)·sech²(x0) on the rate, and du/dt = δrate/g0 with the relaxation term
              −(v0/σ)·δu − (u0/σ)·δv in δrate;
      the load transfer of the body (vehicle_body.hpp): each rear load moves by δN = m·h/(2L)·δa_x, and the
              tread force with it by (F_el/N0)·δN (F ∝ N at a given u),
      so  J1·dω/dt = −2r·(δF + k_N·dv/dt),  (M − 2k_N)·dv/dt = 2·δF,  with k_N = (F_el/N0)·m·h/(2L).
      The engine's torque slope and the drag slope (~1e-4 of the terms kept) are left out.
    Eigenvalues of this 3-state model: a complex pair (the shuffle) and 0 (the car's speed).
    Asserted: the natural frequency |λ|/2π and the damping ratio each within 2 % of the linearization's mode.
    """
    sim = build().compile()
    sim.set_parameter("throttle", 0.3)
    run = sim.simulate(t_end=2.0, output_interval=0.01)
    lin = ac.linearize(run, outputs=["car.engine.w", "car.body.v"])
    at = lambda name: float(run[name][-1])
    gear = int(round(at("car.selector.gear")))
    assert gear == 2 and at("car.clutch.locked") == 1.0

    modes = lin.modes()
    oscillating = modes[modes["eigenvalue"].map(lambda z: z.imag) > 1.0]
    assert len(oscillating) == 1  # one oscillating mode only: the shuffle
    mode = oscillating.iloc[0]
    assert "gearbox" in mode["dominant_states"] and "wheel_rl.u_tread" in mode["dominant_states"]

    p = parameter_reader(sim)
    r, J_wheel, sigma, d = p("wheel_rl.radius"), p("wheel_rl.J"), p("wheel_rl.sigma"), p("wheel_rl.d_tread")
    mu, C_s = p("wheel_rl.mu"), p("wheel_rl.slip_stiffness")
    for name in ("radius", "J", "sigma", "d_tread", "mu", "slip_stiffness"):  # both rear wheels move as one
        assert p("wheel_rr." + name) == p("wheel_rl." + name)
    R = p(f"gearbox.ratio_{gear}") * p("differential.ratio")
    eta = p(f"gearbox.efficiency_{gear}") * p("differential.efficiency")
    J1 = eta * R**2 * (p("engine.J") + p("gearbox.J_in")) + 2 * J_wheel
    m, h, L = p("body.m"), p("body.h_cg"), p("body.L")
    M = m + (p("wheel_fl.J") + p("wheel_fr.J")) / p("wheel_fl.radius") ** 2

    v0, u0, N0 = at("car.body.v"), at("car.wheel_rl.u_tread"), at("car.wheel_rl.N")
    assert at("car.wheel_rr.u_tread") == pytest.approx(u0, rel=1e-6) and at("car.wheel_rr.N") == pytest.approx(N0)
    x0 = C_s * u0 / (sigma * (mu + 1e-12))
    c = mu * N0 * C_s / (sigma * (mu + 1e-12)) / math.cosh(x0) ** 2  # d(elastic force)/du
    k_N = mu * math.tanh(x0) * m * h / (2 * L)  # d(elastic force)/d(a_x) through the rear load

    # states (ω, u, v); E·dx/dt = A·x
    rate = np.array([r, -v0 / sigma, -(1 + u0 / sigma)])  # linearized tread rate
    d_inside = d * N0 / p("wheel_rl.FNOMIN") / math.cosh(x0) ** 2  # the damper as the saturating law passes it
    dF = d_inside * rate + np.array([0.0, c, 0.0])  # linearized tread force of one rear wheel
    du = rate / math.sqrt(math.cosh(x0) ** -4 + 1e-6)  # the tread's slip state moves at rate/g
    E = np.array([[J1, 0.0, 2 * r * k_N], [0.0, 1.0, 0.0], [0.0, 0.0, M - 2 * k_N]])
    A = np.array([-2 * r * dF, du, 2 * dF])
    eigenvalues = scipy.linalg.eigvals(A, E)
    shuffle = eigenvalues[np.argmax(eigenvalues.imag)]
    f_hand, zeta_hand = abs(shuffle) / (2 * math.pi), -shuffle.real / abs(shuffle)

    assert mode["frequency_hz"] == pytest.approx(abs(mode["eigenvalue"]) / (2 * math.pi), rel=1e-12)
    assert mode["frequency_hz"] == pytest.approx(f_hand, rel=0.02), (mode["frequency_hz"], f_hand)
    assert mode["damping_ratio"] == pytest.approx(zeta_hand, rel=0.02), (mode["damping_ratio"], zeta_hand)
