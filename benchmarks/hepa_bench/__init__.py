"""hepa_bench: the benchmark harness of hepa_sklearn (registry, method table, runner, report, speed and memory).

It lives beside the library in the repository and is installed from there
(``pip install -e benchmarks``); the library never imports it. Every file a
command writes is named by an argument, or, for the generated documents, by
the manifest ``benchmarks/manifest.json``.

The modules of this folder are the benchmark's core: the command line (``cli``),
the datasets' registry (``registry``, ``entry``, ``data``), the protocols'
estimators (``protocols``, ``padded``), the runner (``runner``, ``cells``,
``results``), the statistics (``stats``), ``query``, ``snapshots`` and
``yardstick``. Each sub-package holds one concept: ``methods`` (the method
table), ``report`` (the generated documents), ``corpus`` (the pretraining
corpus), ``speed`` (speed and memory), ``simulated`` (the simulated rows) and
``nasa`` (the rows on NASA's test engines).
"""
