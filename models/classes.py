"""The classifier's classes, shared by the studio, training and the reader (no torch here)."""

NO_NUMBER = 7  # a blank back, a crop off the tile, a hand
CLASS_COUNT = 8
CLASS_NAMES = [str(n) for n in range(7)] + ["none"]
