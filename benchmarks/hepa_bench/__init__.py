"""hepa_bench: the benchmark harness of hepa_sklearn (registry, method table, runner, report, speed and memory).

It lives beside the library in the repository and is installed from there
(``pip install -e benchmarks``); the library never imports it. Every file a
command writes is named by an argument.
"""
