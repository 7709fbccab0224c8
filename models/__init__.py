"""The corner classifier: training, export and the committed ONNX model (built in a later issue)."""
