"""What the app teaches with: the conventions that make NDCG figures differ, practice exercises, and NDCG's
neighbours (P@k, recall, RR, AP, ERR)."""
