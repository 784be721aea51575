"""The pretraining corpus: ``hepa-bench corpus build|info|pretrain``.

- :mod:`~hepa_bench.corpus.shards`: the registry's training windows, one shard per dataset, and the manifest;
- :mod:`~hepa_bench.corpus.files`: atomic writes, SHA-256, folders kept out of the repository;
- :mod:`~hepa_bench.corpus.pretrain`: resumable pretraining on a corpus with families left out;
- :mod:`~hepa_bench.corpus.cli`: the command.
"""
