"""What ran: the facts a run's results.json carries so that two runs, made on any machine, can be
placed on one time line ("ran" in results.json, runner/results.py).

    compositor  name (the conf's, or the command's program), version, and where it came from
                (source: debian or build; origin: the package, or the repository or program):
                a Debian package (dpkg-query -W of the conf's packages:, or of the package that
                owns the command's program) or a build from source (its commit, and the recipe,
                when --label names them), else what `PROGRAM --version` printed
    xserver     Xvfb (its Debian package's version: Xvfb has no -version) or, for a compositor
                that brings its own X server, Xwayland -version
    suite       this checkout's git commit and whether it had uncommitted changes
    machine     uname and the number of cores
    labels      --label KEY=VALUE, as given; the keys name, version, source, commit, recipe,
                xserver and xserver_version also replace what was found (a build from source
                says what it is: --label source=https://github.com/yshui/picom --label commit=...)

Everything here is found by running small commands with a deadline; a fact that cannot be found
is left out (an empty string), never guessed.  Old results.json files have no "ran": the readers
take that as unknown."""
import os
import platform
import re
import shutil
import subprocess

from runner import paths

# --label keys that replace a found fact: key -> (part of "ran", field)
LABEL_FIELDS = {"name": ("compositor", "name"), "version": ("compositor", "version"),
                "source": ("compositor", "origin"), "commit": ("compositor", "commit"),
                "recipe": ("compositor", "recipe"), "xserver": ("xserver", "name"),
                "xserver_version": ("xserver", "version")}
WRAPPERS = ("exec", "env", "dbus-run-session", "nice", "--")


def command_output(argv, timeout=5.0, merge_stderr=False):
    """A short command's output, or "" when it cannot run, fails or takes too long.  No display
    is passed on: a program asked for its version must not reach any X server."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY")}
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env,
                           stdin=subprocess.DEVNULL, errors="replace")
    except (OSError, subprocess.SubprocessError):
        return ""
    text = p.stdout + (p.stderr if merge_stderr else "")
    return text.strip() if p.returncode == 0 or merge_stderr else ""


def parse_labels(items):
    """["KEY=VALUE", ...] -> {key: value}; raises ValueError naming the bad item."""
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not re.match(r"^[A-Za-z][A-Za-z0-9_.-]*$", key):
            raise ValueError("--label %r: expected KEY=VALUE (KEY: letters, digits, _ . -; e.g. "
                             "version=11.2 or source=https://github.com/yshui/picom)" % item)
        out[key] = value
    return out


def read_conf(name):
    """compositors/NAME.conf's keys (the first line of each value), or {} for a command line."""
    path = os.path.join(paths.ROOT, "compositors", name + ".conf")
    if "/" in name or " " in name or not os.path.isfile(path):
        return {}
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([a-z-]+):\s*(.*)$", line.rstrip("\n"))
            if m and m.group(1) not in out:
                out[m.group(1)] = m.group(2).strip()
    return out


def program_of(command):
    """The program a command line starts: its first word that is not a wrapper or VAR=value."""
    for word in command.replace("'", " ").replace('"', " ").split():
        if word in WRAPPERS or "=" in word or word.startswith("{"):
            continue
        return word
    return ""


def package_versions(packages):
    """dpkg-query -W of each package -> {package: version} (the installed ones)."""
    out = {}
    for pkg in packages:
        text = command_output(["dpkg-query", "-W", "-f", "${Version}", pkg])
        if text:
            out[pkg] = text
    return out


def owning_package(program):
    """The Debian package that installed PROGRAM (a name on PATH or a path), or ""."""
    path = program if "/" in program else (shutil.which(program) or "")
    if not path:
        return ""
    text = command_output(["dpkg-query", "-S", os.path.realpath(path)]) or command_output(["dpkg-query", "-S", path])
    return text.split(":", 1)[0].split(",")[0].strip() if text else ""


def git_state(folder):
    """(commit, dirty) of the git checkout holding folder, or ("", False)."""
    commit = command_output(["git", "-C", folder, "rev-parse", "HEAD"])
    if not commit:
        return "", False
    status = command_output(["git", "-C", folder, "status", "--porcelain", "--untracked-files=no"])
    return commit, bool(status)


def compositor_facts(wm):
    """What can be found of the compositor under test: wm is --wm (a conf name or a command line;
    None: the reference fake-wm, built from this checkout)."""
    if not wm or os.path.basename(program_of(read_conf(wm).get("command", wm))) == "fake-wm":
        commit, dirty = git_state(paths.ROOT)
        return {"name": "fake-wm", "version": commit[:12] + ("-dirty" if dirty else ""),
                "source": "build", "origin": "this checkout", "commit": commit, "recipe": "make",
                "packages": {}}
    conf = read_conf(wm)
    command = conf.get("command", wm)
    program = conf.get("binary", "").split()[0] if conf.get("binary") else program_of(command)
    name = wm if conf else os.path.basename(program)
    packages = conf.get("packages", "").split()
    if not packages and program:
        packages = [p for p in [owning_package(program)] if p]
    versions = package_versions(packages)
    parts = name.split("+")
    if len(parts) > 1 and all(p in versions for p in parts):   # picom+openbox: each part's version
        return {"name": name, "version": " + ".join("%s %s" % (p, versions[p]) for p in parts), "source": "debian",
                "origin": "Debian packages " + " ".join(parts), "commit": "", "recipe": "", "packages": versions}
    if packages and packages[0] in versions:
        return {"name": name, "version": versions[packages[0]], "source": "debian", "origin": "Debian package "
                + packages[0], "commit": "", "recipe": "", "packages": versions}
    version = ""
    if program and ("fake-wm" not in program):
        first = command_output([program, "--version"], timeout=3.0, merge_stderr=True).splitlines()
        version = first[0].strip()[:120] if first else ""
    return {"name": name, "version": version, "source": "build" if version else "", "origin": program,
            "commit": "", "recipe": "", "packages": versions}


def xserver_facts(own):
    """The X server the cases ran on: the suite's Xvfb, or the compositor's own Xwayland."""
    if own:
        text = command_output(["Xwayland", "-version"], merge_stderr=True)
        m = re.search(r"Xwayland Version ([0-9.]+)", text)
        return {"name": "Xwayland", "version": m.group(1) if m else ""}
    return {"name": "Xvfb", "version": package_versions(["xvfb"]).get("xvfb", "")}


def machine_facts():
    u = platform.uname()
    return {"uname": "%s %s %s" % (u.system, u.release, u.machine), "cores": os.cpu_count() or 0}


def describe(wm, labels, own_xserver=False):
    """The "ran" object of a run's results.json (see the module's docstring)."""
    conf = read_conf(wm) if wm else {}
    commit, dirty = git_state(paths.ROOT)
    ran = {"compositor": compositor_facts(wm),
           "xserver": xserver_facts(own_xserver or conf.get("xserver") == "own"),
           "suite": {"commit": commit, "dirty": dirty},
           "machine": machine_facts(),
           "labels": dict(labels)}
    for key, value in labels.items():
        if key in LABEL_FIELDS:
            part, field = LABEL_FIELDS[key]
            ran[part][field] = value
            if part == "compositor" and field in ("origin", "commit", "recipe"):
                ran[part]["source"] = "build"
    return ran


def summary(ran):
    """One line: `picom 11.2 (build 89c2c85), Xvfb 2:21.1.7-3+deb12u13, suite 7471c24`."""
    if not ran:
        return "what ran is not recorded (a results.json older than the \"ran\" field)"
    c = ran.get("compositor") or {}
    x = ran.get("xserver") or {}
    s = ran.get("suite") or {}
    where = c.get("source") or "?"
    if c.get("commit"):
        where += " " + c["commit"][:7]
    return "%s %s (%s), %s %s, suite %s%s" % (c.get("name", "?"), c.get("version") or "?", where, x.get("name", "?"),
                                              x.get("version") or "?", (s.get("commit") or "?")[:7],
                                              " (dirty)" if s.get("dirty") else "")
