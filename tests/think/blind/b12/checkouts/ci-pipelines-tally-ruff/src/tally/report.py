from collections import defaultdict


def summarize(rows):
    groups = defaultdict(lambda: {"count": 0, "sum": 0.0})
    total = 0.0
    for row in rows:
        try:
            amount = float(row["amount"])
        except:
            continue
        g = groups[row["category"]]
        g["count"] += 1
        g["sum"] += amount
        total += amount
    return dict(groups)
