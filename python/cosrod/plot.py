"""matplotlib helpers (optional: apt-get install python3-matplotlib)."""
import numpy as np


def centerline(res, times=None, rod=0, ax=None, axes=None, **kw):
    """Plot the centerline of rod `rod` at the output times closest to
    `times` (default: 6 times spread over the run), projected on the two
    coordinates in `axes` (e.g. (1, 2) for y-z; default: the two with the
    largest range).  Returns the matplotlib Axes."""
    import matplotlib.pyplot as plt

    r = res.rods[rod]
    x = r.centerline
    if times is None:
        idx = np.unique(np.linspace(0, len(res.t) - 1, 6).round().astype(int))
    else:
        idx = [int(np.argmin(np.abs(res.t - t))) for t in np.atleast_1d(times)]
    if axes is None:
        span = x.reshape(-1, 3).max(axis=0) - x.reshape(-1, 3).min(axis=0)
        axes = tuple(sorted(np.argsort(span)[-2:]))
    if ax is None:
        ax = plt.figure().add_subplot()
    a, b = axes
    for i in idx:
        ax.plot(x[i, :, a], x[i, :, b], marker=".", label=f"t = {res.t[i]:.3g} s", **kw)
    ax.set_xlabel("xyz"[a] + " [m]")
    ax.set_ylabel("xyz"[b] + " [m]")
    ax.set_aspect("equal", adjustable="datalim")
    ax.legend(fontsize="small")
    return ax


def tip(res, rod=0, ax=None, **kw):
    """Tip coordinates of rod `rod` over time."""
    import matplotlib.pyplot as plt

    if ax is None:
        ax = plt.figure().add_subplot()
    x = res.rods[rod].tip
    for k in range(3):
        ax.plot(res.t, x[:, k], label="xyz"[k], **kw)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("tip [m]")
    ax.legend()
    return ax


def sweep(df, x, y, hue=None, ax=None, **kw):
    """A study's metric y against parameter x (cosrod.sweep's DataFrame),
    one line per value of `hue` (a parameter; a colour scale with a colour bar
    when it has more than 8 values); runs whose status is not "ok" are left
    out and counted in the title.  Returns the matplotlib Axes."""
    import matplotlib.pyplot as plt

    if ax is None:
        ax = plt.figure().add_subplot()
    ok = df[df["status"] == "ok"] if "status" in df else df
    nbad = len(df) - len(ok)
    if hue is None:
        d = ok.sort_values(x)
        if d[x].is_unique:
            ax.plot(d[x], d[y], marker="o", **kw)
        else:
            ax.scatter(d[x], d[y], **kw)
    else:
        levels = sorted(ok[hue].unique(), key=lambda v: (isinstance(v, str), v))
        if len(levels) > 8 and ok[hue].dtype.kind in "fiu":
            sc = ax.scatter(ok[x], ok[y], c=ok[hue], **kw)
            ax.figure.colorbar(sc, ax=ax, label=hue)
        else:
            for v in levels:
                d = ok[ok[hue] == v].sort_values(x)
                ax.plot(d[x], d[y], marker="o", label=f"{hue} = {v:.4g}" if isinstance(v, float) else f"{hue} = {v}",
                        **kw)
            ax.legend(fontsize="small")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if nbad:
        ax.set_title(f"{nbad} run(s) not ok, not shown", fontsize="small")
    return ax
