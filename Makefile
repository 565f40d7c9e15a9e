# SPDX-License-Identifier: Apache-2.0
# Thin wrapper over CMake.  `make demo` and `make test` are the README's two
# commands; both install missing Debian packages first (as root) or print the
# command to run.
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_BENCH ?= build-bench
BUILD_RELEASE ?= build-release
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=

.PHONY: all deps configure build demo docs test test-asan test-release bench bench-quick fuzz fuzz-build format clean install

all: build

deps:
	@tools/install-deps.sh

# The benchmarks are compiled by the Release check below (and run by `make
# bench`), not here: the development build holds the library, the program and
# the tests.
configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOSROD_WERROR=ON -DCOSROD_BUILD_BENCH=OFF $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The demo needs only the library, the program and the Python package (target
# apps), not the tests and benchmarks that `make build` compiles too.
demo: configure
	cmake --build $(BUILD) -j $(JOBS) --target apps
	@tools/demo.sh $(BUILD)

# The manual: HTML in $(BUILD)/docs/html (index.html), built with warnings as
# errors; the tutorials are run on the way (tools/build_docs.py).
docs: build
	cmake --build $(BUILD) --target docs

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	$(MAKE) test-asan
	$(MAKE) test-release

# The Release configuration (-O3: other warnings than -O2) compiles with
# -Werror what a user builds in it: the library, the program, the Python
# package (apps), the C example, the benchmarks (`make bench` is a Release
# build) and the public-interface checks, which run (the optimised library the
# user installs).  The test suite itself is compiled -Werror by the plain and
# sanitizer builds above; RELEASE_TARGETS= (empty) builds every target.
RELEASE_TARGETS ?= apps cosrod_advance benchmarks test_api_umbrella test_api_constructors
test-release:
	cmake -S . -B $(BUILD_RELEASE) -DCMAKE_BUILD_TYPE=Release -DCOSROD_WERROR=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_RELEASE) -j $(JOBS) $(if $(RELEASE_TARGETS),--target $(RELEASE_TARGETS))
	cd $(BUILD_RELEASE) && ctest --output-on-failure -R '^api\.|^test_api_'

# Under ASan+UBSan every test runs except the headless-browser and ParaView
# checks: they test the page's JavaScript and ParaView's reading of the files,
# and the C code they call (cosrod view, the VTK writers) is run under the
# sanitizers by the view.* and output tests.  Nor does the agreement of
# `check` and `run` on the invalid corpus: both stop in the loader, which
# test_scenario_cli.check_corpus runs on the same files under the sanitizers.
# Nor the coil-to-self-contact switch (three 2.6 s runs of a coiling rod,
# ~90 s plain): its code paths (the band-to-sparse switch at a step, the
# pattern growth) run under the sanitizers in the contact pattern tests.
ASAN_EXCLUDE ?= ^viewer\.browser\.|^view\.paraview_state$$|^test_cli_agree\.check_run_agree_corpus$$|^test_sim_contact_self_pattern\.
test-asan:
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DCOSROD_SANITIZE=ON -DCOSROD_WERROR=ON \
	  -DCOSROD_BUILD_BENCH=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -E '$(ASAN_EXCLUDE)'

# The instruction and operation counts (callgrind) need a build without
# -march=native (valgrind does not decode every AVX-512 instruction):
# $(BUILD_BENCH)-portable, two targets, passed to run.sh as CALLGRIND_BUILD.
bench:
	@tools/install-deps.sh bench
	cmake -S . -B $(BUILD_BENCH) -DCMAKE_BUILD_TYPE=Release -DCOSROD_NATIVE=ON -DCOSROD_BUILD_TESTS=OFF
	cmake --build $(BUILD_BENCH) -j $(JOBS)
	cmake -S . -B $(BUILD_BENCH)-portable -DCMAKE_BUILD_TYPE=Release -DCOSROD_NATIVE=OFF -DCOSROD_BUILD_TESTS=OFF
	cmake --build $(BUILD_BENCH)-portable -j $(JOBS) --target bench_rod body_calls
	CALLGRIND_BUILD=$(BUILD_BENCH)-portable bench/run.sh $(BUILD_BENCH)

# Smoke run of the whole suite: every bench script at its smallest setting that
# still compares with its reference (bench/run.sh --quick).  It writes into
# $(BUILD_BENCH)/bench-results-quick (a copy of bench/results overwritten by the
# quick run, README.md and provenance.txt included), never into bench/results,
# which only `make bench` writes.  Cost per section: bench-timing-quick.csv
# there (~80 s CPU; see bench/results/bench-timing.md).
bench-quick:
	@tools/install-deps.sh bench
	cmake -S . -B $(BUILD_BENCH) -DCMAKE_BUILD_TYPE=Release -DCOSROD_NATIVE=ON -DCOSROD_BUILD_TESTS=OFF
	cmake --build $(BUILD_BENCH) -j $(JOBS)
	bench/run.sh $(BUILD_BENCH) --quick

# make install PREFIX=/opt/cosrod (default /usr/local): library, headers,
# CMake package, pkg-config file, the cosrod program and the Python package.
# The program and pkg-config consumers find libcosrod through an RPATH.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# libFuzzer runs (need clang; not part of the normal build): the CMake
# targets of a clang build with COSROD_FUZZ=ON.  FUZZ_TARGET: fuzz_scenario
# (the loader; seeds: the invalid corpus, the examples), fuzz_run (load ->
# check -> a few steps; seeds: the examples), fuzz_builder (the C builder
# API; seeds: tests/fuzz/regress_builder).  New inputs go to
# $(BUILD_FUZZ)/corpus-TARGET, crashes to $(BUILD_FUZZ)/crash-*.  To continue
# a campaign run `make fuzz` again (the corpus folders are kept); a finding
# is fixed, then its input committed to the target's regression folder
# (tests/scenario/fuzz_regress, tests/fuzz/regress_run, regress_builder),
# which `make test` replays.  Record: bench/results/fuzzing.md.
FUZZ_SECONDS ?= 60
FUZZ_TARGET  ?= fuzz_scenario
BUILD_FUZZ   ?= build-fuzz
FUZZ_CC      ?= clang
FUZZ_SEEDS_fuzz_scenario = ../tests/scenario/invalid ../tests/scenario/fuzz_regress ../examples
FUZZ_SEEDS_fuzz_run      = ../tests/fuzz/regress_run ../examples
FUZZ_SEEDS_fuzz_builder  = ../tests/fuzz/regress_builder
FUZZ_DICT_fuzz_scenario  = -dict=../tests/scenario/fuzz_scenario.dict
FUZZ_DICT_fuzz_run       = -dict=../tests/scenario/fuzz_scenario.dict
fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "make fuzz needs clang (apt-get install clang)"; exit 1; }
	cmake -S . -B $(BUILD_FUZZ) -DCMAKE_C_COMPILER=$(FUZZ_CC) -DCMAKE_BUILD_TYPE=Debug -DCOSROD_FUZZ=ON \
	  -DCOSROD_WERROR=ON -DCOSROD_BUILD_TESTS=OFF -DCOSROD_BUILD_BENCH=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_scenario fuzz_run fuzz_builder

fuzz: fuzz-build
	mkdir -p $(BUILD_FUZZ)/corpus-$(FUZZ_TARGET)
	cd $(BUILD_FUZZ) && ./$(FUZZ_TARGET) -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=60 \
	  -rss_limit_mb=2048 $(FUZZ_DICT_$(FUZZ_TARGET)) -artifact_prefix=./ -print_final_stats=1 \
	  corpus-$(FUZZ_TARGET) $(FUZZ_SEEDS_$(FUZZ_TARGET))

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_BENCH) $(BUILD_RELEASE) $(BUILD_FUZZ)
