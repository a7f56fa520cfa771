# framesync: build everything that speaks X (C11), run unit tests and the self-test.
#   make            build every program: harness/framesync-harness, scripted-client, fake-wm,
#                   app-observer, model-app, bench/framesync-bench
#   make check      unit tests (cmocka), fuzz regressions, self-test against fake-wm (every profile,
#                   every fault), the client cases against model-app and its faults, leftovers,
#                   isolation, the input path into a compositor's own seat, Python tests, the
#                   suite under ASan/UBSan
#   make matrix     the suite against every installed real compositor (compositors/), gated by
#                   baselines/; writes results/matrix.md and .html (slow; not part of check)
#   make clean
CC      ?= cc
CFLAGS  ?= -O2 -g
# snprintf truncation is the intended behaviour for paths and messages here, hence no -Wformat-truncation
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-format-truncation -Icommon
PKGS     = xcb xcb-sync xcb-composite xcb-damage xcb-xfixes xcb-render xcb-renderutil xcb-image \
           xcb-ewmh xcb-icccm xcb-record xcb-xtest xcb-shape xcb-util xcb-randr libpng
X_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
X_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

COMMON_SRC   := $(wildcard common/*.c)
# Every program is linked to NAME.new and renamed over NAME: a suite running while someone rebuilds
# keeps executing the old file (the linker writes in place, and a fake client started mid-link got
# "Permission denied" in a matrix run)
# what every program links (the X helpers; common/terms.c is added where the vocabulary is used)
COMMON_X     := common/xhelpers.c
HARNESS_SRC  := $(filter-out harness/main.c,$(wildcard harness/*.c)) $(COMMON_SRC)
HARNESS_OBJ  := $(HARNESS_SRC:.c=.o)
SCRIPTED_SRC := $(wildcard fake-clients/scripted-client/*.c) $(COMMON_X) common/monitors.c common/input-barrier.c
WM_SRC       := $(wildcard fake-wm/*.c) $(COMMON_X) common/terms.c common/monitors.c
OBSERVER_SRC := $(wildcard app-observer/*.c) $(COMMON_X)
MODEL_APP_SRC := $(wildcard fake-clients/model-app/*.c) $(COMMON_X)
UNIT_SRC     := $(wildcard harness/tests/test_*.c)
UNIT_BIN     := $(UNIT_SRC:.c=)

BINS = harness/framesync-harness fake-clients/scripted-client/scripted-client fake-wm/fake-wm app-observer/app-observer fake-clients/model-app/model-app
BENCH_BIN := bench/framesync-bench

# helpers of the compositors that bring their own X server (compositors/README.md): KWin's screen
# and mutter's screen captures over D-Bus (the screen oracles under kwin_wayland and mutter-wayland),
# input through mutter's and KWin's own seats (mutter's RemoteDesktop API, KWin's fake input: the
# input paths under mutter-wayland and kwin_wayland), the shim that lets sway and cage start as root
TOOLS := tools/kwin-screenshot tools/mutter-screencast tools/mutter-input tools/weston-capture tools/nosetuid0.so
DBUS_CFLAGS := $(shell pkg-config --cflags dbus-1 2>/dev/null)
DBUS_LIBS   := $(shell pkg-config --libs dbus-1 2>/dev/null)
FAKE_INPUT_XML := $(wildcard /usr/share/plasma-wayland-protocols/fake-input.xml)
WAYLAND_CFLAGS := $(shell pkg-config --cflags wayland-client 2>/dev/null)
WAYLAND_LIBS   := $(shell pkg-config --libs wayland-client 2>/dev/null)
ifneq ($(and $(FAKE_INPUT_XML),$(WAYLAND_LIBS),$(shell command -v wayland-scanner)),)
TOOLS += tools/kwin-input
endif
# every frame of a wlroots compositor (sway, cage) through its screencopy protocol: the screen stream;
# input through sway's own seat (its virtual pointer and keyboard: the input path under sway)
ifneq ($(WAYLAND_LIBS),)
TOOLS += tools/wlr-capture tools/sway-input
endif
# every frame mutter paints, through its ScreenCast stream read with libpipewire (libpipewire-0.3-dev)
PIPEWIRE_CFLAGS := $(shell pkg-config --cflags libpipewire-0.3 2>/dev/null)
PIPEWIRE_LIBS   := $(shell pkg-config --libs libpipewire-0.3 2>/dev/null)
ifneq ($(PIPEWIRE_LIBS),)
TOOLS += tools/mutter-stream
endif

# named clients of our own (clients/README.md): a toolkit that ships no demo binary in Debian gets
# a small program in clients/, built only where its dev package is installed (not in
# debian-packages.txt: the applications under test are not dependencies of the suite)
GLFW_LIBS    := $(shell pkg-config --libs glfw3 gl 2>/dev/null)
ALLEGRO_LIBS := $(shell pkg-config --libs allegro-5 2>/dev/null)
CLIENT_DEMOS :=
ifneq ($(GLFW_LIBS),)
CLIENT_DEMOS += clients/glfw-demo
endif
ifneq ($(ALLEGRO_LIBS),)
CLIENT_DEMOS += clients/allegro-demo
endif
# JavaFX's stage compiled once where OpenJFX and a JDK are installed: the JDK's source launcher
# compiled FxDemo.java at every start of the application (1-2 s of each of a run's starts)
FX_LIB := /usr/share/openjfx/lib
ifneq ($(wildcard $(FX_LIB)/javafx.controls.jar),)
ifneq ($(shell command -v javac 2>/dev/null),)
CLIENT_DEMOS += clients/fx-demo/FxDemo.class
endif
endif

all: $(BINS) $(BENCH_BIN) $(TOOLS) $(CLIENT_DEMOS)

clients/glfw-demo: clients/glfw-demo.c
	$(CC) $(CFLAGS) $(shell pkg-config --cflags glfw3 gl) -o $@.new $< $(GLFW_LIBS) && mv -f $@.new $@

clients/fx-demo/FxDemo.class: clients/FxDemo.java
	rm -rf clients/fx-demo.new && javac --module-path $(FX_LIB) --add-modules javafx.controls -d clients/fx-demo.new $< \
	  && rm -rf clients/fx-demo && mv clients/fx-demo.new clients/fx-demo

clients/allegro-demo: clients/allegro-demo.c
	$(CC) $(CFLAGS) $(shell pkg-config --cflags allegro-5) -o $@.new $< $(ALLEGRO_LIBS) && mv -f $@.new $@

tools/kwin-screenshot: tools/kwin-screenshot.c
	$(CC) $(CFLAGS) $(DBUS_CFLAGS) -o $@.new $< $(DBUS_LIBS) && mv -f $@.new $@

tools/mutter-screencast: tools/mutter-screencast.c tools/mutter-dbus.c tools/mutter-dbus.h
	$(CC) $(CFLAGS) $(DBUS_CFLAGS) -o $@.new tools/mutter-screencast.c tools/mutter-dbus.c $(DBUS_LIBS) && mv -f $@.new $@

tools/mutter-stream: tools/mutter-stream.c tools/mutter-dbus.c tools/mutter-dbus.h tools/stream-proto.c tools/stream-proto.h
	$(CC) $(CFLAGS) $(DBUS_CFLAGS) $(PIPEWIRE_CFLAGS) -o $@.new tools/mutter-stream.c tools/mutter-dbus.c \
	    tools/stream-proto.c $(DBUS_LIBS) $(PIPEWIRE_LIBS) && mv -f $@.new $@

# weston's picture of an X window, found through weston-debug's scene graph (weston.conf)
tools/weston-capture: tools/weston-capture.c
	$(CC) $(CFLAGS) $(X_CFLAGS) -o $@.new $< $(X_LIBS) && mv -f $@.new $@

tools/mutter-input: tools/mutter-input.c tools/mutter-dbus.c tools/mutter-dbus.h tools/input-proto.c tools/input-proto.h
	$(CC) $(CFLAGS) $(DBUS_CFLAGS) -o $@.new tools/mutter-input.c tools/mutter-dbus.c tools/input-proto.c $(DBUS_LIBS) \
	    && mv -f $@.new $@

# input through KWin's own seat: the Wayland protocol org_kde_kwin_fake_input, whose XML
# plasma-wayland-protocols ships; built where libwayland-dev and that XML are (debian-packages.txt)
tools/kwin-input: tools/kwin-input.c build/kwin/fake-input-client-protocol.h build/kwin/fake-input-protocol.c \
	    tools/input-proto.c tools/input-proto.h
	$(CC) $(CFLAGS) -Ibuild/kwin $(WAYLAND_CFLAGS) -o $@.new $< build/kwin/fake-input-protocol.c tools/input-proto.c \
	    $(WAYLAND_LIBS) && mv -f $@.new $@

build/kwin/fake-input-client-protocol.h: $(FAKE_INPUT_XML)
	@mkdir -p build/kwin
	wayland-scanner client-header $< $@

build/kwin/fake-input-protocol.c: $(FAKE_INPUT_XML)
	@mkdir -p build/kwin
	wayland-scanner private-code $< $@

tools/sway-input: tools/sway-input.c tools/wlr-virtual-input.c tools/wlr-virtual-input.h tools/input-proto.c \
	    tools/input-proto.h
	$(CC) $(CFLAGS) $(WAYLAND_CFLAGS) -o $@.new tools/sway-input.c tools/wlr-virtual-input.c tools/input-proto.c \
	    $(WAYLAND_LIBS) && mv -f $@.new $@

tools/wlr-capture: tools/wlr-capture.c tools/wlr-screencopy.c tools/wlr-screencopy.h tools/stream-proto.c tools/stream-proto.h
	$(CC) $(CFLAGS) $(WAYLAND_CFLAGS) -o $@ tools/wlr-capture.c tools/wlr-screencopy.c tools/stream-proto.c $(WAYLAND_LIBS)

tools/nosetuid0.so: tools/nosetuid0.c
	$(CC) $(CFLAGS) -shared -fPIC -o $@.new $< && mv -f $@.new $@

%.o: %.c $(wildcard common/*.h harness/*.h fake-wm/*.h fake-clients/*/*.h app-observer/*.h)
	$(CC) $(CFLAGS) $(X_CFLAGS) -c -o $@ $<

harness/framesync-harness: harness/main.o $(HARNESS_OBJ)
	$(CC) $(CFLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

fake-clients/scripted-client/scripted-client: $(SCRIPTED_SRC:.c=.o)
	$(CC) $(CFLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

fake-wm/fake-wm: $(WM_SRC:.c=.o)
	$(CC) $(CFLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

# the observer of a real application under test (--client, cases/client/)
app-observer/app-observer: $(OBSERVER_SRC:.c=.o)
	$(CC) $(CFLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

# the self-driven application the client cases are proven with (tests/client_selftest.py)
fake-clients/model-app/model-app: $(MODEL_APP_SRC:.c=.o)
	$(CC) $(CFLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

harness/tests/test_%: harness/tests/test_%.o $(HARNESS_OBJ)
	$(CC) $(CFLAGS) -o $@.new $^ $(CMOCKA_LIBS) $(X_LIBS) -lm && mv -f $@.new $@

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; ./$$t; done

selftest: all
	./tests/selftest.sh

# the same with every fault against the whole suite: also finds a fault that breaks a case that
# names neither its clause nor its collateral (tests/fault-collateral.txt); not part of check
selftest-whole: all
	./tests/selftest.sh --whole

# the client cases (cases/client/) proven both ways against model-app and its faults (< 1 min)
client-selftest: all
	python3 tests/client_selftest.py

# misbehaving compositors for the harness's own tests (crash, hang, grab, never ready)
tests/bad-wms/bad-wm: tests/bad-wms/bad-wm.c $(COMMON_X) common/clock.h common/xhelpers.h
	$(CC) $(CFLAGS) $(X_CFLAGS) -o $@.new $< $(COMMON_X) $(X_LIBS) && mv -f $@.new $@

# an input helper whose seat is the X server (XTEST): the proof of the harness's input path
tests/xtest-seat/xtest-seat: tests/xtest-seat/xtest-seat.c
	$(CC) $(CFLAGS) $(X_CFLAGS) -o $@.new $< $(X_LIBS) && mv -f $@.new $@

# a sampling screen capture of the root, slow as a screenshot API: the proof of what a sampler can tell
tests/slow-capture/slow-capture: tests/slow-capture/slow-capture.c
	$(CC) $(CFLAGS) $(X_CFLAGS) -o $@.new $< $(X_LIBS) && mv -f $@.new $@

# the input path into a compositor's own seat (input:, --input) gives XTEST's verdicts, and its barrier
# (--input-barrier) orders the seat's events after the client's X events (about 1-1.5 min)
input-path: all tests/xtest-seat/xtest-seat tests/bad-wms/bad-wm
	python3 tests/test_input_path.py

# the screen stream sees what fake-wm composites through cage (rootful Xwayland), faults and all
# (< 30 s; SKIP without cage, Xwayland or tools/wlr-capture)
wayland-capture: all
	python3 tests/test_wayland_capture.py

# a sampling screen capture decides what its pictures can tell and says UNRESOLVED for the rest
# (about 45 s; fake-wm on an X server of its own, seen only through tests/slow-capture)
sampler: all tests/slow-capture/slow-capture
	python3 tests/test_sampler.py

# every exit path of the harness: status, message, no process or temp file left behind
leftovers: all tests/bad-wms/bad-wm
	python3 tests/test_leftovers.py

# a compositor that brings its own X server (xserver: own) gets the same verdicts as on ours
own-xserver: all
	python3 tests/test_own_xserver.py

# a run's X server takes no client without its cookie, no TCP, 0700 temp dir; two runs at once
isolation: all tests/bad-wms/bad-wm
	python3 tests/test_isolation.py

# ---- fuzzing (fuzz/): libFuzzer targets for the parsers of untrusted input ----
#   make fuzz          builds them with clang, runs each for FUZZ_SECONDS (installs clang first)
#   make fuzz-replay   replays fuzz/regressions/ (and the seeds) with gcc + ASan/UBSan: make check
FUZZ_TARGETS := caseparse record rec_split propdecode appdecode
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
SAN_FLAGS    := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS   = -std=c11 -D_GNU_SOURCE -g -O1 -Icommon -Iharness $(X_CFLAGS)
FUZZ_SRC_caseparse := harness/casefile.c harness/casevary.c harness/caseparse.c harness/casesteps.c \
                      harness/caseparse-base.c common/terms.c
FUZZ_SRC_record    := harness/timeline.c
FUZZ_SRC_rec_split := $(HARNESS_SRC)
FUZZ_SRC_propdecode := fake-wm/propdecode.c
# app-observer's decoder without an X connection: fuzz_appdecode.c stubs the xcb calls it makes
FUZZ_SRC_appdecode := app-observer/decode.c
FUZZ_LIBS_rec_split = $(X_LIBS) -lm

build/fuzz/fuzz_%: fuzz/fuzz_%.c $(wildcard harness/*.c harness/*.h common/*.h fake-wm/propdecode.* app-observer/*)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(SAN_FLAGS) -o $@.new $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*) && mv -f $@.new $@

build/replay/replay_%: fuzz/fuzz_%.c fuzz/replay.c $(wildcard harness/*.c harness/*.h common/*.h fake-wm/propdecode.* app-observer/*)
	@mkdir -p $(@D)
	$(CC) $(FUZZ_CFLAGS) $(SAN_FLAGS) -o $@.new fuzz/replay.c $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*) && mv -f $@.new $@

fuzz:
	@command -v $(FUZZ_CC) >/dev/null || { apt-get install -y --no-install-recommends clang libclang-rt-dev; }
	$(MAKE) $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)
	@set -e; mkdir -p build/fuzz/corpus-caseparse; find cases -name '*.case' -exec cp {} build/fuzz/corpus-caseparse/ \;
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz/corpus-$$t build/fuzz/crashes-$$t; \
	  echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
	  seeds=fuzz/seeds/$$t; [ -d $$seeds ] || seeds=; \
	  dict=fuzz/$$t.dict; [ -f $$dict ] && dict=-dict=$$dict || dict=; \
	  ./build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 $$dict \
	    -artifact_prefix=build/fuzz/crashes-$$t/ build/fuzz/corpus-$$t $$seeds fuzz/regressions/$$t 2>build/fuzz/fuzz_$$t.log \
	    || { tail -40 build/fuzz/fuzz_$$t.log; echo "fuzz_$$t found a crash: build/fuzz/crashes-$$t/ (keep it in fuzz/regressions/$$t/)"; exit 1; }; \
	  grep -E 'stat::number_of_executed_units|cov:' build/fuzz/fuzz_$$t.log | tail -2; \
	done

# ---- make asan: every program with ASan + UBSan in build/asan/ (the same layout, so the
# harness finds its fake-wm, scripted client and observer there), then the whole suite on them,
# and the client cases on app-observer and model-app (the decoder of what RECORD brings).
# Any sanitizer report of any process (they go to build/asan/logs/) fails it, as does exit >= 2.
# model-app animates for ever: FRAMESYNC_CLIENT_ANIMATES=forever says so (as a clients/NAME.conf
# would), so its idle states SKIP at once instead of waiting 8 s each.
ASAN_DIR   := build/asan
ASAN_OUT   ?= /tmp/fs-asan-results
ASAN_FLAGS ?= --timeout-scale 2
ASAN_BINS  := $(BINS:%=$(ASAN_DIR)/%)

$(ASAN_DIR)/%.o: %.c $(wildcard common/*.h harness/*.h fake-wm/*.h fake-clients/*/*.h app-observer/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -O1 $(SAN_FLAGS) $(X_CFLAGS) -c -o $@ $<

$(ASAN_DIR)/harness/framesync-harness: $(ASAN_DIR)/harness/main.o $(HARNESS_OBJ:%=$(ASAN_DIR)/%)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

$(ASAN_DIR)/fake-clients/scripted-client/scripted-client: $(SCRIPTED_SRC:%.c=$(ASAN_DIR)/%.o)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

$(ASAN_DIR)/fake-wm/fake-wm: $(WM_SRC:%.c=$(ASAN_DIR)/%.o)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

$(ASAN_DIR)/app-observer/app-observer: $(OBSERVER_SRC:%.c=$(ASAN_DIR)/%.o)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

$(ASAN_DIR)/fake-clients/model-app/model-app: $(MODEL_APP_SRC:%.c=$(ASAN_DIR)/%.o)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@.new $^ $(X_LIBS) -lm && mv -f $@.new $@

asan: $(ASAN_BINS)
	@rm -rf $(ASAN_DIR)/logs; mkdir -p $(ASAN_DIR)/logs
	@rc=0; ASAN_OPTIONS=log_path=$(CURDIR)/$(ASAN_DIR)/logs/asan:detect_leaks=1:abort_on_error=0 \
	  UBSAN_OPTIONS=log_path=$(CURDIR)/$(ASAN_DIR)/logs/ubsan:print_stacktrace=1 \
	  $(ASAN_DIR)/harness/framesync-harness --cases $(CURDIR)/cases --out $(ASAN_OUT) $(ASAN_FLAGS) \
	  > $(ASAN_DIR)/suite.tap 2>&1 || rc=$$?; \
	  tail -1 $(ASAN_DIR)/suite.tap; echo "asan: the suite exited $$rc (results in $(ASAN_OUT))"; \
	  ASAN_OPTIONS=log_path=$(CURDIR)/$(ASAN_DIR)/logs/asan:detect_leaks=1:abort_on_error=0 \
	  UBSAN_OPTIONS=log_path=$(CURDIR)/$(ASAN_DIR)/logs/ubsan:print_stacktrace=1 FRAMESYNC_CLIENT_ANIMATES=forever \
	  $(ASAN_DIR)/harness/framesync-harness --cases $(CURDIR)/cases --out $(ASAN_OUT)-client $(ASAN_FLAGS) \
	    --client "$(CURDIR)/$(ASAN_DIR)/fake-clients/model-app/model-app --fences 2" > $(ASAN_DIR)/client.tap 2>&1 || rc=$$?; \
	  tail -1 $(ASAN_DIR)/client.tap; echo "asan: the client cases (app-observer, model-app) exited $$rc"; \
	  if ls $(ASAN_DIR)/logs/* >/dev/null 2>&1; then \
	    for f in $(ASAN_DIR)/logs/*; do echo "== $$f"; head -40 $$f; done; \
	    echo "asan: sanitizer reports above"; exit 1; fi; \
	  [ $$rc -le 1 ] || exit 1; echo "asan: no sanitizer reports"

# ---- make stress: the suite STRESS_RUNS times against fake-wm with the CPUs saturated
# (stress-ng --cpu 2, installed here when missing); reports every verdict that changed.
STRESS_RUNS ?= 20
stress: all
	@command -v stress-ng >/dev/null || { [ "$$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y --no-install-recommends stress-ng >/dev/null; } || { echo "stress: needs stress-ng (apt-get install stress-ng)"; exit 1; }
	python3 tests/stress.py --runs $(STRESS_RUNS) --cpu 2 $(STRESS_FLAGS)

fuzz-replay: $(FUZZ_TARGETS:%=build/replay/replay_%)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  printf 'fuzz-replay %-10s ' $$t; \
	  files=$$(find fuzz/regressions/$$t fuzz/seeds/$$t -type f ! -name '.*' 2>/dev/null || true); \
	  [ $$t != caseparse ] || files="$$files $$(find cases -name '*.case')"; \
	  ./build/replay/replay_$$t $$files; \
	done

# ---- the benchmark (bench/, runner/bench.py; ./run-tests.sh --bench): its C session program links
# the harness's Xvfb, compositor and process code; its GL client renders with Mesa through EGL.
BENCH_SRC  := $(wildcard bench/*.c)
GL_CFLAGS  := $(shell pkg-config --cflags egl opengl 2>/dev/null)
GL_LIBS    := $(shell pkg-config --libs egl opengl 2>/dev/null)

bench/%.o: bench/%.c $(wildcard bench/*.h common/*.h harness/*.h)
	$(CC) $(CFLAGS) -Iharness $(X_CFLAGS) $(GL_CFLAGS) -c -o $@ $<

$(BENCH_BIN): $(BENCH_SRC:.c=.o) $(HARNESS_OBJ)
	$(CC) $(CFLAGS) -o $@.new $^ $(X_LIBS) $(GL_LIBS) -lpthread -lm && mv -f $@.new $@

# the proof that the benchmark measures what it says, and its statistics' unit tests (short)
bench-check: all
	python3 -m unittest tests.test_bench_stats tests.test_bench_resize
	python3 tests/bench_check.py

# the resize cells against real compositors: the non-participating client's stale frames under
# openbox and picom+openbox do not depend on the run order (about 1 min; not part of check)
bench-check-compositors: all
	python3 tests/bench_check.py --compositors

# the runner's and the reports' tests (unittest; tests/test_runner.py runs the suite on Xvfb)
pytest-unit: all
	python3 -m unittest discover -s tests -p 'test_*.py'

# no C or Python file over 600 lines, no function over 80 (tools/rooms.py says how it counts; 1 s)
rooms:
	python3 tools/rooms.py

# check installs missing packages first (a fresh machine), then builds in a new make so the
# pkg-config flags are read after the install.
check:
	tools/install-deps.sh
	$(MAKE) all
	$(MAKE) rooms
	$(MAKE) -j2 --output-sync=target check-proofs check-harness
	$(MAKE) bench-check

# make check's two lanes, side by side: their runs mostly wait (deadlines, frames), so two at a
# time finish in about half the time on 2 cores; each part's output is printed whole when it ends.
# bench-check comes after them, alone: it proves the bench's timing to a fraction of a
# millisecond, which the other lane's load moved (even->pixel by 0.575 ms, 2026-12-07)
check-proofs: all
	$(MAKE) selftest client-selftest
check-harness: all
	$(MAKE) unit fuzz-replay leftovers isolation own-xserver input-path wayland-capture sampler pytest-unit asan

matrix: all
	python3 -m runner.matrix $(MATRIX_FLAGS)

clean:
	rm -rf build clients/fx-demo
	rm -f $(BINS) $(BENCH_BIN) $(TOOLS) clients/glfw-demo clients/allegro-demo bench/*.o $(UNIT_BIN) tests/bad-wms/bad-wm tests/xtest-seat/xtest-seat tests/slow-capture/slow-capture harness/*.o harness/tests/*.o fake-clients/scripted-client/*.o fake-wm/*.o app-observer/*.o fake-clients/model-app/*.o

.PHONY: all rooms unit check-proofs check-harness selftest selftest-whole client-selftest pytest-unit check clean matrix leftovers isolation input-path wayland-capture sampler fuzz fuzz-replay asan stress bench-check bench-check-compositors
.SECONDARY:
