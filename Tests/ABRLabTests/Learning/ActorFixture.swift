import ABRLab
import Foundation

/// Generated Pensieve-style actors of any shape, and a plain re-implementation of their forward
/// pass over the tensors' own indices, to check ActorNetwork against.
enum ActorFixture {
    struct Shape {
        var columns = 6
        var nextSizes = 3
        var actions = 3
        var width = 16
        var taps = 3
        var hidden = 10
        var prefix = "actor/"
        var dtype = "F32"
    }

    /// Deterministic weights: a sine of the index, different per tensor, exactly representable in F32.
    static func values(_ count: Int, salt: Double) -> [Double] {
        (0..<count).map { Double(Float(sin(Double($0) * 0.731 + salt) * 0.4)) }
    }

    static func tensors(_ shape: Shape) -> [SafetensorsFile.Tensor] {
        var tensors: [SafetensorsFile.Tensor] = []
        var salt = 0.0
        func add(_ name: String, _ dims: [Int]) {
            salt += 1
            tensors.append(SafetensorsFile.Tensor(
                name: shape.prefix + name, dtype: shape.dtype, shape: dims, values: values(dims.reduce(1, *), salt: salt)
            ))
        }
        for name in ["FullyConnected", "FullyConnected_1", "FullyConnected_2"] {
            add(name + "/W", [1, shape.width])
            add(name + "/b", [shape.width])
        }
        for (name, columns) in [("Conv1D", shape.columns), ("Conv1D_1", shape.columns), ("Conv1D_2", shape.nextSizes)] {
            add(name + "/W", [shape.taps, 1, columns, shape.width])
            add(name + "/b", [shape.width])
        }
        add("FullyConnected_3/W", [6 * shape.width, shape.hidden])
        add("FullyConnected_3/b", [shape.hidden])
        add("FullyConnected_4/W", [shape.hidden, shape.actions])
        add("FullyConnected_4/b", [shape.actions])
        return tensors
    }

    static func file(_ shape: Shape = Shape(), name: String = "generated.safetensors", metadata: [String: String] = [:]) throws -> SafetensorsFile {
        try SafetensorsFile(bytes: SafetensorsFile.encode(tensors(shape), metadata: metadata), file: name)
    }

    /// Genet's shape, small: a 6-column history, six next sizes, three actions.
    static let genet = Shape(columns: 6, nextSizes: 6, actions: 3, width: 8, taps: 4, hidden: 10)

    /// The forward pass written out over the tensors' indices, one branch at a time; branch 6
    /// reads the last column of `chunksLeftRow` (Pensieve 4, Genet 5).
    static func reference(_ file: SafetensorsFile, prefix: String = "actor/", chunksLeftRow: Int = 4, state x: [[Double]]) -> [Double] {
        func t(_ name: String) -> SafetensorsFile.Tensor { file.tensors[prefix + name]! }
        let columns = x[0].count
        var concat: [Double] = []
        func dense(_ inputs: [Double], _ kernel: (Int, Int) -> Double, _ bias: [Double]) -> [Double] {
            bias.indices.map { (j: Int) -> Double in
                var sum = bias[j]
                for i in inputs.indices { sum += inputs[i] * kernel(i, j) }
                return max(0, sum)
            }
        }
        func lastCell(_ name: String, row: Int) -> [Double] {
            let w = t(name + "/W"), b = t(name + "/b")
            return dense([x[row][columns - 1]], { _, j in w.values[j] }, b.values)
        }
        func convolution(_ name: String, row: Int) -> [Double] {
            let w = t(name + "/W"), b = t(name + "/b")
            let (taps, k, width) = (w.shape[0], w.shape[2], w.shape[3])
            let tap = (taps - 1) / 2
            return dense(Array(x[row][0..<k]), { c, j in w.values[((tap * 1 + 0) * k + c) * width + j] }, b.values)
        }
        concat += lastCell("FullyConnected", row: 0)
        concat += lastCell("FullyConnected_1", row: 1)
        concat += convolution("Conv1D", row: 2)
        concat += convolution("Conv1D_1", row: 3)
        concat += convolution("Conv1D_2", row: 4)
        concat += lastCell("FullyConnected_2", row: chunksLeftRow)
        let w3 = t("FullyConnected_3/W"), w4 = t("FullyConnected_4/W")
        let hidden = dense(concat, { i, j in w3.values[i * w3.shape[1] + j] }, t("FullyConnected_3/b").values)
        let bias4 = t("FullyConnected_4/b").values
        let logits = bias4.indices.map { (j: Int) -> Double in
            var sum = bias4[j]
            for i in hidden.indices { sum += hidden[i] * w4.values[i * w4.shape[1] + j] }
            return sum
        }
        let top = logits.max()!
        let exps = logits.map { exp($0 - top) }
        let sum = exps.reduce(0, +)
        return exps.map { $0 / sum }
    }

    /// A state with varied values, zeros included.
    static func state(columns: Int) -> [[Double]] {
        (0..<6).map { (row: Int) -> [Double] in
            (0..<columns).map { (column: Int) -> Double in
                if (row + column) % 4 == 0 { return 0 }
                return sin(Double(row * 13 + column)) * 1.5
            }
        }
    }
}
