"""How well ``diagnose`` names learners' mistakes, over random lists, and how long it takes.

    python -m benchmarks.bench_mistakes [--lists 10000] [--seed 1]

Each random list has 3 to 10 results graded 0 to 4 and a random k; a third also have 1 to 3 judged results the
list missed (half of those with the ideal from every judged result, half from the list's own grades); the gain is
linear or exponential, the discount log2(i + 1) or Järvelin and Kekäläinen's with b = 2. Each list is asked for
NDCG@k and for DCG@k. Per mistake and question: the share of the lists where it shows whose number can be told
apart (more than 0.01 from the right number and from every other mistake's), and the share of those that
``diagnose`` names from the number rounded to 2 decimals (goal 98% or more). Also: random wrong numbers (uniform
over 0 to 1 for NDCG, 0 to twice the right DCG for DCG, rounded to 2 decimals, not the right answer) that get any
name (goal 10% or less); right answers (rounded to 2, 3 and 4 decimals) named (goal 0); and the time of one
diagnosis (goal a median of 1 ms or less): of a new question, and of another answer to the same question.

Slips (``reading.read_answer``, the layer above ``diagnose``): on each list, one learner's working of NDCG@k and of
DCG@k written to 2 decimals (each term, DCG, IDCG, the answer) with one slip made in it: one term's last digit
wrong, two neighbouring digits of one value swapped, or a step rounded too early (every term, every log, or DCG and
IDCG to 1 decimal). Of those whose answer is not right: the share read as a concept mistake (goal 5% or less),
and how the rest are read (a slip, unknown). And the catalogue's recall through ``read_answer``: the share of the
told-apart mistakes' numbers (rounded to 2 decimals) it still names (goal 98% or more, overall and NDCG alone).
The day's speed: the time of a fixed loop of plain Python, to compare runs on a machine whose speed drifts.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from benchmarks import percentile
from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching.mistakes import diagnose, forget_questions, numbers, right_number
from ndcg_core.teaching.reading import read_answer
from ndcg_core.teaching.slips import Worked, worked

APART = 0.01  # one unit of the second decimal


def random_list(rng: random.Random) -> ListSpec:
    n = rng.randint(3, 10)
    grades = [rng.randint(0, 4) for _ in range(n)]
    missed = [rng.randint(1, 4) for _ in range(rng.randint(1, 3))] if rng.random() < 1 / 3 else []
    spec = ListSpec.from_grades(
        [f"r{i}" for i in range(n)],
        grades,
        rng.randint(1, n),
        pool=missed,
        top=4,
        scoring=Scoring(gain=rng.choice(["linear", "exponential"]), discount=rng.choice(["log2", "jk"])),
    )
    return spec.with_scoring(ideal="list") if missed and rng.random() < 0.5 else spec


SLIP_KINDS = ("digit", "swap", "rounded")
WRITTEN = 2  # the decimals the slipped workings are written to


def _written(x: float) -> float:
    return round(x, WRITTEN)


def _swapped(x: float, rng: random.Random) -> float | None:
    """``x`` to 2 decimals with two neighbouring digits swapped (not a leading 0, not two equal digits)."""
    text = f"{x:.{WRITTEN}f}"
    spots = [i for i, c in enumerate(text) if c.isdigit()]
    pairs = [
        (a, b)
        for a, b in zip(spots, spots[1:], strict=False)
        if text[a] != text[b] and not (a == spots[0] and text[a] == "0")
    ]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    chars = list(text)
    chars[a], chars[b] = chars[b], chars[a]
    return float("".join(chars))


def slipped_answer(work: Worked, kind: str, rng: random.Random) -> tuple[float, str] | None:
    """A learner's answer to ``work``'s question, each value written to 2 decimals and summed as written, with one
    slip of ``kind`` made, and where it was made (``term``, ``ideal``, ``dcg``, ``idcg``, ``answer``; for a step
    rounded too early ``terms``, ``logs`` or ``sums``); ``None`` where the list leaves no room for it (no term
    above 0, no digits to swap)."""
    terms = [_written(x.term) for x in work.lines]
    ideal = [_written(x.term) for x in work.ideal]
    sums: dict[str, float | None] = {"dcg": None, "idcg": None, "answer": None}
    if kind == "digit":
        where = [("term", i) for i, x in enumerate(terms) if x] + [("ideal", i) for i, x in enumerate(ideal) if x]
        if not where:
            return None
        side, i = rng.choice(where)
        at = side
        row = terms if side == "term" else ideal
        text = f"{row[i]:.{WRITTEN}f}"
        row[i] = float(text[:-1] + rng.choice([d for d in "0123456789" if d != text[-1]]))
    elif kind == "swap":
        names = [("term", i) for i, x in enumerate(terms) if x] + [("ideal", i) for i, x in enumerate(ideal) if x]
        names += [(name, 0) for name in ("dcg", "idcg", "answer") if work.metric == "ndcg" or name == "answer"]
        side, i = rng.choice(names)
        at = side
        if side in ("term", "ideal"):
            row = terms if side == "term" else ideal
            new = _swapped(row[i], rng)
            if new is None:
                return None
            row[i] = new
        else:
            exact = {"dcg": sum(terms), "idcg": sum(ideal), "answer": work.value}[side]
            sums[side] = _swapped(exact, rng)
            if sums[side] is None:
                return None
    else:  # rounded: every term, every log, or the two sums, to 1 decimal
        step = rng.choice(("terms", "logs", "sums") if work.metric == "ndcg" else ("terms", "logs"))
        at = step
        if step == "terms":
            terms, ideal = [round(x, 1) for x in terms], [round(x, 1) for x in ideal]
        elif step == "logs":
            terms = [_written(x.gain / round(x.log, 1)) for x in work.lines]
            ideal = [_written(x.gain / round(x.log, 1)) for x in work.ideal]
        else:
            sums["dcg"], sums["idcg"] = round(sum(terms), 1), round(sum(ideal), 1)
    if sums["answer"] is not None:
        return sums["answer"], at
    top = sums["dcg"] if sums["dcg"] is not None else sum(terms)
    if work.metric == "dcg":
        return _written(top), at
    bottom = sums["idcg"] if sums["idcg"] is not None else sum(ideal)
    return (_written(top / bottom), at) if bottom > 0 else None


def day_speed() -> float:
    """Seconds for a fixed loop of plain Python (best of 3): the machine's speed at the time of the run."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i % 7
        best = min(best, time.perf_counter() - start)
    return best


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor() or platform.machine(),
    )
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--confusion", type=int, default=12, help="how many rows of slips named as mistakes to print")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    speed_before, load_before = day_speed(), os.getloadavg()
    shows: Counter[tuple[str, str]] = Counter()
    apart: Counter[tuple[str, str]] = Counter()
    named: Counter[tuple[str, str]] = Counter()
    random_tries: Counter[str] = Counter()
    random_named: Counter[str] = Counter()
    right_named = right_tries = 0
    slip_tries: Counter[tuple[str, str]] = Counter()
    slip_read: Counter[tuple[str, str, str]] = Counter()
    read_named: Counter[tuple[str, str]] = Counter()
    confused: Counter[tuple[str, str, str, str]] = Counter()
    cold: list[float] = []
    warm: list[float] = []
    started = time.perf_counter()
    for _ in range(args.lists):
        spec = random_list(rng)
        for metric in ("ndcg", "dcg"):
            right = right_number(spec, metric)
            guess = round(rng.uniform(0, 1) if metric == "ndcg" else rng.uniform(0, 2 * right), 2)
            forget_questions()
            start = time.perf_counter()
            found = diagnose(spec, f"{guess:.2f}", metric=metric)  # a new question: its numbers worked out
            cold.append(time.perf_counter() - start)
            if abs(guess - right) > 0.005:
                random_tries[metric] += 1
                random_named[metric] += bool(found)
            for places in (2, 3, 4):
                right_tries += 1
                right_named += bool(diagnose(spec, f"{right:.{places}f}", metric=metric))
            table = numbers(spec, metric=metric)
            for code, number in table.items():
                shows[(metric, code)] += 1
                others = [n for c, n in table.items() if c != code]
                if abs(number - right) <= APART or any(abs(number - n) <= APART for n in others):
                    continue
                apart[(metric, code)] += 1
                start = time.perf_counter()
                found = diagnose(spec, f"{number:.2f}", metric=metric)  # another answer to the same question
                warm.append(time.perf_counter() - start)
                named[(metric, code)] += code in [d.code for d in found]
                reading = read_answer(spec, f"{number:.2f}", metric=metric)
                read_named[(metric, code)] += reading.verdict == "mistake" and code in [
                    d.code for d in reading.mistakes
                ]
            work = worked(spec, metric)
            for kind in SLIP_KINDS:
                made = slipped_answer(work, kind, rng)
                if made is None or abs(made[0] - right) <= 0.005:
                    continue  # no room for this slip here, or it left the answer right to 2 decimals
                answer, at = made
                slip_tries[(metric, kind)] += 1
                slip_reading = read_answer(spec, f"{answer:.2f}", metric=metric)
                slip_read[(metric, kind, slip_reading.verdict)] += 1
                if slip_reading.verdict == "mistake":
                    confused[(metric, kind, at, slip_reading.mistakes[0].code)] += 1
    elapsed = time.perf_counter() - started
    speed_after, load_after = day_speed(), os.getloadavg()

    print(f"{args.lists} random lists (seed {args.seed}), NDCG@k and DCG@k asked of each, in {elapsed:.0f} s")
    print(f"machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M')}")
    print(
        f"day's speed: a 10^6-step Python loop {speed_before * 1000:.0f} ms before, {speed_after * 1000:.0f} ms after; "
        f"load {load_before[0]:.1f} before, {load_after[0]:.1f} after"
    )
    print()
    print(f"{'question':<9}{'mistake':<40}{'shows':>7}{'told apart':>12}{'named':>9}")
    for metric, code in sorted(shows, key=lambda key: (key[0] != "ndcg", key)):
        n, a = shows[(metric, code)], apart[(metric, code)]
        share = f"{100 * named[(metric, code)] / a:.1f}%" if a else "-"
        print(f"{metric:<9}{code:<40}{n:>7}{f'{100 * a / n:.1f}%':>12}{share:>9}")
    total_apart, total_named = sum(apart.values()), sum(named.values())
    print(f"{'all':<49}{sum(shows.values()):>7}{f'{100 * total_apart / sum(shows.values()):.1f}%':>12}", end="")
    print(f"{f'{100 * total_named / total_apart:.1f}%':>9}")
    print()
    for metric in ("ndcg", "dcg"):
        rate = 100 * random_named[metric] / random_tries[metric]
        print(f"random wrong {metric.upper()} numbers named: {rate:.1f}% of {random_tries[metric]}")
    print(f"right answers named: {right_named} of {right_tries}")
    print()
    print("slipped workings (answer not right to 2 decimals), read by read_answer as:")
    print(f"{'question':<9}{'slip':<10}{'answers':>8}{'mistake':>10}{'slip':>8}{'unknown':>10}")
    for question in ("ndcg", "dcg", "all"):
        for kind in (*SLIP_KINDS, "all"):
            metrics = ("ndcg", "dcg") if question == "all" else (question,)
            kinds = SLIP_KINDS if kind == "all" else (kind,)
            tries = sum(slip_tries[(m, k)] for m in metrics for k in kinds)
            if not tries:
                continue
            shares = [
                f"{100 * sum(slip_read[(m, k, v)] for m in metrics for k in kinds) / tries:.1f}%"
                for v in ("mistake", "slip", "unknown")
            ]
            print(f"{question:<9}{kind:<10}{tries:>8}{shares[0]:>10}{shares[1]:>8}{shares[2]:>10}")
    print("slips named as a concept mistake: goal 5% or less (the 'all' rows)")
    if confused:
        print(f"the slips named most often as a mistake (of {sum(confused.values())}), and the mistake named first:")
        print(f"{'question':<9}{'slip':<10}{'where':<8}{'mistake':<40}{'answers':>8}")
        for (metric, kind, at, code), count in confused.most_common(args.confusion):
            print(f"{metric:<9}{kind:<10}{at:<8}{code:<40}{count:>8}")
    print()
    for label, metrics in (("all", ("ndcg", "dcg")), ("NDCG", ("ndcg",))):
        told = sum(a for (m, _), a in apart.items() if m in metrics)
        by_diagnose = sum(n for (m, _), n in named.items() if m in metrics)
        by_reading = sum(n for (m, _), n in read_named.items() if m in metrics)
        print(
            f"catalogue's recall, {label}: read_answer names {100 * by_reading / told:.1f}% "
            f"(diagnose alone {100 * by_diagnose / told:.1f}%) of {told} told-apart numbers; goal 98% or more"
        )
    for (metric, code), a in sorted(apart.items()):
        if a and read_named[(metric, code)] < named[(metric, code)]:
            print(
                f"  {metric} {code}: read_answer {100 * read_named[(metric, code)] / a:.1f}%, "
                f"diagnose {100 * named[(metric, code)] / a:.1f}%"
            )
    print()
    for label, times in (("a new question", cold), ("another answer to the same question", warm)):
        ms = [t * 1000 for t in times]
        print(f"one diagnosis, {label}: median {statistics.median(ms):.3f} ms, p90 {percentile(ms, 0.9):.3f} ms")


if __name__ == "__main__":
    main()
