"""tests/bad-wms/messy-session.sh as the compositor and as the application: its home, XDG folders
and session bus in the run's private folder, and the daemons it leaves (a bus daemon, a
double-forked one deaf to SIGTERM, the accessibility bus) gone with it, also after a SIGKILL."""
import os
import re
import shlex
import signal

from leftovers.sandbox import BAD_WM, CASE, FAKE_WM, MESSY, MODEL_APP, USER_XDG

def messy(ctx, *words):
    """A command line that runs tests/bad-wms/messy-session.sh (its notes in ctx.notes) around words."""
    return "exec " + " ".join(shlex.quote(w) for w in (MESSY, ctx.notes) + words)


def private_env(ctx, what, folder_re):
    """What messy-session.sh noted: its HOME, XDG folders and session bus are in the run's private
    folder (folder_re, under TMPDIR), the runtime dir is 0700, and the bus answered."""
    try:
        with open(os.path.join(ctx.notes, "env")) as f:
            env = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        with open(os.path.join(ctx.notes, "runtime-mode")) as f:
            mode = f.read().strip()
        with open(os.path.join(ctx.notes, "bus")) as f:
            bus = f.read()
    except OSError as e:
        return ["%s left no notes: %s" % (what, e)]
    folder = re.compile("^" + re.escape(ctx.tmpdir) + "/" + folder_re + "/")
    problems = []
    for name in ("HOME", "XDG_RUNTIME_DIR", "TMPDIR") + USER_XDG:
        value = env.get(name, "")
        problems += ctx.expect(folder.match(value + "/"), "the %s's %s is %r, not in the run's private folder"
                               % (what, name, value))
    # a JVM reads user.home from the password file, not HOME (a Java client wrote ~/.java)
    java_home = re.search(r"-Duser\.home=(\S+)", env.get("JAVA_TOOL_OPTIONS", ""))
    problems += ctx.expect(java_home and java_home.group(1) == env.get("HOME"),
                           "the %s's JAVA_TOOL_OPTIONS is %r: a JVM would use the real home"
                           % (what, env.get("JAVA_TOOL_OPTIONS")))
    address = env.get("DBUS_SESSION_BUS_ADDRESS", "")
    problems += ctx.expect(address.startswith("unix:path=%s/bus," % env.get("XDG_RUNTIME_DIR")),
                           "the %s's DBUS_SESSION_BUS_ADDRESS is %r, not its own bus" % (what, address))
    problems += ctx.expect(mode == "700", "the %s's XDG_RUNTIME_DIR has mode %s, not 700" % (what, mode))
    problems += ctx.expect('string "' in bus, "the %s's session bus did not answer: %r" % (what, bus[-200:]))
    a11y = ctx.a11y_socket()
    problems += ctx.expect(a11y is None or a11y.startswith(env.get("XDG_RUNTIME_DIR", "?") + "/"),
                           "the %s's accessibility bus is at %s, not in its runtime dir" % (what, a11y))
    return problems


def t_isolated_wm(ctx):
    """A compositor given as a command line: a private home and bus of its start, and what it left
    (a bus daemon, a double-forked daemon deaf to SIGTERM) gone with it."""
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE, "--wm", messy(ctx, BAD_WM, "behave")])
    rc = r.finish()
    return (ctx.expect(rc == 0, "exit %s, not 0" % rc)
            + private_env(ctx, "compositor", r"framesync-\w{6}/wm-\w{6}")
            + ctx.expect(len(ctx.daemons()) == 2, "the compositor left %d daemons, not 2" % len(ctx.daemons())))


def t_isolated_client(ctx):
    """The application under --client (started by app-observer in each case): the run's private home
    and bus, and the daemons it left at each start gone."""
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", "client/participation", "--client", messy(ctx, MODEL_APP)],
                env={"FRAMESYNC_CLIENT_ANIMATES": "forever"})
    rc = r.finish()
    return (ctx.expect(rc == 0, "exit %s, not 0" % rc)
            + private_env(ctx, "application", r"framesync-\w{6}")
            + ctx.expect(len(ctx.daemons()) >= 2, "the application left %d daemons" % len(ctx.daemons())))


def t_isolated_sigkill(ctx):
    """The harness killed while the compositor's daemons live: the reaper finds them by their mark."""
    r = ctx.run(["--wm", messy(ctx, FAKE_WM, "--profile", "{profile}")])
    if not r.wait_for_output("\nok ", 30):
        r.finish(5)
        return ["no case finished before the kill"]
    r.p.kill()
    rc = r.finish(10)
    ctx.clean_within = 3.0  # the reaper needs a moment: kill the groups and the marked, remove the temp dir
    return (ctx.expect(rc == -signal.SIGKILL, "exit %s" % rc)
            + ctx.expect(len(ctx.daemons()) >= 2, "the compositor left %d daemons" % len(ctx.daemons())))
