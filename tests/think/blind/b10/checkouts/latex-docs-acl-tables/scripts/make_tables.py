"""Render results/*.json into the LaTeX tables included by paper.tex."""
import json
import sys
from pathlib import Path

SYSTEMS = ["baseline", "ours-small", "ours-large"]
METRICS = ["bleu", "chrf", "comet"]


def fmt(x):
    return f"{x:.1f}"


def render(rows):
    lines = [r"\begin{tabular}{l" + "r" * len(METRICS) + "}", r"\toprule",
             "System & " + " & ".join(m.upper() for m in METRICS) + r" \\", r"\midrule"]
    for name in SYSTEMS:
        r = rows[name]
        lines.append(name + " & " + " & ".join(fmt(r[m]) for m in METRICS) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)


def main(d):
    rows = {p.stem: json.loads(p.read_text()) for p in Path(d).glob("*.json")}
    print(render(rows))


if __name__ == "__main__":
    main(sys.argv[1])
