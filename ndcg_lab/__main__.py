"""``python -m ndcg_lab``: the same as the ``ndcg-lab`` command."""

from ndcg_lab.cli import script

script()
