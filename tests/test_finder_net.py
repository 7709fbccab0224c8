"""The finder network's skip joins (torch, where installed): the same numbers as the
concatenation they replace, the exported graph's the same as the network's, and the committed
model's graph without concatenations or batch norms of its own, its full-size 1x1 convolutions
matrix products."""

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
    # Its only concatenations are of shapes (the full-size products' maps), none of maps.
    assert all(node.input[0].endswith(".batch") for node in graph.node if node.op_type == "Concat")
    # Every parameter of the network has a place in the graph (batch norm folded into the
    # convolutions; the three 1x1 convolutions on full-size maps as matrix products).
    convolutions = sum(node.op_type in ("Conv", "MatMul") for node in graph.node)
    net = FinderNet()
    joins = sum(1 for name, _ in net.named_parameters() if name.endswith("from_skip"))
    assert convolutions == sum(isinstance(m, torch.nn.Conv2d) for m in net.modules()) + 2 * joins
    assert sum(node.op_type == "MatMul" for node in graph.node) == 3


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
    assert _full_size_maps_multiplied(graph)


def _full_size_maps_multiplied(graph) -> bool:
    """The core map comes from a matrix product, and so do both maps the last join adds (the
    runtime would pad their 8 channels and the core's one to its 16-channel blocks)."""
    made_by = {name: node for node in graph.node for name in node.output}

    def multiplied(name: str) -> str | None:
        """The map that the product giving ``name`` multiplies (None: ``name`` is no product's)."""
        source = made_by[made_by[name].input[0]] if made_by[name].op_type == "Reshape" else made_by[name]
        while source.op_type == "Add":  # its bias
            source = made_by[source.input[0]]
        return made_by[source.input[1]].input[0] if source.op_type == "MatMul" else None

    core = multiplied(made_by[graph.output[0].name].input[0])
    if core is None:
        return False
    upsampled, skip = made_by[made_by[core].input[0]].input  # the last join: a ReLU of a sum
    return multiplied(skip) is not None and multiplied(made_by[upsampled].input[0]) is not None


def _each_join_sums_maps_named_the_same_shape(graph) -> bool:
    """Without the names the runtime cannot prove the upsampled map and the skip map the same
    size, and runs the sum apart from the skip map's convolution."""
    shapes = {
        info.name: [d.dim_param or d.dim_value for d in info.type.tensor_type.shape.dim] for info in graph.value_info
    }
    stored = {tensor.name for tensor in graph.initializer}
    sums = [node.input for node in graph.node if node.op_type == "Add" and not stored & set(node.input)]
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
    assert _full_size_maps_multiplied(graph)


def test_a_plain_1x1_convolution_becomes_a_matrix_product_of_the_same_numbers():
    pytest.importorskip("onnx")
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from models.train_finder import _as_product

    generator = np.random.default_rng(3)

    def graph_of(kernel: int, **settings):
        weight = generator.normal(size=(4, 2, kernel, kernel)).astype(np.float32)
        stored = [
            numpy_helper.from_array(weight, "weight"),
            numpy_helper.from_array(generator.normal(size=4).astype(np.float32), "bias"),
        ]
        node = helper.make_node("Conv", ["map", "weight", "bias"], ["out"], "conv", **settings)
        inputs = [helper.make_tensor_value_info("map", TensorProto.FLOAT, ["batch", 2, "height", "width"])]
        outputs = [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)]
        return helper.make_graph([node], "g", inputs, outputs, stored)

    def run(graph, image):
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        return session.run(None, {"map": image})[0]

    for refused in (graph_of(3), graph_of(1, strides=[2, 2]), graph_of(1, group=2)):
        with pytest.raises(ValueError, match="not a plain 1x1"):
            _as_product(refused, refused.node[0])
    image = generator.normal(size=(2, 2, 5, 7)).astype(np.float32)
    graph = graph_of(1)
    convolved = run(graph, image)
    _as_product(graph, graph.node[0])
    assert "Conv" not in {node.op_type for node in graph.node}
    multiplied = run(graph, image)
    assert multiplied.shape == convolved.shape == (2, 4, 5, 7)
    assert np.abs(multiplied - convolved).max() < 1e-5
