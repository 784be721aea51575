"""Run-time settings the gallery examples share, named by string in ``conf.py``."""


def one_torch_thread(gallery_conf, fname):
    """Run each example on one torch thread, so that its printed scores are the same on every machine."""
    import torch

    torch.set_num_threads(1)
