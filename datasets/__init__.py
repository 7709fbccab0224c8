"""Synthetic photos of real games with exact ground truth, and data tools (built in a later issue)."""
