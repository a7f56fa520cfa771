"""The verdict of a whole run, beside the cases' own (harness/run-verdict.c is the same rule for a
harness run on its own): a run that tested nothing is not green.  It is UNRESOLVED (exit status
1) when no case passed or failed (every one was skipped, or none was selected), or when the
compositor lists protocol atoms and was seen doing none of the protocol (the feature table's
`unbacked`, decided by the harness when it probed); --allow-empty accepts such a run.  Otherwise
the exit status is 1 on an UNRESOLVED case or a finding of a level --fail-on counts."""
from runner.terms import level_fails


def decide(doc, allow_empty=False, fail_on="any"):
    """doc: a merged results document.  -> {"verdict", "reason", "exit_status", "accepted"}"""
    cases = doc.get("cases", [])
    counts = {}
    for c in cases:
        counts[c.get("verdict")] = counts.get(c.get("verdict"), 0) + 1
    reasons = []
    if not cases:
        reasons.append("nothing was tested: no case was selected")
    elif not counts.get("PASS") and not counts.get("FAIL") and counts.get("SKIP") == len(cases) and not doc.get("client"):
        # (an application that does not take part SKIPs everything: that is its answer)
        reasons.append("nothing was tested: every one of the %d cases was skipped (the reasons are on each case; "
                       "the feature table says what the compositor was seen to do)" % len(cases))
    for table in doc.get("features", []):
        if table.get("unbacked"):
            reasons.append(table["unbacked"])
    reason = "; and ".join(reasons)
    # a named compositor's conf may accept it too (`allow-empty: REASON`: a WM known to take no part)
    conf = [c.get("allow_empty") for c in doc.get("compositors") or []]
    by_conf = not allow_empty and bool(conf) and all(conf)
    accepted = bool(reason) and (allow_empty or by_conf)
    failing = any(level_fails(f.get("level", "implied"), fail_on) for f in doc.get("findings", []))
    status = 1 if counts.get("UNRESOLVED") or failing or (reason and not accepted) else 0
    return {"verdict": "UNRESOLVED" if reason and not accepted else "complete", "reason": reason,
            "exit_status": status, "accepted": accepted,
            "accepted_by": "allow-empty: %s" % conf[0] if by_conf else "--allow-empty"}


def interrupted(why, ran, selected, exit_status):
    """The verdict of a run that a signal stopped before its end (Ctrl-C, SIGTERM): not complete,
    whatever the cases that ran say; its exit status is 128 + the signal."""
    return {"verdict": "interrupted", "exit_status": exit_status,
            "reason": "%s: %d of the %d selected cases ran, the others did not" % (why, ran, selected)}


def summary_line(v):
    """The TAP comment that opens the summary, or None."""
    if not v["reason"]:
        return None
    if v.get("verdict") == "interrupted":
        return "# run: %s\n" % v["reason"]
    return "# run: %s%s\n" % ("accepted by %s: " % v.get("accepted_by", "--allow-empty") if v["accepted"] else "UNRESOLVED: ",
                               v["reason"])


def recorded(doc):
    """The verdict a results.json records (its "run" object, with "accepted": a run that has a
    reason and is still complete was accepted by --allow-empty), or None: a file older than the
    run verdict, or one whose run did not end.  An interrupted run's verdict is "interrupted"."""
    run = doc.get("run")
    if not isinstance(run, dict) or not run.get("verdict"):
        return None
    return dict(run, reason=run.get("reason") or "",
                accepted=bool(run.get("reason")) and run.get("verdict") == "complete")


def unresolved(doc, allow_empty=False):
    """The reason a recorded run is UNRESOLVED, or "" (complete, accepted, or not recorded).
    allow_empty: --allow-empty given after the run (to a gate that reads its results.json)."""
    v = recorded(doc)
    if not v or v["verdict"] != "UNRESOLVED" or allow_empty:
        return ""
    return v["reason"] or "the run is UNRESOLVED"
