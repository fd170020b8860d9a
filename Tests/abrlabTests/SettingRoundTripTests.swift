import ABRLab
@testable import abrlab
@testable import ABRLabC
import ABRLabCompare
import ABRLabSettings
import Foundation
import Testing
import TestSupport

/// Every setting of the table, walked through its faces: the command line's flag, Python's
/// keyword (the options JSON the package sends through `abrlab_env_create`) and `run.json`'s key
/// give one value; a wrong value gets one message, the setting named as each face spells it.
@Suite(.tags(.cli, .capi), .selectedByTags) struct SettingRoundTripTests {
    static let trace = CLI.packageRoot.appendingPathComponent("Traces/3g/3g_1.csv").path
    static let video = CLI.packageRoot.appendingPathComponent("Traces/video.json").path

    /// A value in the setting's range, of its kind.
    static func sample(_ setting: Setting) -> SettingValue {
        let declaration = setting.declaration
        let number: Double = switch declaration.range {
        case .any, .positive, .nonNegative: 2.5
        case .closed(let lower, let upper): lower + (upper - lower) / 4
        case .positiveUpTo(let upper): min(2.5, upper)
        }
        switch declaration.value {
        case .number: return .number(number)
        case .integer: return .integer(Int(number.rounded(.up)))
        case .seed: return .seed(.max)
        case .flag: return .flag(true)
        case .choice(let choices): return .text(choices.last!)
        case .text, .path: return .text(setting == .param ? "bba.reservoir_s=5" : "x.lua")
        case .paths, .texts: return .texts([setting == .param ? "bba.reservoir_s=5" : "a.lua"])
        case .numbers: return .numbers([300, number])
        }
    }

    /// The value as the command line's words: its flag and the text after it.
    static func arguments(_ setting: Setting, _ value: SettingValue) -> [String] {
        switch value {
        case .flag: [setting.flag]
        case .number(let number): [setting.flag, NumberText.plain(number)]
        case .integer(let integer): [setting.flag, String(integer)]
        case .seed(let seed): [setting.flag, String(seed)]
        case .text(let text): [setting.flag, text]
        case .numbers(let numbers): [setting.flag, numbers.map(NumberText.plain).joined(separator: ",")]
        case .texts(let texts): texts.flatMap { [setting.flag, $0] }
        }
    }

    /// Settings a session reads from both faces.
    static let sessionSettings = SettingDeclaration.sessionSettings

    /// What `compare` makes of one setting's flag, before anything is resolved.
    static func commandLineValue(_ setting: Setting, _ arguments: [String]) throws -> SettingValue? {
        let compare = try #require(try Abrlab.parseAsRoot(["compare"] + arguments) as? Abrlab.Compare)
        if setting == .traces { return .texts(compare.traces) }
        return try compare.experiment.settings().given[setting]
    }

    /// What the C interface makes of one keyword, as Python sends it.
    static func pythonValue(_ setting: Setting, _ value: SettingValue) throws -> SettingValue? {
        try EnvOptions.parse("{\(SettingValue.text(setting.pythonKeyword).json): \(value.json)}").settings.given[setting]
    }

    @Test(arguments: sessionSettings)
    func everyFaceGivesOneValue(setting: Setting) throws {
        let declaration = setting.declaration
        let value = Self.sample(setting)
        var settings = ExperimentSettings()
        if declaration.hasCommandLineFlag {
            let given = try Self.commandLineValue(setting, Self.arguments(setting, value))
            #expect(given == value, "\(setting.flag) gave \(String(describing: given))")
            settings = try ExperimentSettings(given: [setting: try #require(given)])
        }
        if declaration.hasPythonKeyword {
            let given = try Self.pythonValue(setting, value)
            #expect(given == value, "\(setting.pythonKeyword) gave \(String(describing: given))")
            settings = try ExperimentSettings(given: [setting: try #require(given)])
        }
        let recorded = try #require(settings.record.first { $0.key == setting.rawValue }, "\(setting) has no run.json key")
        #expect(recorded.value == value)
    }

    /// A value each face refuses: out of the range, not one of the choices, not of the kind.
    static func wrongValues(_ setting: Setting) -> [(commandLine: String, python: String)] {
        let declaration = setting.declaration
        var wrong: [(String, String)] = []
        switch declaration.value {
        case .number, .integer:
            if declaration.range != .any { wrong.append(("-1", "-1")) }
            wrong.append(("x", #""x""#))
        case .numbers: wrong.append(("-1", "[-1]"))
        case .seed: wrong.append(("x", #""x""#))
        case .choice: wrong.append(("nope", #""nope""#))
        default: break
        }
        if [.qoe, .estimator].contains(setting) { wrong.append(("nope", #""nope""#)) }
        return wrong
    }

    /// The settings whose mechanics a profile must have, with that profile.
    static func profile(for setting: Setting) -> [Setting: String] {
        switch setting.declaration.mechanics {
        case .any: [:]
        case .live: [.profile: "live"]
        case .segmentBuffer: [.profile: "sabre"]
        }
    }

    static let bothFaces = Setting.allCases.filter {
        $0.declaration.hasCommandLineFlag && $0.declaration.hasPythonKeyword && !wrongValues($0).isEmpty
    }

    @Test(arguments: bothFaces)
    func aWrongValueReadsAlikeOnBothFaces(setting: Setting) throws {
        let context = Self.profile(for: setting)
        for (text, json) in Self.wrongValues(setting) {
            let commandLine = ["run", "--trace", Self.trace, "--video", Self.video] + context.flatMap { [$0.key.flag, $0.value] } + [setting.flag, text]
            let (status, _, stderr) = Console.capturing { Abrlab.execute(commandLine) }
            #expect(status != 0)
            let members = ["\"video\": \(SettingValue.text(Self.video).json)", "\"traces\": [\(SettingValue.text(Self.trace).json)]"]
                + context.map { "\(SettingValue.text($0.key.pythonKeyword).json): \(SettingValue.text($0.value).json)" }
                + ["\(SettingValue.text(setting.pythonKeyword).json): \(json)"]
            let python = Self.create("{" + members.joined(separator: ", ") + "}")
            #expect(python.code == EnvError.Subject.setting.code, "\(setting.pythonKeyword)=\(json): \(python.message)")
            #expect(stderr == "abrlab: " + Self.spelledByFlags(python.message) + "\n", "\(setting.flag) \(text)")
        }
    }

    /// `abrlab_env_create`'s code and message for the options.
    static func create(_ json: String) -> (code: Int32, message: String) {
        var buffer = [CChar](repeating: 0, count: 4096)
        var environment: UnsafeMutableRawPointer?
        let code = abrlabEnvCreate(json, 1, 1, &environment, &buffer, buffer.count)
        if let environment { abrlabEnvDestroy(environment) }
        return (code, String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// A Python message with each keyword it names spelt as the command line's flag.
    static func spelledByFlags(_ message: String) -> String {
        var text = message
        for setting in Setting.allCases.sorted(by: { $0.pythonKeyword.count > $1.pythonKeyword.count }) where text.hasPrefix(setting.pythonKeyword + ":") {
            text = setting.flag + text.dropFirst(setting.pythonKeyword.count)
        }
        return text
    }

    /// A shipped trace set's name (`3g`) is one set on both faces: compare's `--traces 3g` plays
    /// the traces Python's `traces=["3g"]` steps through, under the same names.
    @Test(arguments: ["3g", "4g", "default"])
    func aShippedTraceSetNameMeansOneSet(name: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results").path
        let compare = try CLI.run(["compare", "--traces", name, "--strategies", "bba-native", "--segments", "2", "--quiet", "--out", out])
        #expect(compare.status == 0, "\(compare.stderr)")
        let rows = try CLI.read(folder.appendingPathComponent("results/sessions.csv")).split(separator: "\n").dropFirst()
        let header = try CLI.read(folder.appendingPathComponent("results/sessions.csv")).split(separator: "\n")[0].split(separator: ",")
        let column = try #require(header.firstIndex(of: "trace"))
        let commandLine = rows.map { String($0.split(separator: ",", omittingEmptySubsequences: false)[column]) }
        let options = try EnvOptions.parse(#"{"video": \#(SettingValue.text(Self.video).json), "traces": ["\#(name)"]}"#)
        let python = try EnvConfiguration(options).traces.map(\.name)
        #expect(!python.isEmpty)
        #expect(commandLine == python)
    }
}
