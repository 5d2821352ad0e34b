"""Model builders shared by the Python tests (module level: picklable for process pools)."""
import acausal as ac
from acausal import blocks, rotational, translational


def oscillator(m=2.0, c=50.0, d=3.0, F=10.0):
    model = ac.Model("oscillator")
    wall = model.add(translational.Fixed("wall"))
    spring = model.add(translational.Spring("spring", c=c))
    damper = model.add(translational.Damper("damper", d=d))
    mass = model.add(translational.Mass("mass", m=m))
    push = model.add(blocks.Constant("push", k=F))
    force = model.add(translational.Force("force"))
    model.connect(wall.flange, spring.flange_a)
    model.connect(wall.flange, damper.flange_a)
    model.connect(spring.flange_b, mass.flange_a)
    model.connect(damper.flange_b, mass.flange_a)
    model.connect(push.y, force.f)
    model.connect(force.flange, mass.flange_b)
    model.set_start("mass.s", 0.0)
    model.set_start("mass.v", 0.0)
    return model


def rolling_wheel():
    m = ac.Model("rolling_wheel")
    torque = m.add(rotational.TorqueStep("torqueStep", stepTorque=10.0, offsetTorque=0.0, startTime=0.1))
    inertia = m.add(rotational.Inertia("inertia", J=1.0))
    wheel = m.add(rotational.IdealRollingWheel("wheel", radius=1.0))
    mass = m.add(translational.Mass("mass", m=1.0))
    drag = m.add(translational.QuadraticSpeedDependentForce("drag", f_nominal=-10.0, v_nominal=5.0))
    m.connect(torque.flange, inertia.flange_a)
    m.connect(inertia.flange_b, wheel.flangeR)
    m.connect(wheel.flangeT, mass.flange_a)
    m.connect(mass.flange_b, drag.flange)
    m.set_start("inertia.phi", 0.0)
    m.set_start("inertia.w", 0.0)
    return m


def final_position(result):
    return float(result["mass.s"][-1])


def peak_speed(result):
    return float(result["mass.v"].max())


class SmoothFrictionDamper(ac.Component):
    """Viscous plus tanh-smoothed Coulomb friction (DESIGN section 6); `declare` states its
    dissipated power for the harness's energy books (False: a deliberately leaking variant)."""

    def __init__(self, name, d=1.0, tau_c=5.0, w_eps=0.01, declare=True):
        super().__init__(name)
        self.flange_a = self.connector(ac.rotational.Flange, "flange_a")
        self.flange_b = self.connector(ac.rotational.Flange, "flange_b")
        d = self.parameter("d", d, unit="N.m.s/rad", min=0)
        tau_c = self.parameter("tau_c", tau_c, unit="N.m", min=0)
        w_eps = self.parameter("w_eps", w_eps, unit="rad/s", min=0)
        self.w_rel = self.variable("w_rel", unit="rad/s")
        self.tau = self.variable("tau", unit="N.m")
        self.equation(self.w_rel == ac.der(self.flange_b.phi - self.flange_a.phi))
        self.equation(self.tau == d * self.w_rel + tau_c * ac.tanh(self.w_rel / w_eps))
        self.equation(self.flange_b.tau == self.tau)
        self.equation(self.flange_a.tau == -self.tau)
        if declare:
            self.dissipated_power(self.tau * self.w_rel)


G = 9.81


class BouncingBall(ac.Component):
    """h'' = -g; at impact the speed reverses and loses a factor e."""

    def __init__(self, name, e=0.8, h0=1.0):
        super().__init__(name)
        e = self.parameter("e", e, min=0, max=1)
        h = self.variable("h", unit="m", start=h0, fixed=True)
        v = self.variable("v", unit="m/s", start=0.0, fixed=True)
        bounces = self.discrete("bounces", kind="integer", description="impacts so far")  # reached as ball.bounces
        self.equation(ac.der(h) == v)
        self.equation(ac.der(v) == -G)
        self.when(h < 0, [ac.reinit(v, -e * ac.pre(v)), bounces == ac.pre(bounces) + 1])


def bouncing_ball():
    m = ac.Model("ball")
    m.add(BouncingBall("ball"))
    return m


def pushed_mass(v0=3.0, speed_output=False):
    """docs/analysis.md: a mass pushed by the model's input F against a quadratic drag (40 N at 10 m/s);
    speed_output adds the model's output v."""
    m = ac.Model("pushed_mass")
    push = m.input("F", unit="N")
    force = m.add(translational.Force("force"))
    mass = m.add(translational.Mass("mass", m=2.0))
    drag = m.add(translational.QuadraticSpeedDependentForce("drag", f_nominal=-10.0, v_nominal=5.0))
    m.connect(push, force.f)
    m.connect(force.flange, mass.flange_a)
    m.connect(mass.flange_b, drag.flange)
    if speed_output:
        m.output("v", mass.v, unit="m/s")
    m.set_start("mass.s", 0.0)
    m.set_start("mass.v", v0)
    return m
