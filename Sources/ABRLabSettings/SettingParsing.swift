import ABRLab
import ABRLabResults
import Foundation

/// Settings given as text, parsed; errors name the setting (or, for a front end's own option,
/// whatever `subject` says).
public enum SettingParsing {
    /// A setting's value from the command line's text, read by its declared kind as
    /// ArgumentParser read it before; text of another kind gets the table's one kind message,
    /// as Python's value of another kind does.
    public static func value(_ text: String, for setting: Setting) throws(InputError) -> SettingValue {
        let declaration = setting.declaration
        let value: SettingValue? = switch declaration.value {
        case .number: Double(text).map(SettingValue.number)
        case .integer: Int(text).map(SettingValue.integer)
        case .seed: UInt64(text).map(SettingValue.seed)
        case .flag: Bool(text).map(SettingValue.flag)
        case .text, .path, .choice: .text(text)
        case .paths, .texts: .texts([text])
        case .numbers: numbers(text).map(SettingValue.numbers)
        }
        guard let value else {
            // A segments.csv format given to --segments is the other option's value.
            let hint: InputText = setting == .segments && SegmentsFormat(rawValue: text) != nil ? "; the format of segments.csv is \(Setting.segmentsFormat) \(text)" : ""
            throw InputError(setting: setting, InputText(verbatim: declaration.kindMessage(shown: "'\(text)'")) + hint)
        }
        return value
    }

    /// Numbers separated by commas, each a plain decimal (`300,750,1200`); nil when one is not.
    static func numbers(_ text: String) -> [Double]? {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { StrategyParamValue.decimalNumber($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else { return nil }
        return values.compactMap { $0 }
    }

    public static func traceFormat(_ text: String, setting: Setting) throws(InputError) -> TraceFormat {
        try traceFormat(text, subject: .settings([setting]))
    }

    public static func traceFormat(_ text: String, subject: InputError.Subject) throws(InputError) -> TraceFormat {
        guard let format = TraceFormat(rawValue: text) else {
            let names = TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw InputError(subject, "unknown trace format '\(text)'; choose one of \(names)")
        }
        return format
    }

    /// `ewma:H,...` (half-lives, s) or `sliding:W,...` (windows, segments).
    public static func estimator(_ text: String, setting: Setting) throws(InputError) -> ThroughputEstimator.Method {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let values = parts.count == 2 ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : []
        switch parts.first {
        case "ewma":
            let halfLives = values.compactMap(Double.init)
            guard !halfLives.isEmpty, halfLives.count == values.count, halfLives.allSatisfy({ $0.isFinite && $0 > 0 }) else {
                throw InputError(setting: setting, "'\(text)' is not ewma:H,... with half-lives in seconds > 0")
            }
            return .ewma(halfLivesSeconds: halfLives)
        case "sliding":
            let windows = values.compactMap { Int($0) }
            guard !windows.isEmpty, windows.count == values.count, windows.allSatisfy({ $0 >= 1 && $0 <= 20 }) else {
                throw InputError(setting: setting, "'\(text)' is not sliding:W,... with windows of 1 to 20 segments")
            }
            return .sliding(windowSegments: windows)
        default:
            throw InputError(setting: setting, "'\(text)' is neither ewma:H,... nor sliding:W,...")
        }
    }
}
