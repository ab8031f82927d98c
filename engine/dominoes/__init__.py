"""Chinese dominoes: the 32-tile set (and the Korean 24, the European double-six) and the joining games
Jie Long, Ce Deng / Xie Ding and Kkoribuchigi, with their settlements.

Start at ``round.DominoRound`` (one deal), ``match.DominoMatch`` (deals in a row) and ``settle.settle``.
"""
