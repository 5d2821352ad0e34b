"""An FMU exported from Python, opened with the standard library only: zipfile, ElementTree and a ctypes
master that drives the fmi2 functions as a host tool would (independent of the C++ checker)."""
import ctypes
import math
import zipfile
import xml.etree.ElementTree as ET

import acausal as ac
from acausal import rotational

fmi2Component = ctypes.c_void_p
LOGGER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p)


class Callbacks(ctypes.Structure):
    _fields_ = [("logger", LOGGER), ("allocateMemory", ctypes.c_void_p), ("freeMemory", ctypes.c_void_p),
                ("stepFinished", ctypes.c_void_p), ("componentEnvironment", ctypes.c_void_p)]


def spin_down():
    """An inertia spun to 10 rad/s, slowed by a viscous damper: w = 10·exp(-d·t/J)."""
    m = ac.Model("spin_down")
    inertia = m.add(rotational.Inertia("inertia", J=2.0))
    damper = m.add(rotational.Damper("damper", d=0.5))
    ground = m.add(rotational.Fixed("ground"))
    m.connect(inertia.flange_b, damper.flange_a)
    m.connect(damper.flange_b, ground.flange)
    m.set_start("inertia.w", 10.0)
    m.set_start("inertia.phi", 0.0)
    return m.compile()


def test_an_fmu_from_python_runs_under_a_ctypes_master(tmp_path):
    sim = spin_down()
    sim.set_parameter("damper.d", 1.0)  # the FMU starts from the simulator's current values
    path = tmp_path / "spin_down.fmu"
    sim.export_fmu(str(path), stop_time=4.0, tolerance=1e-8)

    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        assert {"modelDescription.xml", "binaries/linux64/spin_down.so", "resources/model.acflat"} <= names
        description = ET.fromstring(archive.read("modelDescription.xml"))
        archive.extractall(tmp_path / "unpacked")
    assert description.get("fmiVersion") == "2.0"
    variables = {v.get("name"): v for v in description.iter("ScalarVariable")}
    assert variables["damper.d"].get("causality") == "parameter"
    assert float(variables["damper.d"].find("Real").get("start")) == 1.0
    assert variables["inertia.w"].find("Real").get("unit") == "rad/s"
    w_ref = ctypes.c_uint(int(variables["inertia.w"].get("valueReference")))

    lib = ctypes.CDLL(str(tmp_path / "unpacked/binaries/linux64/spin_down.so"))
    lib.fmi2Instantiate.restype = fmi2Component
    lib.fmi2Instantiate.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
                                    ctypes.POINTER(Callbacks), ctypes.c_int, ctypes.c_int]
    for name in ("fmi2SetupExperiment", "fmi2EnterInitializationMode", "fmi2ExitInitializationMode", "fmi2DoStep",
                 "fmi2GetReal", "fmi2Terminate", "fmi2FreeInstance"):
        getattr(lib, name).restype = ctypes.c_int
    lib.fmi2SetupExperiment.argtypes = [fmi2Component, ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                        ctypes.c_int, ctypes.c_double]
    lib.fmi2DoStep.argtypes = [fmi2Component, ctypes.c_double, ctypes.c_double, ctypes.c_int]
    lib.fmi2GetReal.argtypes = [fmi2Component, ctypes.POINTER(ctypes.c_uint), ctypes.c_size_t,
                                ctypes.POINTER(ctypes.c_double)]
    for name in ("fmi2EnterInitializationMode", "fmi2ExitInitializationMode", "fmi2Terminate", "fmi2FreeInstance"):
        getattr(lib, name).argtypes = [fmi2Component]

    messages = []
    logger = LOGGER(lambda env, instance, status, category, message: messages.append(message.decode()))
    callbacks = Callbacks(logger, None, None, None, None)
    resources = (tmp_path / "unpacked/resources").as_uri().encode()
    c = lib.fmi2Instantiate(b"spin", 1, description.get("guid").encode(), resources, ctypes.byref(callbacks), 0, 0)
    assert c, messages
    assert lib.fmi2SetupExperiment(c, 1, 1e-8, 0.0, 1, 4.0) == 0
    assert lib.fmi2EnterInitializationMode(c) == 0
    assert lib.fmi2ExitInitializationMode(c) == 0
    w = ctypes.c_double()
    worst = 0.0
    for k in range(40):
        assert lib.fmi2DoStep(c, 0.1 * k, 0.1, 1) == 0, messages
        assert lib.fmi2GetReal(c, ctypes.byref(w_ref), 1, ctypes.byref(w)) == 0
        worst = max(worst, abs(w.value - 10.0 * math.exp(-1.0 * 0.1 * (k + 1) / 2.0)))
    assert worst < 1e-5
    assert lib.fmi2Terminate(c) == 0
    lib.fmi2FreeInstance(c)


def test_export_errors_name_the_path(tmp_path):
    sim = spin_down()
    target = tmp_path / "missing_dir" / "x.fmu"
    try:
        sim.export_fmu(str(target), stop_time=-1.0)
    except Exception as error:  # noqa: BLE001 - the message is what is checked
        assert "stop" in str(error) or str(target) in str(error)
    else:
        raise AssertionError("an export with stop_time < start_time was accepted")
