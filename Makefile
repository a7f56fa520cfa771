# framesync: build everything that speaks X (C11), run unit tests and the self-test.
#   make            build harness, fake client, fake-wm
#   make check      unit tests (cmocka) + self-test against fake-wm (every profile, every fault)
#   make matrix     the suite against every installed real compositor (compositors/), gated by
#                   baselines/; writes reports/matrix.md and .html (slow; not part of check)
#   make clean
CC      ?= cc
CFLAGS  ?= -O2 -g
# snprintf truncation is the intended behaviour for paths and messages here, hence no -Wformat-truncation
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-format-truncation -Icommon
PKGS     = xcb xcb-sync xcb-composite xcb-damage xcb-xfixes xcb-render xcb-renderutil xcb-image \
           xcb-ewmh xcb-icccm xcb-record xcb-xtest xcb-shape xcb-util
X_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
X_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

HARNESS_SRC  := $(filter-out harness/main.c,$(wildcard harness/*.c))
HARNESS_OBJ  := $(HARNESS_SRC:.c=.o)
CLIENT_SRC   := $(wildcard fake-clients/*.c)
WM_SRC       := $(wildcard fake-wm/*.c)
UNIT_SRC     := $(wildcard harness/tests/test_*.c)
UNIT_BIN     := $(UNIT_SRC:.c=)

BINS = harness/framesync fake-clients/fake-client fake-wm/fake-wm

all: $(BINS)

%.o: %.c $(wildcard common/*.h harness/*.h)
	$(CC) $(CFLAGS) $(X_CFLAGS) -c -o $@ $<

harness/framesync: harness/main.o $(HARNESS_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(X_LIBS) -lm

fake-clients/fake-client: $(CLIENT_SRC:.c=.o)
	$(CC) $(CFLAGS) -o $@ $^ $(X_LIBS) -lm

fake-wm/fake-wm: $(WM_SRC:.c=.o)
	$(CC) $(CFLAGS) -o $@ $^ $(X_LIBS) -lm

harness/tests/test_%: harness/tests/test_%.o $(HARNESS_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(X_LIBS) -lm

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; ./$$t; done

selftest: all
	./tests/selftest.sh

# misbehaving compositors for the harness's own tests (crash, hang, grab, never ready)
tests/bad-wms/bad-wm: tests/bad-wms/bad-wm.c
	$(CC) $(CFLAGS) $(X_CFLAGS) -o $@ $< $(X_LIBS)

# every exit path of the harness: status, message, no process or temp file left behind
leftovers: all tests/bad-wms/bad-wm
	python3 tests/test_leftovers.py

# the runner's and the reports' tests (unittest; tests/test_runner.py runs the suite on Xvfb)
pytest-unit: all
	python3 -m unittest discover -s tests -p 'test_*.py'

# check installs missing packages first (a fresh machine), then builds in a new make so the
# pkg-config flags are read after the install.
check:
	tools/install-deps.sh
	$(MAKE) all
	$(MAKE) unit selftest leftovers pytest-unit

matrix: all
	python3 -m runner.matrix $(MATRIX_FLAGS)

clean:
	rm -f $(BINS) $(UNIT_BIN) tests/bad-wms/bad-wm harness/*.o harness/tests/*.o fake-clients/*.o fake-wm/*.o

.PHONY: all unit selftest pytest-unit check clean matrix leftovers
.SECONDARY:
