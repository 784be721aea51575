"""Speed and memory: ``hepa-bench speed`` and ``hepa-bench memory``.

- :mod:`~hepa_bench.speed.protocol`: the FD001 protocol timed end to end; throughput, FLOPs, scaling;
- :mod:`~hepa_bench.speed.options`: the protocol's speed options on the command line;
- :mod:`~hepa_bench.speed.reference`: the same beside the authors' implementation, in pinned pairs
  (:mod:`~hepa_bench.speed.reference_checkout`, :mod:`~hepa_bench.speed.reference_report`);
- :mod:`~hepa_bench.speed.processes`: child processes timed from outside;
- :mod:`~hepa_bench.speed.memory`: peak memory of inference against the number of windows;
- :mod:`~hepa_bench.speed.clock`: the CPU clock of the experiments.
"""
