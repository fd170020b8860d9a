/// The buffering indicator's discrete buffer states, from empty to excellent.
///
/// Thresholds on buffered seconds: empty below 0.1, critical below 3, low below 10,
/// sufficient below 20, good up to 30, excellent above 30; unknown when nothing is known yet.
public enum BufferState: String, Sendable, CaseIterable, Codable {
    case unknown, empty, critical, low, sufficient, good, excellent

    public init(bufferSeconds: Double?) {
        guard let seconds = bufferSeconds, !seconds.isNaN else {
            self = .unknown
            return
        }
        switch seconds {
        case ..<0.1: self = .empty
        case ..<3: self = .critical
        case ..<10: self = .low
        case ..<20: self = .sufficient
        case ...30: self = .good
        default: self = .excellent
        }
    }
}
