"""What users touch: the `triominoes` command line, and later the web service and its page."""
