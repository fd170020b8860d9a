@testable import ABRLabLua
import Testing
import TestSupport

/// The static scan that finds the modules and models a text names literally, so they are read
/// and fingerprinted before any session runs.
@Suite(.tags(.lua), .selectedByTags) struct LuaReferenceScannerTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let text: String
        let expected: [LuaReference]
        var description: String { name }
    }

    @Test(arguments: [
        Case(name: "call with parentheses", text: "local h = require(\"lib.h\")", expected: [.module("lib.h")]),
        Case(name: "call with a string", text: "local h = require 'lib.h'", expected: [.module("lib.h")]),
        Case(name: "no space", text: "local h=require\"h\"", expected: [.module("h")]),
        Case(name: "long string", text: "local h = require [[lib.h]]", expected: [.module("lib.h")]),
        Case(name: "long string with level", text: "require[==[a]]b]==]", expected: [.module("a]]b")]),
        Case(name: "spaced out", text: "require (\n  'a'\n)", expected: [.module("a")]),
        Case(name: "model", text: "local net = abrlab.model(\"models/p.safetensors\")", expected: [.model("models/p.safetensors")]),
        Case(name: "model with a string", text: "local net = abrlab . model 'm.safetensors'", expected: [.model("m.safetensors")]),
        Case(name: "each once, in order", text: "require('b') require('a') require('b') abrlab.model('m')", expected: [.module("b"), .module("a"), .model("m")]),
        Case(name: "inside functions", text: "return { choose = function(ctx) return require('late').f(ctx) end }", expected: [.module("late")]),
        Case(name: "after a number and a concatenation", text: "local x = 3.5e+2 .. 'x'; require('n')", expected: [.module("n")]),
    ])
    func findsLiteralReferences(_ test: Case) {
        #expect(LuaReferenceScanner.references(in: Array(test.text.utf8)) == test.expected)
    }

    @Test(arguments: [
        Case(name: "a line comment", text: "-- require('a')\nlocal x = 1", expected: []),
        Case(name: "a long comment", text: "--[==[\nrequire('a')\n]==] local x", expected: []),
        Case(name: "inside a string", text: "local s = \"require('a')\"", expected: []),
        Case(name: "inside a long string", text: "local s = [[ abrlab.model('m') ]]", expected: []),
        Case(name: "a built name", text: "require('lib.' .. name)", expected: []),
        Case(name: "a variable", text: "require(name)", expected: []),
        Case(name: "a field called require", text: "M.require('a') M:require('b')", expected: []),
        Case(name: "a field called abrlab", text: "x.abrlab.model('m')", expected: []),
        Case(name: "another function of abrlab", text: "abrlab.other('m')", expected: []),
        Case(name: "an escape", text: "require('lib\\x2eh')", expected: []),
        Case(name: "an unfinished string", text: "require('a\nrequire('b')", expected: [.module("b")]),
        Case(name: "an unfinished long string", text: "require [[a", expected: [.module("a")]),
        Case(name: "nothing", text: "", expected: []),
    ])
    func ignoresWhatIsNotALiteralCall(_ test: Case) {
        #expect(LuaReferenceScanner.references(in: Array(test.text.utf8)) == test.expected)
    }

    @Test func stopsAtItsLimit() {
        let text = (0..<100).map { "require('m\($0)')" }.joined(separator: "\n")
        #expect(LuaReferenceScanner.references(in: Array(text.utf8), limit: 5) == (0..<5).map { .module("m\($0)") })
    }
}
