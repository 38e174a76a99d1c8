"""The picture of a run (`dekal simulate --plot FILE`): score histograms and win rates.

Left, one step histogram of final scores per seat (S2; a match's totals, S4); right, each
seat's win rate with its 95% confidence interval as an error bar, and the first player's.
The title says the run: games, players, variant, first-player rule, seed (plot_title).

The histogram's bins are chosen from the data (score_bins): Freedman–Diaconis width
2·IQR/n^(1/3), rounded up to whole points, and never more than MAX_BINS bins, so a
hundred games are not drawn as a comb of one-point spikes and a million games keep
one-point detail.
matplotlib draws it with its Agg backend (no display needed), imported only here; an SVG is
written without a date, so the same run draws the same file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

from dekal._atomic import atomic_path
from dekal.extras import needed
from dekal.simulation.stats import Estimate, Summary, quantile

FORMATS = (".svg", ".png")
PLOTS = "plots (--plot)"
"""What needs matplotlib (the `sim` extra)."""
MAX_BINS = 40
VARIANT_RULE = {"slide": "P1", "eject": "P2"}
FIRST_RULE = {"lowest": "F1–F2", "chosen": "F3"}


def plot_title(
    games: int, players: int, variant: str, first: str, seed: int, match: int | None = None
) -> str:
    """'2,000 games · 2 players · slide (P1) · first: lowest (F1–F2) · seed 1'."""
    kind = f"matches to {match} (S4)" if match is not None else "games"
    return (
        f"{games:,} {kind} · {players} players · {variant} ({VARIANT_RULE.get(variant, '?')}) · "
        f"first: {first} ({FIRST_RULE.get(first, '?')}) · seed {seed}"
    )


def score_bins(histograms: list[Mapping[int, int]]) -> list[int]:
    """Integer bin edges shared by every seat's histogram (the module docstring says how)."""
    pooled: dict[int, int] = {}
    for histogram in histograms:
        for value, count in histogram.items():
            pooled[value] = pooled.get(value, 0) + count
    low, high = min(pooled), max(pooled)
    n = sum(pooled.values())
    spread = quantile(pooled, 0.75) - quantile(pooled, 0.25)
    width = max(1, math.ceil(2 * spread / n ** (1 / 3)), math.ceil((high - low + 1) / MAX_BINS))
    return list(range(low, high + width + 1, width))


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

    figure, (scores, wins) = plt.subplots(1, 2, figsize=(11, 4.4), width_ratios=(3, 2))
    edges = score_bins([seat.scores for seat in summary.seats])
    try:
        for seat in summary.seats:
            values = sorted(seat.scores)
            weights = [seat.scores[v] for v in values]
            scores.hist(
                values,
                bins=edges,
                weights=weights,
                histtype="step",
                label=f"seat {seat.seat} ({seat.bot})",
            )
        scores.set_xlabel("match total (S4)" if match else "final score (S2)")
        width = edges[1] - edges[0]
        counted = "matches" if match else "games"
        scores.set_ylabel(counted if width == 1 else f"{counted} per {width} points")
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
        with atomic_path(path) as temporary:  # whole or not at all (NotWritten: an OSError)
            figure.savefig(temporary, format=suffix[1:], metadata=metadata)
    finally:
        plt.close(figure)
