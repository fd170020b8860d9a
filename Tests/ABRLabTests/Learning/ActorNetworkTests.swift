import ABRLab
import Foundation
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct ActorNetworkTests {
    static let shippedModel = PackageRoot.file("Strategies/models/pensieve.safetensors").path

    @Test func theShippedActorHasPensievesShape() throws {
        let network = try ActorNetwork(contentsOf: Self.shippedModel)
        #expect(network.columns == 8)
        #expect(network.outputs == 6)
        #expect(network.parameterCount == 111_622)
        let p = network.probabilities(ActorFixture.state(columns: 8))
        #expect(abs(p.reduce(0, +) - 1) < 1e-12)
        let file = try SafetensorsFile.load(path: Self.shippedModel)
        let reference = ActorFixture.reference(file, state: ActorFixture.state(columns: 8))
        for (a, b) in zip(p, reference) { #expect(abs(a - b) < 1e-6) }
    }

    struct ShapeCase: Sendable, CustomStringConvertible {
        let columns: Int, nextSizes: Int, actions: Int, width: Int, taps: Int, hidden: Int, prefix: String, dtype: String
        var description: String { "\(columns) columns, \(actions) actions, \(taps) taps, prefix '\(prefix)', \(dtype)" }
        var shape: ActorFixture.Shape {
            ActorFixture.Shape(columns: columns, nextSizes: nextSizes, actions: actions, width: width, taps: taps, hidden: hidden, prefix: prefix, dtype: dtype)
        }
    }

    /// Genet-like (6-column history, 3 actions) and other shapes load with no new code path.
    @Test(arguments: [
        ShapeCase(columns: 6, nextSizes: 3, actions: 3, width: 16, taps: 3, hidden: 10, prefix: "actor/", dtype: "F32"),
        ShapeCase(columns: 8, nextSizes: 6, actions: 6, width: 8, taps: 4, hidden: 12, prefix: "", dtype: "F64"),
        ShapeCase(columns: 10, nextSizes: 10, actions: 10, width: 5, taps: 1, hidden: 7, prefix: "policy/net/", dtype: "F32"),
    ])
    func generatedActorsOfOtherShapesMatchThePlainForwardPass(_ shapeCase: ShapeCase) throws {
        let file = try ActorFixture.file(shapeCase.shape)
        let network = try ActorNetwork(tensors: file)
        #expect(network.columns == shapeCase.columns)
        #expect(network.outputs == shapeCase.actions)
        let state = ActorFixture.state(columns: shapeCase.columns)
        let p = network.probabilities(state)
        let reference = ActorFixture.reference(file, prefix: shapeCase.prefix, state: state)
        #expect(p.count == shapeCase.actions)
        for (a, b) in zip(p, reference) { #expect(abs(a - b) < 1e-6, "\(p) vs \(reference)") }
    }

    @Test func tensorsOutsideTheActorArIgnoredButUnknownOnesInsideAreNot() throws {
        var tensors = ActorFixture.tensors(ActorFixture.Shape())
        tensors.append(SafetensorsFile.Tensor(name: "critic/FullyConnected/W", dtype: "F32", shape: [2], values: [1, 2]))
        #expect(try ActorNetwork(tensors: SafetensorsFile(bytes: SafetensorsFile.encode(tensors), file: "m")).outputs == 3)
        tensors.append(SafetensorsFile.Tensor(name: "actor/Extra/W", dtype: "F32", shape: [1], values: [1]))
        #expect(Self.failure(tensors) == "m: does not fit the actor layout: unexpected tensor actor/Extra/W")
    }

    struct LayoutCase: Sendable, CustomStringConvertible {
        let name: String
        let edit: @Sendable ([SafetensorsFile.Tensor]) -> [SafetensorsFile.Tensor]
        let expected: String
        var description: String { name }
    }

    static func replacing(_ name: String, shape: [Int]) -> @Sendable ([SafetensorsFile.Tensor]) -> [SafetensorsFile.Tensor] {
        { tensors in
            tensors.map { $0.name == name ? SafetensorsFile.Tensor(name: name, dtype: "F32", shape: shape, values: Array(repeating: 0.1, count: shape.reduce(1, *))) : $0 }
        }
    }

    @Test(arguments: [
        LayoutCase(name: "missing tensor", edit: { $0.filter { $0.name != "actor/Conv1D_1/b" } }, expected: "m: does not fit the actor layout: tensor actor/Conv1D_1/b is missing"),
        LayoutCase(name: "no output layer", edit: { $0.filter { !$0.name.hasPrefix("actor/FullyConnected_4") } }, expected: "m: has no tensor FullyConnected_4/W (or prefix/FullyConnected_4/W); not a Pensieve-style actor (see docs/lua-api.md, Models)"),
        LayoutCase(name: "bias width", edit: replacing("actor/FullyConnected/b", shape: [15]), expected: "m: does not fit the actor layout: actor/FullyConnected/b has shape [15]; expected [16]"),
        LayoutCase(name: "dense over two cells", edit: replacing("actor/FullyConnected_1/W", shape: [2, 16]), expected: "m: does not fit the actor layout: actor/FullyConnected_1/W has shape [2, 16]; expected [1, width]"),
        LayoutCase(name: "history lengths differ", edit: replacing("actor/Conv1D_1/W", shape: [3, 1, 5, 16]), expected: "m: does not fit the actor layout: actor/Conv1D_1/W reads 5 columns but Conv1D/W reads 6; both read the whole history"),
        LayoutCase(name: "next sizes wider than history", edit: replacing("actor/Conv1D_2/W", shape: [3, 1, 7, 16]), expected: "m: does not fit the actor layout: actor/Conv1D_2/W reads 7 columns but the history has 6 (Conv1D/W)"),
        LayoutCase(name: "kernel rank", edit: replacing("actor/Conv1D/W", shape: [3, 6, 16]), expected: "m: does not fit the actor layout: actor/Conv1D/W has shape [3, 6, 16]; expected [taps, 1, columns, width]"),
        LayoutCase(name: "hidden input", edit: replacing("actor/FullyConnected_3/W", shape: [95, 10]), expected: "m: does not fit the actor layout: actor/FullyConnected_3/W has shape [95, 10] but takes the 96 branch outputs; expected [96, …]"),
        LayoutCase(name: "output input", edit: replacing("actor/FullyConnected_4/W", shape: [9, 3]), expected: "m: does not fit the actor layout: actor/FullyConnected_4/W has shape [9, 3] but takes the 10 hidden units; expected [10, …]"),
    ])
    func tensorsThatDoNotFitTheLayoutAreOneError(_ layoutCase: LayoutCase) {
        #expect(Self.failure(layoutCase.edit(ActorFixture.tensors(ActorFixture.Shape()))) == layoutCase.expected)
    }

    static func failure(_ tensors: [SafetensorsFile.Tensor]) -> String? {
        do {
            _ = try ActorNetwork(tensors: SafetensorsFile(bytes: SafetensorsFile.encode(tensors), file: "m"))
            return nil
        } catch {
            return error.description
        }
    }
}
