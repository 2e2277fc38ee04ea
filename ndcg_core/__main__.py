"""Run the trec_eval-compatible command line: ``python -m ndcg_core QRELS RUN``."""

import os
import sys

from .cli import keep_freed_memory, main

keep_freed_memory()
status = main()
sys.stdout.flush()
sys.stderr.flush()
# Skip freeing a few GB of arrays one by one at exit: the process is done with them.
os._exit(status)
