"""How numbers are written on screen: one place, so every page rounds the same way."""

DECIMALS = 4  # trec_eval prints 4 decimals; the app shows the same


def metric_text(value: float, decimals: int = DECIMALS) -> str:
    """A figure as shown in the app's headline metrics, e.g. ``0.7850``."""
    return f"{value:.{decimals}f}"
