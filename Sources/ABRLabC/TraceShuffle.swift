import ABRLab

/// The order an environment's episodes take its traces in: each pass a fresh seeded shuffle,
/// so every trace plays once per pass and the order depends on the seed alone.
struct TraceShuffle: Sendable {
    private var generator: SeededGenerator
    private var order: [Int]
    private var position: Int

    init(count: Int, seed: UInt64) {
        generator = SeededGenerator(seed: SessionSeed.mix(seed))
        order = Array(0..<count)
        position = count
    }

    /// The next trace's index, shuffling a new pass when the last one is used up.
    mutating func next() -> Int {
        if position == order.count {
            // Fisher–Yates written out, so the order does not change with the standard library's shuffle.
            var index = order.count - 1
            while index > 0 {
                let other = Int(generator.next() % UInt64(index + 1))
                order.swapAt(index, other)
                index -= 1
            }
            position = 0
        }
        defer { position += 1 }
        return order[position]
    }
}
