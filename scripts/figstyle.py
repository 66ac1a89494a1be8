"""One style for every figure fcsim's scripts draw (make figures, issue 30): sizes, grid, line
widths, and a bounding box that never clips a label. Each plotting script calls apply() right
after choosing matplotlib's Agg back end; save() writes PNG and PDF side by side."""
import os

import matplotlib


def apply():
    # a PDF records its creation date unless SOURCE_DATE_EPOCH is set: with it the same figure is
    # the same file, so a redraw does not change the committed PDFs
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    matplotlib.rcParams.update({
        "figure.dpi": 100,
        "savefig.dpi": 150,
        "savefig.bbox": "tight",      # nothing clipped: labels and legends outside the axes stay
        "savefig.pad_inches": 0.05,
        "font.size": 9,
        "axes.titlesize": 10,
        "axes.labelsize": 9,
        "legend.fontsize": 8,
        "xtick.labelsize": 8,
        "ytick.labelsize": 8,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "lines.linewidth": 1.3,
        "lines.markersize": 4,
        "axes.prop_cycle": matplotlib.cycler(color=["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f"]),
        "pdf.fonttype": 42,
    })


def save(fig, prefix):
    """prefix.png and prefix.pdf; returns both paths."""
    out = []
    for ext in ("png", "pdf"):
        fig.savefig(prefix + "." + ext)
        out.append(prefix + "." + ext)
    return out
