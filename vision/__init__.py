"""The camera pipeline: from a photo to a board of tiles (built in a later issue)."""
