"""Run the trec_eval-compatible command line: ``python -m ndcg_core QRELS RUN``."""

import sys

from .cli import main

sys.exit(main())
