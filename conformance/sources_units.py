"""Suite v1's single-grid cases: score (S1, S2) and push (P1, P2). APPEND ONLY."""

from __future__ import annotations

from dekal.conformance.source_types import (
    ForbiddenPushBlock,
    PushBlock,
    PushCase,
    ScoreBlock,
    ScoreCase,
)

SCORE: list[ScoreCase | ScoreBlock] = [
    ScoreCase("score-0001", "1111/2222/3333/4444", "every row of four equal cards cancels"),
    ScoreCase("score-0002", "1234/5678/9T12/3456", "no two equal cards touch: nothing cancels"),
    ScoreCase(
        "score-0003", "1212/2121/1212/2121", "a checkerboard: equal cards touch only by corners"
    ),
    ScoreCase(
        "score-0004",
        "9993/4461/TT27/11TT",
        "the worked example of source 001 (Léa: 19 points, 5 cards)",
    ),
    ScoreCase("score-0005", "5512/3467/89T1/2346", "one horizontal pair at a1-b1"),
    ScoreCase("score-0006", "5123/5467/89T1/2346", "one vertical pair at a1-a2"),
    ScoreCase(
        "score-0007", "5123/4567/89T1/2346", "a pair only by a corner (a1, b2) does not cancel"
    ),
    ScoreCase(
        "score-0008",
        "7771/2347/5687/9T27",
        "a group of three in a row all cancels, not just a pair",
    ),
    ScoreCase("score-0009", "7123/7456/7789/1234", "an L-shaped group of four cancels whole"),
    ScoreCase("score-0010", "TTTT/TTTT/TTTT/TTTT", "sixteen tens: one group, score 0"),
    ScoreCase(
        "score-0011", "T9T9/9T9T/T9T9/9T9T", "a checkerboard of 9 and T: score 152, 16 cards"
    ),
    ScoreCase("score-0012", "1234/1234/1234/1234", "four vertical columns of equal cards"),
    ScoreCase("score-0013", "3333/3113/3113/3333", "a ring around a square: two groups"),
    ScoreCase("score-0014", "1231/2312/3123/1231", "diagonal stripes never cancel"),
    ScoreCase(
        "score-0015", "6226/2662/2662/6226", "pairs at the centre and the edges, corners apart"
    ),
    ScoreCase("score-0016", "8T88/T8T8/88T8/T8T8", "a snake-shaped group winding through the grid"),
    ScoreCase("score-0017", "TT12/3456/789T/123T", "tens at opposite corners: two pairs"),
    ScoreCase("score-0018", "5234/1678/9T23/4555", "a corner group of four at the bottom right"),
    ScoreCase("score-0019", "1234/5556/7891/2345", "a T-shaped group"),
    ScoreCase("score-0020", "4444/4334/4334/4444", "a frame of twelve 4s around a square of 3s"),
    ScoreCase("score-0021", "1T1T/1T1T/1T1T/1T1T", "vertical stripes: each column one group"),
    ScoreCase("score-0022", "9999/9999/9999/9998", "fifteen 9s and one 8: the 8 alone stays"),
    ScoreCase("score-0023", "1111/1111/1111/111T", "fifteen 1s and a ten: ten points, one card"),
    ScoreCase("score-0024", "2345/6789/T234/5678", "a permutation with no equal neighbours"),
    ScoreCase("score-0025", "5T5T/T5T5/5T5T/T5T5", "the highest checkerboard: score 120, 16 cards"),
    ScoreBlock(101, 120, "12", 1, "random grid over two values"),
    ScoreBlock(221, 80, "123", 2, "random grid over three values"),
    ScoreBlock(301, 60, "19T", 3, "random grid over 1, 9 and ten"),
    ScoreBlock(361, 60, "123456789T", 4, "random grid over all ten values"),
]


PUSH: list[PushCase | PushBlock | ForbiddenPushBlock] = [
    PushCase("push-0001", "5T32/1.44/9999/TT11", "L", "7", "slide", "the example of the CLI help"),
    PushCase(
        "push-0002",
        ".234/5678/9T12/3456",
        "R",
        "T",
        "slide",
        "corner hole a1 from the right: row 1 shifts left",
    ),
    PushCase(
        "push-0003",
        ".234/5678/9T12/3456",
        "B",
        "T",
        "slide",
        "corner hole a1 from the bottom: column a shifts up",
    ),
    PushCase("push-0004", "1234/5678/9T12/345.", "L", "1", "slide", "corner hole d4 from the left"),
    PushCase("push-0005", "1234/5678/9T12/345.", "T", "1", "slide", "corner hole d4 from the top"),
    PushCase(
        "push-0006",
        "1234/5678/9T12/345.",
        "L1",
        "9",
        "eject",
        "eject along full row 1: d1 drops into the hole",
    ),
    PushCase(
        "push-0007",
        "1234/5678/9T12/345.",
        "B1",
        "9",
        "eject",
        "eject up full column a: a1 drops into the hole",
    ),
    PushCase(
        "push-0008",
        "1.34/5678/9T12/3456",
        "T3",
        "2",
        "eject",
        "eject down column c: c4 drops into the hole at b1",
    ),
    PushCase(
        "push-0009",
        "1.34/5678/9T12/3456",
        "R1",
        "2",
        "eject",
        "eject along the hole's own row behaves as a slide",
    ),
    PushCase(
        "push-0010",
        "1.34/5678/9T12/3456",
        "T",
        "2",
        "slide",
        "edge hole b1 from the top would drop straight in",
        refused="P1",
    ),
    PushCase(
        "push-0011",
        "1.34/5678/9T12/3456",
        "T2",
        "2",
        "eject",
        "eject straight into the hole is forbidden too",
        refused="P2",
    ),
    PushCase(
        "push-0012",
        "1.34/5678/9T12/3456",
        "L2",
        "2",
        "slide",
        "slide pushes only the hole's row or column",
        refused="P1",
    ),
    PushCase(
        "push-0013",
        "1.34/5678/9T12/3456",
        "L",
        "2",
        "eject",
        "an eject push must name its line",
        refused="P2",
    ),
    PushCase(
        "push-0014",
        "1234/5678/9T12/3456",
        "L",
        "2",
        "slide",
        "a grid without a hole takes no push",
        refused="T4",
    ),
    PushCase(
        "push-0015",
        "1.34/5678/9T12/3456",
        "L1",
        "2",
        "slide",
        "slide with the hole's own line named is the same push as L",
    ),
    PushBlock(101, "slide", "123456789T", 11),
    PushBlock(201, "eject", "123456789T", 12),
    ForbiddenPushBlock("P1-neg", 101, "slide", 13),
    ForbiddenPushBlock("P2-neg", 101, "eject", 14),
]

PUSHES_VARIANTS = (("pushes-0001", "slide"), ("pushes-0017", "eject"))
"""Legal pushes for each of the 16 hole positions, per variant, IDs from the given one."""
