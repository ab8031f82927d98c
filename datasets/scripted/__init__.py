"""Scripted scenes: whole Koi-Koi rounds rendered as video with the ground truth beside it (``python -m
datasets.scripted``), and a stand-in recogniser that reads that truth with misreads injected on purpose."""
