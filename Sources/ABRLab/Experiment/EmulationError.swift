/// Why a session could not finish.
public enum EmulationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The trace's bandwidth is zero everywhere, so no download can ever finish.
    case traceDeliversNoData(trace: String)
    /// Simulated time passed the profile's limit.
    case sessionTimeLimit(trace: String, limitSeconds: Double)
    /// The session took more steps than the profile's limit.
    case sessionStepLimit(trace: String, steps: Int)
    /// A player of a group on a shared link took more than its part of the group's steps:
    /// the group has one session's limit in all, `steps`, shared equally by its `players`.
    case groupStepLimit(trace: String, steps: Int, players: Int)
    /// A live session would stream more media than its time limit lets it play, or more
    /// segments than a video may hold.
    case liveSessionTooLong(segments: Int, segmentSeconds: Double, limitSeconds: Double)
    /// The video has fewer segments than the profile plays.
    case videoTooShort(video: String, segments: Int, needed: Int)
    /// The first level (0-based) the settings ask for is not one of the video's.
    case firstLevelOutOfRange(video: String, level: Int, levelCount: Int)
    /// The strategy picked a level outside the ladder; `session` names its strategy and trace,
    /// `segment` is 0-based.
    case levelOutOfRange(session: String, segment: Int, level: Int, levelCount: Int)
    /// The strategy failed: it threw, or asked for what the session refuses (a delay, a rate, an
    /// abandonment level); the failure says which and where.
    case strategyFailed(StrategyFailure)
    /// The settings cannot play the session (a setting out of range, a live video that cannot
    /// be repeated for as long as the session lasts): refused before anything is played.
    case settingsRefused(InputError)
    /// The abandonment check abandoned one segment ``SessionEmulator/maxAbandonmentsPerSegment``
    /// times; `check` names it (`file:line` for a script, else the strategy's id) and `segment`
    /// is 0-based.
    case abandonmentLimit(check: String, segment: Int, trace: String)
    /// A session stepped from outside was given an input it does not wait for now (a decision
    /// while a check waits for its answer, anything after its end); `session` names its
    /// strategy and trace.
    case unexpectedInput(session: String, given: String, awaiting: String)

    /// The one line, settings named by their keys (``Setting``).
    public var description: String { described(naming: \.rawValue) }

    /// The one line, settings named by `naming`.
    public func described(naming: (Setting) -> String) -> String { text.rendered(naming: naming) }

    /// The one line, with the settings it names kept apart.
    public var text: InputText {
        switch self {
        case .traceDeliversNoData(let trace):
            "\(trace): the trace delivers no data (zero bandwidth everywhere); no segment can be downloaded"
        case .sessionTimeLimit(let trace, let limit):
            "\(trace): the session ran past its limit of \(NumberText.readable(limit)) s of simulated time; the trace is too slow or its latency too long to finish it, or the strategy keeps abandoning or delaying requests"
        case .sessionStepLimit(let trace, let steps):
            "\(trace): the session took more than its limit of \(steps) steps (trace periods crossed, requests, progress checks, chunks); the trace's periods are too short to finish it, or the strategy keeps abandoning requests"
        case .groupStepLimit(let trace, let steps, let players):
            "\(trace): the group of \(players) players took more than its limit of \(steps) steps in all (\(LinkGroup.stepsPerPlayer(steps, players: players)) per player: trace periods crossed, requests, progress checks); the trace's periods are too short to finish it, or a strategy keeps abandoning requests"
        case .liveSessionTooLong(let segments, let seconds, let limit):
            "a live session of \(segments) segments of \(NumberText.readable(seconds)) s would run past the session limit of \(NumberText.readable(limit)) s or hold more than \(Video.maximumSizeCount) segment sizes; play less media (\(Setting.liveDurationS), \(Setting.segments))"
        case .videoTooShort(let video, let segments, let needed) where needed > segments && segments >= 1:
            "\(video): the video has \(segments) segments but the session plays \(needed); play \(segments) with \(Setting.segments) \(segments)"
        case .videoTooShort(let video, let segments, let needed):
            "\(video): the video has \(segments) segments but the session plays \(needed)"
        case .firstLevelOutOfRange(let video, let level, let levelCount):
            "\(video): the first level is \(level + 1) but the video has \(levelCount) levels (1…\(levelCount))"
        case .levelOutOfRange(let session, let segment, let level, let count):
            "\(session): chose level \(level) for segment \(segment + 1); levels are 0…\(count - 1)"
        case .strategyFailed(let failure):
            InputText(verbatim: failure.message)
        case .settingsRefused(let error):
            Self.place(of: error) + error.text
        case .abandonmentLimit(let check, let segment, let trace):
            "\(check): abandoned segment \(segment + 1) \(SessionEmulator.maxAbandonmentsPerSegment) times (the limit per segment) on \(trace)"
        case .unexpectedInput(let session, let given, let awaiting):
            "\(session): was given \(given) while it waits for \(awaiting)"
        }
    }

    /// What failed, for a caller that handles each differently (retries another trace, fixes a
    /// setting, reports a broken strategy).
    public enum Subject: String, Sendable {
        /// The strategy: it threw, or chose what the session refuses.
        case strategy
        /// The trace: it delivers no data.
        case trace
        /// The settings: out of range, or unable to play this video.
        case settings
        /// A limit of the session (time, steps): the trace is too slow for it, or the strategy
        /// keeps abandoning or delaying requests.
        case limit
    }

    /// What failed.
    public var subject: Subject {
        switch self {
        case .traceDeliversNoData: .trace
        case .sessionTimeLimit, .sessionStepLimit, .groupStepLimit: .limit
        case .liveSessionTooLong, .videoTooShort, .firstLevelOutOfRange, .settingsRefused: .settings
        case .levelOutOfRange, .strategyFailed, .abandonmentLimit, .unexpectedInput: .strategy
        }
    }

    /// A refusal of the settings (subject ``Subject/settings``) as the input error every face
    /// reports, naming the settings the video does not fit (how much media a session plays, which
    /// it is too short or too long for, or the first level, which it lacks), each as that face
    /// names it: `abrlab compare`'s flags, Python's keywords. Nil for another subject.
    public var settingsError: InputError? {
        switch self {
        case .settingsRefused(let error): error
        case .liveSessionTooLong: InputError(.settings([.liveDurationS, .segments]), text)
        case .firstLevelOutOfRange: InputError(.settings([.firstLevel]), text)
        case .videoTooShort: InputError(.settings([.segments]), text)
        case .traceDeliversNoData, .sessionTimeLimit, .sessionStepLimit, .groupStepLimit, .levelOutOfRange, .strategyFailed,
            .abandonmentLimit, .unexpectedInput:
            nil
        }
    }

    /// `file:line: `, `file: ` or `settings: ` before a refusal's message, the settings named as
    /// the caller names them: the prefix ``InputError/described(naming:)`` writes.
    private static func place(of error: InputError) -> InputText {
        switch error.subject {
        case .file(let file):
            return InputText(verbatim: InputError.place(file: file, line: error.line))
        case .settings(let settings):
            var text: InputText = ""
            for (offset, setting) in settings.enumerated() {
                text = text + (offset == 0 ? "\(setting)" : "/\(setting)")
            }
            return text + ": "
        }
    }
}
