import ABRLab

/// The arguments of one reset or step: a row of 64-bit words, one per ``Field``, that Python
/// fills once by name (the layouts call lists the names in order) and passes as one pointer.
/// A buffer's word holds its address (0 for none), a setting's word its value. Every buffer
/// holds a row per session.
struct EnvCall {
    enum Field: Int, CaseIterable {
        /// ``AutoresetMode``'s index.
        case autoreset
        /// Steps after which an episode is truncated; 0 for no limit.
        case maxEpisodeSteps
        /// In (uint8, reset): which sessions a reset resets; none for all.
        case resetMask
        /// In (int64, reset): the trace each reset session starts, −1 for its shuffle's next; none for every shuffle's next.
        case resetTraces
        /// In (int64, step): each session's level, 0-based.
        case actions
        /// Out (float32): the Pensieve state, ``PensieveState/rows`` × ``EnvSlot/stateColumns``.
        case state
        /// Out (float64): the decision context (``EnvFields``).
        case context
        /// Out (float64, step).
        case rewards
        /// Out (uint8, step).
        case terminated
        /// Out (uint8, step): the episode reached `maxEpisodeSteps` without terminating.
        case truncated
        /// Out (uint8, step): the session was reset by this step (autoreset).
        case resets
        /// Out (float64, step): the step's segment record (``EnvFields/record``).
        case records
        /// Out (int64): each session's trace after the call.
        case traces
        /// Out (float32, same-step): the ended episode's last state, for sessions this step reset.
        case finalState
        /// Out (float64, same-step): the ended episode's last context, for sessions this step reset.
        case finalContext

        var name: String {
            switch self {
            case .autoreset: "autoreset"
            case .maxEpisodeSteps: "max_episode_steps"
            case .resetMask: "reset_mask"
            case .resetTraces: "reset_traces"
            case .actions: "actions"
            case .state: "state"
            case .context: "context"
            case .rewards: "rewards"
            case .terminated: "terminated"
            case .truncated: "truncated"
            case .resets: "resets"
            case .records: "records"
            case .traces: "traces"
            case .finalState: "final_state"
            case .finalContext: "final_context"
            }
        }
    }

    /// Gymnasium's `AutoresetMode`: what a step does with a session whose episode ended.
    enum AutoresetMode: Int, CaseIterable {
        /// The next step resets it instead of stepping (its action ignored, reward 0).
        case nextStep
        /// The step that ends it resets it at once; the ended episode's last observation goes to `final_*`.
        case sameStep
        /// Never: stepping it is an error until a reset names it.
        case disabled

        /// Gymnasium's string values of `AutoresetMode`.
        var name: String {
            switch self {
            case .nextStep: "next-step"
            case .sameStep: "same-step"
            case .disabled: "disabled"
            }
        }
    }

    private let words: UnsafePointer<Int64>

    init(_ words: UnsafePointer<Int64>) {
        self.words = words
    }

    func value(_ field: Field) -> Int64 { words[field.rawValue] }

    /// The buffer `field` names, as `type`; nil when its word is 0.
    func buffer<Element>(_ field: Field, _ type: Element.Type = Element.self) -> UnsafeMutablePointer<Element>? {
        UnsafeMutablePointer(bitPattern: Int(truncatingIfNeeded: words[field.rawValue]))
    }

    func autoreset() throws(EnvError) -> AutoresetMode {
        guard let mode = AutoresetMode(rawValue: Int(truncatingIfNeeded: value(.autoreset))) else {
            throw .invalid("autoreset mode \(value(.autoreset)) does not exist")
        }
        return mode
    }

    /// The episode step limit; nil for none.
    var maxEpisodeSteps: Int? {
        let steps = value(.maxEpisodeSteps)
        return steps > 0 ? Int(steps) : nil
    }
}
