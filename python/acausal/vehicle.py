"""Vehicle dynamics: wheels, bodies with load transfer, driveline, cars (longitudinal and planar), handling
control (steering robot, path follower, stability control); off-road: soils, wheels and tracks on soft soil,
tillage implements, the tractor."""
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


def set_height_profile(body, points=None, file=None, sampling="wheels"):
    """The road under a VehicleBody or PitchingBody as elevation z [m] over the distance along the road s [m]:
    (s, z) points or a CSV file of s,z rows (a monotone cubic between). sampling "wheels" (default): the body's
    angle theta is the chord between the heights under its axles and gravity pulls with the axles' slopes weighted
    by their static loads; "cg": theta = asin(dz/ds) under the CG."""
    if (points is None) == (file is None):
        raise ValueError("set_height_profile: give points or file, not both")
    _acausal._set_height_profile(body, [(float(s), float(z)) for s, z in points or []], str(file or ""), sampling)


def set_height_map(body, x=None, y=None, heights=None, file=None, sampling="wheels"):
    """The road under a PlanarVehicleBody as elevation heights[i][j] [m] at (x[i], y[j]), or a CSV grid file
    (corner cell and y values, then rows of x and heights): a smooth bicubic whose gradients under the wheels
    (sampling "wheels", default; each with its static load share) or under the CG ("cg") set gravity's in-plane
    pull, its yaw moment and the normal load, in place of grade/grade_heading."""
    if (heights is None) == (file is None):
        raise ValueError("set_height_map: give x, y and heights, or file")
    rows = [[float(v) for v in row] for row in heights or []]
    _acausal._set_height_map(body, [float(v) for v in x or []], [float(v) for v in y or []], rows, str(file or ""),
                             sampling)


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


def set_initial_speed(car, v0, slip_rear=0.0):
    """Starts a PlanarCar rolling straight ahead at v0 [m/s] in the gear its selector picks, the engine turning with
    the gearbox; or a Tractor / RoadTractor at v0 with its rear wheels at the slip slip_rear (omega*r =
    v0/(1 - slip_rear)), the engine in mesh with its gear (call before compiling)."""
    if _acausal._is_tractor(car):
        _acausal._set_tractor_initial_speed(car, float(v0), float(slip_rear))
    else:
        if slip_rear != 0.0:
            raise ValueError("set_initial_speed: slip_rear is for a Tractor or RoadTractor")
        _acausal._set_initial_speed(car, float(v0))


# --- off-road: soils (data/soils/soils.csv, docs/terrain.md) -------------------------------------------------------

Soil = _acausal.Soil
soil = _acausal.soil
soil_names = _acausal.soil_names
soil_table_file = _acausal.soil_table_file
read_soil_table = _acausal.read_soil_table
read_soil = _acausal.read_soil


def set_soil(component, soil):
    """Puts a SoftSoilWheel, SoilTrack, SoilPlate or the four wheels of a Tractor on a soil: a Soil, or a shipped
    soil's name (soil_names()). Copies n, k_c, k_phi, c, phi (as phi_soil), K, and c1, c2 and Reece's moduli where
    the component has them; a Tractor guesses its wheels' sinkage again. Call before compiling."""
    if isinstance(soil, str):
        soil = _acausal.soil(soil)
    _acausal._set_soil(component, soil)


def add_soil_patch_wheel(parent, name, patches, blend_length=0.5, points=16, **parameters):
    """Adds a SoilPatchWheel to `parent` (a Model or Component) and returns it: a SoftSoilWheel on its own soil
    parameters before the first patch and on each patch's soil from its start on, `patches` a list of
    (s_from [m], soil) with soil a Soil or a shipped soil's name; each change a C2 step over blend_length [m]
    (no events). `parameters` are the wheel's (radius, b, ...). The patches are fixed when it is added."""
    listed = [(float(s), _acausal.soil(soil) if isinstance(soil, str) else soil) for s, soil in patches]
    return _acausal._add_soil_patch_wheel(parent, str(name), listed, float(blend_length), int(points),
                                          [(str(k), float(v)) for k, v in parameters.items()])


def guess_sinkage(wheel, load):
    """Sets a SoftSoilWheel's start value of theta_1 (a guess for the initial Newton iteration, not fixed) from
    Bekker's closed-form sinkage under the vertical load [N]. Call after setting the soil and the parameters."""
    _acausal._guess_sinkage(wheel, float(load))
