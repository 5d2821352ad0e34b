"""A fuzz campaign of what users feed the library besides models: table files
and .TIR files of random bytes, sizes and headers, clocks and when-clauses with
random timing, sessions driven by random calls (issue 30, item 5).

Every case runs in a child process with a time and a memory limit. A case
passes when it returns a result or raises the library's answer to bad input
(ModelError, SimulationError, ValueError, KeyError); it fails on a crash, a
hang, running out of memory, or any other exception (an internal error).

    PYTHONPATH=build/python /usr/bin/python3 tests/fuzz/fuzz_inputs.py --seed 1 --count 200
"""
import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

KINDS = ("table_file", "tir_file", "clock", "session")
MEMORY_LIMIT = 3 << 30  # bytes of address space per child
CASE_SECONDS = 20.0


# --- generators: each builds and runs one case from (seed, index) ------------------

def random_bytes(rng, n):
    return bytes(rng.randrange(256) for _ in range(n))


def mangled(rng, text):
    """The text with a few random edits: bytes flipped, dropped, doubled, or huge numbers pasted in."""
    data = bytearray(text.encode())
    for _ in range(rng.randrange(4)):
        if not data:
            break
        i = rng.randrange(len(data))
        edit = rng.randrange(5)
        if edit == 0:
            data[i] = rng.randrange(256)
        elif edit == 1:
            del data[i]
        elif edit == 2:
            data[i:i] = data[i:i + rng.randrange(1, 8)]
        elif edit == 3:
            data[i:i] = rng.choice([b"9223372036854775808", b"4294967296", b"-1", b"nan", b"1e308", b"\0"])
        else:
            data[i:i] = b"\n"
    return bytes(data)


def table_file_case(rng, directory):
    import acausal as ac
    from acausal import blocks
    rows, cols = rng.randrange(0, 6), rng.randrange(1, 4)
    numbers = "\n".join(" ".join(f"{t if c == 0 else rng.uniform(-5, 5):g}" for c in range(cols))
                        for t in sorted(rng.uniform(0, 3) for _ in range(rows)))
    shape = rng.choice([f"({rows},{cols})", "(9223372036854775808,2)", "(4294967296,4294967296)", "(0,0)", "(2,)"])
    text = f"#1\ndouble tab{shape}\n{numbers}\n"
    data = random_bytes(rng, rng.randrange(64)) if rng.random() < 0.2 else mangled(rng, text)
    path = os.path.join(directory, "table.txt")
    with open(path, "wb") as f:
        f.write(data)
    m = ac.Model("tabled")
    table = m.add(blocks.CombiTimeTable("trace"))
    blocks.load_table(table, path, "tab")
    integrator = m.add(blocks.Integrator("sum"))
    m.connect(table.y1, integrator.u)
    m.compile().simulate(t_end=rng.uniform(0.5, 4.0), output_interval=0.1)


def tir_file_case(rng, directory):
    import acausal as ac
    from acausal import harness, vehicle
    lines = ["[MDI_HEADER]", "FILE_TYPE = 'tir'", "[VERTICAL]", f"FNOMIN = {rng.uniform(-100, 8000):g}",
             "[LONGITUDINAL_COEFFICIENTS]"]
    for name in ("PCX1", "PDX1", "PDX2", "PEX1", "PKX1", "PHX1", "PVX1"):
        lines.append(f"{name} = {rng.uniform(-3, 30):g}  $ a comment")
    lines += ["[SCALING_COEFFICIENTS]", f"LMUX = {rng.uniform(-1, 2):g}"]
    rng.shuffle(lines) if rng.random() < 0.2 else None
    text = "\n".join(lines) + "\n"
    data = random_bytes(rng, rng.randrange(200)) if rng.random() < 0.2 else mangled(rng, text)
    path = os.path.join(directory, "tire.tir")
    with open(path, "wb") as f:
        f.write(data)
    m = ac.Model("tired")
    wheel = m.add(vehicle.Wheel("wheel", tire_law="pac2002"))
    vehicle.load_tir(wheel, path)
    harness.wheel_rig(m, wheel.flange_rot, wheel.contact, torque=rng.uniform(-500, 500), N=4000.0,
                         mass=500.0)
    m.compile().simulate(t_end=0.5, output_interval=0.05)


def clock_case(rng, directory):
    import acausal as ac

    class Clocked(ac.Component):
        def __init__(self, name, start, period, level):
            super().__init__(name)
            x = self.variable("x")
            n = self.discrete("n")
            hit = self.discrete("hit")
            self.equation(ac.der(x) == 1.0)
            self.when(ac.sample(start, period), [n == ac.pre(n) + 1.0])
            self.when(x > level, [hit == ac.pre(hit) + 1.0])

    start = rng.choice([0.0, -1e300, 1e300, rng.uniform(-2, 2), float("nan"), float("inf")])
    period = rng.choice([1e-12, 1e-9, 1e-6, 1e-3, 0.1, 1.0, 0.0, -1.0, float("nan"), rng.uniform(1e-4, 1)])
    m = ac.Model("clocked")
    m.add(Clocked("c", start, period, rng.uniform(-1, 3)))
    m.set_start("c.x", 0.0)
    t_end = rng.choice([1.0, 10.0, rng.uniform(0.01, 5)])
    m.compile().simulate(t_end=t_end, output_interval=t_end / 10)


def session_case(rng, directory):
    import acausal as ac
    from acausal import rotational
    m = ac.Model("driven")
    inertia = m.add(rotational.Inertia("inertia", J=0.5))
    torque = m.add(rotational.ConstantTorque("torque", tau_constant=1.0))
    m.connect(torque.flange, inertia.flange_a)
    m.set_start("inertia.phi", 0.0)
    m.set_start("inertia.w", 0.0)
    sim = m.compile()
    session = sim.start(t_end=2.0, output_interval=0.1)
    saved = None
    for _ in range(rng.randrange(1, 30)):
        call = rng.randrange(6)
        try:
            if call == 0:
                session.advance(session.time + rng.choice([1e-12, 0.01, 0.3, -0.1, 5.0, float("nan")]))
            elif call == 1:
                session.set_parameter(rng.choice(["torque.tau_constant", "inertia.J", "nope"]),
                                      rng.choice([0.0, -1.0, 2.0, float("nan"), 1e300]))
            elif call == 2:
                saved = session.state()
            elif call == 3 and saved is not None:
                session.set_state(saved)
            elif call == 4:
                session.get(rng.choice(["inertia.w", "inertia.phi", "torque.tau_constant", "missing"]))
            else:
                session.reset()
        except (ac.ModelError, ac.SimulationError, ValueError, KeyError, TypeError):
            pass  # the answer to a bad call; the session must stay usable
    session.result  # readable after any sequence of calls


CASES = {"table_file": table_file_case, "tir_file": tir_file_case, "clock": clock_case, "session": session_case}


def run_batch(seed, indexes):
    """In the child: each case with its own generator; prints one JSON line per case."""
    import acausal as ac
    accepted = (ac.ModelError, ac.SimulationError, ValueError, KeyError)
    with tempfile.TemporaryDirectory() as directory:
        for index in indexes:
            kind = KINDS[index % len(KINDS)]
            print(json.dumps({"index": index, "kind": kind, "started": True}), flush=True)
            rng = random.Random(seed * 1_000_003 + index)
            started = time.monotonic()
            try:
                CASES[kind](rng, directory)
                outcome = "result"
            except accepted as error:
                outcome = type(error).__name__
                if not str(error):
                    outcome = "internal: an error without a message"
            except Exception as error:  # noqa: BLE001 - anything else is an internal error to report
                outcome = f"internal: {type(error).__name__}: {error}"
            print(json.dumps({"index": index, "kind": kind, "outcome": outcome,
                              "seconds": round(time.monotonic() - started, 3)}), flush=True)


def limit_child():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def campaign(seed, count, workers):
    """Batches in child processes; a crash or a hang is pinned to the case that started last."""
    pending = list(range(count))
    failures, outcomes = [], {}
    batch = max(1, math.ceil(count / (4 * workers)))
    running = []
    while pending or running:
        while pending and len(running) < workers:
            indexes, pending = pending[:batch], pending[batch:]
            child = subprocess.Popen([sys.executable, __file__, "--child", str(seed)] + [str(i) for i in indexes],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=limit_child)
            running.append((child, indexes, time.monotonic()))
        time.sleep(0.05)
        for entry in list(running):
            child, indexes, started = entry
            deadline = started + CASE_SECONDS * len(indexes)
            if child.poll() is None and time.monotonic() < deadline:
                continue
            hung = child.poll() is None
            if hung:
                child.kill()
            out, err = child.communicate()
            running.remove(entry)
            last_started, done = None, set()
            for line in out.splitlines():
                record = json.loads(line)
                if "started" in record:
                    last_started = record
                else:
                    done.add(record["index"])
                    outcomes[record["index"]] = record
                    if record["outcome"].startswith("internal"):
                        failures.append(record)
            if child.returncode != 0 or hung:
                if last_started and last_started["index"] not in done:
                    what = "hang" if hung else f"crash (exit {child.returncode}): {err.strip()[-300:]}"
                    failures.append({"index": last_started["index"], "kind": last_started["kind"], "outcome": what})
                    done.add(last_started["index"])
                pending = [i for i in indexes if i not in done and i not in outcomes] + pending
    return outcomes, failures


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        run_batch(int(sys.argv[2]), [int(i) for i in sys.argv[3:]])
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    started = time.monotonic()
    outcomes, failures = campaign(args.seed, args.count, args.workers)
    tally = {}
    for record in outcomes.values():
        key = (record["kind"], record["outcome"].split(":")[0])
        tally[key] = tally.get(key, 0) + 1
    for (kind, outcome), n in sorted(tally.items()):
        print(f"{kind:12s} {outcome:20s} {n}")
    for f in failures:
        print(f"FAIL case {f['index']} ({f['kind']}): {f['outcome']}")
    print(f"{len(outcomes)} cases, {len(failures)} failures, {time.monotonic() - started:.1f} s")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"outcomes": list(outcomes.values()), "failures": failures}, out, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
