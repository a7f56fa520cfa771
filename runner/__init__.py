"""The runner: the Python side of framesync (standard library only), `python3 -m runner`.  One
package; its modules import each other downwards only, from the commands to the bottom layer.

    __main__.py   the entry: the commands run, matrix, bench, spec, merge, baseline
    run.py        `run`: the suite on N parallel workers, in stages:
      probe.py      the probe pass (the feature table, once)
      workers.py    the worker pool (spawning, reading, signals)
      tapstream.py  the TAP stream (canonical order, renumbering, comments, plan)
      report.py     results.json, junit.xml, index.html, the timing lines
      outdir.py     the output folder and the workers' logs in it
      console.py    stdout, stderr and the status line
    baseline.py   expectation baselines (CI gating)
    matrix.py, client_matrix.py, matrix_runs.py   the compositor and client matrices
    merge.py      several runs (shards, compositors) as one
    bench.py      the benchmark
    reports/      the report writers: junit.xml, index.html, the benchmark's statistics and bench.html
    spec/         the spec author's tools (`spec`): DocBook, sentences, coverage, lint, profile diff,
                  interop
  the bottom layer, which the rest imports:
    results.py    results.json as dataclasses (a case result, a run) and its findings: the one
                  reader and writer of results.json
    runverdict.py the verdict of a whole run
    catalog.py    the clause catalog (cases/clauses.txt), the cases' clause references, the fakes' faults
    terms.py      profiles, verdicts, levels: the suite's vocabulary
    paths.py      where the checkout, the programs and the default output folders are
"""
