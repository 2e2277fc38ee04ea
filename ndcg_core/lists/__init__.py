"""One ranked list: gains, discounts, tie policies, DCG and NDCG, every move at once, editable items and presets."""
