"""The methods of the benchmark: the one table (:mod:`~hepa_bench.methods.table`) and what its entries call.

- :mod:`~hepa_bench.methods.table`: ``METHODS``, joined from the family tables below;
- :mod:`~hepa_bench.methods.parts`: the :class:`~hepa_bench.methods.parts.Method` record, encoders and heads;
- the family tables: :mod:`~hepa_bench.methods.hepa`, :mod:`~hepa_bench.methods.baselines`,
  :mod:`~hepa_bench.methods.defaults`, :mod:`~hepa_bench.methods.normalisation`,
  :mod:`~hepa_bench.methods.beside`, :mod:`~hepa_bench.methods.corpus`;
- the models the entries fit: :mod:`~hepa_bench.methods.surfaces`, :mod:`~hepa_bench.methods.position`,
  :mod:`~hepa_bench.methods.foundation`, :mod:`~hepa_bench.methods.simple_boosting`,
  :mod:`~hepa_bench.methods.boosting_hazard`.
"""
