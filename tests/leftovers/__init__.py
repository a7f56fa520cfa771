"""The leftover tests' parts (tests/test_leftovers.py runs them), one file per kind of exit path:

    sandbox.py     the user's session as a sandbox, a run in it, the processes it leaves
    compositor.py  the compositor under test misbehaves, or never starts
    signals.py     the harness or the runner interrupted or killed
    inputs.py      bad input: a malformed case, an unknown option, an output folder it cannot make
    own_server.py  a compositor that brings its own X server
    client.py      the application under test (--client) that does not start, or crashes
    isolation.py   the private home and session bus of what the suite starts, and its daemons
    replace.py     a compositor replaced mid-case (replace-wm): the old and the new instance both reaped
"""
