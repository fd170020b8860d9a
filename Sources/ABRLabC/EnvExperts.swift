import ABRLab

/// The strategies that follow a session as experts: each hears every hook of the session as
/// if it played it (set up at reset, told of every wait and download) and is asked at every
/// decision, so what it would choose now reflects the session's whole history. Its answer is
/// only reported; the environment plays the caller's action.
struct EnvExperts {
    /// One expert: following the session with its latest choice (−1 before the first
    /// decision), or out of the episode after an error.
    enum Expert {
        case following(any SessionStrategy, choice: Int)
        case failed(Failure)
    }

    /// Why an expert is out: the message, and the script's file and line where the error names them.
    struct Failure {
        let reason: String
        var file: String?
        var line: Int?

        init(_ reason: String) { self.reason = reason }

        init(_ error: any Error, prefix: String = "") {
            reason = prefix + String(describing: error)
            if let error = error as? InputError, case .file(let file) = error.subject {
                self.file = file
                line = error.line
            }
        }
    }

    private(set) var experts: [Expert] = []

    var isEmpty: Bool { experts.isEmpty }

    /// Fresh strategies for a new session, set up with its information.
    mutating func start(_ descriptors: [StrategyDescriptor], info: SessionInfo) {
        experts = descriptors.map { descriptor in
            do {
                var strategy = try descriptor.makeStrategy()
                try strategy.setUp(info)
                return .following(strategy, choice: -1)
            } catch {
                return .failed(Failure(error, prefix: "\(descriptor.id): "))
            }
        }
    }

    /// Tells every expert what the session just did, through the hook the engine would call on a
    /// strategy playing it (``SessionStrategy/hear(_:context:)``); an expert that throws is out
    /// for the episode. An expert follows: the session's abandonment checks are the caller's.
    mutating func hear(_ step: SessionStep, context: @autoclosure () -> DecisionContext) {
        guard !experts.isEmpty else { return }
        if case .checkAbandonment = step { return }
        let context = context()
        for index in experts.indices {
            guard case .following(var strategy, var choice) = experts[index] else { continue }
            do {
                if case .decision(let decision) = try strategy.hear(step, context: context) {
                    choice = decision.level
                    guard (0..<context.levelCount).contains(choice) else {
                        experts[index] = .failed(Failure("chose level \(choice + 1), outside the ladder (1 to \(context.levelCount))"))
                        continue
                    }
                }
                experts[index] = .following(strategy, choice: choice)
            } catch {
                experts[index] = .failed(Failure(error))
            }
        }
    }
}
