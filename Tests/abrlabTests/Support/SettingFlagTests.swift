import ABRLab
@testable import abrlab
import ABRLabCompare
import ArgumentParser
import Foundation
import Testing
import TestSupport

/// The settings table ties the faces together: every setting the table gives a command-line
/// face is an option of each command it lists, with the table's help and default; a setting
/// for Python alone is no option; a library error prints with the options.
@Suite(.tags(.cli), .selectedByTags) struct SettingFlagTests {
    static let commands: [String: any ParsableCommand.Type] = [
        "compare": Abrlab.Compare.self, "run": Abrlab.Run.self, "replay": Abrlab.Replay.self,
        "export hls": Abrlab.ExportHLS.self, "strategies check": Abrlab.StrategiesCheck.self,
        "traces generate": Abrlab.TracesGenerate.self, "merge": Abrlab.Merge.self, "videos generate": Abrlab.VideosGenerate.self,
        "videos import": Abrlab.VideosImport.self, "traces info": Abrlab.TracesInfo.self, "traces convert": Abrlab.TracesConvert.self,
        "reproduce": Abrlab.Reproduce.self,
    ]

    /// The help with its lines joined, so a help line wrapped over several lines reads whole.
    static func help(_ command: String) -> String {
        commands[command]!.helpMessage(columns: 10_000)
    }

    @Test(arguments: Setting.allCases)
    func everySettingHasItsFacesAndNoOthers(setting: Setting) throws {
        let entry = setting.declaration
        let commandLine = entry.allCommands.filter { $0 != "python" }
        if entry.hasCommandLineFlag {
            #expect(!commandLine.isEmpty, "\(setting) has a command-line face but lists no command")
            for command in commandLine {
                let help = Self.help(command)
                let entry = entry.in(command)
                #expect(help.contains(setting.flag + " ") || help.contains(setting.flag + "\n"), "\(setting.flag) is no option of \(command)")
                #expect(help.contains(entry.help), "\(command) \(setting.flag)'s help is not the table's")
                if entry.fixedDefault != nil, !entry.isFlag {
                    #expect(help.contains("(default: \(entry.defaultText))"), "\(command) \(setting.flag) does not show the table's default")
                }
            }
        } else {
            for command in Self.commands.keys {
                let help = Self.help(command)
                #expect(!help.contains(setting.flag + " "), "\(setting.flag) is Python's alone but \(command) has it")
            }
        }
        #expect(entry.hasCommandLineFlag || entry.hasPythonKeyword)
    }

    /// Python accepts every setting of a session that compare has.
    @Test func pythonHasEverySessionSettingOfCompare() {
        let missing = Setting.allCases.filter { setting in
            let entry = setting.declaration
            return entry.commands == SettingDeclaration.sessionCommands && !entry.hasPythonKeyword && !entry.hasReason
        }
        #expect(missing.isEmpty, "\(missing)")
    }

    @Test func aLibraryErrorPrintsWithTheOptions() {
        let error = InputError(settings: [.minKbps, .maxKbps], "need 0 < min; use a longer \(Setting.stepS)")
        #expect(error.description == "min_kbps/max_kbps: need 0 < min; use a longer step_s")
        #expect(error.commandLineText == "--min-kbps/--max-kbps: need 0 < min; use a longer --step-s")
        let live = EmulationError.liveSessionTooLong(segments: 3, segmentSeconds: 1, limitSeconds: 2)
        #expect(live.commandLineText.hasSuffix("play less media (--live-duration-s, --segments)"))
        #expect(CommandFailure.text(of: live) == live.commandLineText)
    }
}
