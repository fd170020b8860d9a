import ABRLab
import ABRLabSettings
import Foundation
import Testing
import TestSupport

/// The settings table and what is made from it: docs/settings.md, Python's JSON, one range check
/// with one message per rule whichever front end gives the value.
@Suite(.tags(.compare), .selectedByTags) struct SettingTableTests {
    /// A fixed default is a value of its own kind and range, in every command that takes it:
    /// the typed accessors read it from the table and have no fallback of their own.
    @Test(arguments: Setting.allCases)
    func everyFixedDefaultIsAValueTheTableAccepts(setting: Setting) throws {
        for declaration in [setting.declaration] + setting.declaration.elsewhere.keys.sorted().map(setting.declaration.in) {
            guard let value = declaration.fixedDefault else { continue }
            try declaration.check(value, as: setting)
        }
    }

    @Test func docsSettingsIsTheTable() throws {
        let file = PackageRoot.file("docs/settings.md")
        let made = SettingTable.markdown()
        if ProcessInfo.processInfo.environment["ABRLAB_UPDATE_GOLDEN"] == "1" {
            try made.write(to: file, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == made, "docs/settings.md is not the table; rerun with ABRLAB_UPDATE_GOLDEN=1")
        for setting in Setting.allCases {
            #expect(text.contains("| `\(setting.rawValue)` |"), "docs/settings.md has no line for \(setting)")
        }
    }

    @Test func pythonsJSONListsEveryKeywordWithItsKindAndDefault() throws {
        let entries = try #require(JSONSerialization.jsonObject(with: Data(SettingTable.json().utf8)) as? [[String: Any]])
        let keywords = entries.compactMap { $0["keyword"] as? String }
        let expected = Setting.allCases.filter(\.declaration.hasPythonKeyword).map(\.pythonKeyword)
        #expect(keywords == expected)
        for required in ["catchup", "catchup_min_drift_s", "check_every_step", "replace", "warmup_kbps", "warmup_s", "params", "seed"] {
            #expect(keywords.contains(required), "Python lacks \(required)")
        }
        let multiplier = try #require(entries.first { $0["keyword"] as? String == "bandwidth_multiplier" })
        #expect(multiplier["kind"] as? String == "number")
        #expect(multiplier["default"] as? Double == 1)
    }

    /// Each rule has one message, whichever setting breaks it.
    @Test(arguments: [
        (Setting.maxBufferS, SettingValue.number(-1), "max_buffer_s: must be a positive number of seconds, at most 86400"),
        (.bandwidthMultiplier, .number(0), "bandwidth_multiplier: must be a positive number"),
        (.warmupKbps, .number(0), "warmup_kbps: must be a positive number of kbps"),
        (.warmupS, .number(.nan), "warmup_s: must be a number of seconds from 0 to 86400"),
        (.luaMemoryMb, .integer(0), "lua_memory_mb: must be from 1 to 1048576 MiB"),
        (.segments, .integer(0), "segments: must be from 1 to 10000000"),
        (.replace, .text("middle"), "replace: 'middle' is not one of none, left, right"),
        (.ladderKbps, .numbers([300, 0]), "ladder_kbps: must be a positive number of kbps, at most 1000000000"),
        (.segments, .text("ten"), "segments: takes an integer"),
    ])
    func aValueOutOfItsRangeGetsTheRulesMessage(setting: Setting, value: SettingValue, message: String) {
        let error = #expect(throws: InputError.self) { try ExperimentSettings(given: [setting: value]) }
        #expect(error?.description == message)
    }

    @Test func aSettingOfOtherMechanicsIsRefusedNamingTheProfile() throws {
        var settings = ExperimentSettings()
        settings.bandwidthMultiplier = 2
        let error = #expect(throws: InputError.self) { try settings.resolveProfile() }
        #expect(error?.description == "bandwidth_multiplier: works on profiles with a segment buffer (sabre) only, not on default")
        settings.bandwidthMultiplier = 1
        #expect(throws: Never.self) { try settings.resolveProfile() }
    }
}
