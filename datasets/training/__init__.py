"""Training of the hanafuda card classifier: network, data stream, training loop, ONNX export, evaluation.

The only place in the repository that imports torch (the ``[train]`` extra); the runtime reads the ONNX file.
"""
