"""Benchmark drivers behind the ``hepa`` command: protocol, sweep, results, cache, report, speed, memory.

Every file they write is named by an argument (the command-line defaults lie
in the current directory); nothing is written relative to the package.
"""
