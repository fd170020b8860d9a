@testable import ABRLabC
import ABRLabCompare
import ABRLabSettings
import Foundation
import Testing
import TestSupport

/// `abrlab_settings_json` hands Python the settings table, and the options Python sends decode
/// by the same table: each keyword by its kind, each value checked once, named by its keyword.
@Suite(.tags(.capi), .selectedByTags) struct CInterfaceSettingsTests {
    @Test func theSettingsJSONIsTheTablesAndStaysPut() throws {
        let first = abrlabSettingsJSON()
        #expect(first == abrlabSettingsJSON(), "made once, for the life of the process")
        #expect(String(cString: first) == SettingTable.json())
    }

    @Test(arguments: [
        (#"{"replace": 3}"#, "replace: takes one of none, left, right"),
        (#"{"no_abandon": 1}"#, "no_abandon: takes true or false"),
        (#"{"segments": 2.5}"#, "segments: takes an integer"),
        (#"{"ladder_kbps": [300, "x"]}"#, "ladder_kbps: takes a list of numbers"),
        (#"{"bandwidth_multiplier": -1}"#, "bandwidth_multiplier: must be a positive number"),
        (#"{"param": ["a.b=1"]}"#, "unknown option 'param'"),
    ])
    func optionsDecodeByTheTable(json: String, message: String) {
        #expect(throws: EnvError.self) { try EnvOptions.parse(json) }
        do { _ = try EnvOptions.parse(json) } catch { #expect(error.message.hasPrefix(message), "\(error.message)") }
    }

    @Test func everyKindDecodes() throws {
        let options = try EnvOptions.parse(#"""
            {"profile": "sabre", "replace": "left", "no_abandon": true, "segments": 5, "ladder_kbps": [300, 750],
             "bandwidth_multiplier": 2, "seed": 18446744073709551615, "params": ["bba.reservoir_s=5"], "traces": ["a"],
             "experts": ["bba"], "strategy_id": "ppo", "video": null}
            """#)
        #expect(options.settings.replace == "left")
        #expect(options.settings.noAbandon)
        #expect(options.settings.segments == 5)
        #expect(options.settings.ladderKbps == [300, 750])
        #expect(options.settings.seed == UInt64.max)
        #expect(options.settings.params == ["bba.reservoir_s=5"])
        #expect(options.traces == ["a"])
        #expect(options.experts == ["bba"])
        #expect(options.strategy_id == "ppo")
        #expect(options.video == nil)
    }

    /// Python's `params` dict arrives typed and becomes `--param`'s assignments, in key order;
    /// the old `id.key=value` strings still do.
    @Test func paramsArriveAsTypedJSON() throws {
        let options = try EnvOptions.parse(#"{"params": {"bola.gp": 2.5, "bba.reservoir_s": 5, "x.on": true, "y.mode": "fast"}}"#)
        #expect(options.settings.params == ["bba.reservoir_s=5", "bola.gp=2.5", "x.on=true", "y.mode=fast"])
        #expect(try EnvOptions.parse(#"{"params": ["bba.reservoir_s=5"]}"#).settings.params == ["bba.reservoir_s=5"])
    }

    @Test(arguments: [
        (#"{"params": {"bba.reservoir_s": [1, 2]}}"#, "params: bba.reservoir_s takes one number, string or True/False, not [1, 2]"),
        (#"{"params": {"reservoir_s": 5}}"#, "params: keys are 'strategy_id.key', not 'reservoir_s'"),
    ])
    func aParamsValueThatIsNoOneValueIsRefused(json: String, message: String) {
        do {
            _ = try EnvOptions.parse(json)
            Issue.record("\(json) was taken")
        } catch {
            #expect(error.message == message)
            #expect(error.subject == .setting)
        }
    }
}
