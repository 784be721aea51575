"""``hepa-bench report``: the generated documents (``docs/benchmarks.md``, the README's summary table).

- :mod:`~hepa_bench.report.cli`: the command: every document of the manifest, or one report of the files
  named;
- :mod:`~hepa_bench.report.manifest`: the manifest, each generated document and the records it is built from;
- :mod:`~hepa_bench.report.document`: the whole report of the results files (``docs/benchmarks.md``);
- one module per section: :mod:`~hepa_bench.report.summary`, :mod:`~hepa_bench.report.cmapss`,
  :mod:`~hepa_bench.report.snapshots`, :mod:`~hepa_bench.report.events` (with
  :mod:`~hepa_bench.report.paper`, :mod:`~hepa_bench.report.position`, :mod:`~hepa_bench.report.costs`,
  :mod:`~hepa_bench.report.validation`), :mod:`~hepa_bench.report.rolling`,
  :mod:`~hepa_bench.report.former`, :mod:`~hepa_bench.report.simulated`, :mod:`~hepa_bench.report.causes`,
  :mod:`~hepa_bench.report.families`, :mod:`~hepa_bench.report.nasa`.
"""
