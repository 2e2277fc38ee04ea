"""How numbers are written on screen: one place, so every page rounds the same way."""

DECIMALS = 4  # trec_eval prints 4 decimals; the app shows the same


def metric_text(value: float, decimals: int = DECIMALS) -> str:
    """A figure as shown in the app's headline metrics, e.g. ``0.7850``."""
    return f"{value:.{decimals}f}"


TABLE_COLUMNS = {
    "position": "Position",
    "grade": "Grade",
    "term": "Gain / discount = contribution",
    "cumulative_dcg": "DCG so far",
    "ideal_grade": "Ideal grade",
    "cumulative_idcg": "Ideal DCG so far",
    "in_top_k": "Inside k",
}


def sentence(message: str) -> str:
    """A core error message as a sentence on screen: a plain first word is capitalised (not a file name)."""
    first = message.split(" ", 1)[0]
    return message[:1].upper() + message[1:] if first.isalpha() and first.islower() else message
