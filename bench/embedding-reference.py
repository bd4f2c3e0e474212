#!/usr/bin/python3
"""Reference values of embedding_metrics() from dgm-eval's own functions.

Runs dgm-eval's metric functions (layer6ai-labs/dgm-eval, dgm_eval/metrics/:
fd.py, mmd.py, vendi.py, authpct.py, sw.py, ct.py) on the fixed data set
tests/testthat/fixtures/embedding-reference.csv and prints the numbers that
tests/testthat/test-embedding.R asserts to a relative 1e-6.

    /usr/bin/python3 bench/embedding-reference.py /path/to/dgm-eval
    /usr/bin/python3 bench/embedding-reference.py /path/to/dgm-eval --time 10000

With --time N: the seconds of each function on N x 2,048 rows per set
(real N(0, I), generated N(0.5 e_1, I), a held-out set of 5,000 rows for
ct), called one by one as dgm-eval's command line calls them (KID: 100
subsets of 1,000 rows; fd_inf: its 15 FDs), for bench/embedding.R's table of
the same data.

The modules are executed from their source files as they are. Two of their
imports may be missing on a machine without a GPU stack: tqdm (progress
bars; a pass-through stands in) and torch, which compute_authpct() uses for
torch.cdist, fill_diagonal_ and min on float32 tensors; a small numpy
stand-in with the same float32 arithmetic is put in its place, so the
function's own code runs unchanged. numpy, scipy and scikit-learn are
Debian's (python3-numpy, python3-scipy, python3-sklearn).
"""
import collections
import os
import sys
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "tests", "testthat", "fixtures",
                       "embedding-reference.csv")


def tqdm_standin():
    mod = types.ModuleType("tqdm")

    class tqdm:
        def __init__(self, iterable=None, total=None, desc=None, **kw):
            self.iterable = iterable

        def __iter__(self):
            return iter(self.iterable)

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def update(self, *a):
            pass

        def set_postfix(self, *a, **kw):
            pass

    mod.tqdm = tqdm
    return mod


def torch_standin():
    """The torch calls of compute_authpct(), on float32 numpy arrays."""
    mod = types.ModuleType("torch")
    MinResult = collections.namedtuple("MinResult", ["values", "indices"])

    class Tensor:
        def __init__(self, a):
            self.a = a

        def fill_diagonal_(self, v):
            np.fill_diagonal(self.a, v)
            return self

        def min(self, axis=None, dim=None):
            ax = axis if axis is not None else dim
            return MinResult(Tensor(self.a.min(axis=ax)),
                             Tensor(self.a.argmin(axis=ax)))

        def __getitem__(self, idx):
            return Tensor(self.a[idx.a if isinstance(idx, Tensor) else idx])

        def __lt__(self, other):
            return Tensor(self.a < other.a)

        def __len__(self):
            return len(self.a)

        def __mul__(self, other):
            return Tensor(self.a * other)

        __rmul__ = __mul__

        def __truediv__(self, other):
            return Tensor(np.float32(self.a / other))

        def item(self):
            return self.a.item()

    class no_grad:
        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

    def cdist(x1, x2):
        # torch.cdist's default for more than 25 rows: squared norms and
        # one float32 matrix product, clamped at 0
        a = x1.a.astype(np.float32)
        b = x2.a.astype(np.float32)
        d2 = ((a * a).sum(axis=1)[:, None] + (b * b).sum(axis=1)[None, :]
              - np.float32(2) * (a @ b.T))
        return Tensor(np.sqrt(np.maximum(d2, np.float32(0))))

    mod.Tensor = Tensor
    mod.no_grad = no_grad
    mod.float32 = np.float32
    mod.tensor = lambda x, dtype=None: Tensor(np.asarray(x, dtype=np.float32))
    mod.cdist = cdist
    mod.sum = lambda t: Tensor(t.a.sum())
    return mod


def load(root, name):
    path = os.path.join(root, "dgm_eval", "metrics", name + ".py")
    ns = {"__name__": "dgm_eval.metrics." + name}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), ns)
    return ns


def timings(root, n, d=2048):
    import time
    rng = np.random.default_rng(1)
    real = rng.standard_normal((n, d))
    gen = rng.standard_normal((n, d))
    gen[:, 0] += 0.5
    held = rng.standard_normal((5000, d))
    fd = load(root, "fd")
    mmd = load(root, "mmd")
    vendi = load(root, "vendi")
    auth = load(root, "authpct")
    sw = load(root, "sw")
    ct = load(root, "ct")
    calls = [
        ("fd", lambda: fd["compute_FD_with_reps"](real, gen)),
        ("kid", lambda: mmd["compute_mmd"](real, gen).mean()),
        ("vendi", lambda: vendi["compute_vendi_score"](gen)),
        ("authpct", lambda: auth["compute_authpct"](real, gen)),
        ("ct", lambda: ct["compute_CTscore"](real, held, gen)),
        ("sw_approx", lambda: sw["sw_approx"](real, gen)),
    ]
    total = 0.0
    print("metric seconds")
    for name, f in calls:
        t0 = time.time()
        f()
        sec = time.time() - t0
        total += sec
        print("%s %.2f" % (name, sec))
        if name == "fd":
            t0 = time.time()
            fd["compute_FD_infinity"](real, gen)
            sec = time.time() - t0
            total += sec
            print("fd_inf %.2f" % sec)
    print("total %.2f" % total)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("DGM_EVAL")
    if not root:
        sys.exit("usage: embedding-reference.py /path/to/dgm-eval")
    try:
        import tqdm  # noqa: F401
    except ImportError:
        sys.modules["tqdm"] = tqdm_standin()
    try:
        import torch  # noqa: F401
    except ImportError:
        sys.modules["torch"] = torch_standin()
    if "--time" in sys.argv:
        timings(root, int(sys.argv[sys.argv.index("--time") + 1]))
        return

    raw = np.genfromtxt(FIXTURE, delimiter=",", skip_header=1,
                        dtype=None, encoding="utf-8")
    sets = collections.OrderedDict()
    for row in raw:
        sets.setdefault(row[0].strip('"'), []).append(list(row)[1:])
    sets = {k: np.array(v, dtype=np.float64) for k, v in sets.items()}
    real, held = sets["real"], sets["held"]

    fd = load(root, "fd")
    mmd = load(root, "mmd")
    vendi = load(root, "vendi")
    auth = load(root, "authpct")
    sw = load(root, "sw")

    out = collections.OrderedDict()
    for model in ("gen_a", "gen_b"):
        gen = sets[model]
        out[model] = collections.OrderedDict([
            ("fd", fd["compute_FD_with_reps"](real, gen)),
            ("kid", mmd["compute_polynomial_mmd"](real, gen)),
            ("vendi", vendi["compute_vendi_score"](gen)),
            ("authpct", auth["compute_authpct"](real, gen)),
            ("sw_approx", sw["sw_approx"](real, gen)),
        ])
    # classes of the generated rows for the per-class Vendi: row i (from
    # 0) in class i % 3
    for model in ("gen_a", "gen_b"):
        labels = np.arange(len(sets[model])) % 3
        out[model]["vendi_class"] = vendi["compute_per_class_vendi_scores"](
            sets[model], labels).mean()
    out["real"] = {"vendi": vendi["compute_vendi_score"](real)}
    try:
        ct = load(root, "ct")
        np.random.seed(1)
        for model in ("gen_a", "gen_b"):
            out[model]["ct"] = ct["compute_CTscore"](real, held, sets[model])
    except Exception as e:  # information only, not an equality target
        print("# ct not computed:", e, file=sys.stderr)

    for model, vals in out.items():
        print("%s = c(%s)" % (model, ", ".join(
            "%s = %.17g" % (k, float(v)) for k, v in vals.items())))


if __name__ == "__main__":
    main()
