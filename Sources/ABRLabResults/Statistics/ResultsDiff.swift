import ABRLab

/// Two result folders' sessions side by side: which (strategy, trace) sessions changed their
/// session QoE or their outcome, and by how much, per strategy.
public struct ResultsDiff: Sendable {
    /// One (strategy, trace) session as each side recorded it; `nil` sides are missing.
    public struct Session: Sendable, Equatable {
        public let strategyID: String
        public let traceName: String
        public let qoeA: Double?
        public let qoeB: Double?
        public let errorA: String?
        public let errorB: String?
        public let inA: Bool
        public let inB: Bool

        /// B − A when both finished.
        public var delta: Double? {
            guard let qoeA, let qoeB else { return nil }
            return qoeB - qoeA
        }
    }

    /// One strategy's sessions compared.
    public struct StrategyRow: Sendable, Equatable {
        public let strategyID: String
        public let sessionsA: Int
        public let sessionsB: Int
        public let failedA: Int
        public let failedB: Int
        /// Sessions both sides finished.
        public let paired: Int
        /// Sessions that differ: QoE beyond the tolerance, a different outcome, or one side only.
        public let changed: Int
        public let meanDelta: Double
        public let minDelta: Double
        public let maxDelta: Double
    }

    public let tolerance: Double
    /// Every session of either side: A's order, then sessions only B has.
    public let sessions: [Session]
    public let strategies: [StrategyRow]

    /// Compares two `sessions.csv` tables; `fileA` and `fileB` name them in errors. The session
    /// QoE is `qoe_total` (`qoe` in folders written before it was renamed).
    public init(a: CSVTable, b: CSVTable, fileA: String, fileB: String, tolerance: Double = 0) throws(InputError) {
        self.tolerance = tolerance
        let left = try Self.sessions(a, file: fileA)
        let right = try Self.sessions(b, file: fileB)
        let rightByKey = Dictionary(right.map { ($0.key, $0) }) { first, _ in first }
        let leftKeys = Set(left.map(\.key))
        var sessions = left.map { entry in
            let other = rightByKey[entry.key]
            return Session(
                strategyID: entry.key.strategy, traceName: entry.key.trace, qoeA: entry.qoe, qoeB: other?.qoe,
                errorA: entry.error, errorB: other?.error, inA: true, inB: other != nil
            )
        }
        for entry in right where !leftKeys.contains(entry.key) {
            sessions.append(Session(
                strategyID: entry.key.strategy, traceName: entry.key.trace, qoeA: nil, qoeB: entry.qoe,
                errorA: nil, errorB: entry.error, inA: false, inB: true
            ))
        }
        self.sessions = sessions
        var order: [String] = []
        for session in sessions where !order.contains(session.strategyID) { order.append(session.strategyID) }
        strategies = order.map { id in
            let mine = sessions.filter { $0.strategyID == id }
            let deltas = mine.compactMap(\.delta)
            return StrategyRow(
                strategyID: id, sessionsA: mine.filter(\.inA).count, sessionsB: mine.filter(\.inB).count,
                failedA: mine.filter { $0.errorA != nil }.count, failedB: mine.filter { $0.errorB != nil }.count,
                paired: deltas.count, changed: mine.filter { Self.differs($0, tolerance: tolerance) }.count,
                meanDelta: deltas.isEmpty ? .nan : deltas.reduce(0, +) / Double(deltas.count),
                minDelta: deltas.min() ?? .nan, maxDelta: deltas.max() ?? .nan
            )
        }
    }

    /// Sessions that differ, in session order.
    public var changedSessions: [Session] { sessions.filter { Self.differs($0, tolerance: tolerance) } }

    /// Whether any session differs.
    public var hasDifferences: Bool { sessions.contains { Self.differs($0, tolerance: tolerance) } }

    static func differs(_ session: Session, tolerance: Double) -> Bool {
        guard session.inA, session.inB, (session.errorA == nil) == (session.errorB == nil) else { return true }
        guard let delta = session.delta else { return false }
        return !(abs(delta) <= tolerance)
    }

    private struct Entry {
        let key: Key
        let qoe: Double?
        let error: String?
    }

    private struct Key: Hashable {
        let strategy: String
        let trace: String
    }

    private static func sessions(_ table: CSVTable, file: String) throws(InputError) -> [Entry] {
        let strategy = try table.column("strategy", file: file)
        let trace = try table.column("trace", file: file)
        let qoe: Int
        if let renamed = table.header.firstIndex(of: "qoe_total") { qoe = renamed } else { qoe = try table.column("qoe", file: file) }
        let error = try table.column("error", file: file)
        var entries: [Entry] = []
        for (index, row) in table.rows.enumerated() {
            let failed = !row[error].isEmpty
            var value: Double?
            if !failed {
                guard let number = Double(row[qoe]) else {
                    throw InputError(file: file, line: index + 2, "'\(row[qoe])' is not a session QoE")
                }
                value = number
            }
            entries.append(Entry(key: Key(strategy: row[strategy], trace: row[trace]), qoe: value, error: failed ? row[error] : nil))
        }
        return entries
    }
}
