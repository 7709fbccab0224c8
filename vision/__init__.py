"""The camera pipeline: from a photo to a validated, scored board. ``reader.Reader`` is the entry
point: it loads both models once and returns a ``records.Reading`` with per-stage timings."""
