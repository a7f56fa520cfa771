#!/bin/sh
# messy-session.sh: a program that does to its session what desktop programs do, for
# tests/test_leftovers.py (run as the compositor under test, or as the application under --client):
# it notes the environment it was given, writes into its home, every XDG folder and $TMPDIR (and
# where a program that ignores the variables writes: ~/.config, ~/.cache, ...), asks its session bus for
# its id, asks it for the accessibility bus (as GTK and Qt do: the bus activates
# at-spi-bus-launcher, which starts a dbus-daemon of its own), starts a bus daemon that forks away
# (as libdbus's autolaunch and dbus-launch do), and double-forks a daemon that ignores SIGTERM;
# then it becomes the command it wraps.
#   tests/bad-wms/messy-session.sh NOTES-DIR COMMAND...
# NOTES-DIR (outside the run's temp dir) gets `env` (its environment), `bus` (dbus-send's answer or
# error), `a11y` (the accessibility bus's address, or the error: at-spi2-core not installed),
# `runtime-mode` (XDG_RUNTIME_DIR's mode) and `daemons` (the daemons' pids, appended: it may be
# started more than once).
set -u
notes=$1
shift
env > "$notes/env"
for d in "$HOME" "${XDG_CONFIG_HOME:-$HOME/.config}" "${XDG_DATA_HOME:-$HOME/.local/share}" \
         "${XDG_CACHE_HOME:-$HOME/.cache}" "${XDG_STATE_HOME:-$HOME/.local/state}" \
         "$HOME/.config" "$HOME/.cache" "$HOME/.local/share" "${XDG_RUNTIME_DIR:-$HOME}" "${TMPDIR:-/tmp}"; do
    mkdir -p "$d/messy-session" && echo "written by $$" > "$d/messy-session/file"
done
stat -c %a "${XDG_RUNTIME_DIR:-/nonexistent}" > "$notes/runtime-mode" 2>&1
dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId > "$notes/bus" 2>&1
dbus-send --session --print-reply --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress > "$notes/a11y" 2>&1
# a session bus of its own that daemonizes (setsid, its parent exits), its socket where a program
# puts one: the runtime dir
dbus-daemon --session --fork --print-pid=1 --address="unix:tmpdir=${XDG_RUNTIME_DIR:-${TMPDIR:-/tmp}}" \
    >> "$notes/daemons" 2>/dev/null
# a double fork: the subshell exits, its child (a session of its own, deaf to SIGTERM) is orphaned
(trap '' TERM; setsid sleep 600 </dev/null >/dev/null 2>&1 & echo $! >> "$notes/daemons")
exec "$@"
