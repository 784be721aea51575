"""Run-time settings the gallery examples share, named by string in ``conf.py``."""


def one_torch_thread(gallery_conf, fname):
    """Run each example on one torch thread, so that its printed scores are the same on every machine."""
    import torch

    torch.set_num_threads(1)


def executed_first(filename):
    """Sort key of the gallery: the examples run at build time (``plot_*.py``) first, then the scripts shown
    without running, each group by file name."""
    import os

    name = os.path.basename(filename)
    return (not name.startswith("plot_"), name)
