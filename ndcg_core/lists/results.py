"""Real result lists: a query, the titles a search engine returned for it, in order, and each title's judged
grade (``RESULTS``).

Titles carry meaning, so a class can judge relevance from the results themselves: the Classroom's "Rank it
best" hides the grades until the reveal and uses these lists. Seed note 003's two Chengdu searches keep their
Chinese titles and 0-4 grades; the English queries are graded 0-3.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..registry import Registry


@dataclass(frozen=True)
class ResultList:
    """A query and its results in the order returned: ``titles`` and their judged ``grades`` line up; ``k`` is
    the cutoff the question asks about; ``top_grade`` the highest grade of the scale used."""

    query: str
    titles: tuple[str, ...]
    grades: tuple[float, ...]
    k: int
    top_grade: int


RESULTS: Registry[ResultList] = Registry("results")


@RESULTS.register(
    "chengdu_food",
    "成都美食推荐 (Chengdu food recommendations)",
    "Seed 003's food search: five results graded 0-4, one of them about another city.",
)
def _chengdu_food() -> ResultList:
    return ResultList(
        "成都美食推荐", ("成都火锅大全", "重庆火锅", "成都小吃街", "成都美食地图", "北京烤鸭"), (4, 1, 3, 4, 0), 5, 4
    )


@RESULTS.register(
    "chengdu_trip",
    "成都3天游 (a 3-day trip to Chengdu)",
    "Seed 003's travel search: five results graded 0-4, one of them about another city.",
)
def _chengdu_trip() -> ResultList:
    return ResultList(
        "成都3天游", ("成都3天攻略", "成都美食推荐", "北京旅游", "成都7天游", "成都住宿"), (4, 2, 0, 1, 3), 5, 4
    )


@RESULTS.register(
    "sourdough",
    "how to make a sourdough starter",
    "Eight results graded 0-3: guides, a bread recipe, a shop and a band of the same name.",
)
def _sourdough() -> ResultList:
    return ResultList(
        "how to make a sourdough starter",
        (
            "Sourdough starter recipe: a day-by-day guide with photos",
            "The best sourdough bread recipe for beginners",
            "Why is my sourdough starter not rising? 9 fixes",
            "Sourdough - Wikipedia",
            "Buy dried sourdough starter culture online",
            "Make a starter from scratch with just flour and water",
            "Sourdough (band): tour dates and tickets",
            "How to feed and store your starter in the fridge",
        ),
        (3, 1, 2, 1, 0, 3, 0, 2),
        5,
        3,
    )


@RESULTS.register(
    "python_sort",
    "python sort list of dicts by key",
    "Seven results graded 0-3: documentation, a Q&A thread, tutorials and a near miss.",
)
def _python_sort() -> ResultList:
    return ResultList(
        "python sort list of dicts by key",
        (
            "Sorting HOW TO - Python 3 documentation",
            "How do I sort a list of dictionaries by a value of the dictionary? - Stack Overflow",
            "Python list sort() method - W3Schools",
            "Sort a dictionary by its values in Python",
            "Python lists: a beginner's tutorial",
            "operator.itemgetter - standard operators as functions",
            "Sorting algorithms explained with animations",
        ),
        (2, 3, 1, 1, 0, 2, 0),
        5,
        3,
    )
