"""Page views: what a page draws, one module per page (the page file itself stays one line)."""
