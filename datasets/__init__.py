"""Synthetic data and dataset manifests for training and evaluating kibitz's models.

Not an installed package: run from the repository root, e.g. ``python -m datasets.hanafuda.generate``.
"""
