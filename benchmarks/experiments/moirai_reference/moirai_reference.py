"""How tests/data/moirai_tiny was made: a one-layer Moirai (d_model 128, patch sizes 8 and 16) of uni2ts 2.0.0,
its weights perturbed at random and stored in float16 in the released layout, and the encoder states that uni2ts's
own MoiraiModule gives one series, packed as its forecasting packs a series (tests/test_foundation.py compares
MoiraiEmbedder with them). Needs uni2ts, which the tests do not:

    python benchmarks/experiments/moirai_reference/moirai_reference.py tests/data/moirai_tiny
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import save_file
from uni2ts.common.torch_util import packed_attention_mask
from uni2ts.distribution import StudentTOutput
from uni2ts.model.moirai.module import MoiraiModule

torch.manual_seed(0)
m = MoiraiModule(
    distr_output=StudentTOutput(),
    d_model=128,
    num_layers=1,
    patch_sizes=(8, 16),
    max_seq_len=512,
    attn_dropout_p=0.0,
    dropout_p=0.0,
).eval()
with torch.no_grad():
    for p in m.parameters():
        p.add_(0.1 * torch.randn_like(p))
        p.copy_(p.half().float())  # stored in float16: the reference runs on the stored values
folder = Path(sys.argv[1])
folder.mkdir(parents=True, exist_ok=True)
keep = {k: v.half().contiguous() for k, v in m.state_dict().items() if not k.startswith("param_proj")}
save_file(keep, str(folder / "model.safetensors"))
(folder / "config.json").write_text(
    json.dumps(
        {
            "d_model": 128,
            "num_layers": 1,
            "patch_sizes": [8, 16],
            "max_seq_len": 512,
            "attn_dropout_p": 0.0,
            "dropout_p": 0.0,
            "scaling": True,
        }
    )
    + "\n"
)
x = np.random.default_rng(0).normal(3, 2, 80).astype(np.float32)
x[:20] = np.nan
x[37] = np.nan
x[48:64] = np.nan
P, n = 16, 5
vals = torch.tensor(np.nan_to_num(x)).reshape(1, n, P)
obs = torch.tensor(~np.isnan(x)).reshape(1, n, P)
pad = torch.zeros(80, dtype=torch.bool)
pad[:20] = True
sample_id = (~pad).reshape(n, P).any(-1).int()[None]
time_id = (obs.any(-1).cummax(-1).values.cumsum(-1) - 1).clamp(min=0)
target = torch.nn.functional.pad(vals, (0, 16 - P))
observed = torch.nn.functional.pad(obs, (0, 16 - P))
variate = torch.zeros(1, n, dtype=torch.long)
pred = torch.zeros(1, n, dtype=torch.bool)
psize = torch.full((1, n), P)
with torch.no_grad():
    loc, scale = m.scaler(target, observed * ~pred.unsqueeze(-1), sample_id, variate)
    out = m.encoder(
        m.in_proj((target - loc) / scale, psize), packed_attention_mask(sample_id), time_id=time_id, var_id=variate
    )
np.savez(folder / "reference.npz", series=x, states=out[0].numpy())
