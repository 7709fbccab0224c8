"""Synthetic photos of real games with exact ground truth, and data tools.

The studio (``studio.sample_scene`` and ``studio.render``, tile faces in ``faces``) draws photos
with their truth; ``make`` writes them, training crops and game sequences; ``sketch`` is a
second, simpler renderer written apart, to check the reader on a look it never learnt.
"""
