"""The finder network's skip joins (torch, where installed): the same numbers as the
concatenation they replace, the exported graph's the same as the network's, and the committed
model's graph without concatenations or batch norms of its own."""

import math

import numpy as np
import pytest

from vision.find import DEFAULT_FINDER

torch = pytest.importorskip("torch")
functional = torch.nn.functional


def _joined_by_concatenation(join, coarse, skip):
    """The textbook form: upsample, stack along channels, one 1x1 convolution, batch norm, ReLU."""
    up = functional.interpolate(coarse, scale_factor=2.0, mode="bilinear", align_corners=False)
    weight = torch.cat([join.from_coarse, join.from_skip], 1)
    return join.finish(functional.conv2d(torch.cat([up, skip], 1), weight))


@pytest.mark.parametrize("training", [True, False])
def test_a_join_is_a_convolution_of_the_stacked_maps(training):
    from models.finder_net import _Join

    torch.manual_seed(1)
    join = _Join(12, 5, 7)
    norm = join.finish[0]
    norm.running_mean.uniform_(-1, 1)
    norm.running_var.uniform_(0.5, 2)
    norm.weight.data.uniform_(0.5, 2)
    norm.bias.data.uniform_(-1, 1)
    join.train(training)
    coarse, skip = torch.randn(2, 12, 9, 11), torch.randn(2, 5, 18, 22)
    with torch.no_grad():
        expected = _joined_by_concatenation(join, coarse, skip)
        assert torch.allclose(join(coarse, skip), expected, atol=1e-5)


def test_a_join_starts_as_one_convolution_over_both_maps():
    """Each part is drawn with the fan-in of the whole 1x1 convolution, not its own."""
    from models.finder_net import _Join

    torch.manual_seed(0)
    join = _Join(48, 8, 16)
    assert join.from_skip.abs().max() <= 1 / math.sqrt(56)
    assert join.from_skip.abs().max() > 0.8 / math.sqrt(56)


def test_the_committed_finder_has_no_concatenation_and_matches_its_network():
    onnx = pytest.importorskip("onnx")
    from models.finder_net import FinderNet

    graph = onnx.load(str(DEFAULT_FINDER)).graph
    assert "Concat" not in {node.op_type for node in graph.node}
    # Every parameter of the network has a place in the graph (batch norm folded into the convolutions).
    convolutions = sum(node.op_type == "Conv" for node in graph.node)
    net = FinderNet()
    joins = sum(1 for name, _ in net.named_parameters() if name.endswith("from_skip"))
    assert convolutions == sum(isinstance(m, torch.nn.Conv2d) for m in net.modules()) + 2 * joins


def _randomised(net):
    """Batch norms with statistics and affine parts far from the identity, so that folding them
    wrongly shows."""
    for norm in (m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)):
        norm.running_mean.uniform_(-1, 1)
        norm.running_var.uniform_(0.5, 2)
        norm.weight.data.uniform_(0.5, 2)
        norm.bias.data.uniform_(-1, 1)
    return net.eval()


def test_the_exported_finder_computes_what_its_network_does(tmp_path):
    onnx = pytest.importorskip("onnx")
    import onnxruntime as ort

    from models.finder_net import FinderNet
    from models.train_finder import export

    torch.manual_seed(2)
    net = _randomised(FinderNet())
    export(net, tmp_path / "finder.onnx")
    image = np.random.default_rng(2).integers(0, 256, (1, 3, 40, 56), dtype=np.uint8)
    session = ort.InferenceSession(str(tmp_path / "finder.onnx"), providers=["CPUExecutionProvider"])
    (exported,) = session.run(None, {"image": image})
    with torch.no_grad():
        expected = net(torch.from_numpy(image)).numpy()
    assert np.abs(exported - expected).max() < 1e-5
    graph = onnx.load(str(tmp_path / "finder.onnx")).graph
    assert "BatchNormalization" not in {node.op_type for node in graph.node}
    assert _each_join_sums_maps_named_the_same_shape(graph)
    assert not _unused_weights(graph)


def _each_join_sums_maps_named_the_same_shape(graph) -> bool:
    """Without the names the runtime cannot prove the upsampled map and the skip map the same
    size, and runs the sum apart from the skip map's convolution."""
    shapes = {
        info.name: [d.dim_param or d.dim_value for d in info.type.tensor_type.shape.dim] for info in graph.value_info
    }
    sums = [node.input for node in graph.node if node.op_type == "Add"]
    return len(sums) == 3 and all(first in shapes and shapes[first] == shapes.get(second) for first, second in sums)


def _unused_weights(graph) -> list[str]:
    """Stored tensors no node reads: a batch norm folded away must take its statistics along."""
    read = {name for node in graph.node for name in node.input}
    return [tensor.name for tensor in graph.initializer if tensor.name not in read]


def test_the_committed_finder_has_no_batch_norm_apart_and_sums_its_joins_in_one_pass():
    onnx = pytest.importorskip("onnx")

    graph = onnx.load(str(DEFAULT_FINDER)).graph
    assert "BatchNormalization" not in {node.op_type for node in graph.node}
    assert _each_join_sums_maps_named_the_same_shape(graph)
    assert not _unused_weights(graph)
