"""Training of the shipped networks (the card classifier, the finders, the refiners, the domino face reader):
networks, data streams, training loops, ONNX export, evaluation.

The only place in the repository that imports torch (the ``[train]`` extra); the runtime reads the ONNX file.
"""
