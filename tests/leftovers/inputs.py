"""Exit paths on bad input: a malformed case file, an unknown option, an output folder that cannot
be made (exit 2, one message naming what was wrong, nothing written)."""
import os
import shutil

from leftovers.sandbox import CASE, ROOT

def t_malformed_case(ctx):
    cases = os.path.join(ctx.scratch, "bad-cases")
    os.makedirs(os.path.join(cases, "basic"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "cases", "clauses.txt"), cases)
    with open(os.path.join(cases, "basic", "broken.case"), "w") as f:
        f.write("case: basic/broken\nclause: ewmh-1.5/basic/participation\nprofiles: ewmh-1.5\n"
                "description: broken\nchecks: 1\n\nclient A\nwait A map-notify within soon\n")
    r = ctx.run(["--cases", cases])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("broken.case:8:" in r.stderr, "no FILE:LINE in %r" % r.stderr[-300:])
            + ctx.expect(not os.path.exists(r.out), "the output folder was created for a malformed case"))


def t_unknown_option(ctx):
    r = ctx.run(["--no-such-option"])
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("unknown option `--no-such-option`" in r.stderr, "message: %r" % r.stderr))


def t_out_not_writable(ctx):
    blocker = os.path.join(ctx.scratch, "a-file")
    with open(blocker, "w") as f:
        f.write("not a folder\n")
    r = ctx.run(["--profile", "ewmh-1.5", "--filter", CASE], out=os.path.join(blocker, "out"))
    rc = r.finish()
    return (ctx.expect(rc == 2, "exit %s, not 2" % rc)
            + ctx.expect("cannot create the output folder %s/out" % blocker in r.stderr, "message: %r" % r.stderr))
