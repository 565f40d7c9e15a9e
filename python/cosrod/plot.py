# SPDX-License-Identifier: Apache-2.0
"""matplotlib helpers (optional: apt-get install python3-matplotlib); animate
(MP4 with ffmpeg, GIF with python3-pil)."""
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


def animate(res, path, rod=None, fps=25, duration=None, axes=None, dpi=100):
    """Render the rods' motion to `path`: "*.mp4" (matplotlib's ffmpeg
    writer; apt-get install ffmpeg) or "*.gif" (Pillow; python3-pil).  The
    centerlines are projected on the two coordinates in `axes` (default: the
    two with the largest range over the run), equal aspect, fixed limits, the
    tip's path so far dotted.  rod: one rod index or None (all).  duration:
    seconds of video (default: real time, at most 20 s).  Returns path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import animation

    rods = res.rods if rod is None else [res.rods[rod]]
    t = res.t
    allx = np.concatenate([r.centerline.reshape(-1, 3) for r in rods])
    lo, hi = allx.min(axis=0), allx.max(axis=0)
    if axes is None:
        axes = tuple(sorted(np.argsort(hi - lo)[-2:]))
    a, b = axes
    span = max(hi[a] - lo[a], hi[b] - lo[b], 1e-9)
    pad = 0.08 * span
    if duration is None:
        duration = min(max(float(t[-1] - t[0]), 1.0), 20.0)
    nframes = max(2, int(round(duration * fps)))
    idx = np.unique(np.round(np.linspace(0, len(t) - 1, nframes)).astype(int))
    fig, ax = plt.subplots(figsize=(6, 6 * min(max((hi[b] - lo[b] + 2 * pad) / (hi[a] - lo[a] + 2 * pad), 0.4), 1.6)))
    ax.set_xlim(lo[a] - pad, hi[a] + pad)
    ax.set_ylim(lo[b] - pad, hi[b] + pad)
    ax.set_aspect("equal")
    ax.set_xlabel("xyz"[a] + " [m]")
    ax.set_ylabel("xyz"[b] + " [m]")
    lines = [ax.plot([], [], "-o", ms=2, lw=2, label=r.name)[0] for r in rods]
    trails = [ax.plot([], [], ":", lw=1, color=ln.get_color())[0] for ln, r in zip(lines, rods)]
    label = ax.set_title("")
    if len(rods) > 1:
        ax.legend(fontsize="small")

    def draw(k):
        i = idx[k]
        for ln, tr, r in zip(lines, trails, rods):
            x = r.centerline[i]
            ln.set_data(x[:, a], x[:, b])
            tr.set_data(r.centerline[: i + 1, -1, a], r.centerline[: i + 1, -1, b])
        label.set_text(f"t = {t[i]:.3f} s")
        return lines + trails + [label]

    anim = animation.FuncAnimation(fig, draw, frames=len(idx), blit=False)
    ext = str(path).lower().rsplit(".", 1)[-1]
    if ext == "gif":
        writer = animation.PillowWriter(fps=fps)
    elif ext == "mp4":
        if not animation.FFMpegWriter.isAvailable():
            plt.close(fig)
            raise RuntimeError("cosrod.plot.animate: MP4 needs ffmpeg (apt-get install ffmpeg); or write a .gif")
        writer = animation.FFMpegWriter(fps=fps)
    else:
        plt.close(fig)
        raise ValueError(f"cosrod.plot.animate: {path}: write .mp4 or .gif")
    anim.save(str(path), writer=writer, dpi=dpi)
    plt.close(fig)
    return path


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
