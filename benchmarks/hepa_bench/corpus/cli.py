"""``hepa-bench corpus build|info|pretrain``: the pretraining corpus of the registry's training windows.

``build`` writes the shards and ``manifest.json`` of :mod:`hepa_bench.corpus.shards`
into ``--output`` (default: ``corpus`` beside the data home; never inside
the repository); ``info`` prints what a corpus holds, per family and
shard; ``pretrain`` trains one encoder on the corpus without the
``--exclude`` families, in chunks of epochs with a checkpoint after each,
resuming from the last one when started again
(:mod:`hepa_bench.corpus.pretrain`).
"""

from pathlib import Path

import torch

from hepa_sklearn.datasets import get_data_home

from ..results import command_line, environment
from .files import one_line
from .shards import MANIFEST, build_corpus, corpus_windows, read_manifest, registry_families

__all__ = ["add_arguments", "info_text", "run"]

# HEPAPretrainer parameters that `corpus pretrain` passes on when given: (option type, choices)
PRETRAINER_OPTIONS = {
    "d_model": (int, None),
    "n_layers": (int, None),
    "n_heads": (int, None),
    "patch_size": (int, None),
    "dropout": (float, None),
    "tokens": (str, ("channel", "univariate")),
    "norm": (str, ("revin", "global", "none")),
    "K": (int, None),
    "regularizer_weight": (float, None),
    "regularizer": (str, ("sigreg", "vicreg")),
    "target_weights": (str, ("shared", "ema")),
    "cuts_per_window": (int, None),
    "batch_size": (int, None),
    "lr": (float, None),
    "weight_decay": (float, None),
    "precision": (str, None),
}


def _build_arguments(parser):
    parser.add_argument("--output", default=None, help="corpus folder (default: 'corpus' beside the data home)")
    parser.add_argument(
        "--families",
        nargs="+",
        default=None,
        metavar="FAMILY",
        help=f"families to build (default all): {', '.join(registry_families())}",
    )
    parser.add_argument(
        "--simulated-share", type=float, default=0.0, help="share of simulated fleet windows in [0, 1) (default 0)"
    )
    parser.add_argument("--window", type=int, default=None, help="window length (default: each dataset's own)")
    parser.add_argument("--stride", type=int, default=None, help="window stride (default: each dataset's own)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the seeded unit splits (C-MAPSS)")
    parser.add_argument("--data-home", default=None, help="folder of the datasets (default: $HEPA_DATA_HOME)")
    parser.add_argument("--overwrite", action="store_true", help="replace a corpus already in --output")


def _pretrain_arguments(parser):
    parser.add_argument("--corpus", required=True, help="corpus folder (hepa-bench corpus build)")
    parser.add_argument(
        "--exclude", nargs="*", default=[], metavar="FAMILY", help="families (or datasets of one) left out"
    )
    parser.add_argument("--checkpoint-dir", required=True, help="folder of the checkpoints (resumed from)")
    parser.add_argument("--chunk-epochs", type=int, default=1, help="corpus epochs between checkpoints")
    parser.add_argument("--max-epochs", type=int, default=10, help="corpus epochs of the whole run")
    parser.add_argument("--max-chunks", type=int, default=None, help="end this call after this many chunks")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--windows-per-piece", type=int, default=1024, help="windows per training call")
    parser.add_argument(
        "--max-channels", type=int, default=None, help="channels each piece reads at most, drawn per piece"
    )
    parser.add_argument(
        "--window-share", type=float, default=1.0, help="share of each shard's windows read, drawn once (default 1)"
    )
    group = parser.add_argument_group("pretrainer parameters (default: the library's, tokens='univariate')")
    for name, (kind, choices) in PRETRAINER_OPTIONS.items():
        group.add_argument("--" + name.replace("_", "-"), dest=name, type=kind, choices=choices, default=None)


def add_arguments(parser):
    actions = parser.add_subparsers(dest="corpus_command", required=True)
    _build_arguments(actions.add_parser("build", help="write the corpus shards and manifest.json"))
    info = actions.add_parser("info", help="what a corpus holds, per family and shard")
    info.add_argument("folder", help="corpus folder")
    info.add_argument("--verify", action="store_true", help="check every shard's SHA-256")
    _pretrain_arguments(actions.add_parser("pretrain", help="resumable pretraining, families left out"))


def info_text(manifest, *, verify=False):
    """The ``corpus info`` report of a loaded manifest: shards, totals per family, datasets left out."""
    lines = [f"corpus {manifest['root']}: {manifest['n_windows']} windows, built {manifest['created']}"]
    if manifest.get("command"):
        lines.append(f"command: {manifest['command']}")
    lines.append(f"{'family':<10} {'dataset':<12} {'windows':>8} {'channels':>8} {'length':>6} {'stride':>6}  units")
    totals = {}
    for shard in manifest["shards"]:
        totals[shard["family"]] = totals.get(shard["family"], 0) + shard["n_windows"]
        lines.append(
            f"{shard['family']:<10} {shard['dataset']:<12} {shard['n_windows']:>8} {shard['n_channels']:>8} "
            f"{shard['window_length']:>6} {shard['stride']:>6}  {len(shard['units'])}"
        )
    lines.append("windows per family: " + ", ".join(f"{family} {n}" for family, n in totals.items()))
    for item in manifest.get("skipped", []):
        lines.append(f"left out: {item['dataset']} ({item['family']}): {item['reason']}")
    if verify:
        for _ in corpus_windows(manifest, verify=True):
            pass
        lines.append(f"all {len(manifest['shards'])} shards match their SHA-256")
    return "\n".join(lines)


def _build_command(args):
    """The ``hepa-bench corpus build`` command of ``args``, every option given (paths made portable)."""
    words = ["corpus", "build"]
    for option in ("output", "families", "simulated_share", "window", "stride", "seed", "data_home"):
        value = getattr(args, option)
        if value is not None:
            words += ["--" + option.replace("_", "-"), *map(str, value if isinstance(value, list) else [value])]
    return command_line(words)


def _build(args):
    output = args.output or str(Path(get_data_home(args.data_home)).parent / "corpus")
    if (Path(output) / MANIFEST).exists() and not args.overwrite:
        raise SystemExit(f"hepa-bench corpus build: {output} already holds a corpus; pass --overwrite to replace it.")
    for name, value in (("--window", args.window), ("--stride", args.stride)):
        if value is not None and value < 1:
            raise SystemExit(f"hepa-bench corpus build: {name} must be an integer >= 1, got {value}.")
    manifest = build_corpus(
        output,
        families=args.families,
        data_home=args.data_home,
        seed=args.seed,
        window=args.window,
        stride=args.stride,
        simulated_share=args.simulated_share,
        command=_build_command(args),
        versions=environment("cpu")["versions"],
        log=lambda message: print(message, flush=True),
    )
    print(info_text(manifest))


def _pretrain(args):
    from .pretrain import pretrain_corpus  # torch training code, only for this command

    if args.threads:
        torch.set_num_threads(args.threads)
    params = {name: getattr(args, name) for name in PRETRAINER_OPTIONS if getattr(args, name) is not None}
    _, state = pretrain_corpus(
        args.corpus,
        checkpoint_dir=args.checkpoint_dir,
        exclude=args.exclude,
        chunk_epochs=args.chunk_epochs,
        max_epochs=args.max_epochs,
        max_chunks=args.max_chunks,
        seed=args.seed,
        device=args.device,
        windows_per_piece=args.windows_per_piece,
        max_channels=args.max_channels,
        window_share=args.window_share,
        log=lambda message: print(message, flush=True),
        **params,
    )
    print(f"{state['epochs']} of {state['max_epochs']} corpus epochs done; checkpoint {state['files']['pretrainer']}")


def run(args):
    handlers = {
        "build": _build,
        "info": lambda a: print(info_text(read_manifest(a.folder), verify=a.verify)),
        "pretrain": _pretrain,
    }
    try:
        handlers[args.corpus_command](args)
    except (ValueError, OSError) as exc:  # a file that cannot be read or written is named in one line
        raise SystemExit(f"hepa-bench corpus {args.corpus_command}: {one_line(exc)}") from None
