"""Vehicle dynamics: wheels, bodies with load transfer, driveline, cars (longitudinal and planar), handling
control (steering robot, path follower, stability control)."""
from . import _acausal
from .component import ConnectorKind, library_component  # noqa: F401

WheelContact = ConnectorKind("vehicle.WheelContact")
radius_from_tire_size = _acausal.radius_from_tire_size

# One factory per library component of this domain (the list lives in components/library.hpp).
for _key in _acausal._library:
    _domain, _name = _key.split(".")
    if _domain == "vehicle":
        globals()[_name] = library_component(_key)


def set_friction_table(wheel, points):
    """Road friction under a Wheel as (contact position [m], mu) points, linear between, held beyond."""
    _acausal._set_friction_table(wheel, [(float(x), float(mu)) for x, mu in points])


def set_grade_table(body, points):
    """Road angle under a VehicleBody's or PitchingBody's CG as (position s [m], angle [rad]) points, linear
    between, held beyond."""
    _acausal._set_grade_table(body, [(float(x), float(a)) for x, a in points])


def load_tir(wheel, path):
    """Sets a Wheel's PAC2002 coefficients from a .TIR file's longitudinal sections (choose tire_law="pac2002")."""
    _acausal._load_tir(wheel, str(path))


drive_cycle_names = _acausal.drive_cycle_names
drive_cycle_file = _acausal.drive_cycle_file


def set_cycle(cycle, name=None, file=None, speed_unit="km/h"):
    """Sets a DriveCycle's trace: a shipped cycle by name (drive_cycle_names()), or a CSV file with a header of
    time [s] and speed (speed_unit: "km/h", "m/s" or "mph"). Returns the cycle's duration in s."""
    if (name is None) == (file is None):
        raise ValueError("set_cycle: give a shipped cycle's name or a file, not both")
    return _acausal._set_cycle(cycle, name or "", str(file or ""), speed_unit)


def set_friction_map(wheel, x, y, values):
    """Road friction under a PlanarWheel as a map over the road plane: values[i][j] is mu at (x[i], y[j]) in world
    coordinates, bilinear between grid points, held beyond the grid (a split-mu road, a wet patch)."""
    _acausal._set_friction_map(wheel, [float(v) for v in x], [float(v) for v in y],
                               [[float(v) for v in row] for row in values])


def set_loss_map(drive, speeds, torques, losses):
    """A MotorDrive's losses from a map instead of its loss model: losses[i][j] [W] at (speeds[i] [rad/s],
    torques[j] [N.m]), both increasing, every loss >= 0; bilinear, held beyond the grid. A grid with no negative
    speed or torque is the first quadrant, mirrored to the other three (call before compiling)."""
    _acausal._set_loss_map(drive, [float(v) for v in speeds], [float(v) for v in torques],
                           [[float(v) for v in row] for row in losses])


def set_path(follower, points):
    """The path a PathFollower tracks: its centre line as (x, y) points in the world frame, at least two, consecutive
    points distinct."""
    _acausal._set_path(follower, [(float(px), float(py)) for px, py in points])


def set_initial_speed(car, v0):
    """Starts a PlanarCar rolling straight ahead at v0 [m/s] in the gear its selector picks, the engine turning with
    the gearbox (call before compiling)."""
    _acausal._set_initial_speed(car, float(v0))
