"""The reports (standard library only): what a run's results.json and the benchmark's bench.json
become for people.  junit.xml and index.html are made by the runner after every run, and each is
a command of its own:

    python3 -m runner.reports.junit OUT/results.json     # writes OUT/junit.xml
    python3 -m runner.reports.html OUT/results.json      # writes OUT/index.html

    common.py          what they share: the case logs, their timelines and screenshots, the command
    junit.py           junit.xml
    html.py            index.html, with timeline_svg.py (a failing case's timeline as SVG)
    certifier.py       a client run's end: what to fix, what was measured, what was not reached (console, HTML)
    bench_stats.py     the benchmark's statistics (percentiles, bootstrap intervals of ratios)
    bench_summary.py   bench.jsonl -> the runs and cells of bench.json
    bench_resize.py    the resize cells' frames classified (consistent, stale, torn, bounced)
    bench_html.py      bench.html, with bench_resize_html.py (the resize cells' part)
"""
