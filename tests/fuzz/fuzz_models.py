#!/usr/bin/env python3
"""Random-model fuzzer: builds random models from the library's own components,
compiles and simulates each in a worker subprocess, and classifies the outcome.

    PYTHONPATH=build/python /usr/bin/python3 tests/fuzz/fuzz_models.py --seed 1 --count 200
    PYTHONPATH=build/python /usr/bin/python3 tests/fuzz/fuzz_models.py --seed 1 --index 17 --show

Outcomes: ok, model_error, simulation_error (the answers DESIGN section 8 asks
for) and the failures crash, hang, internal_error and nonfinite. The exit status
is 0 only when no model failed. See docs/fuzzing.md.
"""
import argparse
import gc
import json
import math
import os
import random
import re
import resource
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter

import numpy as np

import acausal as ac
# _acausal: the parameters of a component
from acausal import _acausal, blocks, electrical, planar, rotational, thermal, translational, vehicle

FAILURES = ("crash", "hang", "internal_error", "nonfinite")
OUTCOMES = ("ok", "model_error", "simulation_error") + FAILURES
STARTUP_TIMEOUT = 60.0  # seconds for a worker to import acausal
WALL_FACTOR = 3  # a model may take this many times its CPU time limit on the clock
MEMORY_LIMIT = 4 << 30  # a runaway allocation becomes a MemoryError instead of taking the machine down
MODEL = "fuzz"
OPTIONS = ("t_end", "output_interval", "rtol", "atol", "t_start", "linear_solver")
# An implementation detail leaking into a ModelError: words a user cannot act on.
INTERNAL_MARKERS = re.compile(r"tape:|std::|logic_error")

# --- How to wire each library component -------------------------------------
# Connector kinds: rot/trans (mechanical flanges), contact (vehicle.WheelContact),
# heat (thermal.HeatPort), pin (electrical.Pin), in/out (RealInput/RealOutput;
# the connector type does not tell the direction, so it is written here). The
# second string lists variables worth a start value.
WIRING = {
    "rotational.AngleSensor": ("flange:rot phi:out", ""),
    "rotational.BearingFriction": ("flange_a:rot flange_b:rot heat_port:heat", "phi w"),
    "rotational.Brake": ("flange_a:rot flange_b:rot f_normalized:in heat_port:heat", "phi w"),
    "rotational.Clutch": ("flange_a:rot flange_b:rot f_normalized:in heat_port:heat", "phi_rel w_rel"),
    "rotational.ConstantTorque": ("flange:rot", "w"),
    "rotational.Damper": ("flange_a:rot flange_b:rot heat_port:heat", "phi_rel w_rel"),
    "rotational.EddyCurrentTorque": ("flange:rot heat_port:heat", "w"),
    "rotational.Fixed": ("flange:rot", ""),
    "rotational.ElastoBacklash": ("flange_a:rot flange_b:rot heat_port:heat", "phi_rel w_rel"),
    "rotational.ElastoBacklash2": ("flange_a:rot flange_b:rot heat_port:heat", "phi_rel w_rel"),
    "rotational.IdealGear": ("flange_a:rot flange_b:rot", ""),
    "rotational.IdealGearWithSupport": ("flange_a:rot flange_b:rot support:rot", ""),
    "rotational.IdealRollingWheel": ("flangeR:rot flangeT:trans", ""),
    "rotational.IdealGearR2T": ("flangeR:rot flangeT:trans", ""),
    "rotational.IdealPlanetary": ("sun:rot carrier:rot ring:rot", ""),
    "rotational.Inertia": ("flange_a:rot flange_b:rot", "phi w"),
    "rotational.LossyGear": ("flange_a:rot flange_b:rot heat_port:heat", ""),
    "rotational.LossyGearWithSupport": ("flange_a:rot flange_b:rot support:rot heat_port:heat", ""),
    "rotational.OneWayClutch": ("flange_a:rot flange_b:rot f_normalized:in heat_port:heat", "phi_rel w_rel"),
    "rotational.LinearSpeedDependentTorque": ("flange:rot", "w"),
    "rotational.MultiSensor": ("flange_a:rot flange_b:rot power:out w:out tau:out", ""),
    "rotational.PowerSensor": ("flange_a:rot flange_b:rot power:out", ""),
    "rotational.QuadraticSpeedDependentTorque": ("flange:rot", "w"),
    "rotational.RelSpeedSensor": ("flange_a:rot flange_b:rot w_rel:out", ""),
    "rotational.Speed": ("flange:rot w_ref:in", "phi w"),
    "rotational.SpeedSensor": ("flange:rot w:out", ""),
    "rotational.Spring": ("flange_a:rot flange_b:rot", "phi_rel"),
    "rotational.SpringDamper": ("flange_a:rot flange_b:rot heat_port:heat", "phi_rel w_rel"),
    "rotational.Torque": ("flange:rot tau:in", ""),
    "rotational.TorqueSensor": ("flange_a:rot flange_b:rot tau:out", ""),
    "rotational.TorqueStep": ("flange:rot", ""),
    "translational.AccSensor": ("flange:trans a:out", "v"),
    "translational.ConstantForce": ("flange:trans", ""),
    "translational.Damper": ("flange_a:trans flange_b:trans heat_port:heat", "s_rel v_rel"),
    "translational.EddyCurrentForce": ("flange:trans heat_port:heat", "v"),
    "translational.ElastoGap": ("flange_a:trans flange_b:trans heat_port:heat", "s_rel v_rel"),
    "translational.Fixed": ("flange:trans", ""),
    "translational.Force": ("flange:trans f:in", ""),
    "translational.ForceSensor": ("flange_a:trans flange_b:trans f:out", ""),
    "translational.ForceStep": ("flange:trans", ""),
    "translational.Mass": ("flange_a:trans flange_b:trans", "s v"),
    "translational.Brake": ("flange_a:trans flange_b:trans f_normalized:in heat_port:heat", "s v"),
    "translational.MassWithStopAndFriction": ("flange_a:trans flange_b:trans heat_port:heat", "s v"),
    "translational.SupportFriction": ("flange_a:trans flange_b:trans heat_port:heat", "s v"),
    "translational.Position": ("flange:trans s_ref:in", "s"),
    "translational.PositionSensor": ("flange:trans s:out", ""),
    "translational.MultiSensor": ("flange_a:trans flange_b:trans power:out f:out v:out", ""),
    "translational.PowerSensor": ("flange_a:trans flange_b:trans power:out", ""),
    "translational.QuadraticSpeedDependentForce": ("flange:trans", "v"),
    "translational.Speed": ("flange:trans v_ref:in", "s v"),
    "translational.SpeedSensor": ("flange:trans v:out", ""),
    "translational.Rod": ("flange_a:trans flange_b:trans", ""),
    "translational.Spring": ("flange_a:trans flange_b:trans", "s_rel"),
    "translational.SpringDamper": ("flange_a:trans flange_b:trans heat_port:heat", "s_rel v_rel"),
    "blocks.Add": ("u1:in u2:in y:out", ""),
    "blocks.And": ("u1:bin u2:bin y:bout", ""),
    "blocks.Or": ("u1:bin u2:bin y:bout", ""),
    "blocks.Xor": ("u1:bin u2:bin y:bout", ""),
    "blocks.Nand": ("u1:bin u2:bin y:bout", ""),
    "blocks.Nor": ("u1:bin u2:bin y:bout", ""),
    "blocks.Not": ("u:bin y:bout", ""),
    "blocks.Pre": ("u:bin y:bout", ""),
    "blocks.RSFlipFlop": ("S:bin R:bin Q:bout QI:bout", ""),
    "blocks.MultiAnd": ("u1:bin u2:bin y:bout", ""),
    "blocks.MultiOr": ("u1:bin u2:bin y:bout", ""),
    "blocks.MultiXor": ("u1:bin u2:bin y:bout", ""),
    "blocks.MultiNand": ("u1:bin u2:bin y:bout", ""),
    "blocks.MultiNor": ("u1:bin u2:bin y:bout", ""),
    "blocks.RisingEdge": ("u:bin y:bout", ""),
    "blocks.FallingEdge": ("u:bin y:bout", ""),
    "blocks.ChangingEdge": ("u:bin y:bout", ""),
    "blocks.OnDelay": ("u:bin y:bout", ""),
    "blocks.BooleanMultiSwitch": ("u1:bin u2:bin y:bout", ""),
    "blocks.IntegerMultiSwitch": ("u1:bin u2:bin y:iout", ""),
    "blocks.IntegerSum": ("u1:iin u2:iin y:iout", ""),
    "blocks.IntegerProduct": ("u1:iin u2:iin y:iout", ""),
    "blocks.TriggeredAdd": ("u:iin trigger:bin y:iout", ""),
    "blocks.BooleanConstant": ("y:bout", ""),
    "blocks.BooleanStep": ("y:bout", ""),
    "blocks.BooleanPulse": ("y:bout", ""),
    "blocks.BooleanTable": ("y:bout", ""),
    "blocks.SampleTrigger": ("y:bout", ""),
    "blocks.IntegerConstant": ("y:iout", ""),
    "blocks.IntegerStep": ("y:iout", ""),
    "blocks.IntegerTable": ("y:iout", ""),
    "blocks.RadioButtonSource": ("reset1:bin on:bout", ""),
    "blocks.RealToInteger": ("u:in y:iout", ""),
    "blocks.IntegerToReal": ("u:iin y:out", ""),
    "blocks.BooleanToReal": ("u:bin y:out", ""),
    "blocks.BooleanToInteger": ("u:bin y:iout", ""),
    "blocks.GreaterThreshold": ("u:in y:bout", ""),
    "blocks.LessThreshold": ("u:in y:bout", ""),
    "blocks.RealValue": ("numberPort:in", ""),
    "blocks.IntegerValue": ("numberPort:iin", ""),
    "blocks.BooleanValue": ("activePort:bin", ""),
    "blocks.MultiSum": ("u1:in u2:in y:out", ""),
    "blocks.MultiProduct": ("u1:in u2:in y:out", ""),
    "blocks.LinearDependency": ("u1:in u2:in y:out", ""),
    "blocks.MinMax": ("u1:in u2:in yMax:out yMin:out", ""),
    "blocks.MultiSwitch": ("u1:bin u2:bin y:out", ""),
    "blocks.Switch": ("u1:in u2:bin u3:in y:out", ""),
    "blocks.Hysteresis": ("u:in y:bout", ""),
    "blocks.Constant": ("y:out", ""),
    "blocks.DeadTime": ("u:in y:out", ""),
    "blocks.DeadZone": ("u:in y:out", ""),
    "blocks.Feedback": ("u1:in u2:in y:out", ""),
    "blocks.FirstOrder": ("u:in y:out", "y"),
    "blocks.FixedDelay": ("u:in y:out", ""),
    "blocks.Gain": ("u:in y:out", ""),
    "blocks.Integrator": ("u:in y:out", "y"),
    "blocks.KinematicPTP": ("y:out", ""),
    "blocks.LimPID": ("u_s:in u_m:in y:out", "xi xd"),
    "blocks.Limiter": ("u:in y:out", ""),
    "blocks.NormalNoise": ("y:out", ""),
    "blocks.PI": ("u_s:in u_m:in y:out", "I"),
    "blocks.PID": ("u_s:in u_m:in y:out", "I D"),
    "blocks.Product": ("u1:in u2:in y:out", ""),
    "blocks.Quantizer": ("u:in y:out", ""),
    "blocks.Ramp": ("y:out", ""),
    "blocks.Sampler": ("u:in y:out", ""),
    "blocks.SecondOrder": ("u:in y:out", "y yd"),
    "blocks.Sine": ("y:out", ""),
    "blocks.SlewRateLimiter": ("u:in y:out", "y"),
    "blocks.SteeringActuator": ("u:in y:out", "y"),
    "blocks.Step": ("y:out", ""),
    "blocks.TimeTable": ("y:out", ""),
    "blocks.CombiTimeTable": ("y1:out", ""),
    "blocks.CombiTable1D": ("u:in y1:out", ""),
    "blocks.CombiTable2D": ("u1:in u2:in y:out", ""),
    "blocks.UniformNoise": ("y:out", ""),
    "blocks.VelocityActuator": ("u:in y:out", "y"),
    "blocks.CosineVariableFrequencyAndAmplitude": ("y:out amplitude:in f:in", "phi"),
    "blocks.CriticalDamping": ("u:in y:out", "x_1 x_2"),
    "blocks.Der": ("u:in y:out", ""),
    "blocks.ExpSine": ("y:out", ""),
    "blocks.Filter": ("u:in y:out", "x_1 x_2"),
    "blocks.Sinc": ("y:out", ""),
    "blocks.SineVariableFrequencyAndAmplitude": ("y:out amplitude:in f:in", "phi"),
    "blocks.StateSpace": ("u1:in y1:out", "x_1 x_2"),
    "blocks.TransferFunction": ("u:in y:out", ""),
    "vehicle.ABSController": ("brake_demand:in w_wheel:in v_vehicle:in brake:out", "p_hydraulic"),
    "vehicle.Brake": ("flange_a:rot flange_b:rot brake_input:in heat_port:heat", "phi w"),
    "vehicle.Clutch": ("flange_a:rot flange_b:rot engagement_input:in heat_port:heat", "phi_rel w_rel"),
    "vehicle.Differential": ("flange_input:rot flange_left:rot flange_right:rot", ""),
    "vehicle.LimitedSlipDifferential": ("flange_input:rot flange_left:rot flange_right:rot", ""),
    "vehicle.TorqueConverter": ("flange_a:rot flange_b:rot lockup_input:in heat_port:heat", ""),
    "vehicle.DriverController": ("v_ref:in v:in throttle:out brake:out", "xi"),
    "vehicle.Engine": ("flange:rot throttle_input:in", "phi w"),
    "vehicle.GearSelector": ("v:in gear:out", ""),
    "vehicle.Gearbox": ("flange_in:rot flange_out:rot gear_input:in", ""),
    "vehicle.RearDriveCar": ("throttle:in brake_pedal:in clutch_pedal:in speed:out", ""),
    "vehicle.BatteryElectricCar": ("throttle:in brake_pedal:in clutch_pedal:in speed:out", ""),
    "vehicle.FrontDriveCar": ("throttle:in brake_pedal:in clutch_pedal:in speed:out", ""),
    "vehicle.MappedCar": ("throttle:in brake_pedal:in clutch_pedal:in speed:out", ""),
    "vehicle.AutomaticCar": ("throttle:in brake_pedal:in speed:out", ""),
    "vehicle.LockupSchedule": ("gear:in lockup:out", ""),
    "vehicle.MappedEngine": ("flange:rot throttle_input:in", "phi w"),
    "vehicle.ShiftMap": ("v:in load:in gear:out", ""),
    "vehicle.Starter": ("flange:rot on_input:in", ""),
    "vehicle.CycleDriver": ("v_ref:in a_ref:in v_preview:in v:in throttle:out brake:out clutch:out", "xi"),
    "vehicle.DriveCycle": ("v_ref:out a_ref:out v_preview:out", ""),
    "vehicle.PitchingBody": ("contact_front:contact contact_rear:contact speed:out", "s v"),
    "vehicle.TractionControl": ("throttle_demand:in w_left:in w_right:in v_vehicle:in throttle:out", ""),
    "vehicle.VehicleBody": ("contact_front:contact contact_rear:contact speed:out", "s v"),
    "vehicle.Wheel": ("flange_rot:rot contact:contact", "phi omega"),
    "vehicle.WheelContactBreakout": ("contact:contact flange_traction:trans flange_normal:trans", ""),
    "vehicle.AxleLoad": ("contact:contact flange_traction:trans", ""),
    "vehicle.WheelSpeedSensor": ("flange:rot w:out", ""),
    "vehicle.WheelContactForceSource": ("contact:contact f_traction_input:in f_normal_input:in", ""),
    "vehicle.KinematicBicycle": ("v:in delta:in x:out y:out psi:out r:out beta:out v_x:out v_y:out a_y:out", ""),
    "vehicle.DifferentialDrive": ("v:in omega:in w_left:out w_right:out x:out y:out psi:out r:out v_x:out a_y:out", ""),
    "vehicle.SingleTrack": ("v:in delta:in x:out y:out psi:out r:out beta:out v_x:out v_y:out a_y:out", ""),
    "vehicle.SoftSoilWheel": ("flange_rot:rot contact:contact", "phi omega"),
    "vehicle.SoilPlate": ("flange:trans", ""),
    "vehicle.SoilTrack": ("flange_rot:rot contact:contact", "phi omega"),
    "vehicle.ImplementDraft": ("flange:trans", ""),
    "vehicle.Tractor": ("throttle:in brake_pedal:in clutch_pedal:in gear:in speed:out gps_speed:out hitch:trans", ""),
    "vehicle.RoadTractor": ("throttle:in brake_pedal:in clutch_pedal:in gear:in speed:out gps_speed:out hitch:trans", ""),
    "vehicle.SteeringRobot": ("delta:out", ""),
    "vehicle.NoisySensor": ("u:in measured:out", ""),
    "vehicle.Accelerometer": ("u:in measured:out", ""),
    "vehicle.Gyro": ("u:in measured:out", ""),
    "vehicle.InertialUnit": ("u:in measured:out", ""),
    "vehicle.PathFollower": ("x:in y:in psi:in v:in delta:out lateral_error:out s:out", ""),
    "vehicle.StabilityControl": ("delta:in v:in r:in brake:in brake_fl:out brake_fr:out brake_rl:out brake_rr:out "
                                 "r_ref:out active:out", ""),
    "vehicle.PlanarCar": ("throttle:in brake_pedal:in clutch_pedal:in steering:in speed:out x:out y:out psi:out r:out beta:out "
                          "v_x:out v_y:out a_y:out", ""),
    "vehicle.PlanarVehicleBody": ("frame_fl:frame frame_fr:frame frame_rl:frame frame_rr:frame N_fl:out N_fr:out "
                                  "N_rl:out N_rr:out x:out y:out psi:out v_x:out v_y:out r:out a_y:out beta:out", ""),
    "vehicle.PlanarWheel": ("frame:frame flange_rot:rot N:in", "phi omega"),
    "vehicle.Steering": ("steering_wheel:in delta_left:out delta_right:out delta:out", ""),
    "planar.PrescribedRevolute": ("frame_a:frame frame_b:frame phi:in", ""),
    "planar.AbsolutePosition": ("frame_a:frame x:out y:out phi:out", ""),
    "planar.AbsoluteVelocity": ("frame_a:frame vx:out vy:out w:out", ""),
    "planar.Body": ("frame_a:frame", "x y phi vx vy w"),
    "planar.BodyFixedForce": ("frame_b:frame f_long:in f_lat:in", ""),
    "planar.Fixed": ("frame:frame", ""),
    "planar.FixedTranslation": ("frame_a:frame frame_b:frame", ""),
    "planar.Revolute": ("frame_a:frame frame_b:frame flange_a:rot", "phi w"),
    "planar.WorldForce": ("frame_b:frame fx:in fy:in", ""),
    "planar.WorldTorque": ("frame_b:frame tau:in", ""),
    "thermal.BodyRadiation": ("port_a:heat port_b:heat", ""),
    "thermal.Convection": ("solid:heat fluid:heat Gc:in", ""),
    "thermal.FixedHeatFlow": ("port:heat", ""),
    "thermal.FixedTemperature": ("port:heat", ""),
    "thermal.HeatCapacitor": ("port:heat", "T"),
    "thermal.HeatFlowSensor": ("port_a:heat port_b:heat Q_flow:out", ""),
    "thermal.PrescribedHeatFlow": ("port:heat Q_flow:in", ""),
    "thermal.PrescribedTemperature": ("port:heat T:in", ""),
    "thermal.RelTemperatureSensor": ("port_a:heat port_b:heat T_rel:out", ""),
    "thermal.TemperatureSensor": ("port:heat T:out", ""),
    "thermal.ThermalConductor": ("port_a:heat port_b:heat", ""),
    "thermal.ThermalResistor": ("port_a:heat port_b:heat", ""),
    "electrical.Capacitor": ("p:pin n:pin", "v"),
    "electrical.Conductor": ("p:pin n:pin heat_port:heat", ""),
    "electrical.ConstantCurrent": ("p:pin n:pin", ""),
    "electrical.ConstantVoltage": ("p:pin n:pin", ""),
    "electrical.CurrentSensor": ("p:pin n:pin i:out", ""),
    "electrical.DCDCAveraged": ("p1:pin n1:pin p2:pin n2:pin d:in", ""),
    "electrical.DCDCVoltageControlled": ("p1:pin n1:pin p2:pin n2:pin v_ref:in", ""),
    "electrical.CellStack": ("p:pin n:pin heat_port:heat SOC:out I_dis_max:out I_chg_max:out P_dis_max:out "
                             "P_chg_max:out", "SOC"),
    "electrical.CellRCStack": ("p:pin n:pin heat_port:heat SOC:out I_dis_max:out I_chg_max:out P_dis_max:out "
                               "P_chg_max:out", "SOC v_RC_1"),
    "electrical.CCCVCharger": ("p:pin n:pin", ""),
    "vehicle.DCMotor": ("p:pin n:pin flange:rot heat_port:heat", "phi w i"),
    "vehicle.MotorDrive": ("p:pin n:pin flange:rot heat_port:heat tau_ref:in tau:out w:out P_mech:out P_elec:out "
                           "tau_max_available:out", "phi w tau_lag"),
    "vehicle.EVController": ("accelerator:in brake:in v:in w_motor:in tau_available:in P_discharge_max:in "
                             "P_charge_max:in tau_ref:out brake_demand:out", ""),
    "electrical.Diode": ("p:pin n:pin heat_port:heat", ""),
    "electrical.EMF": ("p:pin n:pin flange:rot", "phi w"),
    "electrical.Ground": ("p:pin", ""),
    "electrical.IdealClosingSwitch": ("p:pin n:pin control:in heat_port:heat", ""),
    "electrical.IdealDiode": ("p:pin n:pin heat_port:heat", ""),
    "electrical.IdealGyrator": ("p1:pin n1:pin p2:pin n2:pin", ""),
    "electrical.IdealOpeningSwitch": ("p:pin n:pin control:in heat_port:heat", ""),
    "electrical.IdealThyristor": ("p:pin n:pin fire:in heat_port:heat", ""),
    "electrical.IdealTransformer": ("p1:pin n1:pin p2:pin n2:pin", ""),
    "electrical.Inductor": ("p:pin n:pin", "i"),
    "electrical.PotentialSensor": ("p:pin phi:out", ""),
    "electrical.PowerSensor": ("pc:pin nc:pin pv:pin nv:pin power:out", ""),
    "electrical.Resistor": ("p:pin n:pin heat_port:heat", ""),
    "electrical.SaturatingInductor": ("p:pin n:pin", "i"),
    "electrical.SignalCurrent": ("p:pin n:pin i:in", ""),
    "electrical.SignalVoltage": ("p:pin n:pin v:in", ""),
    "electrical.SineVoltage": ("p:pin n:pin", ""),
    "electrical.StepVoltage": ("p:pin n:pin", ""),
    "electrical.VoltageSensor": ("p:pin n:pin v:out", ""),
}
# Components with mass: these connectors start a node (a connection set) that other
# components' flanges join, so that most generated models are well posed.
NODES = {"rotational.Inertia": "flange_a", "translational.Mass": "flange_a", "vehicle.Engine": "flange",
         "planar.Body": "frame_a", "thermal.HeatCapacitor": "port",
         "electrical.Capacitor": "p", "electrical.Ground": "p",
         "vehicle.Wheel": "flange_rot", "vehicle.VehicleBody": "contact_front contact_rear"}
# What a model gets when a kind of connector has no node to join, or its inputs no source.
MASSES = {"rot": "rotational.Inertia", "trans": "translational.Mass", "contact": "vehicle.VehicleBody",
          "frame": "planar.Body", "heat": "thermal.HeatCapacitor", "pin": "electrical.Capacitor"}
# Tables set after add(): the setter and the range of plausible values.
TABLES = {"blocks.TimeTable": ("blocks.set_table", -10.0, 10.0),
          "blocks.IntegerTable": ("blocks.set_table", -10.0, 10.0),
          "blocks.CombiTimeTable": ("blocks.set_table", -10.0, 10.0),
          "blocks.CombiTable1D": ("blocks.set_table", -10.0, 10.0),
          "blocks.CombiTable2D": ("set_grid", -10.0, 10.0),
          "vehicle.DriveCycle": ("vehicle.set_cycle", 0.0, 40.0),
          "vehicle.Wheel": ("vehicle.set_friction_table", 0.0, 1.2),
          "vehicle.VehicleBody": ("vehicle.set_grade_table", -0.3, 0.3)}
# Tables whose outputs exist only once the table is set.
ALWAYS_TABULATED = ("blocks.TimeTable", "blocks.IntegerTable", "blocks.CombiTimeTable", "blocks.CombiTable1D",
                    "blocks.CombiTable2D", "vehicle.DriveCycle")
SOURCES = ("blocks.Constant", "blocks.Step", "blocks.Sine", "blocks.Ramp", "blocks.TimeTable")
# Signal inputs and the outputs that drive them, and a source for each kind.
SIGNAL_KINDS = (("in", "out"), ("bin", "bout"), ("iin", "iout"))
DISCRETE_SOURCES = {"bin": ("blocks.BooleanPulse", "blocks.BooleanStep", "blocks.SampleTrigger"),
                    "iin": ("blocks.IntegerStep", "blocks.IntegerConstant")}
CONNECTOR_TYPES = {"rot": "rotational.Flange", "trans": "translational.Flange", "contact": "vehicle.WheelContact",
                   "frame": "planar.Frame", "heat": "thermal.HeatPort",
                   "pin": "electrical.Pin", "in": "signal.Real", "out": "signal.Real",
                   "bin": "signal.Boolean", "bout": "signal.Boolean", "iin": "signal.Integer", "iout": "signal.Integer"}
# Which library domains a model draws its components from: related domains, so
# that most connectors find a partner.
THEMES = (("rotational", "blocks"), ("translational", "blocks"), ("rotational", "translational"),
          ("vehicle", "rotational", "blocks"), ("blocks",), ("rotational", "translational", "blocks", "vehicle"),
          ("thermal", "blocks"), ("rotational", "translational", "thermal", "blocks"),
          ("electrical", "blocks"), ("electrical", "rotational", "thermal", "blocks"))

# A component written in Python: random operators over its input u and its state x.
EXPRESSION_CLASS = '''
class Expression(ac.Component):
    """y = f(u, x), der(x) = g(u, x): a Python component made of random operators."""

    def __init__(self, name, f, g):
        super().__init__(name)
        self.u = self.connector(ac.RealInput, "u")
        self.y = self.connector(ac.RealOutput, "y")
        x = self.variable("x")
        self.equation(ac.der(x) == g(self.u.value, x))
        self.equation(self.y.value == f(self.u.value, x))
'''
EXPRESSION_WIRING = ("u:in y:out", "x")
UNARY = ("-{}", "ac.sqrt({})", "ac.log({})", "ac.exp({})", "ac.sin({})", "ac.tan({})", "ac.asin({})", "ac.acos({})",
         "ac.atan({})", "ac.sinh({})", "ac.cosh({})", "ac.tanh({})", "ac.abs({})", "ac.sign({})", "1 / ({})")
BINARY = ("({} + {})", "({} - {})", "({} * {})", "({} / {})", "({} ** {})", "ac.atan2({}, {})", "ac.min({}, {})",
          "ac.max({}, {})", "ac.ifelse({} > {}, 1.0, -1.0)")
EDGE_VALUES = (0.0, -1.0, 1e300, -1e300, 1e-300, 5e-324, math.nan, math.inf, -math.inf, 1e15, -1e-15)
# Simulation options a run must refuse or survive: 1e-12 and 1e-300 test the output-size guard.
EDGE_OPTIONS = {
    "t_end": (0.0, -1.0, math.nan, math.inf, 1e300, 1e-9),
    "output_interval": (0.0, -0.01, math.nan, math.inf, 1e-12, 1e-300, 10.0),
    "rtol": (0.0, -1e-6, math.nan, math.inf, 1.0, 1e-15),
    "atol": (0.0, -1e-8, math.nan, math.inf, 1e3, 1e-300),
    "t_start": (-1.0, 1.0, 10.0, math.nan, -1e300),
    "linear_solver": ("dense", "klu", "sparse"),
}


def library():
    """Every library component the Python package exposes, found by introspection: {key: factory}."""
    found = {}
    for module in (rotational, translational, planar, thermal, electrical, blocks, vehicle):
        domain = module.__name__.split(".")[-1]
        for name, value in vars(module).items():
            if isinstance(value, type) and getattr(value, "_key", None) == f"{domain}.{name}":
                found[f"{domain}.{name}"] = value
    return found


def check_wiring():
    """The wiring table against the library: a component, connector or variable it does
    not know is a stale table (exit 2), not a library failure."""
    found = library()
    problems = [f"{key}: in the library, not in WIRING" for key in found if key not in WIRING]
    problems += [f"{key}: in WIRING, not in the library" for key in WIRING if key not in found]
    probe = ac.Model("probe")
    for i, key in enumerate(k for k in WIRING if k in found):
        component = probe.add(found[key](f"c{i}"))
        if TABLES.get(key, ("",))[0] == "blocks.set_table" and key != "blocks.TimeTable":
            blocks.set_table(component, [(0.0, 1.0), (1.0, 2.0)])  # its outputs exist once it has a table
        for name, kind in connectors(key):
            actual = getattr(getattr(component, name, None), "type", "nothing")
            if actual != CONNECTOR_TYPES[kind]:
                problems.append(f"{key}.{name}: WIRING says {kind}, the library has {actual}")
        missing = [v for v in wiring(key)[1].split() if getattr(component, v, None) is None]
        problems += [f"{key}.{v}: no such variable" for v in missing]
    return problems


def wiring(key):
    return EXPRESSION_WIRING if key == "Expression" else WIRING[key]


def connectors(key):
    """[(connector, kind)] of a component."""
    return [tuple(item.split(":")) for item in wiring(key)[0].split()]


# --- Generating a model ---------------------------------------------------------
def literal(x):
    """Python source for a float (NaN and infinities included) or a str."""
    if isinstance(x, str):
        return repr(x)
    if math.isnan(x):
        return 'float("nan")'
    if math.isinf(x):
        return 'float("inf")' if x > 0 else '-float("inf")'
    return repr(x)


def sane(rng):
    return rng.choice((1.0, -1.0, 1.0, 1.0)) * 10 ** rng.uniform(-2, 2)


def value(rng, extreme=0.4):
    """A parameter or start value: mostly plausible, sometimes an edge case."""
    return rng.choice(EDGE_VALUES) if rng.random() < extreme else sane(rng)


def choice(rng, choices):
    """A value for a parameter: one of its named choices if it has some (or a number in
    their place: an index, or not), else a number."""
    return rng.choice(choices) if choices and rng.random() < 0.7 else value(rng)


def parameters(key):
    """[(name, named choices)] of a library component's parameters."""
    if key == "Expression":
        return []
    info = _acausal._library_info(key)
    return [(p["name"], p["choices"]) for p in info["parameters"]] + [(option, []) for option in info["options"]]


def expression(rng, depth, leaves):
    """Source of a random expression; constants are Exprs, so that Python never folds
    them itself (1e300 ** 9 would be an OverflowError of the generated code)."""
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(leaves) if rng.random() < 0.7 else f"ac.Expr({literal(value(rng, extreme=0.15))})"
    if rng.random() < 0.5:
        return rng.choice(UNARY).format(expression(rng, depth - 1, leaves))
    return rng.choice(BINARY).format(expression(rng, depth - 1, leaves), expression(rng, depth - 1, leaves))


class Program:
    """A generated model as Python source, with what the worker needs to judge its outcome."""

    def __init__(self, seed, index):
        self.rng = random.Random(f"{seed}/{index}")
        self.lines = []
        self.components = []  # (variable, name, key)
        self.heat_ports_on = set()  # the variables of components added with use_heat_port = 1
        self.starts = []  # "inertia3.w"
        self.options = {}

    @property
    def names(self):
        return [name for _, name, _ in self.components] + list(OPTIONS)

    def ports(self, kind, components=None):
        return [f"{var}.{c}" for var, _, key in components or self.components for c, k in connectors(key) if k == kind]

    def source(self):
        head = ["import acausal as ac",
                "from acausal import blocks, electrical, planar, rotational, thermal, translational, vehicle", ""]
        if any(key == "Expression" for _, _, key in self.components):
            head += EXPRESSION_CLASS.strip("\n").splitlines() + [""]
        return "\n".join(head + [f'm = ac.Model("{MODEL}")'] + self.lines) + "\n"

    def add(self, key, params):
        var = f"c{len(self.components)}"
        name = f"{key.split('.')[-1].lower()}{len(self.components)}"
        if key == "Expression":
            f, g = (expression(self.rng, 3, ("u", "x")) for _ in range(2))
            self.lines.append(f'{var} = m.add(Expression("{name}", lambda u, x: {f}, lambda u, x: {g}))')
        else:
            args = "".join(f", {k}={literal(v)}" for k, v in params.items())
            if params.get("use_heat_port") == 1.0:
                self.heat_ports_on.add(var)
            self.lines.append(f'{var} = m.add({key}("{name}"{args}))')
        self.components.append((var, name, key))
        self.starts += [f"{name}.{v}" for v in wiring(key)[1].split()]
        return var

    def connect(self, a, b):
        self.lines.append(f"m.connect({a}, {b})")


def generate(seed, index):
    """The model (seed, index): the same source every time."""
    p = Program(seed, index)
    rng = p.rng
    chaos = rng.choice((0.0, 0.0, 0.0, 0.0, 0.05, 0.1, 0.3))  # the share of parameters given a random value
    for key in choose_components(rng):
        params = {name: choice(rng, choices) for name, choices in parameters(key) if rng.random() < chaos}
        if "heat_port" in dict(connectors(key)) and "use_heat_port" not in params and rng.random() < 0.5:
            params["use_heat_port"] = 1.0  # a mechanical loss that heats something
        var = p.add(key, params)
        add_table(p, key, var)
    (wire_at_random if rng.random() < 0.1 else wire_to_nodes)(p)
    wire_signals(p)
    mutate(p)
    for path in rng.sample(p.starts, min(len(p.starts), rng.choice((0, 0, 1, 1, 2, 3)))):
        fixed = "" if rng.random() < 0.7 else ", fixed=False"
        p.lines.append(f'm.set_start("{path}", {literal(value(rng, extreme=0.1))}{fixed})')
    p.lines.append("sim = m.compile()")
    if rng.random() < 0.1:
        if rng.random() < 0.5:
            p.lines.append("sim.simulate(t_end=0.5)")  # the next run must not depend on this one
        retune(p)
    p.options = simulation_options(rng)
    args = ", ".join(f"{k}={literal(v)}" for k, v in p.options.items())
    p.lines.append(f"r = sim.simulate({args})")
    return p


def choose_components(rng):
    """Random components of one theme, plus what their connectors need to be well posed:
    a node for every kind of flange, a wheel under each end of a body, a source for inputs."""
    found = library()
    pool = sorted(k for k in WIRING if k in found and k.split(".")[0] in rng.choice(THEMES))
    count = rng.choice((1, 2, 3, 4, 5, 6, 6, 8, 8, 10))
    signals = any(key.startswith("blocks.") for key in pool)
    keys = ["Expression" if signals and rng.random() < 0.1 else rng.choice(pool) for _ in range(count)]
    if any(kind == "pin" for key in keys for _, kind in connectors(key)) and "electrical.Ground" not in keys:
        keys.append("electrical.Ground")  # a circuit's potentials are defined against ground
    for kind, mass in MASSES.items():  # as many nodes as a component has connectors to join
        need = max(sum(k == kind and c not in nodes_of(key, kind) for c, k in connectors(key)) for key in keys)
        keys += [mass] * max(0, need - sum(len(nodes_of(key, kind)) for key in keys))
    contacts = sum(kind == "contact" for key in keys for _, kind in connectors(key))
    keys += ["vehicle.Wheel"] * max(0, 4 * keys.count("vehicle.VehicleBody") - contacts)
    if "in" in {kind for key in keys for _, kind in connectors(key)} and not any(
            kind == "out" for key in keys for _, kind in connectors(key)):
        keys.append(rng.choice(SOURCES))
    for inputs, outputs in SIGNAL_KINDS[1:]:
        kinds = {kind for key in keys for _, kind in connectors(key)}
        if inputs in kinds and outputs not in kinds:
            keys.append(rng.choice(DISCRETE_SOURCES[inputs]))
    rng.shuffle(keys)  # the order of add() reaches the compiler's passes
    return keys


def nodes_of(key, kind):
    """The connectors of `key` that start a node of this kind."""
    return [c for c in NODES.get(key, "").split() if dict(connectors(key))[c] == kind]


def add_table(p, key, var):
    """TimeTable, Wheel and VehicleBody take their tables after add(): sometimes odd ones."""
    setter, low, high = TABLES.get(key, (None, 0, 0))
    rng = p.rng
    if setter is None or (key not in ALWAYS_TABULATED and rng.random() < 0.7):
        return
    if setter == "vehicle.set_cycle":  # a shipped cycle, or a name that is not one
        name = rng.choice(["nedc", "hwfet", "us06", "no_such_cycle"])
        p.lines.append(f"vehicle.set_cycle({var}, {name!r})")
        return
    if setter == "set_grid":  # u1 × u2 values, sometimes a grid that does not match
        n1, n2 = rng.randint(1, 3), rng.randint(1, 3)
        u1, u2 = sorted(rng.uniform(-1, 6) for _ in range(n1)), sorted(rng.uniform(-1, 6) for _ in range(n2))
        values = [[rng.uniform(low, high) for _ in range(n2 + (rng.random() < 0.05))] for _ in range(n1)]
        p.lines.append(f"blocks.set_table_2d({var}, {u1!r}, {u2!r}, {values!r})")
        return
    xs = sorted(rng.uniform(-1, 6) for _ in range(rng.randint(1, 5)))
    if rng.random() < 0.1:
        xs = rng.choice(([], xs[::-1] + xs, xs + [math.nan], xs + [math.inf]))  # empty, unsorted, non-finite
    ys = [rng.choice(EDGE_VALUES) if rng.random() < 0.05 else rng.uniform(low, high) for _ in xs]
    if key == "blocks.IntegerTable":  # whole values, but for the odd one
        ys = [y if rng.random() < 0.05 or not math.isfinite(y) else float(round(y)) for y in ys]
    points = ", ".join(f"({literal(x)}, {literal(y)})" for x, y in zip(xs, ys))
    p.lines.append(f"{setter}({var}, [{points}])")


def wire_to_nodes(p):
    """Each massive component starts a node of its kind; every other flange or contact joins
    a node. A component's connectors go to different nodes, and no two components couple
    the same pair of nodes (parallel rigid paths are statically indeterminate). A few stay free."""
    rng = p.rng
    nodes = [(kind, [f"{var}.{c}"]) for var, _, key in p.components for kind in MASSES for c in nodes_of(key, kind)]
    coupled = set()
    for var, _, key in rng.sample(p.components, len(p.components)):
        used = [i for i, (_, ports) in enumerate(nodes) if ports[0].startswith(f"{var}.")]
        for connector, kind in connectors(key):
            free = 0.9 if nodes_of(key, kind) else 0.02  # a mass's second flange is mostly left free
            if connector == "heat_port" and var not in p.heat_ports_on:
                free = 0.95  # it exists only with use_heat_port = 1: connected, now and then, to be refused
            if kind not in MASSES or connector in nodes_of(key, kind) or rng.random() < free:
                continue
            choices = [i for i, (k, _) in enumerate(nodes)
                       if k == kind and i not in used and not any(frozenset((i, u)) in coupled for u in used)]
            if not choices:
                continue
            emptiest = kind == "contact" or rng.random() < 0.5  # a body's axle without a wheel is singular
            i = min(choices, key=lambda i: len(nodes[i][1])) if emptiest else rng.choice(choices)
            p.connect(rng.choice(nodes[i][1]), f"{var}.{connector}")
            nodes[i][1].append(f"{var}.{connector}")
            coupled |= {frozenset((i, u)) for u in used}
            used.append(i)


def wire_at_random(p):
    """Flanges and contacts join random connection sets of their own kind, some stay free:
    mostly ill-posed models, for the structural error paths."""
    rng = p.rng
    for kind in MASSES:
        sets = []
        for port in rng.sample(p.ports(kind), len(p.ports(kind))):
            if sets and rng.random() < 0.6:
                target = rng.choice(sets)
                p.connect(rng.choice(target), port)
                target.append(port)
            elif rng.random() < 0.85:
                sets.append([port])


def wire_signals(p):
    """Each input reads an output of its type (Real, Boolean, Integer), mostly of a component
    added before it (so that most signal paths have no algebraic loop); a few dangle, read
    their own component, or get a second driver."""
    rng = p.rng
    for position, component in enumerate(p.components):
        for inputs, outputs in SIGNAL_KINDS:
            own = p.ports(outputs, [component])
            earlier = p.ports(outputs, p.components[:position])
            others = p.ports(outputs, p.components[position + 1:])
            for port in p.ports(inputs, [component]):
                draw = rng.random()
                if draw < 0.015:
                    continue
                candidates = own if draw < 0.04 else earlier if draw < 0.85 else others
                candidates = candidates or earlier + others or own
                if candidates:
                    p.connect(rng.choice(candidates), port)
                if rng.random() < 0.03 and p.ports(outputs):
                    p.connect(rng.choice(p.ports(outputs)), port)


def mutate(p):
    """Sometimes a connection is lost, sometimes a user mistake of DESIGN section 8 is made
    (which must be a ModelError naming the culprit)."""
    rng = p.rng
    connections = [i for i, line in enumerate(p.lines) if line.startswith("m.connect")]
    if connections and rng.random() < 0.05:
        del p.lines[rng.choice(connections)]
    if rng.random() > 0.08:
        return
    name = p.components[0][1]
    kinds = [k for k in CONNECTOR_TYPES if p.ports(k)]
    pairs = [(a, b) for a in kinds for b in kinds if CONNECTOR_TYPES[a] != CONNECTOR_TYPES[b] or a == b in ("out", "bout", "iout")]
    mistake = rng.choice(["duplicate", "unknown_start", "self"] + (["incompatible"] if pairs else []))
    if mistake == "duplicate":
        p.lines.append(f'm.add(blocks.Constant("{name}"))')
    elif mistake == "unknown_start":
        p.lines.append(f'm.set_start("{name}.no_such_variable", 1.0)')
    elif mistake == "self":
        port = rng.choice([port for kind in kinds for port in p.ports(kind)])
        p.connect(port, port)
    else:
        a, b = rng.choice(pairs)
        p.connect(rng.choice(p.ports(a)), rng.choice(p.ports(b)))


def retune(p):
    """Changes a parameter after compile(): the same bounds must hold as at add(), and a
    structural one is refused."""
    rng = p.rng
    _, name, key = rng.choice([c for c in p.components if parameters(c[2])] or p.components)
    known = [parameter for parameter, _ in parameters(key)]
    parameter = rng.choice(known) if known and rng.random() < 0.9 else "no_such_parameter"
    p.lines.append(f'sim.set_parameter("{name}.{parameter}", {literal(value(rng, extreme=0.6))})')


def simulation_options(rng):
    """Short runs with plausible options; one run in ten has an option from EDGE_OPTIONS."""
    options = {"t_end": rng.uniform(0.1, 5.0), "output_interval": 10 ** rng.uniform(-3, -1)}
    if rng.random() < 0.5:
        options["rtol"] = 10 ** rng.uniform(-8, -3)
        options["atol"] = 10 ** rng.uniform(-10, -4)
    if rng.random() < 0.1:
        option = rng.choice(OPTIONS)
        options[option] = rng.choice(EDGE_OPTIONS[option])
    return options


# --- Running one model and judging the outcome ----------------------------------
def run(seed, index):
    """Builds, compiles and simulates model (seed, index): {outcome, message, statement}."""
    p = generate(seed, index)
    source = p.source()
    scope = {}
    try:
        exec(compile(source, "<fuzz>", "exec"), scope)
    except BaseException as error:  # every exception is judged, MemoryError included
        outcome, message = classify(error, p.names)
        return {"outcome": outcome, "message": message, "statement": failing_statement(error, source)}
    outcome, message = judge(scope["r"], p.options)
    return {"outcome": outcome, "message": message, "statement": "r = sim.simulate(...)" if message else ""}


def classify(error, names):
    """An exception as an outcome: the library's own error types naming something
    of the model are answers; anything else is an internal error."""
    message = f"{type(error).__name__}: {error}"
    if isinstance(error, ac.SimulationError):
        return "simulation_error", message
    if not isinstance(error, ValueError):  # ac.ModelError is a ValueError, so is an unknown keyword
        return "internal_error", message
    if INTERNAL_MARKERS.search(str(error)):
        return "internal_error", message
    if not any(re.search(rf"\b{re.escape(n)}\b", str(error)) for n in names):
        return "internal_error", f"names no component, variable or option: {message}"
    return "model_error", message


def judge(r, options):
    """A returned result must be finite everywhere and end at t_end."""
    for name in ["time"] + list(r.names):
        column = r.time if name == "time" else r[name]
        bad = ~np.isfinite(column)
        if bad.any():
            at = r.time[np.argmax(bad)]
            return "nonfinite", f"{name} = {column[bad][0]} at t = {at} ({bad.sum()} of {len(column)} rows)"
    t_end = options["t_end"]
    if len(r.time) == 0 or abs(r.time[-1] - t_end) > 1e-9 * max(1.0, abs(t_end)):
        last = r.time[-1] if len(r.time) else None
        return "internal_error", f"the result ends at t = {last}, not at t_end = {t_end}, and no error was raised"
    return "ok", ""


def failing_statement(error, source):
    """The line of the generated source that raised."""
    lines = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == "<fuzz>"]
    return source.splitlines()[lines[-1] - 1].strip() if lines else ""


# --- Workers: persistent subprocesses, one model at a time ----------------------
def serve(seed, timeout):
    """Worker loop: "ready" once acausal is imported, then a model index per line on stdin,
    a JSON outcome per line on the protocol fd."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    reply = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # prints from the library or a model must not corrupt the protocol
    reply.write("ready\n")
    for line in sys.stdin:
        index = int(line)
        # SIGALRM's default action ends a model stuck in C++ even if the campaign is gone.
        signal.alarm(math.ceil(WALL_FACTOR * timeout) + 5)
        answer = run(seed, index)
        gc.collect()  # a crash while freeing the model's objects belongs to this model, not the next
        signal.alarm(0)
        answer["message"] = answer["message"][:2000]
        reply.write(json.dumps({"index": index, **answer}) + "\n")


class WorkerStartError(Exception):
    pass


def cpu_seconds(pid):
    """The CPU time a process has used, from /proc/<pid>/stat (utime + stime)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Worker:
    """A worker subprocess and the model it is running."""

    def __init__(self, seed, timeout):
        self.log = tempfile.TemporaryFile()
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        command = [sys.executable, os.path.abspath(__file__), "--worker", f"--seed={seed}", f"--timeout={timeout}"]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                        env=env, text=True)
        self.timeout = timeout
        # A worker that cannot start (the package being rebuilt, say) is no model's crash.
        with selectors.DefaultSelector() as ready:
            ready.register(self.process.stdout, selectors.EVENT_READ)
            started = ready.select(STARTUP_TIMEOUT) and self.process.stdout.readline() == "ready\n"
        if not started:
            self.process.kill()
            raise WorkerStartError(f"a worker did not start: {self.death()}")

    def send(self, index):
        self.index, self.started, self.cpu = index, time.monotonic(), cpu_seconds(self.process.pid)
        self.deadline = self.started + self.timeout
        self.process.stdin.write(f"{index}\n")
        self.process.stdin.flush()

    def overdue(self):
        """Past the time limit: `timeout` seconds of CPU, or WALL_FACTOR times that on the clock
        (a worker blocked without using CPU). A busy machine only moves the deadline."""
        now = time.monotonic()
        if now < self.deadline:
            return False
        used = cpu_seconds(self.process.pid) - self.cpu
        if used >= self.timeout or now - self.started >= WALL_FACTOR * self.timeout:
            return True
        self.deadline = now + self.timeout - used
        return False

    def death(self):
        """Why the worker died: its signal or exit status and the end of its stderr."""
        code = self.process.wait()
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exited with status {code}"
        self.log.seek(0)
        tail = self.log.read().decode(errors="replace").strip().splitlines()[-3:]
        return f"worker {how}" + (": " + " | ".join(tail) if tail else "")

    def stop(self):
        self.process.kill()
        self.process.wait()
        self.log.close()


def campaign(seed, indexes, workers, timeout, report):
    """Runs the models on `workers` persistent workers; report(index, outcome, message, statement) for each.
    A worker past its deadline is killed (hang), one that dies is replaced (crash)."""
    pending = list(reversed(indexes))
    busy = {}  # stdout -> Worker
    selector = selectors.DefaultSelector()

    def start_next(worker):
        if pending:
            worker.send(pending.pop())
            busy[worker.process.stdout] = worker
            selector.register(worker.process.stdout, selectors.EVENT_READ)
        else:
            worker.stop()

    def retire(worker):
        selector.unregister(worker.process.stdout)
        del busy[worker.process.stdout]

    def replace(worker, outcome, message):
        retire(worker)
        report(worker.index, outcome, message, "")
        worker.stop()
        if pending:
            start_next(Worker(seed, timeout))

    try:
        for _ in range(min(workers, len(pending))):
            start_next(Worker(seed, timeout))
        while busy:
            wait = max(0.0, min(w.deadline for w in busy.values()) - time.monotonic())
            for key, _ in selector.select(wait):
                worker = busy[key.fileobj]
                line = worker.process.stdout.readline()
                if not line:
                    replace(worker, "crash", worker.death())
                    continue
                answer = json.loads(line)
                report(answer["index"], answer["outcome"], answer["message"], answer["statement"])
                retire(worker)
                start_next(worker)
            for worker in [w for w in busy.values() if w.overdue()]:
                wall = time.monotonic() - worker.started
                replace(worker, "hang", f"no answer within {timeout:g} s of CPU time ({wall:.0f} s on the clock)")
    finally:
        for worker in list(busy.values()):
            worker.stop()


# --- Reporting ------------------------------------------------------------------
def signature(outcome, message):
    """A failure's kind: the first line of its message with the numbers blurred (inertia3 reads as inertia#)."""
    first = message.splitlines()[0] if message else ""
    return outcome + ": " + re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "#", first)[:160]


def reproducer(seed, index):
    """The command that prints model (seed, index) and runs it, from the current directory."""
    script = os.path.abspath(__file__)
    if not os.path.relpath(script).startswith(".."):
        script = os.path.relpath(script)
    path = f"PYTHONPATH={os.environ['PYTHONPATH']} " if os.environ.get("PYTHONPATH") else ""
    return f"{path}{sys.executable} {script} --seed {seed} --index {index} --show"


def show(seed, index, timeout):
    """Prints model (seed, index) as Python and runs it in this process."""
    p = generate(seed, index)
    limit = math.ceil(WALL_FACTOR * timeout)
    print(p.source() + f"\n# running it; a hang is ended after {limit} s (Alarm clock)", flush=True)
    signal.alarm(limit)
    answer = run(seed, index)
    signal.alarm(0)
    print(f"# outcome: {answer['outcome']}")
    if answer["message"]:
        print(f"# at: {answer['statement']}\n# " + answer["message"].replace("\n", "\n# "))
    return answer["outcome"] not in FAILURES


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200, help="models 0..count-1")
    parser.add_argument("--index", type=int, help="this model only (instead of 0..count-1)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help=f"CPU seconds per model (at most {WALL_FACTOR}x on the clock) before it counts as a hang")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--show", action="store_true", help="print the model as Python and run it in-process")
    parser.add_argument("--json", help="write the summary and the failures to this file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return serve(args.seed, args.timeout)
    problems = check_wiring()
    if problems:
        print("the wiring table is out of date:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 2
    if args.show:
        if args.index is None:
            parser.error("--show needs --index")
        return 0 if show(args.seed, args.index, args.timeout) else 1
    try:
        return 0 if fuzz(args) else 1
    except WorkerStartError as error:
        print(error, file=sys.stderr)
        return 2


def fuzz(args):
    """The campaign: prints each failure with its reproducer, then the counts and the kinds."""
    indexes = [args.index] if args.index is not None else list(range(args.count))
    counts, failures = Counter(), []
    start = time.monotonic()

    def report(index, outcome, message, statement):
        counts[outcome] += 1
        if outcome in FAILURES:
            failures.append({"index": index, "outcome": outcome, "message": message, "statement": statement,
                             "reproducer": reproducer(args.seed, index)})
            print(f"FAIL {outcome} #{index}: {message.splitlines()[0] if message else ''}\n"
                  f"     {failures[-1]['reproducer']}", flush=True)

    campaign(args.seed, indexes, args.workers, args.timeout, report)
    failures.sort(key=lambda f: f["index"])
    kinds = {}  # signature -> {count, first failing index}
    for f in failures:
        kind = kinds.setdefault(signature(f["outcome"], f["message"]), {"count": 0, "example": f["index"]})
        kind["count"] += 1
    seconds = time.monotonic() - start
    print(f"\n{len(indexes)} models, seed {args.seed}, {seconds:.1f} s: "
          + ", ".join(f"{o} {counts[o]}" for o in OUTCOMES))
    for kind, seen in sorted(kinds.items(), key=lambda k: -k[1]["count"]):
        print(f"  {seen['count']:4d} x {kind}\n         e.g. {reproducer(args.seed, seen['example'])}")
    if args.json:
        write_json(args.json, {"seed": args.seed, "models": len(indexes), "seconds": round(seconds, 2),
                               "counts": {o: counts[o] for o in OUTCOMES}, "kinds": kinds, "failures": failures})
    return not failures


def write_json(path, data):
    """Complete or not at all: a temporary file, then a rename."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as out:
        json.dump(data, out, indent=2)
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    sys.exit(main())
