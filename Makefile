# acausal — the two commands: `make run` and `make test`. Both install what is
# missing on a fresh Debian machine, configure and build first.
PYTHON ?= /usr/bin/python3
BUILD ?= build
BUILD_SANITIZE ?= build-sanitize
PREFIX ?= /usr/local
JOBS ?= 2
DEBIAN_PACKAGES := build-essential cmake libsundials-dev libsuitesparse-dev libeigen3-dev libfmt-dev catch2 pybind11-dev \
  zlib1g-dev libexpat1-dev \
  python3-dev python3-numpy python3-pytest python3-pandas python3-matplotlib python3-distributed python3-cloudpickle python3-tqdm python3-scipy \
  python3-venv python3-pip python3-setuptools python3-wheel python3-xarray

.PHONY: all deps configure build run test test-sanitize bench fuzz docs install clean wheel

all: build

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=$(PYTHON)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

EXAMPLES := rolling_wheel spring_mass_damper launch_and_brake coast_down split_mu_launch drive_cycle drawbar_pull \
  handling fmu_export
# make run builds what it runs, not the tests: the examples, the FMU runtime
# fmu_export packs, and the CLI with the Python package its validation plots use.
run: configure
	cmake --build $(BUILD) -j $(JOBS) --target $(EXAMPLES) acausal_cli acausal_fmu_runtime acausal_stubs
	@set -e; for example in $(EXAMPLES); do echo "== $$example"; ./$(BUILD)/examples/$$example; done
	./$(BUILD)/acausal validate car

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# -O1: AddressSanitizer's advice (a few times faster than -O0, every check kept);
# -g1: line tables only, what the sanitizers' stack traces print (a smaller,
# faster build than full debug information). ctest runs each test case in its
# own process, JOBS at a time. ACAUSAL_COLLECT=always frees unreached
# expression nodes at every compile(), so ASan reports any raw node pointer
# held across a collection as a use after free.
test-sanitize: deps
	cmake -S . -B $(BUILD_SANITIZE) -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g1 -O1" -DACAUSAL_SANITIZE=ON \
	  -DACAUSAL_PYTHON=OFF
	cmake --build $(BUILD_SANITIZE) -j $(JOBS) --target acausal_tests
	ACAUSAL_COLLECT=always ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir $(BUILD_SANITIZE) -j $(JOBS) \
	  --output-on-failure -E "^(install_and_consume|components_doc_up_to_date|doc_.*)$$"

N ?= 1000
SEED ?= 1
fuzz: build
	@mkdir -p out
	PYTHONPATH=$(BUILD)/python $(PYTHON) tests/fuzz/fuzz_models.py --seed $(SEED) --count $(N) --workers $(JOBS) --json out/fuzz.json
	PYTHONPATH=$(BUILD)/python $(PYTHON) tests/fuzz/fuzz_inputs.py --seed $(SEED) --count $(N) --workers $(JOBS) --json out/fuzz_inputs.json

docs: build
	./$(BUILD)/docs/components_md > docs/components.md

bench: build
	cmake --build $(BUILD) -j $(JOBS) --target chain_bench car_bench exact_outputs_bench events_bench
	./$(BUILD)/bench/chain_bench
	./$(BUILD)/bench/car_bench
	./$(BUILD)/bench/exact_outputs_bench
	./$(BUILD)/bench/events_bench
	PYTHONPATH=$(BUILD)/python $(PYTHON) bench/sweep_bench.py
	PYTHONPATH=$(BUILD)/python $(PYTHON) bench/analysis_bench.py
	PYTHONPATH=$(BUILD)/python $(PYTHON) bench/memory_bench.py

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The Python package as a wheel in dist/ (setup.py builds it with CMake in build/pip;
# --no-build-isolation: Debian's setuptools and wheel, nothing from PyPI).
wheel: deps
	$(PYTHON) -m pip wheel --no-build-isolation --no-deps --no-index -w dist .

clean:
	rm -rf $(BUILD) $(BUILD_SANITIZE) out dist
