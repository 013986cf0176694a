"""The tournament runner: the command (tournament, its main) and its
modules, one game (tournament_match), the programs (tournament_proc),
clocks, statistics, the HTML report and --check.

From a checkout scripts/tournament runs it (this directory is the package
`runner` there); installed from the checkout's pyproject.toml it is
quintet.runner, and the command quintet-tournament.  Its modules import
one another relatively, so either name works; tournament_clock and
tournament_stats import none, and tests and benchmarks load them alone.
"""
