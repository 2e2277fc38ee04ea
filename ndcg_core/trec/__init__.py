"""Many queries, as trec_eval: qrels and run readers, the segmented reader, evaluation, measures, output and
the command line."""
