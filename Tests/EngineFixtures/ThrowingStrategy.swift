import ABRLab

public struct RunnerFailure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}

/// Fails on its first decision.
public struct ThrowingStrategy: SessionStrategy {
    public init() {}

    public func chooseLevel(_ context: DecisionContext) throws -> Int { throw RunnerFailure(description: "strategy gave up") }
}
