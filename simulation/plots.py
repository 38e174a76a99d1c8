"""The picture of a run (`dekal simulate --plot FILE`): score histograms and win rates.

Left, one step histogram of final scores per seat (S2; a match's totals, S4); right, each
seat's win rate with its 95% confidence interval as an error bar, and the first player's.
matplotlib draws it with its Agg backend (no display needed), imported only here; an SVG is
written without a date, so the same run draws the same file.
"""

from __future__ import annotations

from pathlib import Path

from dekal.extras import needed
from dekal.simulation.stats import Estimate, Summary

FORMATS = (".svg", ".png")
PLOTS = "plots (--plot)"
"""What needs matplotlib (the `sim` extra)."""


def _error_bar(estimate: Estimate) -> tuple[float, float]:
    return estimate.value - estimate.low, estimate.high - estimate.value


def write_plot(summary: Summary, path: Path, title: str, match: bool = False) -> None:
    """Draw `summary` into `path` (.svg or .png, by its suffix); `match`: scores are totals."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"{path.name}: a plot is .svg or .png")
    with needed(PLOTS):
        import matplotlib

        matplotlib.use("Agg")
        matplotlib.rcParams["svg.hashsalt"] = "dekal"  # the SVG's element ids, the same every run
        import matplotlib.pyplot as plt

    figure, (scores, wins) = plt.subplots(1, 2, figsize=(11, 4.2), width_ratios=(3, 2))
    try:
        for seat in summary.seats:
            values = sorted(seat.scores)
            weights = [seat.scores[v] for v in values]
            scores.hist(
                values,
                bins=range(min(values), max(values) + 2),
                weights=weights,
                histtype="step",
                label=f"seat {seat.seat} ({seat.bot})",
            )
        scores.set_xlabel("match total (S4)" if match else "final score (S2)")
        scores.set_ylabel("games")
        scores.legend(fontsize="small")

        labels = [f"seat {s.seat}\n{s.bot}" for s in summary.seats] + ["first\nplayer"]
        estimates = [s.win_rate for s in summary.seats] + [summary.first_player_win_rate]
        bars = [_error_bar(e) for e in estimates]
        wins.bar(
            range(len(estimates)),
            [e.value for e in estimates],
            yerr=([low for low, _ in bars], [high for _, high in bars]),
            capsize=4,
            color=["tab:blue"] * len(summary.seats) + ["tab:orange"],
        )
        wins.set_xticks(range(len(estimates)), labels, fontsize="small")
        wins.set_ylabel("win rate (95% CI)")
        wins.set_ylim(0, 1)
        figure.suptitle(title)
        figure.tight_layout()
        metadata = {"Date": None} if suffix == ".svg" else {}
        figure.savefig(path, format=suffix[1:], metadata=metadata)
    finally:
        plt.close(figure)
