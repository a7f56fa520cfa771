"""framesync reports made from a run's results.json: junit.xml (reports.junit) and index.html
(reports.html).  Each is a module the runner calls after every run, and a command of its own:

    python3 -m reports.junit OUT/results.json     # writes OUT/junit.xml
    python3 -m reports.html OUT/results.json      # writes OUT/index.html
"""
