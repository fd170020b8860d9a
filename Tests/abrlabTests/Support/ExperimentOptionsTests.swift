import ABRLab
@testable import abrlab
import Foundation
import Testing
import TestSupport

/// `ExperimentOptions` is made from the settings table: one option per setting that every
/// emulating command takes. The file is generated here; a table row added, removed or changed
/// leaves it stale and this test fails until `ABRLAB_UPDATE_GOLDEN=1 swift test --filter
/// ExperimentOptionsTests` writes it again. The options keep the order `--help` shows them in
/// (the file's own), and a new one goes last.
@Suite(.tags(.cli), .selectedByTags) struct ExperimentOptionsTests {
    static let source = PackageRoot.url.appendingPathComponent("Sources/abrlab/Support/ExperimentOptions.swift")

    @Test func theOptionsFileIsTheTables() throws {
        let file = try String(contentsOf: Self.source, encoding: .utf8)
        let text = ExperimentOptionsSource.render(keepingOrderOf: file)
        if ProcessInfo.processInfo.environment["ABRLAB_UPDATE_GOLDEN"] == "1" {
            try text.write(to: Self.source, atomically: true, encoding: .utf8)
            return
        }
        #expect(file == text, "Sources/abrlab/Support/ExperimentOptions.swift is not the settings table's: run ABRLAB_UPDATE_GOLDEN=1 swift test --filter ExperimentOptionsTests")
    }

    @Test func everyEmulatingCommandTakesEveryOption() {
        for setting in ExperimentOptionsSource.settings {
            for command in ExperimentOptionsSource.commands {
                #expect(SettingFlagTests.help(command).contains(setting.flag + " ") || SettingFlagTests.help(command).contains(setting.flag + "\n"), "\(command) lacks \(setting.flag)")
            }
        }
    }

    @Test(arguments: [
        (["--segment-duration-s", "2", "--no-abandon", "--param", "bola.gp=3", "--param", "bba.reservoir_s=5"],
         [Setting.segmentDurationS: SettingValue.number(2), .noAbandon: .flag(true), .param: .texts(["bola.gp=3", "bba.reservoir_s=5"])]),
        ([], [:]),
    ])
    func optionsReadByTheirKind(arguments: [String], given: [Setting: SettingValue]) throws {
        let settings = try ExperimentOptions.parse(arguments).settings()
        #expect(settings.given == given)
    }

    @Test func aValueTheTableRefusesIsRefusedNamingTheFlag() throws {
        let options = try ExperimentOptions.parse(["--segment-duration-s", "0"])
        #expect(throws: InputError.self) { try options.settings() }
        do { _ = try options.settings() } catch { #expect(error.commandLineText.contains("--segment-duration-s")) }
    }
}

/// The text of `Sources/abrlab/Support/ExperimentOptions.swift`, from the table.
enum ExperimentOptionsSource {
    /// The commands that emulate sessions and share the options.
    static let commands = ["compare", "run", "replay", "export hls"]

    /// The settings every emulating command takes, in the table's order.
    static let settings = Setting.allCases.filter { setting in
        setting.declaration.hasCommandLineFlag && commands.allSatisfy(setting.declaration.commands.contains)
    }

    /// A Swift name for a key: `segment_duration_s` → `segmentDurationS`, the `Setting` case's.
    static func propertyName(_ setting: Setting) -> String {
        let words = setting.rawValue.split(separator: "_")
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }

    enum Form { case text, flag, texts }

    static func form(_ setting: Setting) -> Form {
        switch setting.declaration.value {
        case .flag: .flag
        case .texts, .paths: .texts
        default: .text
        }
    }

    /// The settings in the order `source`, an earlier rendering, declares their options; those
    /// it lacks after them, in the table's order.
    static func ordered(keepingOrderOf source: String) -> [Setting] {
        let names = source.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("@Option(") || line.contains("@Flag("), let name = line.split(separator: " ").drop(while: { $0 != "var" }).dropFirst().first else { return nil }
            return String(name.prefix { $0 != ":" })
        }
        let byName = Dictionary(uniqueKeysWithValues: settings.map { (propertyName($0), $0) })
        let kept = names.compactMap { byName[$0] }
        return kept + settings.filter { !kept.contains($0) }
    }

    static func render(keepingOrderOf source: String) -> String {
        let settings = ordered(keepingOrderOf: source)
        var lines = [
            "// Generated from the settings table (Sources/ABRLab/Settings/Setting+Declaration.swift) by",
            "// ExperimentOptionsTests; do not edit: change the table and run",
            "// `ABRLAB_UPDATE_GOLDEN=1 swift test --filter ExperimentOptionsTests`.",
            "import ABRLab",
            "import ArgumentParser",
            "",
            "/// Options that every command that emulates sessions shares (compare, run, replay, export hls):",
            "/// each setting of the table those commands all take, with its flag, help, value name and",
            "/// default from its declaration. ``settings()`` reads them.",
            "struct ExperimentOptions: ParsableArguments {",
        ]
        for setting in settings {
            let name = propertyName(setting)
            let wrapper = "(name: .setting(.\(name)), help: .setting(.\(name)))"
            switch form(setting) {
            case .flag: lines.append("    @Flag\(wrapper) var \(name) = false")
            case .texts: lines.append("    @Option\(wrapper) var \(name): [String] = []")
            case .text: lines.append("    @Option\(wrapper) var \(name): String?")
            }
        }
        lines += ["", "    /// Each option as the command line gave it, by setting.", "    var typed: [Setting: TypedOption] {", "        ["]
        for setting in settings {
            let name = propertyName(setting)
            let form = switch form(setting) { case .flag: "flag"; case .texts: "texts"; case .text: "text" }
            lines.append("            .\(name): .\(form)(\(name)),")
        }
        lines += ["        ]", "    }", "}", ""]
        return lines.joined(separator: "\n")
    }
}
