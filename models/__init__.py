"""The two small ONNX models: the corner classifier (``classifier.CornerClassifier``) and the tile
finder's network, their training (``train``, ``train_finder``; torch, the ``train`` extra only)
and export, and the committed files (model card: ``models/README.md``)."""
